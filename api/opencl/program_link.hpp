// OpenCL 3.0 API §5.8.5 [[_separate_compilation_and_linking_of_programs]] clLinkProgram: SPIR-V modules linked with
// SPIRV-Tools' linker, which resolves Import/Export LinkageAttributes across them.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clref::cl {

// The modules linked into an executable, or into a library with `createLibrary`; none when the
// link fails, with the linker's messages in `log`.
std::optional<std::vector<uint32_t>> linkModules(std::vector<std::vector<uint32_t>> modules, bool createLibrary,
                                                 std::string& log);

}  // namespace clref::cl
