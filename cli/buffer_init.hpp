// A buffer argument's "init" object (golden/README.md "Buffer init"). Internal to cli/.
#pragma once
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/case_file.hpp"

namespace clref::cli::detail {

// Checks `init` (a JSON object at `path`) for a buffer of `count` elements of `type`, and when
// `out` is not null writes the count elements there. "file" and "text" paths are resolved
// against `baseDir` and read only when writing. Throws FieldError.
void applyInit(ScalarType type, size_t count, const nlohmann::json& init, const std::string& path,
               const std::filesystem::path& baseDir, std::byte* out);

// A value {"address_of": {"set": S, "binding": B, "element": E}, "offset": K} of a "values" list (golden/README.md
// "Device addresses"): the device address of the shader's buffer at (S, B, E), plus K bytes, which only the kernel
// knows; applyInit writes 0 in its place and run_case.cpp the address. Checks it (a long or ulong element); nullopt
// when `value` is not one.
struct AddressOf {
  uint32_t set = 0, binding = 0, element = 0;
  uint64_t offset = 0;
};
std::optional<AddressOf> addressOf(ScalarType type, const nlohmann::json& value, const std::string& path);

}  // namespace clref::cli::detail
