// OpenCL 3.0 API §5.8 Program Objects: creation from source, IL and binaries, build, compile,
// link, build options (§5.8.6), specialization constants, queries.
//
// The "binary" of a program is its SPIR-V module: what CL_PROGRAM_BINARIES returns is accepted
// by clCreateProgramWithBinary. OpenCL C is compiled by clang-15 + llvm-spirv-15
// (host::Program::fromOpenCLC); modules are linked with SPIRV-Tools' linker.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <spirv-tools/linker.hpp>

#include "api/opencl/device_info.hpp"
#include "api/opencl/program_binary.hpp"
#include "interpreter/module.hpp"

using namespace clref::cl;
namespace host = clref::host;

namespace {

// ---- build options (§5.8.6) ------------------------------------------------------------------

struct Options {
  std::vector<std::string> compiler;  // passed to clang for OpenCL C
  bool denormsAreZero = false;
  bool uniform = false;
  bool clStd20 = false;  // -cl-std=CL2.0 or newer
  bool argInfo = false;
  bool createLibrary = false;
};

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

enum class OptionsFor { Build, Compile, Link };

// Returns false for an option the spec does not define for this step (CL_INVALID_BUILD_OPTIONS /
// CL_INVALID_COMPILER_OPTIONS / CL_INVALID_LINKER_OPTIONS).
bool parseOptions(const char* text, OptionsFor step, Options& o) {
  const auto t = tokenize(text);
  for (size_t i = 0; i < t.size(); ++i) {
    const std::string& a = t[i];
    // §5.8.6.5 linker options: also accepted by clBuildProgram (build = compile + link).
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
      // §5.8.6.3 math options: they allow less exactness; clref's exact results remain allowed.
      o.compiler.push_back(a);
      continue;
    }
    if (a == "-cl-no-subgroup-ifp") continue;  // §5.8.6.? sub-groups are not supported: nothing to relax
    if (step == OptionsFor::Link) return false;
    // §5.8.6.1 preprocessor options
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
    // §5.8.6.4 -cl-std: the OpenCL C versions the device reports.
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

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

host::Device deviceFor(const Options& o) {
  host::DeviceConfig cfg = theDevice()->device.config();
  // §5.8.6.3 -cl-denorms-are-zero: denormals "may be flushed"; the choice denorms_are_zero says
  // which (by default the float ones, so the option has its observable meaning).
  using clref::numerics::Choice, clref::numerics::DenormsAreZeroOption, clref::numerics::Denorm;
  const auto flush = cfg.choices.get<Choice::DenormsAreZero>();
  if (o.denormsAreZero && flush != DenormsAreZeroOption::Ignore) cfg.denormFloat = Denorm::Flush;
  if (o.denormsAreZero && flush == DenormsAreZeroOption::FlushFloatAndDouble) cfg.denormDouble = Denorm::Flush;
  return host::Device(cfg);
}

cl_program newProgram(cl_context context, _cl_program::Origin origin) {
  auto* p = new _cl_program();
  p->context = context;
  p->origin = origin;
  retainInternal(context);
  registerObject(p);
  return p;
}

bool isSpirv(const void* data, size_t bytes) {
  if (!data || bytes < 20 || bytes % 4) return false;
  uint32_t magic;
  std::memcpy(&magic, data, 4);
  return magic == 0x07230203;  // SPIR-V 1.0 §3.1 magic number
}

std::vector<uint32_t> words(const void* data, size_t bytes) {
  std::vector<uint32_t> w(bytes / 4);
  std::memcpy(w.data(), data, bytes);
  return w;
}

// Whether a module has functions imported by LinkageAttributes (a compiled object, not an
// executable).
bool hasImports(const std::vector<uint32_t>& w) {
  try {
    auto m = clref::interpreter::Module::parse(w);
    for (const auto& [id, f] : m.functions)
      if (f.isImport) return true;
  } catch (const std::exception&) {}
  return false;
}

// SPIRV-Tools' linker (2023.1) drops the Linkage capability from an executable but keeps the
// LinkageAttributes ... LinkOnceODR decorations (SPV_KHR_linkonce_odr) of the functions it
// merged, which the validator then rejects; in an executable they have no meaning left.
void dropLeftoverLinkOnceOdr(std::vector<uint32_t>& w) {
  constexpr uint32_t kOpCapability = 17, kOpDecorate = 71, kLinkage = 5, kLinkageAttributes = 41, kLinkOnceODR = 2;
  bool linkage = false;
  for (size_t i = 5; i < w.size() && (w[i] >> 16); i += w[i] >> 16)
    if ((w[i] & 0xffff) == kOpCapability && (w[i] >> 16) == 2 && w[i + 1] == kLinkage) linkage = true;
  if (linkage) return;
  std::vector<uint32_t> out(w.begin(), w.begin() + std::min<size_t>(5, w.size()));
  for (size_t i = 5; i < w.size();) {
    const uint32_t n = w[i] >> 16;
    if (n == 0 || i + n > w.size()) {  // malformed: leave the rest to the validator
      out.insert(out.end(), w.begin() + i, w.end());
      break;
    }
    const bool drop =
        (w[i] & 0xffff) == kOpDecorate && n >= 4 && w[i + 2] == kLinkageAttributes && w[i + n - 1] == kLinkOnceODR;
    if (!drop) out.insert(out.end(), w.begin() + i, w.begin() + i + n);
    i += n;
  }
  w = std::move(out);
}

// SPV_KHR_linkonce_odr: an Import may be satisfied by a LinkOnceODR definition, which
// SPIRV-Tools' linker (2023.1) does not do ("Unresolved external reference"). For each name
// imported somewhere and exported nowhere, the first LinkOnceODR definition becomes its Export
// (the others stay private copies, equal by the one-definition rule).
void exportLinkOnceOdrForImports(std::vector<std::vector<uint32_t>>& mods) {
  constexpr uint32_t kOpDecorate = 71, kLinkageAttributes = 41, kExport = 0, kImport = 1, kLinkOnceODR = 2;
  struct Site {
    size_t module, word;
  };
  std::map<std::string, std::vector<Site>> linkOnce;
  std::set<std::string> imported, exported;
  for (size_t m = 0; m < mods.size(); ++m) {
    const auto& w = mods[m];
    for (size_t i = 5; i < w.size() && (w[i] >> 16) && i + (w[i] >> 16) <= w.size(); i += w[i] >> 16) {
      const uint32_t n = w[i] >> 16;
      if ((w[i] & 0xffff) != kOpDecorate || n < 5 || w[i + 2] != kLinkageAttributes) continue;
      std::string name;
      for (size_t k = i + 3; k < i + n - 1; ++k)
        for (int b = 0; b < 4; ++b)
          if (const char c = char((w[k] >> (8 * b)) & 0xff)) name += c;
      const uint32_t type = w[i + n - 1];
      if (type == kImport)
        imported.insert(name);
      else if (type == kExport)
        exported.insert(name);
      else if (type == kLinkOnceODR)
        linkOnce[name].push_back({m, i + n - 1});
    }
  }
  for (const auto& [name, sites] : linkOnce)
    if (imported.count(name) && !exported.count(name)) mods[sites[0].module][sites[0].word] = kExport;
}

// Builds the executable from program->spirv with the spec constants set.
cl_int makeExecutable(cl_program p, const Options& o) {
  try {
    auto prog = host::Program::fromSpirv(deviceFor(o), p->spirv);
    for (const auto& [id, v] : p->specConstants) prog->setSpecConstant(id, v.data(), v.size());
    p->executable = prog;
    p->binaryType = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    return CL_SUCCESS;
  } catch (const std::exception& e) {
    p->log += e.what();
    p->log += "\n";
    return CL_BUILD_PROGRAM_FAILURE;
  }
}

// ---- kernel argument info (§5.9.3 clGetKernelArgInfo) ----------------------------------------
//
// SPIR-V keeps neither signedness nor typedef names nor const/restrict on pointees, so with
// -cl-kernel-arg-info the source is also compiled to LLVM IR text and clang's kernel_arg_*
// metadata (addr_space, access_qual, type, type_qual, name) is read from it.

std::string shellQuote(const std::string& a) {
  std::string q = "'";
  for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The elements of an LLVM IR metadata tuple "!{i32 1, !"uchar*", ...}": strings unescaped
// (\XX hex escapes), other elements as written ("i32 1").
std::vector<std::string> metadataTuple(const std::string& text) {
  std::vector<std::string> out;
  size_t i = text.find("!{");
  if (i == std::string::npos) return out;
  i += 2;
  while (i < text.size() && text[i] != '}') {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',')) ++i;
    if (i >= text.size() || text[i] == '}') break;
    if (text.compare(i, 2, "!\"") == 0) {
      std::string v;
      for (i += 2; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 2 < text.size()) {
          v += char(std::stoi(text.substr(i + 1, 2), nullptr, 16));
          i += 2;
        } else {
          v += text[i];
        }
      }
      ++i;
      out.push_back(v);
    } else {
      const size_t end = text.find_first_of(",}", i);
      std::string tok = text.substr(i, end - i);
      while (!tok.empty() && tok.back() == ' ') tok.pop_back();
      out.push_back(tok);  // e.g. "i32 1", "<2 x i8> undef"
      i = end;
    }
  }
  return out;
}

