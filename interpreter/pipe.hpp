// A pipe's packets (OpenCL 3.0 API §5.4 [[_pipes]], OpenCL C 3.0 §6.15.18 [[pipe-functions]]): written and read by
// kernels only (the host has no access to a pipe's contents), kept from one kernel launch to the next.
//
// The packets in the pipe are a FIFO queue: a write appends, a read takes the oldest. A write reservation holds room
// for its packets outside the queue until it is committed, when they join the queue in index order; a read
// reservation takes its packets off the queue at once (no other reader can get them) and frees their room when it is
// committed. The room a pipe has is max_packets: packets in the queue plus packets held by reservations. A kernel that
// uses pipes runs on one thread (scheduler.cpp), its work-groups in the order of the choice pipe_work_group_order, so
// the order of packets is the same in every run.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <vector>

namespace clref::interpreter {

class Pipe {
 public:
  Pipe(uint32_t packetSize, uint32_t maxPackets) : packetSize_(packetSize), maxPackets_(maxPackets) {}
  uint32_t packetSize() const { return packetSize_; }
  uint32_t maxPackets() const { return maxPackets_; }
  // Packets readable now (get_pipe_num_packets).
  uint32_t numPackets() const;

  bool write(const uint8_t* packet);  // false when the pipe is full
  bool read(uint8_t* packet);         // false when the pipe is empty
  // Where a reservation was made: the instruction (Module index) and the work-item (a work-group's or sub-group's
  // first), for the report of one the kernel leaves uncommitted.
  struct Origin {
    uint32_t inst = UINT32_MAX;
    std::array<uint64_t, 3> globalId{}, localId{}, groupId{};
  };
  // A reservation of n packets (n > 0) for writing or reading: its id (never 0), or 0 when there is no room (write)
  // or fewer than n packets (read).
  uint64_t reserve(bool forWrite, uint32_t n, const Origin& origin);
  // The packet `index` of a live reservation of that kind; false for an unknown reservation or index ≥ its count.
  bool reservedWrite(uint64_t id, uint32_t index, const uint8_t* packet);
  bool reservedRead(uint64_t id, uint32_t index, uint8_t* packet);
  // Ends a live reservation of that kind; false when there is none with that id.
  bool commit(uint64_t id, bool forWrite);
  // Reservations not committed when a launch ends: write reservations give their room back (their packets never
  // join the queue), read reservations' packets are gone. Returns how many there were and where the oldest was made.
  struct Dropped {
    size_t count = 0;
    Origin first;
  };
  Dropped dropReservations();

 private:
  struct Reservation {
    bool forWrite = false;
    uint32_t count = 0;
    std::vector<uint8_t> packets;  // count × packetSize
    Origin origin;
  };
  uint32_t used() const;  // room taken: queued packets and reserved ones
  uint32_t packetSize_, maxPackets_;
  mutable std::mutex mutex_;
  std::deque<std::vector<uint8_t>> queue_;
  std::map<uint64_t, Reservation> reservations_;
  uint32_t reserved_ = 0;  // packets held by reservations
  uint64_t nextId_ = 1;
};

}  // namespace clref::interpreter
