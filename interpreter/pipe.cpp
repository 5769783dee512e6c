// A pipe's packets (pipe.hpp).
#include "interpreter/pipe.hpp"

#include <cstring>

namespace clref::interpreter {

uint32_t Pipe::used() const { return uint32_t(queue_.size()) + reserved_; }

uint32_t Pipe::numPackets() const {
  std::lock_guard lock(mutex_);
  return uint32_t(queue_.size());
}

bool Pipe::write(const uint8_t* packet) {
  std::lock_guard lock(mutex_);
  if (used() >= maxPackets_) return false;
  queue_.emplace_back(packet, packet + packetSize_);
  return true;
}

bool Pipe::read(uint8_t* packet) {
  std::lock_guard lock(mutex_);
  if (queue_.empty()) return false;
  std::memcpy(packet, queue_.front().data(), packetSize_);
  queue_.pop_front();
  return true;
}

uint64_t Pipe::reserve(bool forWrite, uint32_t n, const Origin& origin) {
  std::lock_guard lock(mutex_);
  if (n == 0) return 0;
  if (forWrite ? n > maxPackets_ - used() : n > queue_.size()) return 0;
  Reservation r;
  r.forWrite = forWrite;
  r.count = n;
  r.origin = origin;
  r.packets.assign(size_t(n) * packetSize_, 0);
  if (!forWrite)
    for (uint32_t i = 0; i < n; ++i) {
      std::memcpy(r.packets.data() + size_t(i) * packetSize_, queue_.front().data(), packetSize_);
      queue_.pop_front();
    }
  reserved_ += n;
  const uint64_t id = nextId_++;
  reservations_.emplace(id, std::move(r));
  return id;
}

bool Pipe::reservedWrite(uint64_t id, uint32_t index, const uint8_t* packet) {
  std::lock_guard lock(mutex_);
  auto it = reservations_.find(id);
  if (it == reservations_.end() || !it->second.forWrite || index >= it->second.count) return false;
  std::memcpy(it->second.packets.data() + size_t(index) * packetSize_, packet, packetSize_);
  return true;
}

bool Pipe::reservedRead(uint64_t id, uint32_t index, uint8_t* packet) {
  std::lock_guard lock(mutex_);
  auto it = reservations_.find(id);
  if (it == reservations_.end() || it->second.forWrite || index >= it->second.count) return false;
  std::memcpy(packet, it->second.packets.data() + size_t(index) * packetSize_, packetSize_);
  return true;
}

bool Pipe::commit(uint64_t id, bool forWrite) {
  std::lock_guard lock(mutex_);
  auto it = reservations_.find(id);
  if (it == reservations_.end() || it->second.forWrite != forWrite) return false;
  const Reservation& r = it->second;
  reserved_ -= r.count;
  if (forWrite)
    for (uint32_t i = 0; i < r.count; ++i)
      queue_.emplace_back(r.packets.begin() + ptrdiff_t(size_t(i) * packetSize_),
                          r.packets.begin() + ptrdiff_t(size_t(i + 1) * packetSize_));
  reservations_.erase(it);
  return true;
}

Pipe::Dropped Pipe::dropReservations() {
  std::lock_guard lock(mutex_);
  Dropped d;
  d.count = reservations_.size();
  if (d.count) d.first = reservations_.begin()->second.origin;  // ids grow: the first is the oldest
  reservations_.clear();
  reserved_ = 0;
  return d;
}

}  // namespace clref::interpreter
