// Pipe instructions (SPIR-V 1.0 §3.32.23 [external] Pipe Instructions; OpenCL C 3.0 §6.15.18 [[pipe-functions]]):
// read and write a packet, reserve packets and read or write them by index, commit a reservation, per work-item and
// per work-group or sub-group, and the pipe queries. The packets are interpreter::Pipe's (pipe.hpp). A pipe operand
// is a handle, like an image's: kPipeHandleTag | the index into the launch's pipe table (LoweredKernel::pipeParams).
//
// Ops: r = result, a = the pipe, n = Packet Size, align = Packet Alignment; per instruction b, c and imm below.
#include "interpreter/dispatch.hpp"
#include "interpreter/group_arithmetic.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/pipe.hpp"

namespace clref::interpreter {
namespace {

// OpenCL C 3.0 §6.15.18.3 [[built-in-work-group-pipe-read-and-write-functions]]: the order of different work-groups'
// reservations is implementation-defined, so where one work-group's operation on a pipe follows another's, the
// work-group order (choice pipe_work_group_order, scheduler.cpp) placed it.
void noteWorkGroupOrder(WorkItem& wi, const Op* op, uint32_t pipe) {
  const auto& n = wi.launch->numGroups;
  const uint64_t group = (wi.groupId[2] * n[1] + wi.groupId[1]) * n[0] + wi.groupId[0];
  uint64_t& last = wi.launch->pipeLastGroup[pipe];
  if (last != group && last != UINT64_MAX)
    noteChoice(wi, op, numerics::Choice::PipeWorkGroupOrder,
               "a work-group's pipe operation after another work-group's on the same pipe");
  last = group;
}

// The pipe the Op's pipe operand names, or nullptr after a fault: a handle that names no pipe argument, or a packet
// size other than the pipe's (clCreatePipe's pipe_packet_size; the kernel's is its packet type's size). `ordered`:
// the operation's outcome depends on the operations before it (all but get_pipe_max_packets).
Pipe* pipeOf(WorkItem& wi, const Op* op, bool ordered = true) {
  const uint64_t h = readWord(wi, op->a, ptrBytes(wi));
  const uint64_t index = h & kHandleIndexMask;
  if ((h & ~uint64_t(kHandleIndexMask)) != kPipeHandleTag || index >= wi.launch->pipeCount) {
    fault(wi, op, FaultKind::InvalidPointer, "the pipe operand is not a pipe (an undefined or corrupted value)");
    return nullptr;
  }
  Pipe* p = wi.launch->pipes[index];
  if (p->packetSize() != op->n) {
    fault(wi, op, FaultKind::Unsupported,
          "the kernel's packet size is " + std::to_string(op->n) + " bytes, the pipe's " +
              std::to_string(p->packetSize()) +
              " (clCreatePipe's pipe_packet_size): reading or writing it is undefined");
    return nullptr;
  }
  if (ordered) noteWorkGroupOrder(wi, op, uint32_t(index));
  return p;
}

Pipe::Origin originOf(const WorkItem& wi, const Op* op) { return {op->inst, wi.globalId, wi.localId, wi.groupId}; }

// OpReadPipe / OpWritePipe: b = the pointer; result 0, or -1 when the pipe is empty (full).
template <bool Write> const Op* pipeAccess(WorkItem& wi, const Op* op) {
  Pipe* p = pipeOf(wi, op);
  if (!p) return nullptr;
  uint8_t* mem = access(wi, op, readWord(wi, op->b, ptrBytes(wi)), op->n, op->align, /*write=*/!Write);
  if (!mem) return nullptr;
  const bool ok = Write ? p->write(mem) : p->read(mem);
  wr<int32_t>(wi, op->r, ok ? 0 : -1);
  return op + 1;
}

// OpReservedReadPipe / OpReservedWritePipe: b = the reserve id, c = the index, imm = the pointer; result 0, or -1
// for an invalid reservation or an index past it.
template <bool Write> const Op* reservedAccess(WorkItem& wi, const Op* op) {
  Pipe* p = pipeOf(wi, op);
  if (!p) return nullptr;
  uint8_t* mem = access(wi, op, readWord(wi, uint32_t(op->imm), ptrBytes(wi)), op->n, op->align, /*write=*/!Write);
  if (!mem) return nullptr;
  const uint64_t id = readWord(wi, op->b, ptrBytes(wi));
  const uint32_t index = rd<uint32_t>(wi, op->c);
  const bool ok = Write ? p->reservedWrite(id, index, mem) : p->reservedRead(id, index, mem);
  wr<int32_t>(wi, op->r, ok ? 0 : -1);
  return op + 1;
}

// OpReserveReadPipePackets / OpReserveWritePipePackets: c = the number of packets; the result is a reserve id (0,
// CLK_NULL_RESERVE_ID, when the reservation fails).
template <bool Write> const Op* reserve(WorkItem& wi, const Op* op) {
  Pipe* p = pipeOf(wi, op);
  if (!p) return nullptr;
  const uint64_t id = p->reserve(Write, rd<uint32_t>(wi, op->c), originOf(wi, op));
  std::memcpy(wi.regs + op->r, &id, ptrBytes(wi));
  return op + 1;
}

// OpCommitReadPipe / OpCommitWritePipe: b = the reserve id. Committing what is not a live reservation of this kind is
// undefined: a fault.
template <bool Write> const Op* commit(WorkItem& wi, const Op* op) {
  Pipe* p = pipeOf(wi, op);
  if (!p) return nullptr;
  if (!p->commit(readWord(wi, op->b, ptrBytes(wi)), Write)) {
    fault(wi, op, FaultKind::UndefinedBehaviour,
          std::string(Write ? "commit_write_pipe" : "commit_read_pipe") +
              " of a reserve id that is no live reservation of this pipe for " + (Write ? "writing" : "reading") +
              " (invalid, already committed, or reserved for the other direction)");
    return nullptr;
  }
  return op + 1;
}

// OpIsValidReserveId: a = the reserve id.
const Op* isValidReserveId(WorkItem& wi, const Op* op) {
  wr<uint8_t>(wi, op->r, readWord(wi, op->a, ptrBytes(wi)) != 0);
  return op + 1;
}

// OpGetNumPipePackets / OpGetMaxPipePackets.
template <bool Max> const Op* pipeQuery(WorkItem& wi, const Op* op) {
  Pipe* p = pipeOf(wi, op, /*ordered=*/!Max);
  if (!p) return nullptr;
  wr<uint32_t>(wi, op->r, Max ? p->maxPackets() : p->numPackets());
  return op + 1;
}

// OpGroupReserve{Read,Write}PipePackets: one reservation for the work-group (sub-group), made once when all its
// work-items arrive with the same pipe and count, as the built-ins must be encountered:
// OpenCL C 3.0 §6.15.18.3 [[built-in-work-group-pipe-read-and-write-functions]]
// Every work-item gets its id.
template <bool Write> bool groupReserve(WorkItem* const* items, uint64_t count, const Op* op) {
  Pipe* p = pipeOf(*items[0], op);
  if (!p) return false;
  const uint64_t id = p->reserve(Write, rd<uint32_t>(*items[0], op->c), originOf(*items[0], op));
  for (uint64_t i = 0; i < count; ++i) std::memcpy(items[i]->regs + op->r, &id, ptrBytes(*items[i]));
  return true;
}

// OpGroupCommit{Read,Write}Pipe: the group's reservation, committed once.
template <bool Write> bool groupCommit(WorkItem* const* items, uint64_t, const Op* op) {
  return commit<Write>(*items[0], op) != nullptr;
}

// Packet Size and Packet Alignment, the last two operands of every pipe instruction: constants, a positive size and a
// power-of-two alignment.
std::pair<uint32_t, uint32_t> packetOf(Lowerer& L, const Instruction& inst) {
  const size_t count = inst.operandCount();
  const uint32_t sizeId = inst.operand(count - 2), alignId = inst.operand(count - 1);
  if (!L.isConstant(sizeId) || !L.isConstant(alignId))
    L.reject(inst, "a Packet Size or Packet Alignment that is not a constant");
  const uint64_t size = L.constantInt(sizeId), align = L.constantInt(alignId);
  if (size == 0 || size > UINT32_MAX || align == 0 || (align & (align - 1)) || align > 128)
    L.reject(inst, "Packet Size " + std::to_string(size) + " or Packet Alignment " + std::to_string(align) +
                       " is not a packet's (a positive size, a power-of-two alignment)");
  return {uint32_t(size), uint32_t(align)};
}

// The operand layout shared by the per-work-item pipe instructions: the pipe, then the packet's size and alignment.
Op& emitPipeOp(Lowerer& L, const Instruction& inst, Handler fn, size_t pipeOperand) {
  const auto [size, align] = packetOf(L, inst);
  Op& op = L.emit(fn, inst);
  op.a = L.reg(inst.operand(pipeOperand));
  op.n = size;
  op.align = align;
  if (inst.resultId) op.r = L.reg(inst.resultId);
  return op;
}

void lowerReadWrite(Lowerer& L, const Instruction& inst) {
  const bool write = inst.opcode == spv::Op::OpWritePipe;
  Op& op = emitPipeOp(L, inst, write ? &pipeAccess<true> : &pipeAccess<false>, 0);
  op.b = L.reg(inst.operand(1));
}

void lowerReserved(Lowerer& L, const Instruction& inst) {
  const bool write = inst.opcode == spv::Op::OpReservedWritePipe;
  Op& op = emitPipeOp(L, inst, write ? &reservedAccess<true> : &reservedAccess<false>, 0);
  op.b = L.reg(inst.operand(1));
  op.c = L.reg(inst.operand(2));
  op.imm = L.reg(inst.operand(3));
}

void lowerReserve(Lowerer& L, const Instruction& inst) {
  const bool write = inst.opcode == spv::Op::OpReserveWritePipePackets;
  Op& op = emitPipeOp(L, inst, write ? &reserve<true> : &reserve<false>, 0);
  op.c = L.reg(inst.operand(1));
}

void lowerCommit(Lowerer& L, const Instruction& inst) {
  const bool write = inst.opcode == spv::Op::OpCommitWritePipe;
  Op& op = emitPipeOp(L, inst, write ? &commit<true> : &commit<false>, 0);
  op.b = L.reg(inst.operand(1));
}

void lowerIsValid(Lowerer& L, const Instruction& inst) {
  Op& op = L.emit(&isValidReserveId, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
}

void lowerQuery(Lowerer& L, const Instruction& inst) {
  emitPipeOp(L, inst, inst.opcode == spv::Op::OpGetMaxPipePackets ? &pipeQuery<true> : &pipeQuery<false>, 0);
}

// The group forms: a collective (exec.hpp Collective) whose pipe and count (reserve) or reserve id (commit) every
// work-item of the group must give alike.
void lowerGroup(Lowerer& L, const Instruction& inst) {
  using S = spv::Op;
  const S o = inst.opcode;
  const bool write = o == S::OpGroupReserveWritePipePackets || o == S::OpGroupCommitWritePipe;
  const bool isReserve = o == S::OpGroupReserveReadPipePackets || o == S::OpGroupReserveWritePipePackets;
  Collective& c = L.k.collectives.emplace_back();
  c.subgroup = subgroupScope(L, inst);
  if (c.subgroup) L.k.usesSubgroupCollectives = true;
  c.eachAction = isReserve ? (write ? &groupReserve<true> : &groupReserve<false>)
                           : (write ? &groupCommit<true> : &groupCommit<false>);
  const auto [size, align] = packetOf(L, inst);
  Op& op = emitWaitForGroup(L, inst);
  op.aux = &c;
  op.a = L.reg(inst.operand(1));
  op.n = size;
  op.align = align;
  if (inst.resultId) op.r = L.reg(inst.resultId);
  const uint32_t handleBytes = L.k.addressBits / 8;
  c.uniformOperands.emplace_back(op.a, handleBytes);
  if (isReserve) {
    op.c = L.reg(inst.operand(2));
    c.uniformOperands.emplace_back(op.c, 4);
  } else {
    op.b = L.reg(inst.operand(2));
    c.uniformOperands.emplace_back(op.b, handleBytes);
  }
}

}  // namespace

void registerPipe(DispatchTable& t) {
  using S = spv::Op;
  t.declaration({S::OpTypePipe, S::OpTypeReserveId}, "types");
  t.lower({S::OpReadPipe, S::OpWritePipe}, lowerReadWrite);
  t.lower({S::OpReservedReadPipe, S::OpReservedWritePipe}, lowerReserved);
  t.lower({S::OpReserveReadPipePackets, S::OpReserveWritePipePackets}, lowerReserve);
  t.lower({S::OpCommitReadPipe, S::OpCommitWritePipe}, lowerCommit);
  t.lower(S::OpIsValidReserveId, lowerIsValid);
  t.lower({S::OpGetNumPipePackets, S::OpGetMaxPipePackets}, lowerQuery);
  t.lower({S::OpGroupReserveReadPipePackets, S::OpGroupReserveWritePipePackets, S::OpGroupCommitReadPipe,
           S::OpGroupCommitWritePipe},
          lowerGroup);
}

}  // namespace clref::interpreter
