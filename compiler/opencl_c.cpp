// The one OpenCL C compiler driver: OpenCL C → LLVM bitcode (clang) → SPIR-V (llvm-spirv), for
// Program::fromOpenCLC and the OpenCL API's clBuildProgram / clCompileProgram (through it), and
// OpenCL C → LLVM IR text for the kernel argument metadata (openCLCToLLVMText).
//
// The tools run without a shell (posix_spawn with an argument vector): build options reach clang
// as the arguments they are, with no quoting and no shell to inject commands into. Their standard
// output and error together are the build log.
//
// Which tools: for each of clang and llvm-spirv, in this order
//   1. the environment variable CLREF_CLANG / CLREF_LLVM_SPIRV when set and not empty (a path, or
//      a name looked up on PATH); when it names nothing runnable the compiler is not available,
//   2. the program the build found (CMake's find_program results CLREF_CLANG / CLREF_LLVM_SPIRV,
//      compiled in as CLREF_DEFAULT_CLANG / CLREF_DEFAULT_LLVM_SPIRV) when it still exists,
//   3. clang-15 / llvm-spirv-15 on PATH.
// All of it is decided at each call, as the environment is then.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include "compiler/compile_cache.hpp"
#include "compiler/debug_expressions.hpp"
#include "compiler/freeze_removal.hpp"
#include "compiler/opencl_c.hpp"
#include "compiler/opencl_c_prelude.hpp"
#include "compiler/variable_promotion.hpp"

#ifndef CLREF_DEFAULT_CLANG
#define CLREF_DEFAULT_CLANG ""
#endif
#ifndef CLREF_DEFAULT_LLVM_SPIRV
#define CLREF_DEFAULT_LLVM_SPIRV ""
#endif

extern char** environ;

