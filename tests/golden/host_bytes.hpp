// What the golden corpus's host references (host_reference*.cpp) share: typed loads and stores at a byte offset of an
// argument's bytes (memcpy keeps them well defined at any alignment: the packed-struct kernel reads misaligned fields),
// and the error a case of the wrong shape gives.
#pragma once
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/case_file.hpp"

namespace clref::golden {

[[noreturn]] inline void shapeError(const cli::Case& c, const std::string& what) {
  throw std::runtime_error(c.file.string() + ": host reference: " + what);
}

template <class T> T loadAt(const std::vector<std::byte>& bytes, size_t byteOffset) {
  if (byteOffset + sizeof(T) > bytes.size()) throw std::out_of_range("host reference: load past the end of a buffer");
  T v;
  std::memcpy(&v, bytes.data() + byteOffset, sizeof(T));
  return v;
}

template <class T> void storeAt(std::vector<std::byte>& bytes, size_t byteOffset, T v) {
  if (byteOffset + sizeof(T) > bytes.size()) throw std::out_of_range("host reference: store past the end of a buffer");
  std::memcpy(bytes.data() + byteOffset, &v, sizeof(T));
}

}  // namespace clref::golden
