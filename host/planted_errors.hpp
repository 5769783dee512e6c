// DeviceConfig::plantErrors: a wrong device, for testing the tools that judge devices (the check layer, `clref check`).
#pragma once
#include <cstdint>

#include "host/elements.hpp"
#include "host/host.hpp"

namespace clref::host {

// After a run: element i of every buffer argument the kernel may write (a global pointer to non-const; a buffer of
// structs counts their scalars, host::layoutOf), for i a multiple of `every`, changed so that no allowed set of a
// computed value contains it: a floating-point element has the top bit of its significand flipped (a relative change
// of at least a quarter; a NaN stays a NaN, an infinity becomes one; a zero or a denormal becomes 1), any other
// element is incremented. Images the
// kernel may write likewise (planted_errors.cpp plantImageErrors).
void plantErrors(Kernel& kernel, uint64_t every);

// The same change in `size` bytes of scalars (of `layout`, or of `type` without one): what another device returned,
// made wrong (`clref amber --device --plant-errors`).
void plantScalarErrors(uint8_t* bytes, uint64_t size, const std::optional<ElementLayout>& layout,
                       numerics::ScalarType type, uint64_t every);

}  // namespace clref::host
