// Judging one compute-shader dispatch another Vulkan device ran (`clref amber --device`, the Vulkan check layer
// VK_LAYER_CLREF_check): the shader built on clref as the device ran it (its SPIR-V, entry point, specialization and
// push constants, the device's subgroup size, the input contents at each set and binding), the device's storage
// buffers sliced to their bound ranges, optionally made wrong (planted errors, for testing the judges), and judged
// element by element against clref's allowed sets (check.hpp).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "check/check.hpp"

namespace clref::host {

// A dispatch's shader as the device ran it, with the inputs its resources held before the dispatch.
struct ShaderDispatch {
  std::vector<uint32_t> spirv;
  std::string entryPoint = "main";
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> specConstants;  // SpecId → bytes
  std::vector<uint8_t> pushConstants;                                    // the push-constant range from offset 0
  uint32_t subgroupSize = 32;                                            // the device's
  bool raceChecks = true;  // run clref's race checker (its findings reported, not faults)
  struct Input {
    uint32_t set = 0, binding = 0;
    std::vector<uint8_t> bytes;  // the bound range's contents before the dispatch
  };
  std::vector<Input> inputs;
};

// The shader built on clref with `d`'s inputs bound as its arguments (every storage and uniform buffer it declares at
// the set and binding it declares, its push-constant block). Throws Error (or interpreter::ModuleError) with the
// reason clref cannot run it: a module it refuses, a resource with no input, a resource that is not a buffer.
struct ShaderKernel {
  std::shared_ptr<Program> program;
  std::unique_ptr<Kernel> kernel;
};
ShaderKernel shaderKernel(const ShaderDispatch& d);

// A storage buffer the device wrote: the kernel argument it is bound as, the element type it is judged in (`layout`
// when set), and the device's contents of the whole buffer, of which bytes [offset, offset + range) are bound (none:
// to the end).
struct DeviceOutput {
  size_t arg = 0;
  numerics::ScalarType type = numerics::ScalarType::UInt;
  std::optional<ElementLayout> layout;
  std::vector<uint8_t>* bytes = nullptr;
  uint64_t offset = 0;
  std::optional<uint64_t> range;
};
// Storage buffer `arg` of shader `k` judged in the types its block declares when nothing else says: the scalars of
// the element of a block that is one runtime or fixed array (`float data[]`, `S items[]`: element k's field j is
// scalar k × fields + j), else those of the block, integers as unsigned; else (a block of a header and an array,
// matrices) 32-bit unsigned integers, SPIR-V's word.
DeviceOutput shaderOutput(const ShaderKernel& k, size_t arg, std::vector<uint8_t>* bytes);

// Judges the device's outputs of a dispatch of `groups` work-groups of `kernel` (its arguments holding the inputs).
// `plantEvery` nonzero: a wrong device (host/planted_errors.hpp) — first, in each buffer the shader may write (each
// once, however many bindings show it), element i of the bound range is changed for i a multiple of it, in place.
CheckReport checkShaderDispatch(Kernel& kernel, const std::array<uint32_t, 3>& groups,
                                const std::vector<DeviceOutput>& outputs, uint64_t plantEvery = 0,
                                const CheckOptions& options = {});

}  // namespace clref::host