// The integer of a metadata element "i32 1".
unsigned long metadataInt(const std::string& e) {
  const size_t sp = e.rfind(' ');
  try {
    return std::stoul(sp == std::string::npos ? e : e.substr(sp + 1));
  } catch (const std::exception&) { return 0; }
}

// vec_type_hint metadata "!{<2 x i8> undef, i32 0}" as OpenCL C names it ("uchar2"): the type
// and whether an integer type is signed (1) or unsigned (0).
std::string vecTypeHintName(const std::vector<std::string>& e) {
  if (e.size() < 2) return "";
  std::string t = e[0].substr(0, e[0].rfind(" undef"));
  std::string n;
  if (!t.empty() && t[0] == '<') {
    n = t.substr(1, t.find(' ') - 1);
    t = t.substr(t.find(" x ") + 3);
    t.pop_back();  // '>'
  }
  const bool isSigned = metadataInt(e[1]) != 0;
  std::string base;
  if (t == "i8")
    base = "char";
  else if (t == "i16")
    base = "short";
  else if (t == "i32")
    base = "int";
  else if (t == "i64")
    base = "long";
  else if (t == "half" || t == "float" || t == "double")
    return t + n;
  else
    return "";
  return (isSigned ? "" : "u") + base + n;
}

struct KernelMetadata {
  std::map<std::string, std::vector<KernelArgMeta>> args;
  std::map<std::string, std::string> attributes;  // CL_KERNEL_ATTRIBUTES
};

