// The specification folder for the tests that read the specification text (the ctest label
// `spec`; see tests/CMakeLists.txt, clref_spec_test). Configured with -DCLREF_SPEC_DIR=<folder>;
// the environment variable CLREF_SPEC_DIR, when set, overrides it.
#pragma once

#include <filesystem>

namespace clref_test {

// ctest reports a test that exits with this status as skipped (SKIP_RETURN_CODE).
inline constexpr int kSkipReturnCode = 77;

// The specification folder. Without one (empty, or not a folder) prints the reason and ends the
// process with kSkipReturnCode: the test is skipped, not failed.
const std::filesystem::path& specDir();

}  // namespace clref_test
