// The version of clref and the git commit it was built from: `clref --version` and the header of every report.
#pragma once

namespace clref::host {

// The project version (CMake's PROJECT_VERSION), e.g. "0.1.0".
const char* clrefVersion();
// `git describe --always --tags` of the source tree when the build was configured; "unknown" for a tree without git
// history (a source tarball).
const char* clrefCommit();

}  // namespace clref::host
