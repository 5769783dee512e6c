// A kernel's storage: a register for every value, and the tagged allocations its pointers name
// (kernel arguments, module-scope and function-scope variables, builtins) with their arenas.
#include <algorithm>
#include <bit>
#include <cstring>
#include <mutex>
#include <optional>

#include "interpreter/image_types.hpp"
#include "interpreter/kernel_lowering.hpp"
#include "interpreter/svm.hpp"

namespace clref::interpreter {

namespace {

std::string describeType(const Module& m, uint32_t typeId) {
  const Type& t = m.type(typeId);
  switch (t.kind) {
    case TypeKind::Bool: return "bool";
    case TypeKind::Int: return t.width == 8 ? "char" : t.width == 16 ? "short" : t.width == 32 ? "int" : "long";
    case TypeKind::Float: return t.width == 16 ? "half" : t.width == 32 ? "float" : "double";
    case TypeKind::Vector: return describeType(m, t.element) + std::to_string(t.count);
    case TypeKind::Array: return describeType(m, t.element) + "[" + std::to_string(t.count) + "]";
    case TypeKind::Struct: return "struct (" + std::to_string(t.size) + " bytes)";
    case TypeKind::Pointer: {
      std::string space;
      switch (t.storage) {
        case spv::StorageClass::CrossWorkgroup: space = "global "; break;
        case spv::StorageClass::UniformConstant: space = "constant "; break;
        case spv::StorageClass::Workgroup: space = "local "; break;
        case spv::StorageClass::Generic: space = "generic "; break;
        case spv::StorageClass::Function: space = "private "; break;
        default: break;
      }
      return space + describeType(m, t.element) + "*";
    }
    case TypeKind::Void: return "void";
    case TypeKind::Event: return "event_t";
    case TypeKind::Sampler: return "sampler_t";
    case TypeKind::Image: {
      const ImageTypeInfo info = imageTypeInfo(m, typeId);
      if (!info.valid) return "image";
      static constexpr const char* kAccess[] = {"read_only ", "write_only ", "read_write "};
      return kAccess[size_t(info.access)] + std::string(imageTypeName(info));
    }
    case TypeKind::Opaque: return "opaque";
    default: return "type";
  }
}


// The BuiltIn's name as the SPIR-V grammar spells it (those builtinValue gives a value), or its number.
std::string builtinName(spv::BuiltIn b) {
  switch (b) {
    case spv::BuiltIn::GlobalInvocationId: return "GlobalInvocationId";
    case spv::BuiltIn::LocalInvocationId: return "LocalInvocationId";
    case spv::BuiltIn::WorkgroupId: return "WorkgroupId";
    case spv::BuiltIn::NumWorkgroups: return "NumWorkgroups";
    case spv::BuiltIn::GlobalSize: return "GlobalSize";
    case spv::BuiltIn::WorkgroupSize: return "WorkgroupSize";
    case spv::BuiltIn::EnqueuedWorkgroupSize: return "EnqueuedWorkgroupSize";
    case spv::BuiltIn::GlobalOffset: return "GlobalOffset";
    case spv::BuiltIn::GlobalLinearId: return "GlobalLinearId";
    case spv::BuiltIn::LocalInvocationIndex: return "LocalInvocationIndex";
    case spv::BuiltIn::SubgroupEqMask: return "SubgroupEqMask";
    case spv::BuiltIn::SubgroupGeMask: return "SubgroupGeMask";
    case spv::BuiltIn::SubgroupGtMask: return "SubgroupGtMask";
    case spv::BuiltIn::SubgroupLeMask: return "SubgroupLeMask";
    case spv::BuiltIn::SubgroupLtMask: return "SubgroupLtMask";
    case spv::BuiltIn::WorkDim: return "WorkDim";
    case spv::BuiltIn::SubgroupMaxSize: return "SubgroupMaxSize";
    case spv::BuiltIn::SubgroupSize: return "SubgroupSize";
    case spv::BuiltIn::NumSubgroups: return "NumSubgroups";
    case spv::BuiltIn::NumEnqueuedSubgroups: return "NumEnqueuedSubgroups";
    case spv::BuiltIn::SubgroupId: return "SubgroupId";
    case spv::BuiltIn::SubgroupLocalInvocationId: return "SubgroupLocalInvocationId";
    default: return std::to_string(uint32_t(b));
  }
}

// OpenCL SPIR-V Environment §2.9 [[_built_in_variables]] "Required SPIR-V Type" of each BuiltIn: a 3-component vector
// of size_t (the work-item ids and sizes), a size_t (the linear ids), a 32-bit integer (WorkDim and the sub-group
// counts) or a 4-component vector of 32-bit integers (the sub-group masks); Vulkan's compute built-ins have the same
// shapes with 32-bit components. builtinValue writes exactly that shape, so any other declared type (which SPIRV-Tools
// does not check in the OpenCL environments) is refused here rather than read or written past the variable. The
// width of size_t is left free (32 or 64) as the shader and kernel forms differ; the value is truncated to it.
// Returns what the type must be, or nothing when it fits.
std::optional<std::string> builtinTypeMismatch(const Module& m, spv::BuiltIn b, uint32_t typeId) {
  const Type& t = m.type(typeId);
  auto intOf = [&](uint32_t id, bool any) {
    const Type& e = m.type(id);
    return e.kind == TypeKind::Int && (e.width == 32 || (any && e.width == 64));
  };
  auto vectorOf = [&](uint32_t n, bool any) { return t.kind == TypeKind::Vector && t.count == n && intOf(t.element, any); };
  switch (b) {
    case spv::BuiltIn::GlobalInvocationId:
    case spv::BuiltIn::LocalInvocationId:
    case spv::BuiltIn::WorkgroupId:
    case spv::BuiltIn::NumWorkgroups:
    case spv::BuiltIn::GlobalSize:
    case spv::BuiltIn::WorkgroupSize:
    case spv::BuiltIn::EnqueuedWorkgroupSize:
    case spv::BuiltIn::GlobalOffset:
      if (vectorOf(3, true)) return std::nullopt;
      return "a vector of 3 components of size_t (32- or 64-bit integers)";
    case spv::BuiltIn::GlobalLinearId:
    case spv::BuiltIn::LocalInvocationIndex:
      if (intOf(typeId, true)) return std::nullopt;
      return "a size_t (a 32- or 64-bit integer)";
    case spv::BuiltIn::SubgroupEqMask:
    case spv::BuiltIn::SubgroupGeMask:
    case spv::BuiltIn::SubgroupGtMask:
    case spv::BuiltIn::SubgroupLeMask:
    case spv::BuiltIn::SubgroupLtMask:
      if (vectorOf(4, false)) return std::nullopt;
      return "a vector of 4 components of 32-bit integers";
    case spv::BuiltIn::WorkDim:
    case spv::BuiltIn::SubgroupMaxSize:
    case spv::BuiltIn::SubgroupSize:
    case spv::BuiltIn::NumSubgroups:
    case spv::BuiltIn::NumEnqueuedSubgroups:
    case spv::BuiltIn::SubgroupId:
    case spv::BuiltIn::SubgroupLocalInvocationId:
      if (intOf(typeId, false)) return std::nullopt;
      return "a 32-bit integer";
    default: {
      // Any other BuiltIn reads as zero in its first component (builtinValue), at most 8 bytes of it.
      const Type& e = t.kind == TypeKind::Vector ? m.type(t.element) : t;
      if ((e.kind == TypeKind::Int || e.kind == TypeKind::Float || e.kind == TypeKind::Bool) && e.size <= 8)
        return std::nullopt;
      return "a scalar or vector of numbers";
    }
  }
}

}  // namespace

// Large OpConstantNull values whose only use is to initialise variables: they take no register, the variables start
// zeroed (writeConstants). A program-scope array as large as CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, zero-initialised,
// would otherwise need a register file of its size (the conformance suite's progvar capacity test).
bool initialiserOnlyNull(const Module& m, const Instruction& inst) {
  constexpr uint64_t kLarge = 4096;
  return inst.opcode == spv::Op::OpConstantNull && m.type(inst.resultType).size > kLarge &&
         !m.nullsUsedAsValues.count(inst.resultId);
}

void KernelLowering::assignRegisters() {
  // Module-scope values: constants, undefs, variables.
  for (const auto& inst : m_.instructions) {
    if (!inst.resultId || !inst.resultType) continue;
    if (isConstantOp(inst.opcode) || inst.opcode == spv::Op::OpUndef || inst.opcode == spv::Op::OpVariable) {
      if (m_.types.count(inst.resultType) == 0 || initialiserOnlyNull(m_, inst)) continue;
      L_.allocReg(inst.resultId, m_.type(inst.resultType).size);
      if (isConstantOp(inst.opcode)) L_.constantIds_[inst.resultId] = true;
    }
  }
  for (uint32_t fid : order_) {
    const Function& f = m_.functions.at(fid);
    for (uint32_t p : f.parameters) L_.allocReg(p, L_.typeOfValue(p).size);
    for (const Block& b : f.blocks)
      for (uint32_t idx : b.instructions) {
        const Instruction& inst = m_.instructions[idx];
        if (inst.resultId && inst.resultType && !L_.hasReg(inst.resultId)) {
          const Type& t = m_.type(inst.resultType);
          if (t.kind != TypeKind::Void) L_.allocReg(inst.resultId, t.size);
        }
      }
  }
}

uint32_t KernelLowering::newTag(AllocationDesc d) {
  // A 64-bit kernel's tag svm::kTag is the SVM range's (svm.hpp): an allocation never gets it.
  if (L_.opt.addressBits == 64 && k_.allocations.size() == svm::kTag)
    k_.allocations.emplace_back("shared virtual memory", AllocationSource::Null, spv::StorageClass::CrossWorkgroup);
  k_.allocations.push_back(std::move(d));
  return uint32_t(k_.allocations.size() - 1);
}

// llvm-spirv's entry point is often a wrapper that passes its parameters straight to the
// exported kernel function; the parameter names are on that function.
std::string KernelLowering::paramName(const Function& f, size_t i) {
  const uint32_t p = f.parameters[i];
  if (auto it = m_.names.find(p); it != m_.names.end() && !it->second.empty()) return it->second;
  auto fromDebug = [&](uint32_t fn, size_t k) -> std::string {
    auto it = m_.debugParamNames.find(fn);
    return it != m_.debugParamNames.end() && k < it->second.size() ? it->second[k] : "";
  };
  if (auto d = fromDebug(f.id, i); !d.empty()) return d;
  for (const Block& b : f.blocks)
    for (uint32_t idx : b.instructions) {
      const Instruction& inst = m_.instructions[idx];
      if (inst.opcode != spv::Op::OpFunctionCall || inst.operandCount() != f.parameters.size() + 1) continue;
      const Function& callee = m_.functions.at(inst.operand(0));
      if (inst.operand(i + 1) == p && i < callee.parameters.size()) {
        if (auto it = m_.names.find(callee.parameters[i]); it != m_.names.end()) return it->second;
        if (auto d = fromDebug(callee.id, i); !d.empty()) return d;
      }
    }
  return "";
}

// The scalars of type `id` at byte offset `at`, appended in offset order; false beyond kMaxScalarFields.
bool KernelLowering::scalarFields(uint32_t id, uint64_t at, std::vector<ScalarField>& out) const {
  const Type& t = m_.type(id);
  switch (t.kind) {
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Bool:
      if (out.size() == kMaxScalarFields) return false;
      out.push_back({uint32_t(at), uint8_t(t.size), t.kind == TypeKind::Float});
      return true;
    case TypeKind::Vector: {
      const uint64_t lane = m_.type(t.element).size;
      for (uint32_t i = 0; i < t.count; ++i)
        if (!scalarFields(t.element, at + i * lane, out)) return false;
      return true;
    }
    case TypeKind::Array:
      for (uint32_t i = 0; i < t.count; ++i)
        if (!scalarFields(t.element, at + i * t.stride, out)) return false;
      return true;
    case TypeKind::Struct:
      for (size_t i = 0; i < t.members.size(); ++i)
        if (!scalarFields(t.members[i], at + t.memberOffsets[i], out)) return false;
      return true;
    default: return false;  // pointers, events, …: not judged field by field
  }
}

void KernelLowering::assignParams(uint32_t entry) {
  const Function& f = m_.functions.at(entry);
  for (size_t i = 0; i < f.parameters.size(); ++i) {
    const uint32_t p = f.parameters[i];
    const Type& t = L_.typeOfValue(p);
    KernelParam kp;
    kp.name = paramName(f, i);
    kp.typeName = describeType(m_, L_.typeIdOfValue(p));
    kp.reg = L_.reg(p);
    kp.size = uint32_t(t.size);
    const bool byVal = t.kind == TypeKind::Pointer && hasParamAttr(p, spv::FunctionParameterAttribute::ByVal);
    // SPIR-V 1.0 §3.20 [external] FuncParamAttr NoWrite: "the function does not write through this pointer"
    // (llvm-spirv-15 writes it for a const pointer, and for any pointer the optimiser proved the kernel never writes).
    kp.noWrite = t.kind == TypeKind::Pointer && hasParamAttr(p, spv::FunctionParameterAttribute::NoWrite);
    if (byVal) {
      // SPIR-V 1.0 §3.20 [external] FuncParamAttr ByVal: the pointee is a copy owned by the callee; the
      // host passes the struct's bytes (OpenCL C structs by value).
      const Type& pointee = m_.type(t.element);
      kp.kind = ParamKind::Value;
      kp.byVal = true;
      kp.size = uint32_t(pointee.size);
      kp.storage = t.storage;
      kp.typeName = describeType(m_, t.element);
      AllocationDesc d{"by-value argument " + std::to_string(i) + (kp.name.empty() ? "" : " (" + kp.name + ")"),
                       AllocationSource::ByValArg,
                       spv::StorageClass::Function,
                       pointee.size,
                       pointee.align,
                       uint32_t(i)};
      d.arenaOffset = placePrivate(d, m_.def(p));
      kp.tag = newTag(std::move(d));
    } else if (t.kind == TypeKind::Pointer) {
      kp.storage = t.storage;
      const Type& pointee = m_.type(t.element);
      kp.pointeeAlign = pointee.align ? pointee.align : 1;
      if (t.storage == spv::StorageClass::Workgroup) {
        kp.kind = ParamKind::Local;
        kp.tag = newTag({"local argument " + std::to_string(i) + (kp.name.empty() ? "" : " (" + kp.name + ")"),
                         AllocationSource::LocalArg, spv::StorageClass::Workgroup, 0, kp.pointeeAlign, uint32_t(i)});
      } else {
        kp.kind = ParamKind::Buffer;
        if (pointee.kind == TypeKind::Struct || pointee.kind == TypeKind::Array) {
          kp.pointeeSize = pointee.size;
          if (!scalarFields(t.element, 0, kp.pointeeFields)) kp.pointeeFields.clear();
        }
        // A Generic pointer parameter is a block literal (a block kernel's first parameter, device_enqueue.hpp):
        // global memory.
        AllocationDesc d{"argument " + std::to_string(i) + (kp.name.empty() ? "" : " (" + kp.name + ")"),
                         AllocationSource::KernelArg,
                         t.storage == spv::StorageClass::Generic ? spv::StorageClass::CrossWorkgroup : t.storage,
                         0,
                         kp.pointeeAlign,
                         uint32_t(i)};
        kp.tag = newTag(std::move(d));
      }
    } else if (t.kind == TypeKind::Image) {
      // OpenCL SPIR-V Environment §2.8.2 [[_kernel_arguments]]: OpTypeImage parameters; the register holds the
      // image's handle (exec.hpp kImageHandleTag).
      const ImageTypeInfo info = imageTypeInfo(m_, L_.typeIdOfValue(p));
      if (!info.valid) L_.reject(m_.def(p), "image parameter of an image type OpenCL does not have: " + info.why);
      kp.kind = ParamKind::Image;
      kp.imageType = info.type;
      kp.depth = info.depth;
      kp.access = info.access;
      kp.handleIndex = uint32_t(k_.imageParams.size());
      if (kp.handleIndex >= kMaxImageHandles) L_.reject(m_.def(p), "more image parameters than clref's handles index");
      k_.imageParams.push_back(uint32_t(i));
    } else if (t.kind == TypeKind::Pipe) {
      // OpenCL SPIR-V Environment §2.8.2 [[_kernel_arguments]]: OpTypePipe parameters; the register holds the pipe's
      // handle (exec.hpp kPipeHandleTag).
      kp.kind = ParamKind::Pipe;
      kp.handleIndex = uint32_t(k_.pipeParams.size());
      if (kp.handleIndex >= kMaxImageHandles) L_.reject(m_.def(p), "more pipe parameters than clref's handles index");
      k_.pipeParams.push_back(uint32_t(i));
    } else if (t.kind == TypeKind::Queue) {
      // OpenCL SPIR-V Environment §2.8.2 [[_kernel_arguments]]: OpTypeQueue parameters (queue_t, a device queue);
      // the register holds the queue's handle (device_enqueue.hpp).
      kp.kind = ParamKind::Queue;
      k_.usesDeviceEnqueue = true;
    } else if (t.kind == TypeKind::Sampler) {
      kp.kind = ParamKind::Sampler;
      kp.handleIndex = uint32_t(k_.samplerParams.size());
      k_.samplerParams.push_back(uint32_t(i));
    } else {
      // By-value arguments: struct by value is passed as a pointer with ByVal in some
      // producers; llvm-spirv passes OpenCL structs by value as struct-typed parameters.
      kp.kind = ParamKind::Value;
    }
    k_.params.push_back(std::move(kp));
  }
}

bool KernelLowering::hasParamAttr(uint32_t id, spv::FunctionParameterAttribute a) const {
  auto it = m_.decorations.find(id);
  if (it == m_.decorations.end()) return false;
  for (const auto& d : it->second)
    if (d.kind == spv::Decoration::FuncParamAttr && !d.literals.empty() && d.literals[0] == uint32_t(a)) return true;
  return false;
}

uint64_t KernelLowering::placeIn(uint64_t& arena, uint64_t size, uint32_t align) {
  align = std::max<uint32_t>(align, 1);
  const uint64_t off = (arena + align - 1) / align * align;
  arena = off + size;
  return off;
}

uint64_t KernelLowering::placeBounded(uint64_t& arena, const AllocationDesc& d, uint64_t limit, const char* memory,
                                      const Instruction& at) {
  const uint64_t off = d.size <= limit ? placeIn(arena, d.size, d.align) : 0;
  if (d.size > limit || arena > limit)
    throw ModuleError(
        std::string(memory) + " limit: " + d.name + " needs " + std::to_string(d.size) + " bytes" +
        (d.size <= limit ? ", taking the kernel's " + std::string(memory) + " to " + std::to_string(arena) + " bytes"
                         : std::string()) +
        ", above clref's limit of " + std::to_string(limit) + " bytes\n  at " + m_.describe(L_.index(at)));
  return off;
}

uint64_t KernelLowering::placePrivate(const AllocationDesc& d, const Instruction& at) {
  return placeBounded(k_.privateArenaBytes, d, kMaxPrivateBytesPerWorkItem, "private memory per work-item", at);
}

void KernelLowering::assignModuleVariables() {
  // Every program-scope variable of the module is allocated for the program: their total is checked before any is.
  uint64_t programScopeTotal = 0;
  for (uint32_t v : m_.globalVariables) {
    const Instruction& inst = m_.def(v);
    const auto sc = spv::StorageClass(inst.operand(0));
    if (m_.decoration(v, spv::Decoration::BuiltIn) ||
        (sc != spv::StorageClass::CrossWorkgroup && sc != spv::StorageClass::UniformConstant))
      continue;
    const Type& t = m_.type(m_.type(inst.resultType).element);
    AllocationDesc d;
    d.name = m_.nameOf(v);
    d.size = t.size;
    d.align = t.align;
    uint64_t one = 0;
    (void)placeBounded(one, d, kMaxProgramScopeVariableBytes, "program-scope variable size", inst);
    (void)placeBounded(programScopeTotal, d, kMaxProgramScopeTotalBytes, "program-scope variables' total size", inst);
  }
  for (uint32_t v : m_.globalVariables) {
    const Instruction& inst = m_.def(v);
    const Type& pt = m_.type(inst.resultType);
    const Type& t = m_.type(pt.element);
    const auto sc = spv::StorageClass(inst.operand(0));
    if (k_.shader && isShaderResource(sc)) continue;  // assignShaderResources
    AllocationDesc d;
    d.name = m_.nameOf(v);
    d.storage = sc;
    d.size = t.size;
    d.align = t.align;
    d.variable = v;
    if (auto* b = m_.decoration(v, spv::Decoration::BuiltIn)) {
      d.source = AllocationSource::Builtin;
      d.builtin = spv::BuiltIn(b->literals[0]);
      // OpenCL SPIR-V Environment §2.9 [[_built_in_variables]]: "All built-in variables must be in the Input storage
      // class" (a fuzzed module decorated a local array BuiltIn CullDistance).
      if (sc != spv::StorageClass::Input)
        throw ModuleError("BuiltIn " + builtinName(d.builtin) + " variable " + d.name +
                          " is not in the Input storage class; all built-in variables must be (OpenCL SPIR-V "
                          "Environment §2.9 [[_built_in_variables]])\n  at " +
                          m_.describe(L_.index(inst)));
      if (auto want = builtinTypeMismatch(m_, d.builtin, pt.element))
        throw ModuleError("BuiltIn " + builtinName(d.builtin) + " variable " + d.name + " is declared as " +
                          describeType(m_, pt.element) + "; it must be " + *want +
                          " (OpenCL SPIR-V Environment §2.9 [[_built_in_variables]])\n  at " +
                          m_.describe(L_.index(inst)));
      d.builtinElementBytes = uint32_t(t.kind == TypeKind::Vector ? m_.type(t.element).size : t.size);
      d.storage = spv::StorageClass::Input;
      d.arenaOffset = placePrivate(d, inst);
      L_.builtinOf_[v] = d.builtin;
      usedThroughMemory(v);
    } else if (sc == spv::StorageClass::Workgroup) {
      d.source = AllocationSource::Workgroup;
      if (isSpecSized(pt.element)) {
        specSized_.push_back(uint32_t(k_.allocations.size()));
      } else {
        d.arenaOffset =
            placeBounded(k_.workgroupArenaBytes, d, kMaxWorkgroupBytes, "local memory per work-group", inst);
      }
    } else if (sc == spv::StorageClass::Private || sc == spv::StorageClass::Function) {
      d.source = AllocationSource::Private;
      if (isSpecSized(pt.element))
        specSized_.push_back(uint32_t(k_.allocations.size()));
      else
        d.arenaOffset = placePrivate(d, inst);
      // An initializer is copied into `init` by writeConstants, once the constants exist.
    } else if (sc == spv::StorageClass::CrossWorkgroup || sc == spv::StorageClass::UniformConstant) {
      d.source = AllocationSource::Global;
      d.storage = sc;
      std::lock_guard lock(L_.opt.globals->mutex);
      auto& bytes = L_.opt.globals->bytes[v];
      if (bytes.size() != d.size) {
        // OpenCL C 3.0 §6.7.7 [[_initialization]]: program-scope variables are zero-initialised
        bytes.assign(d.size, 0);
        if (inst.operandCount() > 1) pendingInit_.push_back(v);
      }
    } else {
      throw ModuleError("module-scope variable " + m_.nameOf(v) + " has unsupported storage class " +
                        std::to_string(uint32_t(sc)));
    }
    L_.tagOf_[v] = newTag(std::move(d));
  }
}

void KernelLowering::assignFunctionVariables() {
  // Function-scope variables of reachable functions: one static slot each (no recursion).
  for (uint32_t fid : order_)
    for (uint32_t v : m_.functions.at(fid).variables) {
      const Instruction& inst = m_.def(v);
      const Type& t = m_.type(m_.type(inst.resultType).element);
      AllocationDesc d;
      const std::string source = m_.debugVariableName(v);
      d.name = (source.empty() ? m_.nameOf(v) : source) + " (private variable in " + m_.nameOf(fid) + ")";
      d.source = AllocationSource::Private;
      d.storage = spv::StorageClass::Function;
      d.size = t.size;
      d.align = t.align;
      d.variable = v;
      if (isSpecSized(m_.type(inst.resultType).element))
        specSized_.push_back(uint32_t(k_.allocations.size()));
      else
        d.arenaOffset = placePrivate(d, inst);
      L_.tagOf_[v] = newTag(std::move(d));
    }
}

// A shader's array whose length is an OpSpecConstantOp (`shared float tile[gl_WorkGroupSize.x]`) has no size until the
// constants are specialized (Module::layoutTypes gives it length 0).
bool KernelLowering::isSpecSized(uint32_t typeId) const {
  const Type& t = m_.type(typeId);
  return k_.shader && t.kind == TypeKind::Array && t.count == 0;
}

// The variables isSpecSized deferred, placed once writeConstants has evaluated their lengths: the array's length
// operand times its stride.
void KernelLowering::placeSpecSized() {
  for (uint32_t tag : specSized_) {
    AllocationDesc& d = k_.allocations[tag];
    const Instruction& inst = m_.def(d.variable);
    const uint32_t arrayType = m_.type(inst.resultType).element;
    const Type& t = m_.type(arrayType);
    const uint64_t length = L_.constantInt(m_.def(arrayType).words.at(3));
    if (length == 0 || length > UINT32_MAX)
      L_.reject(inst, "the array's specialized length " + std::to_string(length) + " is not between 1 and 2^32 - 1");
    d.size = length * t.stride;
    d.arenaOffset = d.source == AllocationSource::Workgroup
                        ? placeBounded(k_.workgroupArenaBytes, d, kMaxWorkgroupBytes, "local memory per work-group",
                                       inst)
                        : placePrivate(d, inst);
  }
}

// A builtin variable read other than by a direct OpLoad needs its memory filled per work-item.
void KernelLowering::usedThroughMemory(uint32_t var) {
  for (uint32_t fid : order_)
    for (const Block& b : m_.functions.at(fid).blocks)
      for (uint32_t idx : b.instructions) {
        const Instruction& inst = m_.instructions[idx];
        if (inst.opcode == spv::Op::OpLoad && inst.operand(0) == var) continue;
        for (size_t w = inst.firstOperand; w < inst.words.size(); ++w)
          if (inst.words[w] == var) k_.fillsBuiltins = true;
      }
}

void KernelLowering::finishTags() {
  const auto ntags = k_.allocations.size();
  if (L_.opt.addressBits == 64) {
    k_.tagShift = 40;  // 2^24 allocations of up to 1 TiB
  } else {
    k_.tagShift = 32 - std::bit_width(ntags);  // as many offset bits as the tags leave
  }
  if (ntags >= (uint64_t(1) << (L_.opt.addressBits - k_.tagShift)))
    throw ModuleError("too many allocations for the address width");
  for (const auto& [v, tag] : L_.tagOf_) {
    const uint64_t ptr = uint64_t(tag) << k_.tagShift;
    std::memcpy(k_.registerTemplate.data() + L_.reg(v), &ptr, L_.ptrBytes());
  }
}

}  // namespace clref::interpreter
