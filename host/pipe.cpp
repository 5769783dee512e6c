// host::Pipe (host.hpp): the host's handle of an interpreter pipe (interpreter/pipe.hpp).
#include "host/host.hpp"

#include "interpreter/pipe.hpp"

namespace clref::host {

Pipe::Pipe(uint32_t packetSize, uint32_t maxPackets) {
  if (packetSize == 0 || maxPackets == 0) throw Error("a pipe needs a packet size and a number of packets above 0");
  state_ = std::make_unique<interpreter::Pipe>(packetSize, maxPackets);
}
Pipe::~Pipe() = default;
uint32_t Pipe::packetSize() const { return state_->packetSize(); }
uint32_t Pipe::maxPackets() const { return state_->maxPackets(); }
uint32_t Pipe::numPackets() const { return state_->numPackets(); }

}  // namespace clref::host