KernelMetadata kernelMetadata(const std::string& source, const std::vector<std::string>& args, unsigned addressBits) {
  namespace fs = std::filesystem;
  KernelMetadata result;
  char tmpl[] = "/tmp/clref-arginfo-XXXXXX";
  if (!mkdtemp(tmpl)) return result;
  const fs::path dir(tmpl);
  { std::ofstream(dir / "kernel.cl") << source; }
  std::string cmd = "clang-15 -x cl -target ";
  cmd += addressBits == 32 ? "spir" : "spir64";
  cmd += " -emit-llvm -S -O0 -cl-kernel-arg-info";
  for (const auto& a : args) cmd += " " + shellQuote(a);
  cmd += " " + shellQuote((dir / "kernel.cl").string()) + " -o " + shellQuote((dir / "kernel.ll").string()) +
         " >/dev/null 2>&1";
  if (std::system(cmd.c_str()) == 0) {
    std::ifstream in(dir / "kernel.ll");
    std::map<std::string, std::string> nodes;                  // "!5" -> its text
    std::vector<std::pair<std::string, std::string>> kernels;  // name, define line
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("define ", 0) == 0 && line.find("spir_kernel") != std::string::npos) {
        const size_t at = line.find('@');
        if (at == std::string::npos) continue;
        std::string name;
        if (line[at + 1] == '"')
          name = line.substr(at + 2, line.find('"', at + 2) - at - 2);
        else
          name = line.substr(at + 1, line.find('(', at) - at - 1);
        kernels.emplace_back(name, line);
      } else if (line.size() > 1 && line[0] == '!' && std::isdigit(static_cast<unsigned char>(line[1]))) {
        const size_t eq = line.find(" = ");
        if (eq != std::string::npos) nodes[line.substr(0, eq)] = line.substr(eq + 3);
      }
    }
    for (const auto& [name, def] : kernels) {
      const auto field = [&](const char* key) {
        const std::string k = std::string("!") + key + " ";
        const size_t pos = def.find(k);
        if (pos == std::string::npos) return std::vector<std::string>{};
        const size_t ref = pos + k.size();
        const std::string id = def.substr(ref, def.find_first_of(" {,", ref) - ref);
        const auto it = nodes.find(id);
        return it == nodes.end() ? std::vector<std::string>{} : metadataTuple(it->second);
      };
      const auto as = field("kernel_arg_addr_space"), acc = field("kernel_arg_access_qual"),
                 ty = field("kernel_arg_type"), tq = field("kernel_arg_type_qual"), nm = field("kernel_arg_name");
      std::vector<KernelArgMeta> v(ty.size());
      for (size_t i = 0; i < v.size(); ++i) {
        v[i].type = ty[i];
        if (i < as.size()) v[i].addressSpace = cl_uint(metadataInt(as[i]));
        if (i < acc.size()) v[i].access = acc[i];
        if (i < tq.size()) v[i].qualifiers = tq[i];
        if (i < nm.size()) v[i].name = nm[i];
      }
      result.args[name] = std::move(v);
      // §5.9.3 CL_KERNEL_ATTRIBUTES: the kernel's __attribute__ qualifiers as in the source.
      std::string attrs;
      const auto add = [&](const std::string& a) { attrs += (attrs.empty() ? "" : " ") + a; };
      if (const auto vh = field("vec_type_hint"); !vh.empty()) {
        const std::string t = vecTypeHintName(vh);
        if (!t.empty()) add("vec_type_hint(" + t + ")");
      }
      for (const char* key : {"work_group_size_hint", "reqd_work_group_size"}) {
        const auto d = field(key);
        if (d.size() == 3)
          add(std::string(key) + "(" + std::to_string(metadataInt(d[0])) + "," + std::to_string(metadataInt(d[1])) +
              "," + std::to_string(metadataInt(d[2])) + ")");
      }
      result.attributes[name] = attrs;
    }
  }
  fs::remove_all(dir);
  return result;
}

bool deviceSupportsImages() {
  cl_bool images = CL_FALSE;
  deviceInfo(theDevice(), CL_DEVICE_IMAGE_SUPPORT, InfoOut{sizeof images, &images, nullptr});
  return images == CL_TRUE;
}

