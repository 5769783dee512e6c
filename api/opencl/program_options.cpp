// OpenCL 3.0 API §5.8.6 [[compiler-options]] build options (see program_options.hpp).
#include "api/opencl/program_options.hpp"

#include <cctype>

#include "api/opencl/device_info.hpp"

namespace clref::cl {
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

bool parseOptions(const char* text, OptionsFor step, Options& o) {
  const auto t = tokenize(text);
  for (size_t i = 0; i < t.size(); ++i) {
    const std::string& a = t[i];
    // OpenCL 3.0 API §5.8.7 [[linker-options]] linker options: also accepted by clBuildProgram (build = compile +
    // link).
    if (a == "-create-library" && step == OptionsFor::Link) {
      o.createLibrary = true;
      continue;
    }
    if (a == "-enable-link-options" && step == OptionsFor::Link) continue;
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
    if (step == OptionsFor::Link) return false;
    // OpenCL 3.0 API §5.8.6.1 [[preprocessor-options]] preprocessor options
    if (a == "-D" || a == "-I") {
      if (i + 1 >= t.size()) return false;
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
      if (v != "CL1.0" && v != "CL1.1" && v != "CL1.2" && v != "CL3.0") return false;
      o.clStd20 = v == "CL3.0";
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
      o.compiler.push_back(a);
      continue;
    }
    return false;
  }
  return true;
}

host::Device deviceFor(const Options& o) {
  host::DeviceConfig cfg = theDevice()->device.config();
  // OpenCL 3.0 API §5.8.6.2 [[math-intrinsics-options]] -cl-denorms-are-zero: denormals "may be flushed"; the choice
  // denorms_are_zero says which (by default the float ones, so the option has its observable meaning).
  using clref::numerics::Choice, clref::numerics::DenormsAreZeroOption, clref::numerics::Denorm;
  const auto flush = cfg.choices.get<Choice::DenormsAreZero>();
  if (o.denormsAreZero && flush != DenormsAreZeroOption::Ignore) cfg.denormFloat = Denorm::Flush;
  if (o.denormsAreZero && flush == DenormsAreZeroOption::FlushFloatAndDouble) cfg.denormDouble = Denorm::Flush;
  return host::Device(cfg);
}

}  // namespace clref::cl
