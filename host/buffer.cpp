// host::Buffer (host.hpp): owned memory, views of other memory and sub-buffers, and the record of the bytes nothing
// has written yet (the uninitialised-value checker's).
#include "host/host.hpp"

#include <algorithm>
#include <cstring>

namespace clref::host {

Buffer::Buffer(size_t bytes) : data_(bytes), base_(data_.data()), size_(bytes) {}
Buffer::Buffer(const void* data, size_t bytes) : data_(bytes), base_(data_.data()), size_(bytes) {
  if (bytes) std::memcpy(data_.data(), data, bytes);
}
std::shared_ptr<Buffer> Buffer::view(std::byte* base, size_t bytes, std::shared_ptr<const void> owner) {
  std::shared_ptr<Buffer> b(new Buffer());
  b->base_ = base;
  b->size_ = bytes;
  b->owner_ = std::move(owner);
  return b;
}
std::shared_ptr<Buffer> Buffer::subBuffer(std::shared_ptr<Buffer> parent, size_t offset, size_t bytes) {
  if (!parent || offset > parent->size() || bytes > parent->size() - offset)
    throw Error("sub-buffer [" + std::to_string(offset) + ", +" + std::to_string(bytes) + ") is outside its parent");
  std::byte* base = parent->data() + offset;
  auto record = parent->neverWritten_;
  const size_t recordOffset = parent->neverWrittenOffset_ + offset;
  auto b = view(base, bytes, std::move(parent));
  b->neverWritten_ = std::move(record);
  b->neverWrittenOffset_ = recordOffset;
  return b;
}

void Buffer::markUninitialised() {
  if (!neverWritten_) neverWritten_ = std::make_shared<std::vector<uint8_t>>(size_, 1);
}

void Buffer::markWritten(size_t offset, size_t bytes) {
  if (!neverWritten_ || offset >= size_) return;
  bytes = std::min(bytes, size_ - offset);
  std::memset(neverWritten_->data() + neverWrittenOffset_ + offset, 0, bytes);
}

}  // namespace clref::host