namespace clref::compiler {
namespace {

namespace fs = std::filesystem;

// Runs the program at argv[0] (a path) with argv, standard input empty, standard output and
// error captured together into `output`; returns its exit status, -1 when it did not exit
// normally or could not be started (the reason is appended to `output`).
int runProgram(const std::vector<std::string>& argv, std::string& output) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    output += "cannot create a pipe: " + std::string(std::strerror(errno)) + "\n";
    return -1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);  // dup2 clears close-on-exec
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (spawned != 0) {
    close(fds[0]);
    output += "cannot run " + argv[0] + ": " + std::strerror(spawned) + "\n";
    return -1;
  }
  std::array<char, 4096> buf;
  for (;;) {
    const ssize_t n = read(fds[0], buf.data(), buf.size());
    if (n > 0)
      output.append(buf.data(), size_t(n));
    else if (n == 0 || errno != EINTR)
      break;
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool isExecutableFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// The program `spec` names: itself when it contains a '/', else the first executable of that
// name in PATH's directories. Empty when there is none.
std::string resolveProgram(const std::string& spec) {
  if (spec.empty()) return "";
  if (spec.find('/') != std::string::npos) return isExecutableFile(spec) ? spec : "";
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + spec;
    if (isExecutableFile(candidate)) return candidate;
  }
  return "";
}

// One tool as the environment chooses it now (see the top of the file).
std::string chooseTool(const char* variable, const char* configured, const char* name) {
  if (const char* v = std::getenv(variable); v && *v) return resolveProgram(v);
  if (std::string found = resolveProgram(configured); !found.empty()) return found;
  return resolveProgram(name);
}

struct Tools {
  std::string clang, llvmSpirv;
};

// The compiler's tools when both run (`--version` succeeds); checked once per pair of paths
// (running them costs tens of milliseconds).
// The tools the environment chooses, not yet run (empty paths where there is none).
Tools chosenTools() {
  return {chooseTool("CLREF_CLANG", CLREF_DEFAULT_CLANG, "clang-15"),
          chooseTool("CLREF_LLVM_SPIRV", CLREF_DEFAULT_LLVM_SPIRV, "llvm-spirv-15")};
}
std::optional<Tools> compilerTools() {
  Tools t = chosenTools();
  if (t.clang.empty() || t.llvmSpirv.empty()) return std::nullopt;
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::string>, bool> runs;
  std::lock_guard lock(mutex);
  auto [it, fresh] = runs.emplace(std::pair{t.clang, t.llvmSpirv}, false);
  if (fresh) {
    std::string out;
    it->second = runProgram({t.clang, "--version"}, out) == 0 && runProgram({t.llvmSpirv, "--version"}, out) == 0;
  }
  if (!it->second) return std::nullopt;
  return t;
}

Tools requireCompilerTools() {
  auto t = compilerTools();
  if (!t)
    throw Error(
        "compiling OpenCL C needs clang-15 and llvm-spirv-15: on PATH, where the build found them, or named by "
        "CLREF_CLANG and CLREF_LLVM_SPIRV (scripts/install-deps.sh installs them)");
  return *t;
}

// A temporary directory, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/clref-build-XXXXXX";
    if (!mkdtemp(tmpl)) throw Error("cannot create a temporary directory");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The macros clang-15's opencl-c-base.h defines for spir targets whatever -cl-ext says.
const char* const kClangHeaderOnlyMacros[] = {"__opencl_c_atomic_order_acq_rel",
                                              "__opencl_c_atomic_order_seq_cst",
                                              "__opencl_c_atomic_scope_all_devices",
                                              "__opencl_c_atomic_scope_device",
                                              "__opencl_c_device_enqueue",
                                              "__opencl_c_ext_fp16_global_atomic_add",
                                              "__opencl_c_ext_fp16_global_atomic_load_store",
                                              "__opencl_c_ext_fp16_global_atomic_min_max",
                                              "__opencl_c_ext_fp16_local_atomic_add",
                                              "__opencl_c_ext_fp16_local_atomic_load_store",
                                              "__opencl_c_ext_fp16_local_atomic_min_max",
                                              "__opencl_c_ext_fp32_global_atomic_add",
                                              "__opencl_c_ext_fp32_global_atomic_min_max",
                                              "__opencl_c_ext_fp32_local_atomic_add",
                                              "__opencl_c_ext_fp32_local_atomic_min_max",
                                              "__opencl_c_ext_fp64_global_atomic_add",
                                              "__opencl_c_ext_fp64_global_atomic_min_max",
                                              "__opencl_c_ext_fp64_local_atomic_add",
                                              "__opencl_c_ext_fp64_local_atomic_min_max",
                                              "__opencl_c_generic_address_space",
                                              "__opencl_c_images",
                                              "__opencl_c_integer_dot_product_input_4x8bit",
                                              "__opencl_c_integer_dot_product_input_4x8bit_packed",
                                              "__opencl_c_pipes",
                                              "__opencl_c_program_scope_global_variables",
                                              "__opencl_c_read_write_images",
                                              "__opencl_c_work_group_collective_functions",
                                              "cl_ext_float_atomics",
                                              "cl_khr_extended_bit_ops",
                                              "cl_khr_integer_dot_product",
                                              "cl_khr_subgroup_ballot",
                                              "cl_khr_subgroup_clustered_reduce",
                                              "cl_khr_subgroup_extended_types",
                                              "cl_khr_subgroup_non_uniform_arithmetic",
                                              "cl_khr_subgroup_non_uniform_vote",
                                              "cl_khr_subgroup_rotate",
                                              "cl_khr_subgroup_shuffle",
                                              "cl_khr_subgroup_shuffle_relative"};

// The macros of extensions (and their features) that need only OpenCL 1.0 but that clang-15 defines for OpenCL C 2.0
// and newer.
const char* const kOpenCL10ExtensionMacros[] = {"cl_khr_extended_bit_ops", "cl_khr_integer_dot_product",
                                                "__opencl_c_integer_dot_product_input_4x8bit",
                                                "__opencl_c_integer_dot_product_input_4x8bit_packed"};

// The clang command line for `source` on this device, up to the output (-o): the source, the
// headers and the feature prelude are written to `dir`. `mode` selects the output (-c for
// bitcode, -S for IR text) and optimisation, before the options so that they can override it;
// `last` comes after them.
std::vector<std::string> clangCommand(const std::string& clang, const Target& target, const OpenCLCSource& source,
                                      const fs::path& dir, std::initializer_list<const char*> mode,
                                      std::initializer_list<const char*> last = {}) {
  const auto cl = dir / "kernel.cl";
  { std::ofstream(cl) << source.text; }
  std::vector<std::string> argv{clang,       "-x", "cl", "-target", target.addressBits == 32 ? "spir" : "spir64",
                                "-emit-llvm"};
  argv.insert(argv.end(), mode.begin(), mode.end());
  bool haveStd = false, before20 = true;
  for (const auto& o : source.options) {
    if (o.rfind("-cl-std=", 0) == 0) {
      haveStd = true;
      before20 = o != "-cl-std=CL2.0" && o != "-cl-std=CL3.0";
    }
    argv.push_back(o);
  }
  if (!source.headers.empty()) {
    const auto include = dir / "include";
    for (const auto& [name, text] : source.headers) {
      fs::create_directories((include / name).parent_path());
      std::ofstream(include / name) << text;
    }
    argv.insert(argv.end(), {"-I", include.string()});
  }
  // OpenCL 3.0 API §5.8.6.4 [[_options_to_request_or_suppress_warnings]]: without -cl-std the highest OpenCL C 1.x
  // version.
  if (!haveStd) argv.push_back("-cl-std=CL1.2");
  // OpenCL C 3.0 §6.2.1 [[features]]: the compiler defines the macro of an extension or optional feature
  // only when the device supports it. clang-15 enables them all for spir targets: -cl-ext
  // narrows its options to the device's, and a prelude undefines the macros its
  // opencl-c-base.h defines unconditionally for spir (the header-only features).
  std::string ext = "-cl-ext=-all";
  std::set<std::string> supported;
  for (const auto& names : {target.extensions, target.features})
    for (const auto& n : names) {
      ext += ",+" + n;
      supported.insert(n);
    }
  const auto prelude = dir / "clref_device_features.h";
  {
    std::ofstream out(prelude);
    out << "// Feature and extension macros clang-15 defines but this device does not support, and the image constants\n"
           "// it lacks.\n";
    for (const char* m : kClangHeaderOnlyMacros)
      if (!supported.count(m)) out << "#undef " << m << "\n";
    // OpenCL C 3.0 §6.15.15.5 [[built-in-image-query-functions]]: get_image_channel_data_type may return
    // CLK_UNORM_INT_101010_2 for OpenCL C 3.0 or newer; clang-15's opencl-c-base.h lacks it (it has every other CLK_
    // channel order and type the spec lists). Its value is cl.xml's CL_UNORM_INT_101010_2, as each CLK_ value is its
    // CL_ namesake's.
    out << openCLCPrelude(supported);
    // OpenCL C 3.0 §6.12 [[preprocessor-directives-and-macros]]: __OPENCL_VERSION__ must be defined; for a device
    // above OpenCL 2.0 any value above 200 (clref, an OpenCL 3.0 device: 300). clang-15 leaves it undefined for spir
    // targets (the conformance suite's kernel_preprocessor_macros reads it).
    out << "#ifndef __OPENCL_VERSION__\n"
           "#define __OPENCL_VERSION__ 300\n"
           "#endif\n";
    out << "#if __OPENCL_C_VERSION__ >= 300 && !defined(CLK_UNORM_INT_101010_2)\n"
           "#define CLK_UNORM_INT_101010_2 0x10E0\n"
           "#endif\n";
  }
  argv.insert(argv.end(), {"-Xclang", ext, "-include", prelude.string()});
  // cl_khr_extended_bit_ops and cl_khr_integer_dot_product require only OpenCL 1.0 (OpenCL Extension Specification
  // 3.0.12 §40 "Extended Bit Operations", §42 "Integer dot product"), but clang-15's opencl-c-base.h defines their
  // macros, and so opencl-c.h declares their built-ins, for OpenCL C 2.0 or newer only. Defined on the command line,
  // before the default header, they give OpenCL C 1.x kernels the built-ins too.
  if (before20)
    for (const char* m : kOpenCL10ExtensionMacros)
      if (supported.count(m)) argv.push_back(std::string("-D") + m + "=1");
  // Keep the kernel argument names (OpName, kernel_arg_name): diagnostics and argument info use them.
  argv.push_back("-cl-kernel-arg-info");
  argv.insert(argv.end(), last.begin(), last.end());
  argv.push_back(cl.string());
  return argv;
}

// The compiler's messages with the temporary files named as the program's sources are (SourceName::displayName; a
// program from a string is "<program source>").
std::string withDisplayNames(std::string log, const std::vector<SourceName>& names) {
  for (const auto& n : names) {
    const std::string shown = n.displayName.empty() ? "<program source>" : n.displayName;
    for (size_t at = log.find(n.fileInModule); at != std::string::npos; at = log.find(n.fileInModule, at + shown.size()))
      log.replace(at, n.fileInModule.size(), shown);
  }
  return log;
}

// The words of the module llvm-spirv wrote.
std::vector<uint32_t> readWords(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // istreambuf_iterator reads the buffer and never sets the stream's eofbit: only a failed open shows in `in`.
  if (!in || bytes.empty() || bytes.size() % 4 != 0)
    throw Error("llvm-spirv wrote no whole SPIR-V module to " + file.string());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

// ---- The cache (compile_cache.hpp) ----

// The cache key of a compilation of `kind`: everything that decides its output, each part with its length. None
// where the output may depend on files the key does not hold: options that name include directories, files to
// include, response files or tool paths.
std::optional<std::string> cacheKey(const char* kind, const Tools& tools, const Target& target,
                                    const OpenCLCSource& source) {
  for (const auto& o : source.options)
    if (o.starts_with("-I") || o.starts_with("-i") || o.starts_with("-F") || o.starts_with("-B") ||
        o.starts_with("--") || o.starts_with("@") || o == "-Xclang" || o == "-mllvm")
      return std::nullopt;
  std::string key = std::string(kind) + "\n" + cache::toolIdentity({tools.clang, tools.llvmSpirv}) + "\n";
  auto add = [&](const std::string& part) { key += std::to_string(part.size()) + ":" + part + "\n"; };
  add(std::to_string(target.addressBits) + (target.forUninitializedChecker ? " uninitialized" : ""));
  add("extensions " + std::to_string(target.extensions.size()));
  for (const auto& e : target.extensions) add(e);
  add("features " + std::to_string(target.features.size()));
  for (const auto& f : target.features) add(f);
  add("options " + std::to_string(source.options.size()));
  for (const auto& o : source.options) add(o);
  add("headers " + std::to_string(source.headers.size()));
  for (const auto& [name, text] : source.headers) add(name), add(text);
  add(source.name);
  add(source.text);
  return key;
}

void putString(std::string& out, const std::string& s) {
  const uint64_t n = s.size();
  out.append(reinterpret_cast<const char*>(&n), 8);
  out += s;
}
bool getString(const std::string& in, size_t& at, std::string& s) {
  uint64_t n;
  if (in.size() - at < 8) return false;
  std::memcpy(&n, in.data() + at, 8);
  at += 8;
  if (n > in.size() - at) return false;
  s = in.substr(at, n);
  at += n;
  return true;
}
// A compiled program as the cache keeps it: the words, then each source name's three strings.
std::string serialized(const Compiled& c) {
  std::string out;
  putString(out, std::string(reinterpret_cast<const char*>(c.words.data()), c.words.size() * 4));
  for (const auto& n : c.sourceNames) {
    putString(out, n.fileInModule);
    putString(out, n.displayName);
    putString(out, n.text);
  }
  return out;
}
std::optional<Compiled> deserialized(const std::string& in) {
  Compiled c;
  size_t at = 0;
  std::string words;
  if (!getString(in, at, words) || words.size() % 4) return std::nullopt;
  c.words.resize(words.size() / 4);
  std::memcpy(c.words.data(), words.data(), words.size());
  while (at < in.size()) {
    SourceName n;
    if (!getString(in, at, n.fileInModule) || !getString(in, at, n.displayName) || !getString(in, at, n.text))
      return std::nullopt;
    c.sourceNames.push_back(std::move(n));
  }
  return c;
}

Compiled compileUncached(const Tools& tools, const Target& target, const OpenCLCSource& source);

}  // namespace

bool openCLCCompilerAvailable() { return compilerTools().has_value(); }

Compiled compileOpenCLC(const Target& target, const OpenCLCSource& source) {
  // A hit needs no tool run: its key names the tools that made it, which ran then.
  const auto key = cacheKey("spirv", chosenTools(), target, source);
  if (key)
    if (const auto hit = cache::find(*key))
      if (auto c = deserialized(*hit)) return std::move(*c);
  Compiled c = compileUncached(requireCompilerTools(), target, source);
  if (key) cache::store(*key, serialized(c));
  return c;
}

namespace {

Compiled compileUncached(const Tools& tools, const Target& target, const OpenCLCSource& source) {
  const TempDir dir;
  const auto bc = dir.path() / "kernel.bc", ll = dir.path() / "kernel.ll", spv = dir.path() / "kernel.spv";
  bool debug = false, optDisabled = false;
  for (const auto& o : source.options) {
    debug = debug || o == "-g";
    // OpenCL 3.0 API §5.8.6.3 [[optimization-options]] -cl-opt-disable disables all optimizations; clang-15 takes the
    // option but still optimises after an -O2, so it (and -O0, which case files may pass) selects -O0 here.
    optDisabled = optDisabled || o == "-cl-opt-disable" || o == "-O0";
  }
  // The uninitialised-value checker needs the program as written: clang's optimiser deletes what reads an
  // uninitialised variable (a loop accumulating into one becomes `return`), leaving nothing to find. Its builds
  // are unoptimised, with the variables moved into SSA values afterwards (variable_promotion.hpp) unless the
  // options ask for the program unoptimised.
  const bool promoteVariables = target.forUninitializedChecker && !optDisabled;
  if (promoteVariables) optDisabled = true;
  // LLVM's vectorisers create intrinsics (llvm.vector.reduce.*) that llvm-spirv-15 cannot
  // translate; the interpreter gains nothing from them.
  // SimplifyCFG sinks calls common to both arms of a branch (or to a switch's cases) into one call after them, and
  // hoists them before it, with the differing operands merged: for sub-group functions that is no longer the
  // program's meaning (two half sub-groups' sub_group_non_uniform_broadcast with their own ids become one call with
  // divergent ids, sub_group_clustered_reduce_add(x, 4) and (x, 8) one call whose ClusterSize is not a constant), and
  // the conformance suite's sub-group tests meet both. The interpreter gains nothing from either transformation.
  const std::initializer_list<const char*> noVectorize = {"-fno-vectorize",
                                                          "-fno-slp-vectorize",
                                                          "-mllvm",
                                                          "-simplifycfg-sink-common=false",
                                                          "-mllvm",
                                                          "-simplifycfg-hoist-common=false"};
  const char* level = optDisabled ? "-O0" : "-O2";
  // An optimised -g build goes through LLVM IR text, where the debug locations llvm-spirv-15 cannot translate are
  // marked unavailable (compiler/debug_expressions.hpp); everything else goes straight to bitcode, and through the text
  // only when llvm-spirv-15 meets a freeze (compiler/freeze_removal.hpp).
  const bool repairDebug = debug && !optDisabled;
  // Diagnostics name the program's own source and quote its lines, not the temporary copies clang compiled.
  std::vector<SourceName> names{{(dir.path() / "kernel.cl").string(), source.name, source.text}};
  for (const auto& [name, text] : source.headers) names.push_back({(dir.path() / "include" / name).string(), name, text});
  auto compile = [&](bool viaText) {
    auto argv = clangCommand(tools.clang, target, source, dir.path(), {viaText ? "-S" : "-c", level},
                             noVectorize);
    argv.insert(argv.end(), {"-o", (viaText ? ll : bc).string()});
    std::string log;
    if (runProgram(argv, log) != 0) throw Error("OpenCL C compilation failed:\n" + withDisplayNames(log, names));
    if (!viaText) return;
    std::string text;
    {
      std::ifstream in(ll);
      text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    { std::ofstream(ll) << withoutFreeze(repairDebug ? withTranslatableDebugLocations(text) : text); }
    // Back to bitcode as it is: no optimisation pass runs again.
    std::string log1;
    if (runProgram({tools.clang, "-target", target.addressBits == 32 ? "spir" : "spir64", "-c", "-emit-llvm",
                    "-Xclang", "-disable-llvm-passes", ll.string(), "-o", bc.string()},
                   log1) != 0)
      throw Error("OpenCL C compilation failed (LLVM IR repaired for llvm-spirv):\n" + log1);
  };
  // llvm-spirv-15 writes the lowest version a module needs, up to this cap: SPIR-V 1.0 for most, 1.1 for debug
  // information, 1.3 for the sub-group extensions' non-uniform instructions (clref takes SPIR-V up to 1.4).
  const std::string maxVersion = "--spirv-max-version=1.3";
  // The SPIR-V extensions of the device's OpenCL C extensions: SPV_KHR_uniform_group_instructions for
  // cl_khr_work_group_uniform_arithmetic (the prelude's __spirv_ calls), SPV_KHR_integer_dot_product for
  // cl_khr_integer_dot_product (OpenCL Extension Specification 3.0.12 §42 "Integer dot product"),
  // SPV_EXT_shader_atomic_float_add and _min_max for cl_ext_float_atomics [external], SPV_KHR_expect_assume for
  // cl_khr_expect_assume, SPV_KHR_bit_instructions for cl_khr_extended_bit_ops. A module that uses none of their
  // instructions declares none of them.
  auto translate = [&](std::string& log) {
    return runProgram({tools.llvmSpirv, maxVersion,
                       "--spirv-ext=+SPV_KHR_uniform_group_instructions,+SPV_KHR_integer_dot_product,"
                       "+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max,"
                       "+SPV_KHR_subgroup_rotate,+SPV_KHR_expect_assume,+SPV_KHR_bit_instructions",
                       bc.string(), "-o", spv.string()},
                      log) == 0;
  };
  compile(repairDebug);
  std::string log2;
  bool translated = translate(log2);
  if (!translated && !repairDebug && log2.find("freeze") != std::string::npos) {
    compile(true);
    log2.clear();
    translated = translate(log2);
  }
  // clang-15's optimiser narrows a switch on a masked value to an integer type of that width (`x & 0xf` becomes an
  // i4 switch), which llvm-spirv-15 refuses ("InvalidBitWidth"): such a program is built unoptimised instead (the
  // same meaning; the conformance suite's sub-group forward-progress kernel is one).
  // And it folds a comparison of NULL pointers of two address spaces into an addrspacecast of a local NULL to global,
  // which llvm-spirv-15 refuses ("Casts from private/local/global address space are allowed only to generic"; the
  // conformance suite's compare_pointers): built unoptimised too.
  if (!translated && !optDisabled &&
      (log2.find("InvalidBitWidth") != std::string::npos ||
       log2.find("are allowed only to generic") != std::string::npos)) {
    level = "-O0";
    compile(false);
    log2.clear();
    translated = translate(log2);
  }
  if (!translated) throw Error("llvm-spirv failed:\n" + log2);
  std::vector<uint32_t> words = readWords(spv);
  if (promoteVariables) words = withPromotedVariables(words);
  return {std::move(words), std::move(names)};
}

}  // namespace

std::optional<std::string> openCLCToLLVMText(const Target& target, const OpenCLCSource& source) {
  const auto key = cacheKey("llvm-text", chosenTools(), target, source);
  if (key)
    if (auto hit = cache::find(*key)) return hit;
  const auto tools = compilerTools();
  if (!tools) return std::nullopt;
  const TempDir dir;
  const auto ll = dir.path() / "kernel.ll";
  auto argv = clangCommand(tools->clang, target, source, dir.path(), {"-S", "-O0"});
  argv.insert(argv.end(), {"-o", ll.string()});
  std::string log;
  if (runProgram(argv, log) != 0) return std::nullopt;
  std::ifstream in(ll);
  std::string text(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>{});
  if (key) cache::store(*key, text);
  return text;
}

}  // namespace clref::compiler
