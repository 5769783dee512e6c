// OpenCL 3.0 API §5.8.6 [[compiler-options]] build options: the one parser of the OpenCL API (clBuildProgram,
// clCompileProgram, clLinkProgram) and of the clref tool's case files (see host.hpp).
#include <algorithm>
#include <cctype>

#include "host/host.hpp"

namespace clref::host {
namespace {

// The options as words: white space separates them except inside double quotes, which are removed.
std::vector<std::string> tokenize(const char* s) {
  std::vector<std::string> out;
  if (!s) return out;
  std::string cur;
  bool inQuote = false, any = false;
  for (const char* p = s; *p; ++p) {
    if (*p == '"') {
      inQuote = !inQuote;
      any = true;
    } else if (!inQuote && std::isspace(static_cast<unsigned char>(*p))) {
      if (any) out.push_back(cur);
      cur.clear();
      any = false;
    } else {
      cur += *p;
      any = true;
    }
  }
  if (any) out.push_back(cur);
  return out;
}

}  // namespace

bool parseBuildOptions(const char* text, BuildStep step, BuildOptions& o,
                       std::initializer_list<std::string_view> alsoAccept) {
  const auto t = tokenize(text);
  for (size_t i = 0; i < t.size(); ++i) {
    const std::string& a = t[i];
    o.rejected = a;
    if (std::find(alsoAccept.begin(), alsoAccept.end(), a) != alsoAccept.end()) {
      o.compiler.push_back(a);
      continue;
    }
    // OpenCL 3.0 API §5.8.7 [[linker-options]] linker options: also accepted by clBuildProgram (build = compile +
    // link).
    if (a == "-create-library" && step == BuildStep::Link) {
      o.createLibrary = true;
      continue;
    }
    if (a == "-enable-link-options" && step == BuildStep::Link) continue;
    if (a == "-cl-denorms-are-zero") {
      o.denormsAreZero = true;
      o.compiler.push_back(a);
      continue;
    }
    if (a == "-cl-no-signed-zeros" || a == "-cl-unsafe-math-optimizations" || a == "-cl-finite-math-only" ||
        a == "-cl-fast-relaxed-math") {
      // OpenCL 3.0 API §5.8.6.2 [[math-intrinsics-options]] math options: they allow less exactness; clref's exact
      // results remain allowed.
      o.compiler.push_back(a);
      continue;
    }
    // OpenCL 3.0 API §5.8.6.3 [[optimization-options]] sub-groups are not supported: nothing to relax
    if (a == "-cl-no-subgroup-ifp") continue;
    if (step == BuildStep::Link) return false;
    // OpenCL 3.0 API §5.8.6.1 [[preprocessor-options]] preprocessor options
    if (a == "-D" || a == "-I") {
      if (i + 1 >= t.size()) return false;  // rejected: the option without its argument
      o.compiler.push_back(a);
      o.compiler.push_back(t[++i]);
      continue;
    }
    if (a.rfind("-D", 0) == 0 || a.rfind("-I", 0) == 0) {
      o.compiler.push_back(a);
      continue;
    }
    // OpenCL 3.0 API §5.8.6.5 [[opencl-c-version]] -cl-std: the OpenCL C versions the device reports.
    if (a.rfind("-cl-std=", 0) == 0) {
      const std::string v = a.substr(8);
      if (v != "CL1.0" && v != "CL1.1" && v != "CL1.2" && v != "CL2.0" && v != "CL3.0") return false;
      o.clStd20 = v == "CL2.0" || v == "CL3.0";
      o.compiler.push_back(a);
      continue;
    }
    if (a == "-cl-uniform-work-group-size") {
      o.uniform = true;
      o.compiler.push_back(a);
      continue;
    }
    if (a == "-cl-kernel-arg-info") {
      o.argInfo = true;
      o.compiler.push_back(a);
      continue;
    }
    if (a == "-cl-single-precision-constant" || a == "-cl-fp32-correctly-rounded-divide-sqrt" ||
        a == "-cl-opt-disable" || a == "-cl-mad-enable" || a == "-w" || a == "-Werror" || a == "-g") {
      o.debug = o.debug || a == "-g";
      o.compiler.push_back(a);
      continue;
    }
    return false;
  }
  o.rejected.clear();
  return true;
}

}  // namespace clref::host