// Compiles OpenCL C to SPIR-V (the compile step); headers are written to a temporary include dir.
cl_int compileSource(cl_program p, const Options& o, const std::vector<std::pair<std::string, std::string>>& headers) {
  namespace fs = std::filesystem;
  std::vector<std::string> args = o.compiler;
  fs::path dir;
  if (!headers.empty()) {
    char tmpl[] = "/tmp/clref-headers-XXXXXX";
    if (!mkdtemp(tmpl)) return CL_OUT_OF_HOST_MEMORY;
    dir = tmpl;
    for (const auto& [name, text] : headers) {
      fs::create_directories((dir / name).parent_path());
      std::ofstream(dir / name) << text;
    }
    args.push_back("-I");
    args.push_back(dir.string());
  }
  bool haveStd = false;
  for (const auto& a : args) haveStd = haveStd || a.rfind("-cl-std=", 0) == 0;
  if (!haveStd) args.push_back("-cl-std=CL1.2");  // §5.8.6.4: the default is the highest 1.x version
  // OpenCL C 3.0 §6.12 (predefined macros): __IMAGE_SUPPORT__ is defined only when the device
  // supports images; clang's spir targets always define it.
  if (!deviceSupportsImages()) args.push_back("-U__IMAGE_SUPPORT__");
  // __OPENCL_VERSION__: the OpenCL version the device supports (the runtime defines it; clang
  // does not).
  args.push_back("-D__OPENCL_VERSION__=300");
  cl_int r = CL_SUCCESS;
  try {
    auto prog = host::Program::fromOpenCLC(deviceFor(o), p->source, join(args));
    p->spirv = prog->module().binary();
    auto meta = kernelMetadata(p->source, args, theDevice()->device.config().addressBits);
    p->argMeta = o.argInfo ? std::move(meta.args) : decltype(meta.args){};
    p->kernelAttributes = std::move(meta.attributes);
  } catch (const std::exception& e) {
    p->log += e.what();
    p->log += "\n";
    r = CL_COMPILE_PROGRAM_FAILURE;
  }
  if (!dir.empty()) fs::remove_all(dir);
  return r;
}

// §5.8.2 clBuildProgram, §5.8.3 clCompileProgram, §5.8.4 clSetProgramSpecializationConstant:
// CL_COMPILER_NOT_AVAILABLE if program is created with source or IL and a compiler is not
// available, i.e. CL_DEVICE_COMPILER_AVAILABLE is CL_FALSE — which clref reports when clang-15 or
// llvm-spirv-15 is missing. The spec ties IL builds to that query too, so they fail alike.
bool compilerMissingFor(cl_program program) {
  if (program->origin != _cl_program::Origin::Source && program->origin != _cl_program::Origin::IL) return false;
  return !host::Program::openCLCCompilerAvailable();
}

// §5.8.2 clBuildProgram / §5.8.3 clCompileProgram: the device list checks.
cl_int checkDevices(cl_uint num_devices, const cl_device_id* device_list) {
  if ((!device_list && num_devices > 0) || (device_list && num_devices == 0)) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_devices; ++i)
    if (device_list[i] != theDevice()) return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

