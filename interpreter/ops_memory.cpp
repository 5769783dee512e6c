// SPIR-V 1.0 §3.32.8 [external] Memory Instructions. Pointers are tagged: the allocation tag in the high
// bits, the byte offset in the low bits (exec.hpp access()); every access is checked.
#include <algorithm>
#include <optional>

#include "interpreter/avx2_clones.hpp"
#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/shadow_support.hpp"

namespace clref::interpreter {
namespace {

template <class P, uint32_t N> const Op* loadFixed(WorkItem& wi, const Op* op) {
  const uint8_t* p = access(wi, op, rd<P>(wi, op->a), N, op->align, false);
  if (!p) [[unlikely]]
    return nullptr;
  std::memcpy(wi.regs + op->r, p, N);
  return op + 1;
}
template <class P> const Op* loadAny(WorkItem& wi, const Op* op) {
  const uint8_t* p = access(wi, op, rd<P>(wi, op->a), op->n, op->align, false);
  if (!p) [[unlikely]]
    return nullptr;
  std::memcpy(wi.regs + op->r, p, op->n);
  return op + 1;
}
template <class P, uint32_t N> const Op* storeFixed(WorkItem& wi, const Op* op) {
  uint8_t* p = access(wi, op, rd<P>(wi, op->a), N, op->align, true);
  if (!p) [[unlikely]]
    return nullptr;
  std::memcpy(p, wi.regs + op->b, N);
  return op + 1;
}
template <class P> const Op* storeAny(WorkItem& wi, const Op* op) {
  uint8_t* p = access(wi, op, rd<P>(wi, op->a), op->n, op->align, true);
  if (!p) [[unlikely]]
    return nullptr;
  std::memcpy(p, wi.regs + op->b, op->n);
  return op + 1;
}

// The lane forms of loadFixed and storeFixed (lanes.hpp): as fusedOnLanes below, through a pointer in a register.
template <bool Store, class P, class I, uint32_t N, bool Fused> const Op* fusedSharedOnLanes(LaneBatch& b, const Op* op);
template <bool Store, class P, uint32_t N> const Op* fixedOnLanes(LaneBatch& b, const Op* op) {
  if constexpr (N == 1 || N == 2 || N == 4 || N == 8)
    if (b.log)
      if (const Op* next = fusedSharedOnLanes<Store, P, void, N, false>(b, op)) return next;
  const uint32_t align = op->align, count = b.count;
  const uint8_t* pointer = b.lane0(op->a);
  uint8_t* value = b.lane0(Store ? op->b : op->r);
  LaneAccess access(b, N, Store);
  for (uint32_t l = 0; l < count; ++l) {
    uint8_t* at = access.at<Store>(l, rdLane<P>(pointer, l), N, align);
    if (!at) [[unlikely]]
      return stopAccess(b, op, l);
    if constexpr (N <= 8) {
      if constexpr (Store)
        std::memcpy(at, value + size_t(l) * 8, N);
      else
        std::memcpy(value + size_t(l) * 8, at, N);
    } else if constexpr (Store) {
      laneToMemory(b, op->b, l, at, N);
    } else {
      memoryToLane(b, op->r, l, at, N);
    }
  }
  return op + 1;
}
template <class P, uint32_t N> Handler loadFixedWithLanes() {
  return laneForm<&loadFixed<P, N>, &fixedOnLanes<false, P, N>>();
}
template <class P, uint32_t N> Handler storeFixedWithLanes() {
  return laneForm<&storeFixed<P, N>, &fixedOnLanes<true, P, N>>();
}

template <class P> Handler loadHandler(uint64_t n) {
  switch (n) {
    case 1: return loadFixedWithLanes<P, 1>();
    case 2: return loadFixedWithLanes<P, 2>();
    case 4: return loadFixedWithLanes<P, 4>();
    case 8: return loadFixedWithLanes<P, 8>();
    case 16: return loadFixedWithLanes<P, 16>();
    default: return &loadAny<P>;
  }
}
template <class P> Handler storeHandler(uint64_t n) {
  switch (n) {
    case 1: return storeFixedWithLanes<P, 1>();
    case 2: return storeFixedWithLanes<P, 2>();
    case 4: return storeFixedWithLanes<P, 4>();
    case 8: return storeFixedWithLanes<P, 8>();
    case 16: return storeFixedWithLanes<P, 16>();
    default: return &storeAny<P>;
  }
}

// OpLoad of a work-item BuiltIn variable: computed from the work-item's identity.
const Op* loadBuiltin(WorkItem& wi, const Op* op) {
  builtinValue(wi, spv::BuiltIn(op->b), wi.regs + op->r, op->n);
  return op + 1;
}
// Its lane form (lanes.hpp): each lane's value, at most a uint4 or three size_t. The lanes are work-items of one
// work-group: what depends only on the group and the launch is computed once.
bool sameInWorkGroup(spv::BuiltIn b) {
  switch (b) {
    case spv::BuiltIn::WorkgroupId:
    case spv::BuiltIn::NumWorkgroups:
    case spv::BuiltIn::GlobalSize:
    case spv::BuiltIn::WorkgroupSize:
    case spv::BuiltIn::EnqueuedWorkgroupSize:
    case spv::BuiltIn::GlobalOffset:
    case spv::BuiltIn::WorkDim:
    case spv::BuiltIn::SubgroupMaxSize:
    case spv::BuiltIn::NumSubgroups:
    case spv::BuiltIn::NumEnqueuedSubgroups: return true;
    default: return false;
  }
}
const Op* loadBuiltinOnLanes(LaneBatch& b, const Op* op) {
  uint8_t value[32];
  const spv::BuiltIn builtin = spv::BuiltIn(op->b);
  if (sameInWorkGroup(builtin)) {
    const uint32_t bytes = builtinValue(*b.items[0], builtin, value, op->n);
    // One value for every lane: each 8-byte chunk filled across the lanes (a register owns the rest of its last chunk).
    for (uint32_t at = 0; at < bytes; at += 8) {
      uint64_t chunk = 0;
      std::memcpy(&chunk, value + at, bytes - at < 8 ? bytes - at : 8);
      uint8_t* lanes = b.lane0(op->r + at);
      for (uint32_t l = 0; l < b.count; ++l) std::memcpy(lanes + size_t(l) * 8, &chunk, 8);
    }
    return op + 1;
  }
  for (uint32_t l = 0; l < b.count; ++l)
    memoryToLane(b, op->r, l, value, builtinValue(*b.items[l], builtin, value, op->n));
  return op + 1;
}
// The three ids of a 64-bit device, which most kernels load first (get_global_id and the like): the work-item's own
// array as it is.
template <std::array<uint64_t, 3> WorkItem::*Ids> const Op* loadIds64(WorkItem& wi, const Op* op) {
  std::memcpy(wi.regs + op->r, (wi.*Ids).data(), 24);
  return op + 1;
}
// Its lane form (lanes.hpp): the result is three 8-byte chunks.
template <std::array<uint64_t, 3> WorkItem::*Ids>
CLREF_AVX2_TEMPLATE_CLONES const Op* loadIds64OnLanes(LaneBatch& b, const Op* op) {
  uint8_t *x = b.lane0(op->r), *y = b.lane0(op->r + 8), *z = b.lane0(op->r + 16);
  const uint32_t count = b.count;
  // A batch's lanes are work-items of one work-group; consecutive ones in slot order have ids that follow each other.
  if constexpr (Ids == &WorkItem::groupId) {
    const std::array<uint64_t, 3> id = b.consecutiveIds ? b.groupId : b.items[0]->groupId;
    for (uint32_t l = 0; l < count; ++l) {
      wrLane<uint64_t>(x, l, id[0]);
      wrLane<uint64_t>(y, l, id[1]);
      wrLane<uint64_t>(z, l, id[2]);
    }
    return op + 1;
  }
  if (b.consecutiveIds) {
    // The offset of a global id from the local one (the group's first work-item's global id), or none.
    std::array<uint64_t, 3> base{};
    if (Ids == &WorkItem::globalId)
      for (int d = 0; d < 3; ++d) base[d] = b.globalId0[d] - b.localId0[d];
    const std::array<uint64_t, 3> size = b.localSize;
    uint64_t lx = b.localId0[0] + b.first, ly = b.localId0[1], lz = b.localId0[2];
    ly += lx / size[0];
    lx %= size[0];
    lz += ly / size[1];
    ly %= size[1];
    // Row by row: x steps by one along each (a loop a compiler vectorises), y and z stay.
    for (uint32_t l = 0; l < count;) {
      const uint32_t run = uint32_t(std::min<uint64_t>(count - l, size[0] - lx));
      const uint64_t x0 = base[0] + lx - l, y0 = base[1] + ly, z0 = base[2] + lz;
      for (const uint32_t end = l + run; l < end; ++l) {
        wrLane<uint64_t>(x, l, x0 + l);
        wrLane<uint64_t>(y, l, y0);
        wrLane<uint64_t>(z, l, z0);
      }
      lx = 0;
      if (++ly == size[1]) ly = 0, ++lz;
    }
    return op + 1;
  }
  for (uint32_t l = 0; l < count; ++l) {
    const auto& ids = b.items[l]->*Ids;
    std::memcpy(x + size_t(l) * 8, &ids[0], 8);
    std::memcpy(y + size_t(l) * 8, &ids[1], 8);
    std::memcpy(z + size_t(l) * 8, &ids[2], 8);
  }
  return op + 1;
}
template <std::array<uint64_t, 3> WorkItem::*Ids> Handler idsWithLanes() {
  return laneForm<&loadIds64<Ids>, &loadIds64OnLanes<Ids>>();
}
Handler builtinLoadHandler(spv::BuiltIn b, uint32_t elementBytes, uint64_t resultBytes) {
  if (elementBytes == 8 && resultBytes >= 24) switch (b) {
      case spv::BuiltIn::GlobalInvocationId: return idsWithLanes<&WorkItem::globalId>();
      case spv::BuiltIn::LocalInvocationId: return idsWithLanes<&WorkItem::localId>();
      case spv::BuiltIn::WorkgroupId: return idsWithLanes<&WorkItem::groupId>();
      default: break;
    }
  return laneForm<&loadBuiltin, &loadBuiltinOnLanes>();
}

// Access chains: base pointer plus a constant byte offset plus dynamic index × stride terms.
// Indices are signed (SPIR-V 1.0 §3.32.8 [external] OpAccessChain: "treated as signed").
struct ChainTerm {
  uint32_t reg;
  uint32_t bytes;  // index width
  int64_t stride;
};
template <class I> int64_t signedIndex(const WorkItem& wi, uint32_t reg) { return int64_t(Signed<I>(rd<I>(wi, reg))); }
int64_t readMemoryIndex(const WorkItem& wi, uint32_t reg, uint32_t bytes) {
  switch (bytes) {
    case 1: return signedIndex<uint8_t>(wi, reg);
    case 2: return signedIndex<uint16_t>(wi, reg);
    case 4: return signedIndex<uint32_t>(wi, reg);
    default: return signedIndex<uint64_t>(wi, reg);
  }
}
// base + imm + Σ index × stride. A small step out of the allocation may come back in a later
// chain (p - 1, then + i), so such a result is kept as computed. A step no allocation can span
// (its size is below 2^tagShift), or one that overflows 64 bits, is refused: the result is the
// base pointer's allocation at its last offset, so that an access through it faults as
// out-of-bounds on the allocation the pointer came from (SPIR-V 1.0 §3.32.8 [external]
// OpPtrAccessChain: the result must lie within the base's object) instead of carrying into the
// tag bits of another allocation.
inline uint64_t overflowedPointer(const WorkItem& wi, uint64_t base) { return (base & ~wi.offsetMask) | wi.offsetMask; }
// delta += index × stride; true when the product or sum overflows 64 bits.
inline bool addTerm(int64_t& delta, int64_t index, int64_t stride) {
  int64_t term;
  return __builtin_mul_overflow(index, stride, &term) || __builtin_add_overflow(delta, term, &delta);
}
inline bool beyondAnyAllocation(int64_t delta, uint64_t offsetMask) {
  return delta > int64_t(offsetMask) || delta < -int64_t(offsetMask);
}
template <class P> const Op* chainOverflow(WorkItem& wi, const Op* op) {
  wr<P>(wi, op->r, P(overflowedPointer(wi, rd<P>(wi, op->a))));
  return op + 1;
}
template <class P> const Op* chainConst(WorkItem& wi, const Op* op) {
  wr<P>(wi, op->r, P(rd<P>(wi, op->a) + op->imm));
  return op + 1;
}
template <class P> const Op* chainConstOnLanes(LaneBatch& b, const Op* op) {
  const uint8_t* pointer = b.lane0(op->a);
  uint8_t* result = b.lane0(op->r);
  const uint32_t count = b.count;
  for (uint32_t l = 0; l < count; ++l) wrLane<P>(result, l, P(rdLane<P>(pointer, l) + op->imm));
  return op + 1;
}
template <class P> Handler chainConstWithLanes() { return laneForm<&chainConst<P>, &chainConstOnLanes<P>>(); }
template <class P, class I> const Op* chain1(WorkItem& wi, const Op* op) {
  const int64_t idx = int64_t(Signed<I>(rd<I>(wi, op->b)));
  const uint64_t base = rd<P>(wi, op->a);
  int64_t delta = int64_t(op->imm);
  if (addTerm(delta, idx, int64_t(op->c)) || beyondAnyAllocation(delta, wi.offsetMask)) [[unlikely]]
    wr<P>(wi, op->r, P(overflowedPointer(wi, base)));
  else
    wr<P>(wi, op->r, P(base + uint64_t(delta)));
  return op + 1;
}
// Its lane form (lanes.hpp): pure arithmetic, never a fault.
template <class P, class I> const Op* chain1OnLanes(LaneBatch& b, const Op* op) {
  const uint8_t* index = b.lane0(op->b);
  const uint8_t* pointer = b.lane0(op->a);
  uint8_t* result = b.lane0(op->r);
  const int64_t imm = int64_t(op->imm), stride = int64_t(op->c);
  const uint64_t offsetMask = b.items[0]->offsetMask;
  const uint32_t count = b.count;
  // imm + index·stride is linear in the index: when the lanes' smallest and largest indices neither overflow nor
  // leave every allocation, no lane's does, and each lane's pointer is a plain sum (one loop the compiler vectorises).
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (uint32_t l = 0; l < count; ++l) {
    const int64_t i = int64_t(Signed<I>(rdLane<I>(index, l)));
    lo = std::min(lo, i);
    hi = std::max(hi, i);
  }
  int64_t atLo = imm, atHi = imm;
  if (!addTerm(atLo, lo, stride) && !addTerm(atHi, hi, stride) && !beyondAnyAllocation(atLo, offsetMask) &&
      !beyondAnyAllocation(atHi, offsetMask)) [[likely]] {
    for (uint32_t l = 0; l < count; ++l)
      wrLane<P>(result, l,
                P(rdLane<P>(pointer, l) + uint64_t(imm) + uint64_t(int64_t(Signed<I>(rdLane<I>(index, l)))) * stride));
    return op + 1;
  }
  for (uint32_t l = 0; l < count; ++l) {
    const uint64_t base = rdLane<P>(pointer, l);
    int64_t delta = imm;
    if (addTerm(delta, int64_t(Signed<I>(rdLane<I>(index, l))), stride) || beyondAnyAllocation(delta, offsetMask))
        [[unlikely]]
      wrLane<P>(result, l, P((base & ~offsetMask) | offsetMask));  // overflowedPointer
    else
      wrLane<P>(result, l, P(base + uint64_t(delta)));
  }
  return op + 1;
}
template <class P, class I> Handler chain1WithLanes() { return laneForm<&chain1<P, I>, &chain1OnLanes<P, I>>(); }
template <class P> const Op* chainN(WorkItem& wi, const Op* op) {
  const auto* words = static_cast<const uint32_t*>(op->aux);
  const uint64_t base = rd<P>(wi, op->a);
  int64_t delta = int64_t(op->imm);
  bool overflow = false;
  for (uint32_t i = 0; i < op->n; ++i) {
    ChainTerm t;
    std::memcpy(&t, words + 4 * i, sizeof t);
    overflow |= addTerm(delta, readMemoryIndex(wi, t.reg, t.bytes), t.stride);
  }
  overflow |= beyondAnyAllocation(delta, wi.offsetMask);
  wr<P>(wi, op->r, P(overflow ? overflowedPointer(wi, base) : base + uint64_t(delta)));
  return op + 1;
}

// An access chain into an array of buffer blocks: its first index selects the descriptor, whose pointer is read
// from the descriptors' register table; the chain's other indices then step into that buffer. a = the table, b = the
// index (I bytes, signed), n = the array's size, c = the parameter of element 0; r = the chain's result register,
// which the chain proper then reads as its base.
// Vulkan §15.1 [external] Shader Resource Declarations: an index out of the array is undefined, as an access out of
// a bound buffer is (Vulkan §9 [external] Shader Out-of-Bounds Memory Access); the choice shader_out_of_bounds
// decides between a fault naming the binding and a pointer whose accesses read zeros and write nothing.
template <class P> [[gnu::cold]] const Op* descriptorOutOfRange(WorkItem& wi, const Op* op, int64_t index) {
  const KernelParam& p = wi.launch->kernel->params.at(op->c);
  const std::string text = "descriptor index " + std::to_string(index) + " outside the array of " +
                           std::to_string(op->n) + " descriptors at set " + std::to_string(p.descriptorSet) +
                           " binding " + std::to_string(p.binding) + " ('" + p.name.substr(0, p.name.rfind('[')) + "')";
  noteChoice(wi, op, numerics::Choice::ShaderOutOfBounds, "a shader's out-of-bounds buffer access");
  if (choicesOf(wi).get<numerics::Choice::ShaderOutOfBounds>() == numerics::ShaderOutOfBoundsOption::Fault)
    return fault(wi, op, FaultKind::OutOfBounds, text + " (choice shader_out_of_bounds=fault)");
  warnOnce(wi, op, text + ": its accesses read zeros and write nothing (choice shader_out_of_bounds=robust)");
  // Element 0's buffer at an offset past any buffer's end (2^(tagShift-1), half the offset range: the chain's other
  // steps stay within the tag): every access through it is out of bounds.
  wr<P>(wi, op->r, P((rd<P>(wi, op->a) & ~wi.offsetMask) | ((wi.offsetMask >> 1) + 1)));
  return op + 1;
}
template <class P, class I> const Op* descriptorSelect(WorkItem& wi, const Op* op) {
  const int64_t index = int64_t(Signed<I>(rd<I>(wi, op->b)));
  if (index < 0 || index >= int64_t(op->n)) [[unlikely]]
    return descriptorOutOfRange<P>(wi, op, index);
  wr<P>(wi, op->r, rd<P>(wi, op->a + uint32_t(index) * sizeof(P)));
  return op + 1;
}

// OpCopyMemory / OpCopyMemorySized: both ranges checked, then a memmove.
template <class P> const Op* copyMemory(WorkItem& wi, const Op* op) {
  // n == 0: OpCopyMemory with the static size in imm; else the size operand's width.
  uint64_t n = op->imm;
  if (op->n == 8)
    n = rd<uint64_t>(wi, op->c);
  else if (op->n == 4)
    n = rd<uint32_t>(wi, op->c);
  else if (op->n == 2)
    n = rd<uint16_t>(wi, op->c);
  else if (op->n == 1)
    n = rd<uint8_t>(wi, op->c);
  if (n == 0) return op + 1;
  const uint8_t* src = access(wi, op, rd<P>(wi, op->b), n, 1, false);
  if (!src) return nullptr;
  uint8_t* dst = access(wi, op, rd<P>(wi, op->a), n, 1, true);
  if (!dst) return nullptr;
  std::memmove(dst, src, n);
  return op + 1;
}

// Alignment an access must respect: the Aligned memory operand when present (SPIR-V 1.0
// §3.26 [external] Memory Operands), else the natural alignment of the scalar being accessed. `typeAlign` is the
// natural one when the operand claims more (Op::typeAlign), else 0.
struct AccessAlignment {
  uint32_t align = 1, typeAlign = 0;
};
AccessAlignment accessAlign(const Lowerer& L, const Instruction& inst, size_t memOperandIndex, uint32_t typeId) {
  const Type& t = L.type(typeId);
  uint32_t natural = t.align ? t.align : 1;
  if (t.kind == TypeKind::Vector) natural = uint32_t(L.type(t.element).size);
  if (t.kind == TypeKind::Struct || t.kind == TypeKind::Array) natural = 1;
  if (inst.operandCount() > memOperandIndex) {
    const uint32_t mask = inst.operand(memOperandIndex);
    if (mask & uint32_t(spv::MemoryAccessMask::Aligned)) {
      const uint32_t a = inst.operand(memOperandIndex + 1);  // Aligned's literal comes first
      if (a && (a & (a - 1)) == 0) return {a, a > natural ? natural : 0};
    }
  }
  return {natural, 0};
}
// Bytes an access touches: a 3-component vector reads or writes 3 components, not its padding.
uint64_t accessBytes(const Lowerer& L, uint32_t typeId) {
  const Type& t = L.type(typeId);
  if (t.kind == TypeKind::Vector && t.count == 3) return 3 * L.type(t.element).size;
  // A shader's struct or array in memory ends with its last member's or element's bytes: the padding that rounds its
  // size up to its alignment is no part of it (Vulkan §15.6.4 [external] Offset and Stride Assignment), and a buffer
  // bound for it may stop there.
  if (L.m.isVulkanShader()) {
    if (t.kind == TypeKind::Struct) {
      uint64_t end = 0;
      for (size_t i = 0; i < t.members.size(); ++i)
        end = std::max(end, t.memberOffsets[i] + accessBytes(L, t.members[i]));
      return end;
    }
    if (t.kind == TypeKind::Array && t.count > 0) return (t.count - 1) * t.stride + accessBytes(L, t.element);
  }
  return t.size;
}

// ---- Matrices in memory with an explicit layout (Vulkan shader modules) -------------------------------------------
//
// Vulkan §15.6.4 [external] Offset and Stride Assignment: a matrix in a Block's memory has its columns MatrixStride
// bytes apart (ColMajor), or its rows (RowMajor: element (column c, row r) at r·MatrixStride + c·component bytes),
// as the decorations of the struct member that holds it (or an array of them) say; in registers it is its columns
// packed (type_layout.cpp). A load or store of a value that holds a matrix, or of a column of a row-major matrix
// (a vector whose components are MatrixStride apart), through a pointer into such memory copies piece by piece
// (a plan, computed at lowering from the access chain's path); every other access is the plain copy. OpenCL
// modules have no matrices: none of this runs for them.

// The storage classes whose memory a shader lays out explicitly (Offset, ArrayStride, MatrixStride decorations;
// Vulkan §15.6.4 [external]); the others hold values in their register layout.
bool explicitLayout(const Lowerer& L, uint32_t pointerType) {
  if (!L.m.isVulkanShader()) return false;
  const Type& t = L.type(pointerType);
  if (t.kind != TypeKind::Pointer) return false;
  using spv::StorageClass;
  return t.storage == StorageClass::StorageBuffer || t.storage == StorageClass::Uniform ||
         t.storage == StorageClass::PushConstant || t.storage == StorageClass::PhysicalStorageBuffer;
}

// The layout decorations in effect where a pointer points: the MatrixStride and majorness of the struct member last
// passed (they apply to the matrices it holds, through arrays), and for a column of a row-major matrix the distance
// of its components.
struct MatrixLayout {
  uint32_t stride = 0;  // MatrixStride; 0: none in effect
  bool rowMajor = false;
};
struct MemoryView {
  MatrixLayout matrix;
  uint32_t componentStride = 0;  // the pointee is a vector whose components are this far apart; 0: packed
};

MatrixLayout memberMatrixLayout(const Lowerer& L, uint32_t structType, uint32_t member) {
  MatrixLayout ml;
  auto it = L.m.decorations.find(structType);
  if (it == L.m.decorations.end()) return ml;
  for (const Decoration& d : it->second) {
    if (d.member != int32_t(member)) continue;
    if (d.kind == spv::Decoration::MatrixStride && !d.literals.empty()) ml.stride = d.literals[0];
    if (d.kind == spv::Decoration::RowMajor) ml.rowMajor = true;
    if (d.kind == spv::Decoration::ColMajor) ml.rowMajor = false;
  }
  return ml;
}

// One index step of an access chain from a value of type `t` (updated to the element's type).
void stepView(const Lowerer& L, MemoryView& view, uint32_t& t, uint32_t indexId) {
  const Type& ty = L.type(t);
  switch (ty.kind) {
    case TypeKind::Struct: {
      const uint32_t idx = uint32_t(L.constantInt(indexId));
      view.matrix = memberMatrixLayout(L, t, idx);
      view.componentStride = 0;
      t = ty.members.at(idx);
      break;
    }
    case TypeKind::Matrix:
      view.componentStride = view.matrix.rowMajor ? view.matrix.stride : 0;
      t = ty.element;
      break;
    case TypeKind::Vector:
      view.componentStride = 0;
      t = ty.element;
      break;
    default: t = ty.element; break;  // arrays keep the member's decorations
  }
}

// The view of the memory a pointer points to, traced back through its access chains to its variable; nullopt when
// the pointer does not come from one statically (a function parameter).
std::optional<MemoryView> viewOf(const Lowerer& L, uint32_t ptr) {
  const Instruction* d = L.m.findDef(ptr);
  if (!d) return std::nullopt;
  if (d->opcode == spv::Op::OpVariable) return MemoryView{};
  if (d->opcode == spv::Op::OpCopyObject) return viewOf(L, d->operand(0));
  if (d->opcode != spv::Op::OpAccessChain && d->opcode != spv::Op::OpInBoundsAccessChain) return std::nullopt;
  auto view = viewOf(L, d->operand(0));
  if (!view) return std::nullopt;
  uint32_t t = L.type(L.typeIdOfValue(d->operand(0))).element;
  for (size_t k = 1; k < d->operandCount(); ++k) stepView(L, *view, t, d->operand(k));
  return view;
}

bool containsMatrix(const Lowerer& L, uint32_t typeId) {
  const Type& t = L.type(typeId);
  switch (t.kind) {
    case TypeKind::Matrix: return true;
    case TypeKind::Array:
    case TypeKind::RuntimeArray: return containsMatrix(L, t.element);
    case TypeKind::Struct:
      for (uint32_t m : t.members)
        if (containsMatrix(L, m)) return true;
      return false;
    default: return false;
  }
}

// A copy plan: (memory offset from the pointer, register offset in the value, bytes) triples.
class CopyPlan {
 public:
  CopyPlan(const Lowerer& L, const Instruction& inst) : L(L), inst(inst) {}
  std::vector<uint32_t> triples;

