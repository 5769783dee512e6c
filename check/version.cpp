// The version and commit (check/version.hpp): defined for this file alone (check/CMakeLists.txt), so that a new
// commit recompiles one file.
#include "check/version.hpp"

#ifndef CLREF_VERSION
#define CLREF_VERSION "unknown"
#endif
#ifndef CLREF_GIT_COMMIT
#define CLREF_GIT_COMMIT "unknown"
#endif

namespace clref::host {

const char* clrefVersion() { return CLREF_VERSION; }
const char* clrefCommit() { return CLREF_GIT_COMMIT; }

}  // namespace clref::host
