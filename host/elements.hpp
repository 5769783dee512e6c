// The elements of a kernel's buffer arguments as scalars: their type from the parameter's OpenCL C type name or the
// struct layout the module declares, and which parameters the kernel may write through. What judging a buffer
// (check/check.hpp) and planting errors in one (DeviceConfig::plantErrors) walk over.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "host/host.hpp"
#include "numerics/scalar_type.hpp"

namespace clref::host {

// A buffer's elements are scalars of a numerics::ScalarType other than bool (vector types are judged lane by lane).
// From a kernel parameter's type name ("global float4*", "__global const uint *"): the scalar of its pointee, if any.
std::optional<numerics::ScalarType> elementTypeOf(const std::string& typeName);
// Whether the kernel may write through a buffer parameter: not marked NoWrite, not a pointer to const, not constant.
bool mayWriteThrough(const KernelArgInfo& info);

// The scalars of one element of a buffer of structs (or arrays): byte offset and type, and the element's size.
struct ElementLayout {
  std::vector<std::pair<uint32_t, numerics::ScalarType>> fields;
  uint64_t stride = 0;
};
// The layout of a buffer parameter's elements when its pointee is a struct or an array of scalars clref knows
// (KernelArgInfo::pointeeFields; integers judged as unsigned), else none.
std::optional<ElementLayout> layoutOf(const KernelArgInfo& info);
// Every scalar of a buffer of `bytes` bytes holding elements of `layout` (or scalars of `type` without one) that
// meets the byte range [lo, hi), in order: fn(index, byte offset, type), the index counting the buffer's scalars.
void forEachScalar(const std::optional<ElementLayout>& layout, numerics::ScalarType type, uint64_t bytes,
                   const std::function<void(uint64_t, uint64_t, numerics::ScalarType)>& fn, uint64_t lo = 0,
                   uint64_t hi = UINT64_MAX);

}  // namespace clref::host