  void add(uint32_t typeId, const MemoryView& view, uint64_t mem, uint64_t reg) {
    const Type& t = L.type(typeId);
    switch (t.kind) {
      case TypeKind::Vector: {
        const uint32_t comp = uint32_t(L.type(t.element).size);
        if (view.componentStride == 0) return piece(mem, reg, uint64_t(t.count) * comp);
        for (uint32_t i = 0; i < t.count; ++i) piece(mem + uint64_t(i) * view.componentStride, reg + i * comp, comp);
        return;
      }
      case TypeKind::Matrix: {
        const Type& column = L.type(t.element);
        const uint32_t comp = uint32_t(L.type(column.element).size);
        if (view.matrix.stride == 0)
          L.reject(inst,
                   "a matrix in memory with an explicit layout has no MatrixStride decoration on its struct member");
        MemoryView col;
        col.componentStride = view.matrix.rowMajor ? view.matrix.stride : 0;
        for (uint32_t c = 0; c < t.count; ++c)
          add(t.element, col, mem + uint64_t(c) * (view.matrix.rowMajor ? comp : view.matrix.stride),
              reg + c * t.stride);
        return;
      }
      case TypeKind::Array: {
        MemoryView element{view.matrix, 0};
        for (uint32_t i = 0; i < t.count; ++i) add(t.element, element, mem + i * t.stride, reg + i * t.stride);
        return;
      }
      case TypeKind::Struct:
        for (uint32_t k = 0; k < t.members.size(); ++k)
          add(t.members[k], {memberMatrixLayout(L, typeId, k), 0}, mem + t.memberOffsets[k], reg + t.memberOffsets[k]);
        return;
      case TypeKind::RuntimeArray: L.reject(inst, "a load or store of a whole run-time array");
      default: return piece(mem, reg, t.size);
    }
  }