void notifyLater(void(CL_CALLBACK* fn)(cl_program, void*), cl_program p, void* data) {
  if (!fn) return;
  retainInternal(p);
  deferCallback([fn, p, data] {
    fn(p, data);
    ApiLock lock;
    releaseInternal(p);
  });
}

}  // namespace

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                                              const size_t* lengths, cl_int* errcode_ret) try {
  ApiLock lock;
  if (!validContext(context)) return withError(errcode_ret, CL_INVALID_CONTEXT, cl_program(nullptr));
  // §5.8.1 clCreateProgramWithSource: CL_INVALID_VALUE if count is 0, strings is NULL, or any
  // entry in strings is NULL.
  if (count == 0 || !strings) return withError(errcode_ret, CL_INVALID_VALUE, cl_program(nullptr));
  std::string src;
  for (cl_uint i = 0; i < count; ++i) {
    if (!strings[i]) return withError(errcode_ret, CL_INVALID_VALUE, cl_program(nullptr));
    // lengths NULL or an entry 0: the string is null-terminated.
    src += lengths && lengths[i] ? std::string(strings[i], lengths[i]) : std::string(strings[i]);
  }
  cl_program p = newProgram(context, _cl_program::Origin::Source);
  p->source = std::move(src);
  return withError(errcode_ret, CL_SUCCESS, p);
} catch (...) { return clref::cl::failedCall<cl_program>(errcode_ret); }

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void* il, size_t length,
                                                          cl_int* errcode_ret) try {
  ApiLock lock;
  if (!validContext(context)) return withError(errcode_ret, CL_INVALID_CONTEXT, cl_program(nullptr));
  // §5.8.1 clCreateProgramWithIL: CL_INVALID_VALUE if il is NULL or length is 0, or if the
  // memory does not contain well-formed IL or an IL the device supports.
  if (!il || length == 0) return withError(errcode_ret, CL_INVALID_VALUE, cl_program(nullptr));
  if (!isSpirv(il, length)) return withError(errcode_ret, CL_INVALID_VALUE, cl_program(nullptr));
  auto w = words(il, length);
  try {
    (void)clref::interpreter::Module::parse(w);
  } catch (const std::bad_alloc&) {
    throw;  // CL_OUT_OF_HOST_MEMORY, not invalid IL
  } catch (const std::exception&) { return withError(errcode_ret, CL_INVALID_VALUE, cl_program(nullptr)); }
  cl_program p = newProgram(context, _cl_program::Origin::IL);
  p->il = w;
  return withError(errcode_ret, CL_SUCCESS, p);
} catch (...) { return clref::cl::failedCall<cl_program>(errcode_ret); }

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context context, const void* il, size_t length,
                                                             cl_int* errcode_ret) try {
  return clCreateProgramWithIL(context, il, length, errcode_ret);  // cl_khr_il_program
} catch (...) { return clref::cl::failedCall<cl_program>(errcode_ret); }

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                              const cl_device_id* device_list, const size_t* lengths,
                                                              const unsigned char** binaries, cl_int* binary_status,
                                                              cl_int* errcode_ret) try {
  ApiLock lock;
  if (!validContext(context)) return withError(errcode_ret, CL_INVALID_CONTEXT, cl_program(nullptr));
  // §5.8.1 clCreateProgramWithBinary: CL_INVALID_VALUE if device_list is NULL or num_devices is
  // 0; CL_INVALID_DEVICE if a device is not in context; CL_INVALID_VALUE if lengths or binaries
  // is NULL or an entry is 0/NULL; CL_INVALID_BINARY if a binary is not valid for its device.
  if (!device_list || num_devices == 0) return withError(errcode_ret, CL_INVALID_VALUE, cl_program(nullptr));
  for (cl_uint i = 0; i < num_devices; ++i)
    if (device_list[i] != theDevice()) return withError(errcode_ret, CL_INVALID_DEVICE, cl_program(nullptr));
  if (!lengths || !binaries) return withError(errcode_ret, CL_INVALID_VALUE, cl_program(nullptr));
  for (cl_uint i = 0; i < num_devices; ++i)
    if (!lengths[i] || !binaries[i]) {
      if (binary_status) binary_status[i] = CL_INVALID_VALUE;
      return withError(errcode_ret, CL_INVALID_VALUE, cl_program(nullptr));
    }
  bool ok = true;
  for (cl_uint i = 0; i < num_devices; ++i) {
    bool valid = isSpirv(binaries[i], lengths[i]);
    if (valid) {
      try {
        (void)clref::interpreter::Module::parse(words(binaries[i], lengths[i]));
      } catch (const std::bad_alloc&) {
        throw;  // CL_OUT_OF_HOST_MEMORY, not an invalid binary
      } catch (const std::exception&) { valid = false; }
    }
    if (binary_status) binary_status[i] = valid ? CL_SUCCESS : CL_INVALID_BINARY;
    ok = ok && valid;
  }
  if (!ok) return withError(errcode_ret, CL_INVALID_BINARY, cl_program(nullptr));
  cl_program p = newProgram(context, _cl_program::Origin::Binary);
  p->spirv = words(binaries[0], lengths[0]);
  // The type clref recorded in its own binaries; a module from elsewhere is a compiled object
  // when it imports functions, else an executable.
  p->binaryType = takeBinaryType(p->spirv);
  if (p->binaryType == CL_PROGRAM_BINARY_TYPE_NONE)
    p->binaryType = hasImports(p->spirv) ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT : CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  return withError(errcode_ret, CL_SUCCESS, p);
} catch (...) { return clref::cl::failedCall<cl_program>(errcode_ret); }

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                                      const cl_device_id* device_list,
                                                                      const char* kernel_names,
                                                                      cl_int* errcode_ret) try {
  ApiLock lock;
  if (!validContext(context)) return withError(errcode_ret, CL_INVALID_CONTEXT, cl_program(nullptr));
  // §5.8.1 clCreateProgramWithBuiltInKernels: CL_INVALID_VALUE if device_list is NULL,
  // num_devices is 0, kernel_names is NULL, or kernel_names names a kernel no device supports
  // (the device has no built-in kernels).
  if (!device_list || num_devices == 0 || !kernel_names)
    return withError(errcode_ret, CL_INVALID_VALUE, cl_program(nullptr));
  for (cl_uint i = 0; i < num_devices; ++i)
    if (device_list[i] != theDevice()) return withError(errcode_ret, CL_INVALID_DEVICE, cl_program(nullptr));
  return withError(errcode_ret, CL_INVALID_VALUE, cl_program(nullptr));
} catch (...) { return clref::cl::failedCall<cl_program>(errcode_ret); }

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program) try {
  ApiLock lock;
  if (!validProgram(program)) return CL_INVALID_PROGRAM;
  retainExternal(program);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program) try {
  ApiLock lock;
  if (!validProgram(program)) return CL_INVALID_PROGRAM;
  releaseExternal(program);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program,
                                                            void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                                            void* user_data) try {
  ApiLock lock;
  (void)user_data;
  if (!validProgram(program)) return CL_INVALID_PROGRAM;
  if (!pfn_notify) return CL_INVALID_VALUE;
  // §5.8.? clSetProgramReleaseCallback: CL_INVALID_OPERATION if no devices in the context
  // support destructors for program scope global variables (clref does not).
  return CL_INVALID_OPERATION;
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                                                   size_t spec_size, const void* spec_value) try {
  ApiLock lock;
  if (!validProgram(program)) return CL_INVALID_PROGRAM;
  // §5.8.4 clSetProgramSpecializationConstant: CL_INVALID_PROGRAM if program is not created by
  // clCreateProgramWithIL.
  if (program->origin != _cl_program::Origin::IL) return CL_INVALID_PROGRAM;
  if (compilerMissingFor(program)) return CL_COMPILER_NOT_AVAILABLE;
  // CL_INVALID_VALUE if spec_value is NULL
  if (!spec_value) return CL_INVALID_VALUE;
  const auto m = clref::interpreter::Module::parse(program->il);
  for (const auto& [target, decs] : m.decorations)
    for (const auto& d : decs)
      if (d.kind == spv::Decoration::SpecId && !d.literals.empty() && d.literals[0] == spec_id) {
        const auto& inst = m.def(target);
        const auto& type = m.type(inst.words.at(1));
        const size_t size = type.kind == clref::interpreter::TypeKind::Bool ? 1 : type.width / 8;
        // CL_INVALID_VALUE if spec_size does not match the size of the specialization constant
        if (spec_size != size) return CL_INVALID_VALUE;
        program->specConstants[spec_id].assign(static_cast<const uint8_t*>(spec_value),
                                               static_cast<const uint8_t*>(spec_value) + spec_size);
        return CL_SUCCESS;
      }
  return CL_INVALID_SPEC_ID;  // spec_id is not a specialization constant of the module
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                               const char* options, void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                               void* user_data) try {
  ApiLock lock;
  // §5.8.2 clBuildProgram
  if (!validProgram(program)) return CL_INVALID_PROGRAM;
  if (cl_int e = checkDevices(num_devices, device_list)) return e;
  if (!pfn_notify && user_data) return CL_INVALID_VALUE;  // pfn_notify NULL but user_data not NULL
  // CL_INVALID_OPERATION if there are kernel objects attached to program
  if (program->kernelsAttached) return CL_INVALID_OPERATION;
  // CL_INVALID_OPERATION if program was not created with source, IL or a binary (clLinkProgram's)
  if (program->origin == _cl_program::Origin::Linked) return CL_INVALID_OPERATION;
  Options o;
  if (!parseOptions(options, OptionsFor::Build, o)) return CL_INVALID_BUILD_OPTIONS;
  // CL_INVALID_OPERATION if the program is a compiled object or library (binary of wrong type)
  if (program->origin == _cl_program::Origin::Binary && program->binaryType != CL_PROGRAM_BINARY_TYPE_EXECUTABLE &&
      program->binaryType != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT)
    return CL_INVALID_BINARY;
  if (compilerMissingFor(program)) return CL_COMPILER_NOT_AVAILABLE;
  program->options = options ? options : "";
  program->log.clear();
  program->executable.reset();
  program->argInfo = o.argInfo && program->origin == _cl_program::Origin::Source;
  program->uniformWorkGroups = o.uniform || (program->origin == _cl_program::Origin::Source && !o.clStd20);
  program->status = CL_BUILD_IN_PROGRESS;
  cl_int r = CL_SUCCESS;
  if (program->origin == _cl_program::Origin::Source) {
    r = compileSource(program, o, {});
    if (r != CL_SUCCESS) r = CL_BUILD_PROGRAM_FAILURE;
  } else if (program->origin == _cl_program::Origin::IL) {
    program->spirv = program->il;
  }
  if (r == CL_SUCCESS) r = makeExecutable(program, o);
  program->status = r == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  if (r != CL_SUCCESS) program->binaryType = CL_PROGRAM_BINARY_TYPE_NONE;
  notifyLater(pfn_notify, program, user_data);
  return r;
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices,
                                                 const cl_device_id* device_list, const char* options,
                                                 cl_uint num_input_headers, const cl_program* input_headers,
                                                 const char** header_include_names,
                                                 void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                                 void* user_data) try {
  ApiLock lock;
  // §5.8.3 clCompileProgram
  if (!validProgram(program)) return CL_INVALID_PROGRAM;
  if (cl_int e = checkDevices(num_devices, device_list)) return e;
  // CL_INVALID_VALUE if num_input_headers is 0 and header_include_names or input_headers are not
  // NULL, or num_input_headers is not 0 and either is NULL.
  if ((num_input_headers == 0) != (!input_headers && !header_include_names) ||
      (num_input_headers && (!input_headers || !header_include_names)))
    return CL_INVALID_VALUE;
  if (!pfn_notify && user_data) return CL_INVALID_VALUE;
  if (program->kernelsAttached) return CL_INVALID_OPERATION;
  // CL_INVALID_OPERATION if program has no source or IL (created with a binary)
  if (program->origin != _cl_program::Origin::Source && program->origin != _cl_program::Origin::IL)
    return CL_INVALID_OPERATION;
  std::vector<std::pair<std::string, std::string>> headers;
  for (cl_uint i = 0; i < num_input_headers; ++i) {
    if (!validProgram(input_headers[i])) return CL_INVALID_PROGRAM;
    // OpenCL 3.0 API §5.8.3 clCompileProgram: CL_INVALID_CONTEXT if the context of program and
    // programs in input_headers are not the same.
    if (input_headers[i]->context != program->context) return CL_INVALID_CONTEXT;
    if (!header_include_names[i]) return CL_INVALID_VALUE;
    headers.emplace_back(header_include_names[i], input_headers[i]->source);
  }
  Options o;
  if (!parseOptions(options, OptionsFor::Compile, o)) return CL_INVALID_COMPILER_OPTIONS;
  if (compilerMissingFor(program)) return CL_COMPILER_NOT_AVAILABLE;
  program->options = options ? options : "";
  program->log.clear();
  program->executable.reset();
  program->argInfo = o.argInfo && program->origin == _cl_program::Origin::Source;
  program->uniformWorkGroups = o.uniform || (program->origin == _cl_program::Origin::Source && !o.clStd20);
  cl_int r = CL_SUCCESS;
  if (program->origin == _cl_program::Origin::Source)
    r = compileSource(program, o, headers);
  else
    program->spirv = program->il;
  program->status = r == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  program->binaryType = r == CL_SUCCESS ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT : CL_PROGRAM_BINARY_TYPE_NONE;
  notifyLater(pfn_notify, program, user_data);
  return r;
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                                  const cl_device_id* device_list, const char* options,
                                                  cl_uint num_input_programs, const cl_program* input_programs,
                                                  void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data,
                                                  cl_int* errcode_ret) try {
  ApiLock lock;
  // §5.8.5 clLinkProgram
  if (!validContext(context)) return withError(errcode_ret, CL_INVALID_CONTEXT, cl_program(nullptr));
  if (cl_int e = checkDevices(num_devices, device_list)) return withError(errcode_ret, e, cl_program(nullptr));
  // CL_INVALID_VALUE if num_input_programs is 0 or input_programs is NULL (or the other way round)
  if (num_input_programs == 0 || !input_programs) return withError(errcode_ret, CL_INVALID_VALUE, cl_program(nullptr));
  if (!pfn_notify && user_data) return withError(errcode_ret, CL_INVALID_VALUE, cl_program(nullptr));
  Options o;
  if (!parseOptions(options, OptionsFor::Link, o))
    return withError(errcode_ret, CL_INVALID_LINKER_OPTIONS, cl_program(nullptr));
  bool uniform = false;
  for (cl_uint i = 0; i < num_input_programs; ++i) {
    // CL_INVALID_PROGRAM if programs in input_programs are not valid
    if (!validProgram(input_programs[i])) return withError(errcode_ret, CL_INVALID_PROGRAM, cl_program(nullptr));
    // OpenCL 3.0 API §5.8.5 clLinkProgram: CL_INVALID_CONTEXT if the context of programs in
    // input_programs is not the same as context.
    if (input_programs[i]->context != context) return withError(errcode_ret, CL_INVALID_CONTEXT, cl_program(nullptr));
    // CL_INVALID_OPERATION if an input program is not a compiled object or library
    const auto t = input_programs[i]->binaryType;
    if (t != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && t != CL_PROGRAM_BINARY_TYPE_LIBRARY &&
        !(t == CL_PROGRAM_BINARY_TYPE_EXECUTABLE && input_programs[i]->origin == _cl_program::Origin::Binary))
      return withError(errcode_ret, CL_INVALID_OPERATION, cl_program(nullptr));
    uniform = uniform || input_programs[i]->uniformWorkGroups;
  }
  cl_program p = newProgram(context, _cl_program::Origin::Linked);
  p->options = options ? options : "";
  p->uniformWorkGroups = uniform;
  for (cl_uint i = 0; i < num_input_programs; ++i) {
    for (const auto& [name, meta] : input_programs[i]->argMeta) p->argMeta[name] = meta;
    for (const auto& [name, attrs] : input_programs[i]->kernelAttributes) p->kernelAttributes[name] = attrs;
  }
  p->argInfo = !p->argMeta.empty();
  p->status = CL_BUILD_IN_PROGRESS;
  // SPIRV-Tools' linker resolves Import/Export LinkageAttributes across the modules.
  std::vector<std::vector<uint32_t>> mods;
  for (cl_uint i = 0; i < num_input_programs; ++i) mods.push_back(input_programs[i]->spirv);
  exportLinkOnceOdrForImports(mods);
  spvtools::Context ctx(SPV_ENV_UNIVERSAL_1_5);
  std::string messages;
  ctx.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* m) {
    messages += std::string(m) + "\n";
  });
  spvtools::LinkerOptions lo;
  lo.SetCreateLibrary(o.createLibrary);
  std::vector<uint32_t> linked;
  cl_int r = CL_SUCCESS;
  if (spvtools::Link(ctx, mods, &linked, lo) != SPV_SUCCESS) {
    p->log = "SPIR-V link failed:\n" + messages;
    r = CL_LINK_PROGRAM_FAILURE;
  } else {
    p->spirv = std::move(linked);
    if (!o.createLibrary) dropLeftoverLinkOnceOdr(p->spirv);
    if (o.createLibrary) {
      p->binaryType = CL_PROGRAM_BINARY_TYPE_LIBRARY;
    } else if (makeExecutable(p, o) != CL_SUCCESS) {
      r = CL_LINK_PROGRAM_FAILURE;
    }
  }
  p->status = r == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  notifyLater(pfn_notify, p, user_data);
  // §5.8.5: on CL_LINK_PROGRAM_FAILURE a valid program object is returned (its log explains).
  return withError(errcode_ret, r, p);
} catch (...) { return clref::cl::failedCall<cl_program>(errcode_ret); }

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                                 size_t param_value_size, void* param_value,
                                                 size_t* param_value_size_ret) try {
  ApiLock lock;
  if (!validProgram(program)) return CL_INVALID_PROGRAM;
  const InfoOut out{param_value_size, param_value, param_value_size_ret};
  const bool built = program->executable != nullptr;
  switch (param_name) {
    case CL_PROGRAM_REFERENCE_COUNT: return out(program->refCount);
    case CL_PROGRAM_CONTEXT: return out(program->context);
    case CL_PROGRAM_NUM_DEVICES: return out(cl_uint(1));
    case CL_PROGRAM_DEVICES: return out(theDevice());
    case CL_PROGRAM_SOURCE:
      return out(program->origin == _cl_program::Origin::Source ? program->source : std::string());
    case CL_PROGRAM_IL: return out(program->il);
    case CL_PROGRAM_BINARY_SIZES: return out(size_t(binaryWithType(program->spirv, program->binaryType).size() * 4));
    case CL_PROGRAM_BINARIES: {
      // §5.8.7: param_value points to an array of n pointers, each to a buffer of the size
      // CL_PROGRAM_BINARY_SIZES gave; a NULL entry skips that device.
      if (param_value && param_value_size < sizeof(unsigned char*)) return CL_INVALID_VALUE;
      if (param_value) {
        auto* dst = static_cast<unsigned char**>(param_value)[0];
        const std::vector<uint32_t> binary = binaryWithType(program->spirv, program->binaryType);
        if (dst && !binary.empty()) std::memcpy(dst, binary.data(), binary.size() * 4);
      }
      if (param_value_size_ret) *param_value_size_ret = sizeof(unsigned char*);
      return CL_SUCCESS;
    }
    // CL_INVALID_PROGRAM_EXECUTABLE for the kernel queries when no executable is built.
    case CL_PROGRAM_NUM_KERNELS:
      if (!built) return CL_INVALID_PROGRAM_EXECUTABLE;
      return out(size_t(program->executable->kernelNames().size()));
    case CL_PROGRAM_KERNEL_NAMES: {
      if (!built) return CL_INVALID_PROGRAM_EXECUTABLE;
      std::string names;
      for (const auto& n : program->executable->kernelNames()) names += (names.empty() ? "" : ";") + n;
      return out(names);
    }
    // OpenCL 3.0 API §5.8.7 clGetProgramInfo: CL_INVALID_PROGRAM_EXECUTABLE also for these two
    // queries when no executable is built.
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
      if (!built) return CL_INVALID_PROGRAM_EXECUTABLE;
      return out(cl_bool(CL_FALSE));
    default: return CL_INVALID_VALUE;
  }
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                                      cl_program_build_info param_name, size_t param_value_size,
                                                      void* param_value, size_t* param_value_size_ret) try {
  ApiLock lock;
  if (!validProgram(program)) return CL_INVALID_PROGRAM;
  if (device != theDevice()) return CL_INVALID_DEVICE;  // not in the list of devices of program
  const InfoOut out{param_value_size, param_value, param_value_size_ret};
  switch (param_name) {
    case CL_PROGRAM_BUILD_STATUS: return out(program->status);
    case CL_PROGRAM_BUILD_OPTIONS: return out(program->options);
    case CL_PROGRAM_BUILD_LOG: return out(program->log);
    case CL_PROGRAM_BINARY_TYPE: return out(program->binaryType);
    // §5.8.8: the storage of the program's variables in the global address space (program-scope
    // and static function-scope variables: CrossWorkgroup OpVariables of the module).
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
      size_t total = 0;
      if (program->executable) {
        const auto& m = program->executable->module();
        for (uint32_t v : m.globalVariables) {
          const auto* d = m.findDef(v);
          if (!d || d->operandCount() == 0 || spv::StorageClass(d->operand(0)) != spv::StorageClass::CrossWorkgroup)
            continue;
          const auto& t = m.type(m.type(d->resultType).element);
          const size_t al = t.align ? t.align : 1;
          total = (total + al - 1) / al * al + size_t(t.size);
        }
      }
      return out(total);
    }
    default: return CL_INVALID_VALUE;
  }
} catch (...) { return clref::cl::failedCall<cl_int>(nullptr); }
