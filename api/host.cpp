#include "api/host.hpp"

#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "interpreter/executor.hpp"
#include "interpreter/module.hpp"
#include "interpreter/program.hpp"

namespace clref::host {

using interpreter::ModuleError;

Device::Device(DeviceConfig config) : config_(std::move(config)) {
  if (config_.addressBits != 32 && config_.addressBits != 64) throw Error("addressBits must be 32 or 64");
}

Buffer::Buffer(size_t bytes) : data_(bytes), base_(data_.data()), size_(bytes) {}
Buffer::Buffer(const void* data, size_t bytes) : data_(bytes), base_(data_.data()), size_(bytes) {
  if (bytes) std::memcpy(data_.data(), data, bytes);
}
std::shared_ptr<Buffer> Buffer::view(std::byte* base, size_t bytes, std::shared_ptr<const void> owner) {
  std::shared_ptr<Buffer> b(new Buffer());
  b->base_ = base;
  b->size_ = bytes;
  b->owner_ = std::move(owner);
  return b;
}
std::shared_ptr<Buffer> Buffer::subBuffer(std::shared_ptr<Buffer> parent, size_t offset, size_t bytes) {
  if (!parent || offset > parent->size() || bytes > parent->size() - offset)
    throw Error("sub-buffer [" + std::to_string(offset) + ", +" + std::to_string(bytes) + ") is outside its parent");
  std::byte* base = parent->data() + offset;
  return view(base, bytes, std::move(parent));
}

// ---- Program ------------------------------------------------------------------------------

Program::Program(const Device& device, std::unique_ptr<interpreter::Module> module)
    : device_(device), module_(std::move(module)), globals_(std::make_shared<interpreter::GlobalStorage>()) {}
Program::~Program() = default;

namespace {
interpreter::LowerOptions lowerOptions(const DeviceConfig& cfg) {
  interpreter::LowerOptions o;
  o.addressBits = cfg.addressBits;
  o.fp16 = cfg.fp16;
  o.fp64 = cfg.fp64;
  o.denormHalf = cfg.denormHalf;
  o.denormFloat = cfg.denormFloat;
  o.denormDouble = cfg.denormDouble;
  o.choices = cfg.choices;
  return o;
}
}  // namespace

std::shared_ptr<Program> Program::fromSpirv(const Device& device, std::vector<uint32_t> words) {
  auto m = std::make_unique<interpreter::Module>(interpreter::Module::load(std::move(words)));
  // Reject what this device cannot run now, not at the first kernel (capabilities, extensions,
  // address width).
  interpreter::checkModuleSupport(*m, lowerOptions(device.config()));
  return std::shared_ptr<Program>(new Program(device, std::move(m)));
}

std::vector<uint32_t> readSpirvFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open " + path);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() % 4 != 0)
    throw ModuleError(path + ": size " + std::to_string(bytes.size()) + " is not a multiple of 4 bytes");
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

std::shared_ptr<Program> Program::fromSpirvFile(const Device& device, const std::string& path) {
  return fromSpirv(device, readSpirvFile(path));
}

namespace {
// Runs argv, capturing stdout+stderr; returns the exit status.
int runCommand(const std::vector<std::string>& argv, std::string& output) {
  std::string cmd;
  for (const auto& a : argv) {
    std::string q = "'";
    for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    cmd += q + "' ";
  }
  cmd += "2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) output.append(buf.data(), n);
  const int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
const char* kClang = "clang-15";
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
const char* kLlvmSpirv = "llvm-spirv-15";
}  // namespace

bool Program::openCLCCompilerAvailable() {
  // Looked up on PATH, once per PATH value (running both tools costs tens of milliseconds).
  static std::mutex mutex;
  static std::map<std::string, bool> known;
  const char* path = std::getenv("PATH");
  std::lock_guard lock(mutex);
  auto [it, fresh] = known.emplace(path ? path : "", false);
  if (fresh) {
    std::string out;
    it->second = runCommand({kClang, "--version"}, out) == 0 && runCommand({kLlvmSpirv, "--version"}, out) == 0;
  }
  return it->second;
}

std::vector<std::string> openCLCExtensions(const DeviceConfig& config) {
  // 32-bit atomics on global and local memory (the interpreter's OpAtomic*) and byte stores:
  // core in OpenCL C 1.1, still named by 1.1+ devices.
  std::vector<std::string> v{"cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
                             "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
                             "cl_khr_byte_addressable_store"};
  if (config.fp64) v.push_back("cl_khr_fp64");
  if (config.fp16) v.push_back("cl_khr_fp16");
  return v;
}

std::vector<std::string> openCLCFeatures(const DeviceConfig& config) {
  // 64-bit integers, the generic address space (GenericPointer), program-scope global variables
  // (GlobalStorage), acquire-release and sequentially consistent atomics at device scope (every
  // atomic is sequentially consistent on memory all work-groups share), doubles when enabled.
  std::vector<std::string> v{"__opencl_c_int64",
                             "__opencl_c_generic_address_space",
                             "__opencl_c_program_scope_global_variables",
                             "__opencl_c_atomic_order_acq_rel",
                             "__opencl_c_atomic_order_seq_cst",
                             "__opencl_c_atomic_scope_device"};
  if (config.fp64) v.push_back("__opencl_c_fp64");
  return v;
}

std::shared_ptr<Program> Program::fromOpenCLC(const Device& device, const std::string& source,
                                              const std::string& options) {
  if (!openCLCCompilerAvailable())
    throw Error("compiling OpenCL C needs clang-15 and llvm-spirv-15 on PATH (scripts/install-deps.sh installs them)");
  namespace fs = std::filesystem;
  char tmpl[] = "/tmp/clref-build-XXXXXX";
  if (!mkdtemp(tmpl)) throw Error("cannot create a temporary directory");
  const fs::path dir(tmpl);
  const auto cl = dir / "kernel.cl", bc = dir / "kernel.bc", spv = dir / "kernel.spv";
  { std::ofstream(cl) << source; }
  std::vector<std::string> argv{
      kClang, "-x", "cl", "-target", device.config().addressBits == 32 ? "spir" : "spir64", "-emit-llvm", "-c", "-O2"};
  std::istringstream opts(options);
  bool haveStd = false, debug = false;
  for (std::string o; opts >> o;) {
    haveStd = haveStd || o.rfind("-cl-std=", 0) == 0;
    debug = debug || o == "-g";
    argv.push_back(o);
  }
  if (!haveStd) argv.push_back("-cl-std=CL1.2");
  // OpenCL C 3.0 §6.2.1: the compiler defines the macro of an extension or optional feature
  // only when the device supports it. clang-15 enables them all for spir targets: -cl-ext
  // narrows its options to the device's, and a prelude undefines the macros its
  // opencl-c-base.h defines unconditionally for spir (the header-only features).
  std::string ext = "-cl-ext=-all";
  std::set<std::string> supported;
  for (const auto& names : {openCLCExtensions(device.config()), openCLCFeatures(device.config())})
    for (const auto& n : names) {
      ext += ",+" + n;
      supported.insert(n);
    }
  const auto prelude = dir / "clref_device_features.h";
  {
    std::ofstream out(prelude);
    out << "// Feature and extension macros clang-15 defines but this device does not support.\n";
    for (const char* m : kClangHeaderOnlyMacros)
      if (!supported.count(m)) out << "#undef " << m << "\n";
  }
  argv.insert(argv.end(), {"-Xclang", ext, "-include", prelude.string()});
  // Keep the kernel argument names (OpName): diagnostics and argument info use them.
  argv.push_back("-cl-kernel-arg-info");
  // LLVM's vectorisers create intrinsics (llvm.vector.reduce.*) that llvm-spirv-15 cannot
  // translate; the interpreter gains nothing from them.
  argv.push_back("-fno-vectorize");
  argv.push_back("-fno-slp-vectorize");
  argv.insert(argv.end(), {cl.string(), "-o", bc.string()});
  std::string log;
  if (runCommand(argv, log) != 0) {
    fs::remove_all(dir);
    throw Error("OpenCL C compilation failed:\n" + log);
  }
  std::string log2;
  // SPIR-V 1.0 is the most widely accepted version; llvm-spirv-15 needs 1.1 to emit debug info.
  const std::string maxVersion = debug ? "--spirv-max-version=1.1" : "--spirv-max-version=1.0";
  if (runCommand({kLlvmSpirv, maxVersion, bc.string(), "-o", spv.string()}, log2) != 0) {
    fs::remove_all(dir);
    throw Error("llvm-spirv failed:\n" + log2);
  }
  auto words = readSpirvFile(spv.string());
  fs::remove_all(dir);
  return fromSpirv(device, std::move(words));
}

std::vector<std::string> Program::kernelNames() const {
  std::vector<std::string> names;
  for (const auto& ep : module_->entryPoints) names.push_back(ep.name);
  return names;
}

void Program::setSpecConstant(uint32_t id, const void* value, size_t size) {
  bool found = false;
  for (const auto& [target, decs] : module_->decorations)
    for (const auto& d : decs)
      if (d.kind == spv::Decoration::SpecId && d.literals.at(0) == id) found = true;
  if (!found) throw Error("no specialization constant with SpecId " + std::to_string(id));
  std::vector<uint8_t> bytes(static_cast<const uint8_t*>(value), static_cast<const uint8_t*>(value) + size);
  for (auto& [k, v] : specConstants_)
    if (k == id) {
      v = std::move(bytes);
      ++specVersion_;
      return;
    }
  specConstants_.emplace_back(id, std::move(bytes));
  ++specVersion_;
}

// ---- Kernel -------------------------------------------------------------------------------

Kernel::Kernel(std::shared_ptr<Program> program, const std::string& name) : program_(std::move(program)), name_(name) {
  if (!program_) throw Error("Kernel needs a program");
  if (!program_->module().entryPoint(name)) {
    std::string known;
    for (const auto& k : program_->kernelNames()) known += (known.empty() ? "" : ", ") + k;
    throw Error("no kernel named '" + name + "' in the program (kernels: " + (known.empty() ? "none" : known) + ")");
  }
  lower();
  for (const auto& p : lowered_->params) {
    Arg a;
    a.info.name = p.name;
    a.info.typeName = p.typeName;
    a.info.kind = p.kind == interpreter::ParamKind::Buffer  ? ArgKind::Buffer
                  : p.kind == interpreter::ParamKind::Local ? ArgKind::Local
                                                            : ArgKind::Value;
    a.info.size = p.size;
    args_.push_back(std::move(a));
  }
}
Kernel::~Kernel() = default;
Kernel::Kernel(Kernel&&) noexcept = default;

void Kernel::lower() {
  interpreter::LowerOptions o = lowerOptions(program_->device().config());
  for (const auto& [id, v] : program_->specConstants_) o.specConstants[id] = v;
  o.globals = program_->globals_;
  lowered_ = interpreter::lowerKernel(program_->module(), name_, o);
  loweredSpecVersion_ = program_->specVersion_;
}

const KernelArgInfo& Kernel::argInfo(size_t i) const {
  if (i >= args_.size())
    throw Error("kernel " + name_ + " has " + std::to_string(args_.size()) + " arguments; no argument " +
                std::to_string(i));
  return args_[i].info;
}

Kernel::Arg& Kernel::argAt(size_t i, ArgKind want) {
  const auto& info = argInfo(i);
  if (info.kind != want) {
    static const char* kinds[] = {"a buffer (global/constant pointer)", "a local pointer", "a value"};
    throw Error("argument " + std::to_string(i) + " of " + name_ + " (" + info.typeName + ") takes " +
                kinds[int(info.kind)] + ", not " + kinds[int(want)]);
  }
  return args_[i];
}

void Kernel::setArg(size_t i, std::shared_ptr<Buffer> buffer) {
  if (!buffer) return setArgNull(i);
  auto& a = argAt(i, ArgKind::Buffer);
  a.buffer = std::move(buffer);
  a.set = true;
}
void Kernel::setArgNull(size_t i) {
  auto& a = argAt(i, ArgKind::Buffer);
  a.buffer.reset();
  a.set = true;
}
void Kernel::setArgLocal(size_t i, size_t bytes) {
  auto& a = argAt(i, ArgKind::Local);
  if (bytes == 0) throw Error("local argument " + std::to_string(i) + " must have a non-zero size");
  a.localBytes = bytes;
  a.set = true;
}
void Kernel::setArgValue(size_t i, const void* value, size_t size) {
  auto& a = argAt(i, ArgKind::Value);
  if (size != a.info.size)
    throw Error("argument " + std::to_string(i) + " of " + name_ + " (" + a.info.typeName + ") is " +
                std::to_string(a.info.size) + " bytes, " + std::to_string(size) + " given");
  a.value.assign(static_cast<const uint8_t*>(value), static_cast<const uint8_t*>(value) + size);
  a.set = true;
}

namespace {
// The DefaultLocalSize choice: the work-group size used when the host gives none.
std::array<size_t, 3> defaultLocalSize(const NDRange& r, const DeviceConfig& cfg) {
  std::array<size_t, 3> l{1, 1, 1};
  if (cfg.choices.get<numerics::Choice::DefaultLocalSize>() == numerics::LocalSizeOption::One) return l;
  size_t best = 1;
  for (size_t d = 1; d <= std::min<size_t>(64, std::min(cfg.maxWorkGroupSize, r.global[0])); ++d)
    if (r.global[0] % d == 0) best = d;
  l[0] = best;
  return l;
}
}  // namespace

RunResult Kernel::run(const NDRange& range) {
  const auto& cfg = program_->device().config();
  if (range.dims < 1 || range.dims > 3) throw Error("work dimension must be 1, 2 or 3");
  if (loweredSpecVersion_ != program_->specVersion_) lower();
  std::vector<interpreter::ArgBinding> bindings(args_.size());
  for (size_t i = 0; i < args_.size(); ++i) {
    const auto& a = args_[i];
    if (!a.set) throw Error("argument " + std::to_string(i) + " of " + name_ + " (" + a.info.typeName + ") is not set");
    auto& b = bindings[i];
    switch (a.info.kind) {
      case ArgKind::Buffer:
        if (a.buffer) {
          b.base = reinterpret_cast<uint8_t*>(a.buffer->data());
          b.size = a.buffer->size();
        } else {
          b.null = true;
        }
        break;
      case ArgKind::Local: b.size = a.localBytes; break;
      case ArgKind::Value: b.value = a.value; break;
    }
  }
  interpreter::NDRangeSpec spec;
  spec.dims = range.dims;
  std::array<size_t, 3> local = range.local ? *range.local : defaultLocalSize(range, cfg);
  for (unsigned d = 0; d < 3; ++d) {
    const bool used = d < range.dims;
    spec.global[d] = used ? range.global[d] : 1;
    spec.offset[d] = used ? range.offset[d] : 0;
    spec.local[d] = used ? local[d] : 1;
    if (spec.local[d] == 0) throw Error("local size is 0 in dimension " + std::to_string(d));
    if (used && spec.global[d] == 0) throw Error("global size is 0 in dimension " + std::to_string(d));
  }
  const auto& req = lowered_->requiredLocalSize;
  if (req[0] && (spec.local[0] != req[0] || spec.local[1] != req[1] || spec.local[2] != req[2]))
    throw Error("kernel " + name_ + " requires work-group size (" + std::to_string(req[0]) + "," +
                std::to_string(req[1]) + "," + std::to_string(req[2]) + ")");
  if (spec.local[0] * spec.local[1] * spec.local[2] > cfg.maxWorkGroupSize)
    throw Error("work-group size " + std::to_string(spec.local[0] * spec.local[1] * spec.local[2]) +
                " exceeds the device maximum " + std::to_string(cfg.maxWorkGroupSize));
  interpreter::ExecConfig ec;
  ec.threads = cfg.threads;
  ec.instructionBudget = cfg.instructionBudget;
  ec.subgroupSize = cfg.subgroupSize;
  auto r = interpreter::execute(*lowered_, bindings, spec, ec);
  RunResult out;
  out.ok = !r.fault.has_value();
  out.fault = std::move(r.fault);
  out.warnings = std::move(r.warnings);
  out.warningCount = r.warningCount;
  out.localSize = {size_t(spec.local[0]), size_t(spec.local[1]), size_t(spec.local[2])};
  out.workItems = r.workItems;
  out.printfOutput = std::move(r.printfOutput);
  return out;
}

}  // namespace clref::host
