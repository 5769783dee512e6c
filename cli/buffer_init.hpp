// A buffer argument's "init" object (golden/README.md "Buffer init"). Internal to cli/.
#pragma once
#include <cstddef>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/case_file.hpp"

namespace clref::cli::detail {

// Checks `init` (a JSON object at `path`) for a buffer of `count` elements of `type`, and when
// `out` is not null writes the count elements there. "file" and "text" paths are resolved
// against `baseDir` and read only when writing. Throws FieldError.
void applyInit(ScalarType type, size_t count, const nlohmann::json& init, const std::string& path,
               const std::filesystem::path& baseDir, std::byte* out);

}  // namespace clref::cli::detail