  // The value's register layout keeps its members and elements at their memory offsets (type_layout.cpp): a
  // matrix whose MatrixStride puts its columns (or rows) closer than their bytes spans less memory than its packed
  // columns take in registers, and would overlap what follows it there. Such a layout is refused, never copied into
  // registers that overlap.
  void checkRegistersApart() const {
    std::vector<std::pair<uint32_t, uint32_t>> ranges;  // (register offset, bytes)
    for (size_t i = 0; i + 2 < triples.size(); i += 3) ranges.emplace_back(triples[i + 1], triples[i + 2]);
    std::sort(ranges.begin(), ranges.end());
    for (size_t i = 1; i < ranges.size(); ++i)
      if (ranges[i - 1].first + ranges[i - 1].second > ranges[i].first)
        L.reject(inst,
                 "clref cannot convert this layout: a matrix whose MatrixStride is less than the bytes of its "
                 "columns (rows, when RowMajor) takes more bytes packed in registers than in memory, and "
                 "overlaps the member or element at byte offset " +
                     std::to_string(ranges[i].first));
  }

 private:
  void piece(uint64_t mem, uint64_t reg, uint64_t bytes) {
    if (mem > UINT32_MAX || reg > UINT32_MAX || bytes > UINT32_MAX) L.reject(inst, "a matrix copy beyond 4 GiB");
    const size_t n = triples.size();
    // Contiguous in memory and in registers after the previous piece: one copy.
    if (n && triples[n - 3] + triples[n - 1] == mem && triples[n - 2] + triples[n - 1] == reg) {
      triples[n - 1] += uint32_t(bytes);
      return;
    }
    triples.insert(triples.end(), {uint32_t(mem), uint32_t(reg), uint32_t(bytes)});
  }
  const Lowerer& L;
  const Instruction& inst;
};

// The plan of a load or store of a `valueType` through `ptr`, when it is not the plain copy of `plainBytes` bytes;
// nullopt for the plain copy. A pointer into memory with an explicit layout whose path clref cannot trace, to a value
// that needs converting, is refused.
std::optional<std::vector<uint32_t>> copyPlan(const Lowerer& L, const Instruction& inst, uint32_t ptr,
                                              uint32_t valueType, uint64_t plainBytes) {
  if (!explicitLayout(L, L.typeIdOfValue(ptr))) return std::nullopt;
  const Type& vt = L.type(valueType);
  const bool matrix = containsMatrix(L, valueType);
  if (!matrix && vt.kind != TypeKind::Vector) return std::nullopt;
  const auto view = viewOf(L, ptr);
  if (!view) {
    if (!matrix) return std::nullopt;  // a vector through a function parameter: not a column of a row-major matrix
    L.reject(inst,
             "a matrix in memory with an explicit layout through a pointer whose access chain clref cannot "
             "trace to its variable (its MatrixStride and RowMajor decorations are unknown)");
  }
  if (!matrix && view->componentStride == 0) return std::nullopt;
  CopyPlan plan(L, inst);
  plan.add(valueType, *view, 0, 0);
  plan.checkRegistersApart();
  if (plan.triples.size() == 3 && plan.triples[0] == 0 && plan.triples[1] == 0 && plan.triples[2] == plainBytes)
    return std::nullopt;
  return std::move(plan.triples);
}

// Whether an access chain's result needs a copy plan to be loaded or stored (then no load or store absorbs it).
bool chainNeedsPlan(const Lowerer& L, const Instruction& chain) {
  if (!explicitLayout(L, chain.resultType)) return false;
  const uint32_t pointee = L.type(chain.resultType).element;
  if (containsMatrix(L, pointee)) return true;
  if (L.type(pointee).kind != TypeKind::Vector) return false;
  const auto view = viewOf(L, chain.resultId);
  return view && view->componentStride != 0;
}

// The planned copies: a = pointer; load: r = result; store: b = value; aux = the plan's triples. Each piece is one
// checked access.
template <class P, bool Store> const Op* plannedAccess(WorkItem& wi, const Op* op) {
  const auto& t = *static_cast<const std::vector<uint32_t>*>(op->aux);
  const uint64_t ptr = rd<P>(wi, op->a);
  for (size_t i = 0; i + 2 < t.size(); i += 3) {
    const uint64_t at = (ptr & wi.offsetMask) + t[i] > wi.offsetMask ? overflowedPointer(wi, ptr) : P(ptr + t[i]);
    if constexpr (Store) {
      uint8_t* p = access(wi, op, at, t[i + 2], op->align, true);
      if (!p) [[unlikely]]
        return nullptr;
      std::memcpy(p, wi.regs + op->b + t[i + 1], t[i + 2]);
    } else {
      const uint8_t* p = access(wi, op, at, t[i + 2], op->align, false);
      if (!p) [[unlikely]]
        return nullptr;
      std::memcpy(wi.regs + op->r + t[i + 1], p, t[i + 2]);
    }
  }
  return op + 1;
}
template <bool Store> Op& emitPlanned(Lowerer& L, const Instruction& inst, std::vector<uint32_t> plan) {
  const bool p64 = L.ptrBytes() == 8;
  Op& op = L.emit(p64 ? &plannedAccess<uint64_t, Store> : &plannedAccess<uint32_t, Store>, inst);
  op.aux = &L.k.tables.emplace_back(std::move(plan));
  op.align = 1;
  return op;
}

struct ChainShape {
  uint32_t base = 0;  // register of the base pointer
  uint64_t constOff = 0;
  bool constOverflow = false;  // the constant indices × strides overflow, or step beyond any allocation
  std::vector<ChainTerm> terms;
};

bool isChain(spv::Op op) {
  return op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain || op == spv::Op::OpPtrAccessChain ||
         op == spv::Op::OpInBoundsPtrAccessChain;
}

// A chain whose base is an array of buffer blocks (Lowerer::descriptorArrays_): its first index picks a descriptor.
const Lowerer::DescriptorArray* descriptorArrayOf(const Lowerer& L, const Instruction& inst) {
  auto it = L.descriptorArrays_.find(inst.operand(0));
  return it == L.descriptorArrays_.end() ? nullptr : &it->second;
}

// The chain's base, indices and strides. A chain into an array of buffer blocks is analysed from its second index
// on, its base the descriptor's pointer: the table entry of a constant index in range, else the chain's own result
// register, which a descriptorSelect Op fills first (lowerChain).
ChainShape analyzeChain(const Lowerer& L, const Instruction& inst) {
  const bool ptrChain = inst.opcode == spv::Op::OpPtrAccessChain || inst.opcode == spv::Op::OpInBoundsPtrAccessChain;
  const uint32_t base = inst.operand(0);
  const Type& baseType = L.typeOfValue(base);
  ChainShape shape;
  shape.base = L.reg(base);
  const Lowerer::DescriptorArray* descriptors = descriptorArrayOf(L, inst);
  if (descriptors && (ptrChain || inst.operandCount() < 2))
    L.reject(inst, "an access chain into an array of buffer blocks that does not index the array first");
  auto addIndex = [&](uint32_t id, int64_t stride) {
    if (L.isConstant(id)) {
      const Type& it = L.typeOfValue(id);
      int64_t v = int64_t(L.constantInt(id));
      if (it.width < 64) v = int64_t(uint64_t(v) << (64 - it.width)) >> (64 - it.width);  // sign-extend
      int64_t off = int64_t(shape.constOff);
      shape.constOverflow |= addTerm(off, v, stride) || beyondAnyAllocation(off, (uint64_t(1) << L.k.tagShift) - 1);
      shape.constOff = uint64_t(off);
    } else if (auto a = L.sextIndex_.find(id); a != L.sextIndex_.end()) {
      // OpSConvert i32→i64 folded in: the 32-bit source read as signed is the same index.
      shape.terms.push_back({L.reg(a->second), 4, stride});
    } else {
      shape.terms.push_back({L.reg(id), uint32_t(L.typeOfValue(id).size), stride});
    }
  };
  uint32_t t = baseType.element;
  size_t k = 1;
  if (ptrChain) {
    addIndex(inst.operand(1), int64_t(baseType.stride));
    k = 2;
  }
  // Memory with an explicit layout: the matrix decorations along the path decide the strides of a matrix's columns
  // and of a row-major column's components (the view is traced only in shader modules, at lowering).
  std::optional<MemoryView> view;
  const bool laidOut = explicitLayout(L, inst.resultType);
  if (laidOut && !ptrChain) view = viewOf(L, base);
  if (descriptors) {
    const uint32_t index = inst.operand(1);
    const bool constantInRange = L.isConstant(index) && L.constantInt(index) < descriptors->count;
    shape.base =
        constantInRange ? descriptors->table + uint32_t(L.constantInt(index)) * L.ptrBytes() : L.reg(inst.resultId);
    t = L.type(t).element;
    k = 2;
  }
  for (; k < inst.operandCount(); ++k) {
    const uint32_t id = inst.operand(k);
    const Type& ty = L.type(t);
    const uint32_t before = t;
    switch (ty.kind) {
      case TypeKind::Struct: {
        const uint32_t idx = uint32_t(L.constantInt(id));
        shape.constOff += ty.memberOffsets.at(idx);
        t = ty.members.at(idx);
        break;
      }
      case TypeKind::Vector:
        addIndex(id, int64_t(view && view->componentStride ? view->componentStride : L.type(ty.element).size));
        t = ty.element;
        break;
      case TypeKind::Matrix: {
        int64_t stride = int64_t(ty.stride);  // registers, and memory without an explicit layout
        if (laidOut) {
          if (!view)
            L.reject(inst,
                     "an access chain into a matrix in memory with an explicit layout whose base pointer clref "
                     "cannot trace to its variable (its MatrixStride and RowMajor decorations are unknown)");
          if (view->matrix.stride == 0)
            L.reject(inst,
                     "a matrix in memory with an explicit layout has no MatrixStride decoration on its struct "
                     "member");
          stride = view->matrix.rowMajor ? int64_t(L.type(L.type(ty.element).element).size) : view->matrix.stride;
        }
        addIndex(id, stride);
        t = ty.element;
        break;
      }
      case TypeKind::Array:
      case TypeKind::RuntimeArray:
        addIndex(id, int64_t(ty.stride));
        t = ty.element;
        break;
      default: L.reject(inst, "access chain indexes into a non-composite type");
    }
    if (view) {
      uint32_t from = before;
      stepView(L, *view, from, id);
    }
  }
  return shape;
}

bool simpleShape(const ChainShape& s) {
  if (s.constOverflow) return false;
  return s.terms.empty() || (s.terms.size() == 1 && (s.terms[0].bytes == 4 || s.terms[0].bytes == 8) &&
                             s.terms[0].stride >= 0 && s.terms[0].stride <= int64_t(UINT32_MAX));
}

// The descriptor a chain into an array of buffer blocks selects with a dynamic (or constant out-of-range) index,
// into the chain's result register.
void lowerDescriptorSelect(Lowerer& L, const Instruction& inst, const Lowerer::DescriptorArray& descriptors) {
  uint32_t index = inst.operand(1);
  uint32_t indexBytes = uint32_t(L.typeOfValue(index).size);
  if (auto a = L.sextIndex_.find(index); a != L.sextIndex_.end()) {
    index = a->second;  // OpSConvert i32→i64 folded in, as in analyzeChain
    indexBytes = 4;
  }
  Handler fn;
  const bool p64 = L.ptrBytes() == 8;
  switch (indexBytes) {
    case 2: fn = p64 ? &descriptorSelect<uint64_t, uint16_t> : &descriptorSelect<uint32_t, uint16_t>; break;
    case 4: fn = p64 ? &descriptorSelect<uint64_t, uint32_t> : &descriptorSelect<uint32_t, uint32_t>; break;
    case 8: fn = p64 ? &descriptorSelect<uint64_t, uint64_t> : &descriptorSelect<uint32_t, uint64_t>; break;
    default:
      L.reject(inst, "an array of buffer blocks indexed by an integer of " + std::to_string(8 * indexBytes) + " bits");
  }
  Op& op = L.emit(fn, inst);
  op.r = L.reg(inst.resultId);
  op.a = descriptors.table;
  op.b = L.reg(index);
  op.n = descriptors.count;
  op.c = descriptors.firstParam;
}

void lowerChain(Lowerer& L, const Instruction& inst) {
  const ChainShape shape = analyzeChain(L, inst);
  const bool p64 = L.ptrBytes() == 8;
  if (const auto* descriptors = descriptorArrayOf(L, inst); descriptors && shape.base == L.reg(inst.resultId))
    lowerDescriptorSelect(L, inst, *descriptors);
  Op* op;
  if (shape.constOverflow) {
    op = &L.emit(p64 ? &chainOverflow<uint64_t> : &chainOverflow<uint32_t>, inst);
  } else if (shape.terms.empty()) {
    op = &L.emit(p64 ? chainConstWithLanes<uint64_t>() : chainConstWithLanes<uint32_t>(), inst);
  } else if (simpleShape(shape)) {
    Handler fn;
    if (p64)
      fn = shape.terms[0].bytes == 8 ? chain1WithLanes<uint64_t, uint64_t>() : chain1WithLanes<uint64_t, uint32_t>();
    else
      fn = shape.terms[0].bytes == 8 ? chain1WithLanes<uint32_t, uint64_t>() : chain1WithLanes<uint32_t, uint32_t>();
    op = &L.emit(fn, inst);
    op->b = shape.terms[0].reg;
    op->c = uint32_t(shape.terms[0].stride);
  } else {
    op = &L.emit(p64 ? &chainN<uint64_t> : &chainN<uint32_t>, inst);
    // The terms are kept as 4 words each (reg, bytes, stride as two words) in a table.
    auto& stored = L.k.tables.emplace_back();
    static_assert(sizeof(ChainTerm) == 16);
    stored.resize(shape.terms.size() * 4);
    std::memcpy(stored.data(), shape.terms.data(), shape.terms.size() * sizeof(ChainTerm));
    op->aux = stored.data();
    op->n = uint32_t(shape.terms.size());
  }
  op->r = L.reg(inst.resultId);
  op->a = shape.base;
  op->imm = shape.constOff;
}

// Loads and stores that absorbed their access chain: the address is base + imm + index·stride
// (index signed, I bytes) or base + imm. r/b swap roles for stores: b is the value, r the index.
template <class P, class I> inline uint64_t fusedAddress(const WorkItem& wi, const Op* op, uint32_t indexReg) {
  const uint64_t base = rd<P>(wi, op->a);
  int64_t delta = int64_t(op->imm);
  if constexpr (!std::is_void_v<I>)
    if (addTerm(delta, int64_t(Signed<I>(rd<I>(wi, indexReg))), int64_t(op->c)) ||
        beyondAnyAllocation(delta, wi.offsetMask)) [[unlikely]]
      return P(overflowedPointer(wi, base));
  return P(base + uint64_t(delta));
}
template <class P, class I, uint32_t N> const Op* loadFused(WorkItem& wi, const Op* op) {
  const uint32_t bytes = N ? N : op->n;
  const uint8_t* p = access(wi, op, fusedAddress<P, I>(wi, op, op->b), bytes, op->align, false);
  if (!p) [[unlikely]]
    return nullptr;
  std::memcpy(wi.regs + op->r, p, N ? N : bytes);
  return op + 1;
}
template <class P, class I, uint32_t N> const Op* storeFused(WorkItem& wi, const Op* op) {
  const uint32_t bytes = N ? N : op->n;
  uint8_t* p = access(wi, op, fusedAddress<P, I>(wi, op, op->r), bytes, op->align, true);
  if (!p) [[unlikely]]
    return nullptr;
  std::memcpy(p, wi.regs + op->b, N ? N : bytes);
  return op + 1;
}
// The accesses of fusedSharedOnLanes, in bounds and aligned at offsets at[l] of A (the highest `highest`): loads
// logged as one coarse entry (lane by lane with LaneLog::exact), stores lane by lane, and the bytes moved. False when
// the log is full (nothing moved).
template <bool Store, uint32_t N>
bool logShared(LaneBatch& b, const Allocation& A, const uintptr_t* __restrict at, uint64_t highest,
                    uint8_t* __restrict value) {
  const uint32_t count = b.count;
  uint8_t* const host = A.base;
  if constexpr (!Store) {
    // Loads (a gather, a row every lane reads) go into the log as one coarse entry: their extent alone; in a checked
    // launch, whose race checker is told each lane's address, lane by lane as stores are.
    if (!b.log->exact) {
      if (b.log->full(count, 0)) return false;
      uint64_t lowest = UINT64_MAX;
      for (uint32_t l = 0; l < count; ++l) {
        lowest = std::min<uint64_t>(lowest, at[l]);
        std::memcpy(value + size_t(l) * 8, host + at[l], N);
      }
      return b.log->beginCoarse(b.first, count, N, uintptr_t(host + lowest), uintptr_t(host + highest + N));
    }
  }
  uintptr_t* __restrict const touched = b.log->begin(b.first, count, N, Store);
  if (!touched) return false;
  bool increasing = true;
  uint64_t end = 0, lowest = UINT64_MAX;
  for (uint32_t l = 0; l < count; ++l) {
    uint8_t* const p = host + at[l];
    touched[l] = uintptr_t(p);
    increasing = increasing && at[l] >= end;
    end = at[l] + N;
    lowest = std::min<uint64_t>(lowest, at[l]);
    if constexpr (Store) {
      b.log->save(l, p, N);
      std::memcpy(p, value + size_t(l) * 8, N);
    } else {
      std::memcpy(value + size_t(l) * 8, p, N);
    }
  }
  b.log->extents.back() = {uintptr_t(host + lowest), uintptr_t(host + highest + N), increasing};
  b.log->noteUndefinedIn(A, N, 0, at);
  return true;
}

// Whether lane l of a fused access (Fused false: a pointer in a register) addresses the bytes at lane 0's address
// + l·bytes, for each of `count` lanes from `base` and `index` (lane arrays); then lane0Offset is lane 0's offset from
// tagBase. Lanes of the same base and consecutive indices (or consecutive pointers) are: checking both ends of the
// index range for overflow checks every lane's (the terms between are between theirs).
template <class P, class I, bool Fused>
CLREF_AVX2_TEMPLATE_CLONES
bool denseOffsets(uint32_t count, const Op* op, const uint8_t* __restrict base, const uint8_t* __restrict index,
                  uint64_t bytes, uint64_t tagBase, uint64_t& lane0Offset) {
  const uint32_t last = count - 1;
  const uint64_t base0 = rdLane<P>(base, 0);
  int64_t delta = Fused ? int64_t(op->imm) : 0;
  uint64_t apart = 0;  // nonzero where a lane is not where lane 0's place says
  if constexpr (Fused && !std::is_void_v<I>) {
    // The same base, index i0 + l, and a stride of the access's bytes.
    if (int64_t(op->c) != int64_t(bytes)) return false;
    const I index0 = rdLane<I>(index, 0);
    // The last lane first: a gather or a row of lanes at one element fails here, before the pass over every lane.
    if (rdLane<P>(base, last) != base0 || I(rdLane<I>(index, last) - index0) != I(last)) return false;
    for (uint32_t l = 0; l < count; ++l)
      apart |= (rdLane<P>(base, l) ^ base0) | uint64_t(I(rdLane<I>(index, l) - index0 - I(l)));
    if (apart) return false;
    const int64_t i0 = int64_t(Signed<I>(index0)), iLast = int64_t(Signed<I>(rdLane<I>(index, last)));
    int64_t deltaLast = delta, steps;
    // Indices that wrap inside the batch (i0 + l passes the index type's largest) are not consecutive.
    if (__builtin_sub_overflow(iLast, i0, &steps) || steps != int64_t(last) || addTerm(delta, i0, int64_t(bytes)) ||
        addTerm(deltaLast, iLast, int64_t(bytes)))
      return false;
  } else {
    // Consecutive pointers (or bases, the offset added to each).
    if (rdLane<P>(base, last) != base0 + uint64_t(last) * bytes) return false;
    for (uint32_t l = 0; l < count; ++l) apart |= rdLane<P>(base, l) ^ (base0 + uint64_t(l) * bytes);
    if (apart) return false;
  }
  // Offsets below tagBase wrap to large ones, which the caller's bounds check refuses.
  lane0Offset = base0 + uint64_t(delta) - tagBase;
  return true;
}
// The accesses of lanes that span rows of their work-group (LaneBatch::consecutiveIds with rows shorter than the
// batch: 16x16 groups give 4 rows a batch), each row's lanes at consecutive elements and the rows equally far apart
// (a[y * w + x], or b[k * n + x] with every row at the same place): one dense entry in rows (LaneLog::beginDenseRows;
// a dense undo record a row), checked at each row's ends, so that a load and a store of the same elements stand at
// the same places in the log (lanes.cpp) instead of one coarse load that any store into it races with. False where
// that does not hold (nothing logged, nothing moved).
template <bool Store, class P, class I, uint32_t N, bool Fused>
bool rowDenseOnLanes(LaneBatch& b, const Op* op, const Allocation& A, uint32_t tag, uint64_t tagBase,
                     uint8_t* __restrict value) {
  static constexpr uint64_t kMinRow = 8;
  const uint64_t sx = b.localSize[0];
  // Rows from the batch's first lane: a batch that starts at the start of a row (all but a view's).
  if (!b.consecutiveIds || sx < kMinRow || sx >= b.count || (b.localId0[0] + b.first) % sx != 0) return false;
  const uint32_t rowLanes = uint32_t(sx), rows = (b.count + rowLanes - 1) / rowLanes;
  const uint8_t* const base = b.lane0(op->a);
  const uint8_t* const index = b.lane0(Store ? op->r : op->b);
  uint64_t first = 0, stride = 0;
  for (uint32_t r = 0; r < rows; ++r) {
    const uint32_t from = r * rowLanes, lanes = std::min(rowLanes, b.count - from);
    uint64_t offset;
    if (!denseOffsets<P, I, Fused>(lanes, op, base + size_t(from) * 8, index + size_t(from) * 8, N, tagBase, offset) ||
        offset > A.size || A.size - offset < uint64_t(lanes) * N || ((offset | N) & (op->align - 1)))
      return false;
    if (r == 0)
      first = offset;
    else if (r == 1)
      stride = offset - first;
    // Rows equally apart, in order: a store's at least a row apart (no two lanes store the same bytes); a load's
    // rows may be the same (b[k * n + x] read by every row).
    if (r > 0 &&
        (offset < first || offset - first != uint64_t(r) * stride || (Store && stride < uint64_t(rowLanes) * N)))
      return false;
  }
  uint8_t* const p = A.base + first;
  if (!b.log->beginDenseRows(b.first, b.count, N, Store, uintptr_t(p), rowLanes, stride, tag)) return false;
  if (b.log->undefinedShadows) [[unlikely]] {
    // Each lane's offset (the scratch addresses are free: nothing else was made of them).
    uintptr_t* const offsets = b.log->scratchAddresses(b.count);
    for (uint32_t r = 0, l = 0; r < rows; ++r)
      for (uint64_t at = first + r * stride; l < b.count && l < (r + 1) * rowLanes; ++l, at += N) offsets[l] = at;
    b.log->noteUndefinedIn(A, N, 0, offsets);
  }
  for (uint32_t r = 0; r < rows; ++r) {
    const uint32_t from = r * rowLanes, lanes = std::min(rowLanes, b.count - from);
    uint8_t* const row = p + r * stride;
    uint8_t* const v = value + size_t(from) * 8;
    if constexpr (Store) {
      b.log->saveDense(row, lanes * N);
      for (uint32_t l = 0; l < lanes; ++l) std::memcpy(row + size_t(l) * N, v + size_t(l) * 8, N);
    } else {
      for (uint32_t l = 0; l < lanes; ++l) std::memcpy(v + size_t(l) * 8, row + size_t(l) * N, N);
    }
  }
  return true;
}
// fusedOnLanes where every lane's access goes to one shared allocation (a buffer, local memory), in bounds and
// aligned: what a lane-by-lane loop decides for each lane decided for all in a first pass over the addresses, then the
// bytes moved in a second. nullptr where that does not hold (no lane touched, nothing logged): the loop below decides.
// Fused false: loadFixed and storeFixed's (the pointer in a register, no index, no offset).
template <bool Store, class P, class I, uint32_t N, bool Fused>
CLREF_AVX2_TEMPLATE_CLONES const Op* fusedSharedOnLanes(LaneBatch& b, const Op* op) {
  const WorkItem& first = *b.items[0];
  const uint8_t* base = b.lane0(op->a);
  const uint8_t* index = b.lane0(Store ? op->r : op->b);
  uint8_t* __restrict value = b.lane0(Store ? op->b : op->r);
  const uint32_t count = b.count, tagShift = first.tagShift;
  [[maybe_unused]] const uint64_t offsetMask = first.offsetMask;
  const uint64_t tag = uint64_t(rdLane<P>(base, 0)) >> tagShift;
  if (tag == 0 || tag >= first.laneAllocLimit) return nullptr;
  const Allocation& A = first.allocs[tag];
  // Every work-item's table holds the same allocation at a global or local memory tag (LaneAccess).
  if ((A.storage != spv::StorageClass::CrossWorkgroup && A.storage != spv::StorageClass::Workgroup) ||
      (Store && A.readOnly) || A.size < N)
    return nullptr;
  const int64_t imm = Fused ? int64_t(op->imm) : 0, stride = int64_t(op->c);
  // A lane's offset in the allocation is its pointer less the tag's first pointer: one unsigned comparison with the
  // last offset checks both the tag and the bounds. An index term beyond any allocation (beyondAnyAllocation) leaves
  // the tag's range of 64-bit pointers, so it fails that too; 32-bit pointers wrap, and are checked as access() does.
  const uint64_t tagBase = tag << tagShift;
  uintptr_t* __restrict const at = b.log->scratchAddresses(count);
  uint64_t highest = 0, bits = 0;
  if constexpr (sizeof(P) == 8) {
    // Lanes whose bytes follow each other in lane order (c[i] for consecutive i: the usual case) are checked at their
    // ends alone and go into the log as one dense entry, their old bytes as one record.
    uint64_t lane0Offset;
    if (denseOffsets<P, I, Fused>(count, op, base, index, N, tagBase, lane0Offset)) {
      const uint64_t span = uint64_t(count) * N;
      if (lane0Offset > A.size || A.size - lane0Offset < span || ((lane0Offset | N) & (op->align - 1))) return nullptr;
      uint8_t* const p = A.base + lane0Offset;
      if (!b.log->beginDense(b.first, count, N, Store, uintptr_t(p), uint32_t(tag))) return nullptr;
      b.log->noteUndefinedIn(A, N, lane0Offset);
      if constexpr (Store) {
        b.log->saveDense(p, uint32_t(span));
        for (uint32_t l = 0; l < count; ++l) std::memcpy(p + size_t(l) * N, value + size_t(l) * 8, N);
      } else {
        for (uint32_t l = 0; l < count; ++l) std::memcpy(value + size_t(l) * 8, p + size_t(l) * N, N);
      }
      return op + 1;
    }
    if (rowDenseOnLanes<Store, P, I, N, Fused>(b, op, A, uint32_t(tag), tagBase, value)) return op + 1;
  }
  for (uint32_t l = 0; l < count; ++l) {
    int64_t delta = imm;
    if constexpr (!std::is_void_v<I>) {
      if (addTerm(delta, int64_t(Signed<I>(rdLane<I>(index, l))), stride)) return nullptr;
      if constexpr (sizeof(P) < 8)
        if (beyondAnyAllocation(delta, offsetMask)) return nullptr;
    }
    const uint64_t off = uint64_t(P(rdLane<P>(base, l) + uint64_t(delta))) - tagBase;
    highest = std::max(highest, off);
    bits |= off;
    at[l] = uintptr_t(off);
  }
  if (highest > A.size - N || (bits & (op->align - 1))) return nullptr;
  return logShared<Store, N>(b, A, at, highest, value) ? op + 1 : nullptr;
}
// The lane forms of loadFused and storeFused (lanes.hpp): the lanes whose access takes access()'s fast path; the first
// that would not stops the lanes before it runs, and runs alone (accessSlow may fault, warn or decide a choice). What
// every lane shares (the operands' lane arrays, the pointer layout) is read once: the loop's stores go to bytes, which
// the compiler must assume alias everything.
template <bool Store, class P, class I, uint32_t N> const Op* fusedOnLanes(LaneBatch& b, const Op* op) {
  if constexpr (N == 1 || N == 2 || N == 4 || N == 8)
    if (b.log)
      if (const Op* next = fusedSharedOnLanes<Store, P, I, N, true>(b, op)) return next;
  const uint32_t bytes = N ? N : op->n, align = op->align, count = b.count;
  const uint8_t* base = b.lane0(op->a);
  const uint8_t* index = b.lane0(Store ? op->r : op->b);
  uint8_t* value = b.lane0(Store ? op->b : op->r);
  const int64_t imm = int64_t(op->imm), stride = int64_t(op->c);
  const uint64_t offsetMask = b.items[0]->offsetMask;
  LaneAccess access(b, bytes, Store);
  for (uint32_t l = 0; l < count; ++l) {
    const uint64_t p0 = rdLane<P>(base, l);
    int64_t delta = imm;
    uint64_t ptr = P(p0 + uint64_t(delta));
    if constexpr (!std::is_void_v<I>) {
      if (addTerm(delta, int64_t(Signed<I>(rdLane<I>(index, l))), stride) || beyondAnyAllocation(delta, offsetMask))
          [[unlikely]]
        ptr = P((p0 & ~offsetMask) | offsetMask);  // overflowedPointer
      else
        ptr = P(p0 + uint64_t(delta));
    }
    uint8_t* at = access.at<Store>(l, ptr, bytes, align);
    if (!at) [[unlikely]]
      return stopAccess(b, op, l);
    if constexpr (N == 1 || N == 2 || N == 4 || N == 8) {
      if constexpr (Store)
        std::memcpy(at, value + size_t(l) * 8, N);
      else
        std::memcpy(value + size_t(l) * 8, at, N);
    } else if constexpr (Store) {
      laneToMemory(b, op->b, l, at, bytes);
    } else {
      memoryToLane(b, op->r, l, at, bytes);
    }
  }
  return op + 1;
}
template <bool Store, class P, class I, uint32_t N> Handler fusedWithLanes() {
  if constexpr (Store)
    return laneForm<&storeFused<P, I, N>, &fusedOnLanes<true, P, I, N>>();
  else
    return laneForm<&loadFused<P, I, N>, &fusedOnLanes<false, P, I, N>>();
}
template <bool Store, class P, class I> Handler fusedBySize(uint64_t n) {
  switch (n) {
    case 1: return fusedWithLanes<Store, P, I, 1>();
    case 2: return fusedWithLanes<Store, P, I, 2>();
    case 4: return fusedWithLanes<Store, P, I, 4>();
    case 8: return fusedWithLanes<Store, P, I, 8>();
    case 16: return fusedWithLanes<Store, P, I, 16>();
    default: return fusedWithLanes<Store, P, I, 0>();
  }
}
template <bool Store> Handler fusedHandler(bool p64, uint32_t indexBytes, uint64_t n) {
  if (p64) {
    if (indexBytes == 0) return fusedBySize<Store, uint64_t, void>(n);
    return indexBytes == 8 ? fusedBySize<Store, uint64_t, uint64_t>(n) : fusedBySize<Store, uint64_t, uint32_t>(n);
  }
  if (indexBytes == 0) return fusedBySize<Store, uint32_t, void>(n);
  return indexBytes == 8 ? fusedBySize<Store, uint32_t, uint64_t>(n) : fusedBySize<Store, uint32_t, uint32_t>(n);
}

// A load/store whose pointer operand is an elided access chain: emit the fused form.
bool emitFused(Lowerer& L, const Instruction& inst, bool store, uint64_t n, AccessAlignment align) {
  const uint32_t ptr = inst.operand(0);
  if (!L.isElided(ptr)) return false;
  const ChainShape shape = analyzeChain(L, L.m.def(ptr));
  const uint32_t indexBytes = shape.terms.empty() ? 0 : shape.terms[0].bytes;
  Op& op = L.emit(fusedHandler<true>(L.ptrBytes() == 8, indexBytes, n), inst);
  if (!store) op.fn = fusedHandler<false>(L.ptrBytes() == 8, indexBytes, n);
  op.a = shape.base;
  op.imm = shape.constOff;
  op.n = uint32_t(n);
  op.align = align.align;
  op.typeAlign = align.typeAlign;
  const uint32_t indexReg = shape.terms.empty() ? 0 : shape.terms[0].reg;
  op.c = shape.terms.empty() ? 0 : uint32_t(shape.terms[0].stride);
  if (store) {
    op.r = indexReg;
    op.b = L.reg(inst.operand(1));
  } else {
    op.r = L.reg(inst.resultId);
    op.b = indexReg;
  }
  return true;
}

// OpPtrEqual / OpPtrNotEqual (SPIR-V 1.4): pointers compare as their tagged values;
// OpPtrDiff: the distance in elements of the pointee type (both in the same allocation).
template <class P, bool Equal> const Op* ptrCompare(WorkItem& wi, const Op* op) {
  wr<uint8_t>(wi, op->r, (rd<P>(wi, op->a) == rd<P>(wi, op->b)) == Equal);
  return op + 1;
}
template <class P, class R> const Op* ptrDiff(WorkItem& wi, const Op* op) {
  const uint64_t a = rd<P>(wi, op->a), b = rd<P>(wi, op->b);
  const int64_t elem = int64_t(op->imm);
  int64_t diff = (int64_t(a & wi.offsetMask) - int64_t(b & wi.offsetMask)) / elem;
  if ((a >> wi.tagShift) != (b >> wi.tagShift)) [[unlikely]] {
    // Pointers into different allocations: SPIR-V 1.4 §3.32.8 [external] OpPtrDiff leaves the result
    // undefined. The choice ptrdiff_across_allocations decides: fault, or warn and answer as
    // if allocations lay 2^20 elements apart in tag order (distinct objects never distance 0).
    if (choicesOf(wi).get<numerics::Choice::PtrDiffAcrossAllocations>() == numerics::PtrDiffOption::Fault)
      return fault(
          wi, op, FaultKind::UndefinedBehaviour,
          "OpPtrDiff of pointers into different allocations is undefined (choice ptrdiff_across_allocations=fault)");
    warnChoice(wi, op, numerics::Choice::PtrDiffAcrossAllocations, "OpPtrDiff of pointers into different allocations is undefined (choice ptrdiff_across_allocations)");
    diff += (int64_t(a >> wi.tagShift) - int64_t(b >> wi.tagShift)) * (int64_t(1) << 20);
  }
  wr<R>(wi, op->r, R(diff));
  return op + 1;
}

}  // namespace

bool readsWorkItemIdentity(LaneHandler h) { return h == &loadBuiltinOnLanes; }

bool chainIsFusable(const Lowerer& L, const Instruction& chain) {
  // A chain into an array of buffer blocks keeps its result register: a descriptorSelect Op may fill it first.
  return isChain(chain.opcode) && !descriptorArrayOf(L, chain) && simpleShape(analyzeChain(L, chain)) &&
         !chainNeedsPlan(L, chain);
}

namespace {

void lowerLoad(Lowerer& L, const Instruction& inst) {
  const bool p64 = L.ptrBytes() == 8;
  const uint32_t ptr = inst.operand(0);
  if (auto b = L.builtinOf_.find(ptr); b != L.builtinOf_.end()) {
    // The components' width is the variable's: size_t in a kernel, 32 bits in a shader (Vulkan §15.8 [external]).
    const Type& t = L.type(inst.resultType);
    const uint32_t element = uint32_t(t.kind == TypeKind::Vector ? L.type(t.element).size : t.size);
    Op& op = L.emit(builtinLoadHandler(b->second, element, t.size), inst);
    op.r = L.reg(inst.resultId);
    op.b = uint32_t(b->second);
    op.n = element;
    return;
  }
  if (L.descriptorArrays_.count(ptr)) L.reject(inst, "a load of a whole array of buffer blocks");
  const uint64_t n = accessBytes(L, inst.resultType);
  if (auto plan = copyPlan(L, inst, ptr, inst.resultType, n)) {
    Op& op = emitPlanned<false>(L, inst, std::move(*plan));
    op.r = L.reg(inst.resultId);
    op.a = L.reg(ptr);
    return;
  }
  const AccessAlignment align = accessAlign(L, inst, 1, inst.resultType);
  if (emitFused(L, inst, false, n, align)) return;
  Op& op = L.emit(p64 ? loadHandler<uint64_t>(n) : loadHandler<uint32_t>(n), inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(ptr);
  op.n = uint32_t(n);
  op.align = align.align;
  op.typeAlign = align.typeAlign;
}

void lowerStore(Lowerer& L, const Instruction& inst) {
  const bool p64 = L.ptrBytes() == 8;
  const uint32_t valueType = L.typeIdOfValue(inst.operand(1));
  if (L.descriptorArrays_.count(inst.operand(0))) L.reject(inst, "a store to a whole array of buffer blocks");
  const uint64_t n = accessBytes(L, valueType);
  if (auto plan = copyPlan(L, inst, inst.operand(0), valueType, n)) {
    Op& op = emitPlanned<true>(L, inst, std::move(*plan));
    op.a = L.reg(inst.operand(0));
    op.b = L.reg(inst.operand(1));
    return;
  }
  const AccessAlignment align = accessAlign(L, inst, 2, valueType);
  if (emitFused(L, inst, true, n, align)) return;
  Op& op = L.emit(p64 ? storeHandler<uint64_t>(n) : storeHandler<uint32_t>(n), inst);
  op.a = L.reg(inst.operand(0));
  op.b = L.reg(inst.operand(1));
  op.n = uint32_t(n);
  op.align = align.align;
  op.typeAlign = align.typeAlign;
}

// OpAccessChain, OpInBoundsAccessChain, OpPtrAccessChain, OpInBoundsPtrAccessChain.
void lowerAccessChain(Lowerer& L, const Instruction& inst) {
  if (!L.isElided(inst.resultId)) lowerChain(L, inst);
}

// OpCopyMemory of a value with a matrix between memories of different layouts: a planned load into scratch
// registers, then a planned store.
bool copyMemoryPlanned(Lowerer& L, const Instruction& inst) {
  if (inst.opcode != spv::Op::OpCopyMemory) return false;
  const uint32_t type = L.typeOfValue(inst.operand(0)).element;
  const uint64_t n = accessBytes(L, type);
  auto load = copyPlan(L, inst, inst.operand(1), type, n);
  auto store = copyPlan(L, inst, inst.operand(0), type, n);
  if (!load && !store) return false;
  auto plain = [&] { return std::vector<uint32_t>{0, 0, uint32_t(n)}; };
  const uint32_t scratch = L.scratch(L.type(type).size);
  emitPlanned<false>(L, inst, load ? std::move(*load) : plain()).r = scratch;
  L.k.ops.back().a = L.reg(inst.operand(1));
  emitPlanned<true>(L, inst, store ? std::move(*store) : plain()).b = scratch;
  L.k.ops.back().a = L.reg(inst.operand(0));
  return true;
}

// OpCopyMemory, OpCopyMemorySized.
void lowerCopyMemory(Lowerer& L, const Instruction& inst) {
  if (copyMemoryPlanned(L, inst)) return;
  const bool p64 = L.ptrBytes() == 8;
  Op& op = L.emit(p64 ? &copyMemory<uint64_t> : &copyMemory<uint32_t>, inst);
  op.a = L.reg(inst.operand(0));
  op.b = L.reg(inst.operand(1));
  if (inst.opcode == spv::Op::OpCopyMemory) {
    op.imm = L.type(L.typeOfValue(inst.operand(0)).element).size;
  } else {
    op.c = L.reg(inst.operand(2));
    op.n = uint32_t(L.typeOfValue(inst.operand(2)).size);
  }
}

// OpPtrEqual, OpPtrNotEqual.
void lowerPtrCompare(Lowerer& L, const Instruction& inst) {
  const bool p64 = L.ptrBytes() == 8;
  const bool eq = inst.opcode == spv::Op::OpPtrEqual;
  Handler fn = p64 ? (eq ? &ptrCompare<uint64_t, true> : &ptrCompare<uint64_t, false>)
                   : (eq ? &ptrCompare<uint32_t, true> : &ptrCompare<uint32_t, false>);
  Op& op = L.emit(fn, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.b = L.reg(inst.operand(1));
}

void lowerPtrDiff(Lowerer& L, const Instruction& inst) {
  const bool p64 = L.ptrBytes() == 8;
  const uint64_t stride = std::max<uint64_t>(1, L.typeOfValue(inst.operand(0)).stride);
  const bool r64 = L.type(inst.resultType).size == 8;
  Handler fn = p64 ? (r64 ? &ptrDiff<uint64_t, int64_t> : &ptrDiff<uint64_t, int32_t>)
                   : (r64 ? &ptrDiff<uint32_t, int64_t> : &ptrDiff<uint32_t, int32_t>);
  Op& op = L.emit(fn, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.b = L.reg(inst.operand(1));
  op.imm = stride;
}

void lowerVariable(Lowerer& L, const Instruction& inst) {
  const bool p64 = L.ptrBytes() == 8;
  // Function-scope variables are allocations reset for every work-item (their pointer is a
  // register constant); an initializer is stored where the variable is declared.
  if (inst.operandCount() > 1) {
    const uint64_t n = accessBytes(L, L.typeIdOfValue(inst.operand(1)));
    Op& op = L.emit(p64 ? storeHandler<uint64_t>(n) : storeHandler<uint32_t>(n), inst);
    op.a = L.reg(inst.resultId);
    op.b = L.reg(inst.operand(1));
    op.n = uint32_t(n);
    op.align = 1;
  }
}

// ---- Allowed sets (the shadow mode, shadow_support.hpp) --------------------------------------------------------------

// A planned access (a matrix in memory with an explicit layout): the sets move piece by piece, each piece's address
// formed in a scratch register. `fn` is shLoad or shStore; `reg` the value's register, `c` the store's writer;
// `source` the piece's open-address test (shadowAddressSource of the pointer).
void shadowPlanned(ShadowLowering& S, Handler fn, uint32_t ptrReg, uint32_t reg, const std::vector<uint32_t>& plan,
                   uint32_t writer, uint64_t source) {
  Lowerer& L = S.L;
  const bool p64 = L.ptrBytes() == 8;
  const uint32_t at = L.scratch(L.ptrBytes());
  for (size_t i = 0; i + 2 < plan.size(); i += 3) {
    Op& address = L.emit(p64 ? chainConstWithLanes<uint64_t>() : chainConstWithLanes<uint32_t>(), S.inst);
    address.r = at;
    address.a = ptrReg;
    address.imm = plan[i];
    Op& op = L.emit(fn, S.inst);
    op.a = at;
    (fn == &shLoad ? op.r : op.b) = reg + plan[i + 1];
    op.n = plan[i + 2];
    op.c = writer;
    op.imm = source;
  }
}

// OpLoad: the sets of the bytes loaded move into the result (undetermined at an open address).
void shadowLoad(ShadowLowering& S) {
  if (auto plan = copyPlan(S.L, S.inst, S.operand(0), S.inst.resultType, accessBytes(S.L, S.inst.resultType)))
    return shadowPlanned(S, &shLoad, S.L.reg(S.operand(0)), S.L.reg(S.inst.resultId), *plan, 0,
                         shadowAddressSource(S.L, S.operand(0)));
  S.memoryAccess(&shLoad, S.operand(0), 0, S.resultBytes());
}
// OpStore: the value's sets move into memory; c names the instruction that computed the stored value (a violation
// names it), else the store itself.
void shadowStore(ShadowLowering& S) {
  const Instruction* def = S.L.m.findDef(S.operand(1));
  const uint32_t writer = def ? S.L.index(*def) : S.L.index(S.inst);
  const uint32_t valueType = S.L.typeIdOfValue(S.operand(1));
  if (auto plan = copyPlan(S.L, S.inst, S.operand(0), valueType, accessBytes(S.L, valueType)))
    return shadowPlanned(S, &shStore, S.L.reg(S.operand(0)), S.L.reg(S.operand(1)), *plan, writer,
                         shadowAddressSource(S.L, S.operand(0)));
  S.memoryAccess(&shStore, S.operand(0), S.operand(1), uint32_t(S.L.typeOfValue(S.operand(1)).size));
  S.L.k.ops.back().c = writer;
}
// OpCopyMemory: the pointee's bytes with their sets; a planned copy (copyMemoryPlanned) moves them through its
// scratch registers as its two Ops did.
void shadowCopyMemory(ShadowLowering& S) {
  Lowerer& L = S.L;
  const Op* planned[2] = {nullptr, nullptr};
  for (size_t i = L.k.ops.size(); i-- > 0 && L.k.ops[i].inst == L.index(S.inst);) {
    const Op& o = L.k.ops[i];
    if (o.fn == &plannedAccess<uint64_t, false> || o.fn == &plannedAccess<uint32_t, false>) planned[0] = &o;
    if (o.fn == &plannedAccess<uint64_t, true> || o.fn == &plannedAccess<uint32_t, true>) planned[1] = &o;
  }
  if (planned[0] && planned[1]) {
    const Op load = *planned[0], store = *planned[1];
    shadowPlanned(S, &shLoad, load.a, load.r, *static_cast<const std::vector<uint32_t>*>(load.aux), 0,
                  shadowAddressSource(L, S.operand(1)));
    shadowPlanned(S, &shStore, store.a, store.b, *static_cast<const std::vector<uint32_t>*>(store.aux),
                  L.index(S.inst), shadowAddressSource(L, S.operand(0)));
    return;
  }
  Op& op = S.L.emit(&shCopyMemory, S.inst);
  op.a = S.L.reg(S.operand(0));
  op.b = S.L.reg(S.operand(1));
  op.n = uint32_t(S.L.type(S.L.typeOfValue(S.operand(0)).element).size);
}
// OpCopyMemorySized: the same for a run-time size.
void shadowCopyMemorySized(ShadowLowering& S) {
  Op& op = S.L.emit(&shCopyMemory, S.inst);
  op.a = S.L.reg(S.operand(0));
  op.b = S.L.reg(S.operand(1));
  op.c = S.L.reg(S.operand(2));
  op.imm = S.L.typeOfValue(S.operand(2)).size;
  op.n = 0;
}

}  // namespace

void registerMemory(DispatchTable& t) {
  using spv::Op;
  t.lower(Op::OpLoad, lowerLoad, {shadowLoad});
  t.lower(Op::OpStore, lowerStore, {shadowStore});
  t.lower({Op::OpAccessChain, Op::OpInBoundsAccessChain, Op::OpPtrAccessChain, Op::OpInBoundsPtrAccessChain},
          lowerAccessChain);
  t.lower(Op::OpCopyMemory, lowerCopyMemory, {shadowCopyMemory});
  t.lower(Op::OpCopyMemorySized, lowerCopyMemory, {shadowCopyMemorySized});
  t.lower({Op::OpPtrEqual, Op::OpPtrNotEqual}, lowerPtrCompare);
  t.lower(Op::OpPtrDiff, lowerPtrDiff);
  t.lower(Op::OpVariable, lowerVariable, {shadowNone});  // a pointer; its memory starts exact
}

}  // namespace clref::interpreter
