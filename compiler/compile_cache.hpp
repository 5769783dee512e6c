// The OpenCL C compiler's cache (opencl_c.cpp): what a compilation produced, by everything that decides it — the
// source, its options and headers, the target, the kind of output, and the identity of clang, llvm-spirv and the
// clref code that drove them (path, size and modification time of each, so that a rebuilt clref or an upgraded
// compiler never meets an old entry). A compilation that fails is never kept.
//
// Two levels: in the process (a program built again, as conformance suites and applications do in loops), and on
// disk, shared by processes (the ICD, the check layer and the CLI build the same programs run after run):
// $CLREF_COMPILE_CACHE when it names a directory, else $XDG_CACHE_HOME/clref, else $HOME/.cache/clref;
// CLREF_COMPILE_CACHE=0 turns both off. An entry file holds its whole key, compared on reading (a hash names the
// file, and a collision or a damaged file reads as a miss); files are written under a temporary name and renamed, so
// processes sharing the directory never read half an entry. Internal to the compiler.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace clref::compiler::cache {

// The key part that names this process's compiler: the tools and the clref code, by path, size and time.
std::string toolIdentity(const std::vector<std::string>& toolPaths);

// The bytes stored for `key`, or nullopt.
std::optional<std::string> find(const std::string& key);
// Keeps `value` for `key` (in the process, and on disk when a directory is usable; a write that fails is skipped).
void store(const std::string& key, const std::string& value);

// The directory entries go to, or "" when the disk cache is off or no directory can be found.
std::string directory();
// Forgets the entries kept in the process (tests: the next find reads the disk).
void clearMemory();

}  // namespace clref::compiler::cache
