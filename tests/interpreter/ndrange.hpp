// One-dimensional NDRanges for the interpreter tests.
#pragma once
#include <array>
#include <cstddef>

#include "host/host.hpp"

namespace clref::test {

// `global` work-items along dimension 0 in work-groups of `local`.
inline host::NDRange range1(size_t global, size_t local) {
  host::NDRange r;
  r.dims = 1;
  r.global = {global, 1, 1};
  r.local = std::array<size_t, 3>{local, 1, 1};
  return r;
}

}  // namespace clref::test
