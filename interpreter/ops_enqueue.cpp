// Device-side enqueue instructions (SPIR-V 1.0 §3.32.22 [external] Device-Side Enqueue Instructions; OpenCL C 3.0
// §6.15.19 [[enqueuing-kernels]]): enqueue a block's kernel or a marker, build an ND-range, the default queue, the
// device events, and the block kernel queries. The commands and events are device_enqueue.hpp's.
//
// Ops: r = result; aux = the instruction's operands (EnqueueSite, NDRangeBuild, KernelQuery); a = the operand of the
// one-operand event instructions.
#include <algorithm>

#include "interpreter/device_enqueue.hpp"
#include "interpreter/dispatch.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/subgroup_dispatch.hpp"
#include "interpreter/svm.hpp"

namespace clref::interpreter {
namespace {

// clk_event_t handles: the tag in the high half of a 64-bit value (32-bit index), or in the high half-word of a
// 32-bit one (16-bit index).
uint64_t eventHandle(uint32_t index, uint32_t bytes) {
  return bytes == 8 ? (uint64_t(kDeviceEventHandleTag) << 32 | index) : (kDeviceEventHandleTag | index);
}

// The layout of ndrange_t as OpBuildNDRange's Result Type declares it: { uint work_dim; size_t offset[3];
// size_t global[3]; size_t local[3]; } (clang-15's opencl-c-base.h order).
struct NDRangeLayout {
  uint32_t dims = 0, offset = 0, global = 0, local = 0, size = 0, align = 1, element = 8;
};

NDRangeLayout ndrangeLayout(Lowerer& L, const Instruction& inst, uint32_t structType) {
  const Type& t = L.type(structType);
  auto arrayOf3 = [&](uint32_t id) {
    const Type& a = L.type(id);
    return a.kind == TypeKind::Array && a.count == 3 && L.type(a.element).kind == TypeKind::Int &&
           L.type(a.element).width == L.ptrBytes() * 8;
  };
  if (t.kind != TypeKind::Struct || t.members.size() != 4 || L.type(t.members[0]).kind != TypeKind::Int ||
      L.type(t.members[0]).width != 32 || !arrayOf3(t.members[1]) || !arrayOf3(t.members[2]) || !arrayOf3(t.members[3]))
    L.reject(inst,
             "the ND-range is not an ndrange_t structure { 32-bit work_dim; size_t offset[3], global[3], "
             "local[3] } of the module's pointer width");
  return {0,
          uint32_t(t.memberOffsets[1]),
          uint32_t(t.memberOffsets[2]),
          uint32_t(t.memberOffsets[3]),
          uint32_t(t.size),
          t.align,
          L.ptrBytes()};
}

// An ND-range operand: the structure in a register, or (llvm-spirv-15) a pointer to it.
struct NDRangeOperand {
  uint32_t reg = 0;
  bool inMemory = false;
  NDRangeLayout layout;
};

NDRangeOperand ndrangeOperand(Lowerer& L, const Instruction& inst, uint32_t id) {
  NDRangeOperand o;
  o.reg = L.reg(id);
  const Type& t = L.typeOfValue(id);
  o.inMemory = t.kind == TypeKind::Pointer;
  o.layout = ndrangeLayout(L, inst, o.inMemory ? t.element : L.typeIdOfValue(id));
  return o;
}

// Reads an ND-range operand into `out`; false after a fault (a pointer that cannot be read).
bool readNDRange(WorkItem& wi, const Op* op, const NDRangeOperand& o, uint32_t& dims, NDRangeSpec& out) {
  const uint8_t* bytes = wi.regs + o.reg;
  if (o.inMemory) {
    bytes = access(wi, op, readWord(wi, o.reg, ptrBytes(wi)), o.layout.size, o.layout.align, false);
    if (!bytes) return false;
  }
  std::memcpy(&dims, bytes + o.layout.dims, 4);
  out = {};
  out.dims = std::clamp<uint32_t>(dims, 1, 3);
  for (uint32_t d = 0; d < 3; ++d) {
    uint64_t off = 0, global = 0, local = 0;
    std::memcpy(&off, bytes + o.layout.offset + d * o.layout.element, o.layout.element);
    std::memcpy(&global, bytes + o.layout.global + d * o.layout.element, o.layout.element);
    std::memcpy(&local, bytes + o.layout.local + d * o.layout.element, o.layout.element);
    if (d < out.dims) {
      out.offset[d] = off;
      out.global[d] = global;
      out.local[d] = local;
    } else {
      out.offset[d] = 0;
      out.global[d] = 1;
      out.local[d] = 1;
    }
  }
  return true;
}

// Whether the ND-range is one a child can run with (OpenCL C 3.0 §6.15.19.1 [[built-in-functions-enqueuing-a-kernel]]
// CLK_INVALID_NDRANGE: "not a valid ND-range descriptor"); chooses the local size when it has none. `why` says what is
// wrong.
bool validNDRange(uint32_t dims, NDRangeSpec& r, const LoweredKernel& child, const numerics::Choices& choices,
                  uint64_t deviceMax, std::string& why) {
  if (dims < 1 || dims > 3) {
    why = "work_dim is " + std::to_string(dims) + " (1, 2 or 3)";
    return false;
  }
  const uint64_t maxGroup = maxWorkGroupSize(child, deviceMax);
  bool noLocal = true;
  for (uint32_t d = 0; d < dims; ++d) noLocal = noLocal && r.local[d] == 0;
  if (noLocal) {
    r.local = defaultChildLocalSize(r, choices, maxGroup);
    return true;
  }
  uint64_t group = 1;
  for (uint32_t d = 0; d < dims; ++d) {
    if (r.local[d] == 0) {
      why = "the local size is 0 in dimension " + std::to_string(d) + " and not in every dimension";
      return false;
    }
    if (__builtin_mul_overflow(group, r.local[d], &group) || group > maxGroup) {
      why = "the work-group size (the local sizes' product) exceeds the block kernel's largest, " +
            std::to_string(maxGroup);
      return false;
    }
    const uint64_t required = child.requiredLocalSize[d];
    if (required && r.local[d] != required) {
      why = "the local size differs from the kernel's reqd_work_group_size";
      return false;
    }
  }
  return true;
}

// OpEnqueueKernel and OpEnqueueMarker.
struct EnqueueSite {
  uint32_t invoke = 0;  // 0: OpEnqueueMarker
  uint32_t queue = 0, flags = 0, numEvents = 0, waitEvents = 0, retEvent = 0;
  NDRangeOperand ndrange;
  uint32_t param = 0, paramSize = 0;
  std::vector<std::pair<uint32_t, bool>> localSizes;  // register, holds a pointer to the size (llvm-spirv-15)
  std::vector<uint32_t> literalPointers;              // offsets of the literal's pointers
  bool detailedErrors = false;                        // -g: the precise CLK_* code instead of CLK_ENQUEUE_FAILURE
};

EnqueueFamily& familyOf(const WorkItem& wi) { return *wi.launch->enqueue->family; }

// The queue an operand names: its index in the family's queues, or none for CLK_NULL_QUEUE or another value.
std::optional<uint32_t> queueOf(const WorkItem& wi, uint32_t reg) {
  const uint64_t h = readWord(wi, reg, ptrBytes(wi));
  const EnqueueFamily& f = familyOf(wi);
  if ((h & ~uint64_t(kHandleIndexMask)) != kQueueHandleTag) return std::nullopt;
  const uint32_t index = uint32_t(h & kHandleIndexMask);
  if (index >= f.queues.size() || (index == 0 && !f.hasDefaultQueue)) return std::nullopt;
  return index;
}

// The failure result of an enqueue: the precise code with -g, else CLK_ENQUEUE_FAILURE (OpenCL C 3.0 §6.15.19.1
// [[built-in-functions-enqueuing-a-kernel]]); a warning says why either way.
const Op* enqueueFailed(WorkItem& wi, const Op* op, const EnqueueSite& site, int32_t code, const std::string& why) {
  const int32_t result = site.detailedErrors ? code : kClkEnqueueFailure;
  warnOnce(wi, op,
           std::string(site.invoke ? "enqueue_kernel" : "enqueue_marker") + " returns " + enqueueResultName(result) +
               ": " + why + (site.detailedErrors ? "" : " (" + std::string(enqueueResultName(code)) + " with -g)"));
  wr<int32_t>(wi, op->r, result);
  return op + 1;
}

// The wait list (num_events_in_wait_list, event_wait_list) as event indices; false with `code` and `why` set when it
// is not a valid one, nullptr-returning fault when it cannot be read.
enum class WaitList { Valid, Invalid, Fault };
WaitList readWaitList(WorkItem& wi, const Op* op, const EnqueueSite& site, std::vector<uint32_t>& out,
                      std::string& why) {
  const uint32_t n = rd<uint32_t>(wi, site.numEvents);
  const uint32_t bytes = ptrBytes(wi);
  const uint64_t list = readWord(wi, site.waitEvents, bytes);
  // enqueue_marker: "if event_wait_list is NULL" is invalid whatever the count.
  if ((n > 0 && list == 0) || (n == 0 && list != 0) || (!site.invoke && list == 0)) {
    why = "event_wait_list is " + std::string(list ? "not NULL" : "NULL") + " with num_events_in_wait_list " +
          std::to_string(n);
    return WaitList::Invalid;
  }
  if (n == 0) return WaitList::Valid;
  const uint8_t* handles = access(wi, op, list, uint64_t(n) * bytes, bytes, false);
  if (!handles) return WaitList::Fault;
  EnqueueFamily& f = familyOf(wi);
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t h = 0;
    std::memcpy(&h, handles + uint64_t(i) * bytes, bytes);
    uint32_t index = 0;
    if (!f.liveEvent(h, &index)) {
      why = "event_wait_list[" + std::to_string(i) + "] is not a valid event";
      return WaitList::Invalid;
    }
    out.push_back(index);
  }
  return WaitList::Valid;
}

// The child's pointer for a pointer the block literal captured (device_enqueue.hpp): SVM pointers and NULL stay;
// program-scope variables keep their tag (the same in every kernel of a module); other global memory becomes an
// inherited allocation; private and local memory an inherited allocation of size zero.
uint64_t childPointer(const WorkItem& wi, uint64_t v, const LoweredKernel& child, ChildCommand& cmd) {
  if (v == 0) return 0;
  const uint64_t tag = v >> wi.tagShift, off = v & wi.offsetMask;
  const LoweredKernel& parent = *wi.launch->kernel;
  if (parent.addressBits == 64 && tag == svm::kTag) return v;
  InheritedAllocation in;
  if (tag >= wi.allocCount) {
    in.name = "a pointer the block captured that points into no allocation";
  } else if (tag < parent.allocations.size()) {
    const AllocationDesc& d = parent.allocations[tag];
    if (d.source == AllocationSource::Global && tag < child.allocations.size() &&
        child.allocations[tag].variable == d.variable)
      return v;
    in.name = "'" + d.name + "' of kernel " + parent.name;
    const bool global = d.source == AllocationSource::KernelArg || d.source == AllocationSource::Global;
    if (global)
      in.allocation = wi.allocs[tag];
    else
      in.name += " (" + std::string(d.storage == spv::StorageClass::Workgroup ? "local" : "private") +
                 " memory of the parent, which a child kernel cannot access)";
  } else if (tag >= wi.launch->inheritedBase && tag - wi.launch->inheritedBase < wi.launch->inheritedCount) {
    in = wi.launch->inherited[tag - wi.launch->inheritedBase];
  } else {
    in.name = "a pointer the block captured that points into no allocation";
  }
  if (!in.allocation.base) in.allocation = {};
  size_t i = 0;
  while (i < cmd.inherited.size() &&
         !(cmd.inherited[i].allocation.base == in.allocation.base &&
           cmd.inherited[i].allocation.size == in.allocation.size && cmd.inherited[i].name == in.name))
    ++i;
  if (i == cmd.inherited.size()) cmd.inherited.push_back(std::move(in));
  return uint64_t(inheritedBase(child) + i) << child.tagShift | off;
}

// Whether a queue of CL_QUEUE_SIZE `size` bytes holding `pending` commands not yet started is full, under the choice
// device_queue_command_bytes (OpenCL C 3.0 §6.15.19.1 [[built-in-functions-enqueuing-a-kernel]] CLK_DEVICE_QUEUE_FULL);
// `why` names the choice when it is. The choice is recorded where an option would decide otherwise.
bool queueFull(WorkItem& wi, const Op* op, uint64_t pending, uint64_t size, std::string& why) {
  using numerics::DeviceQueueCommandBytesOption;
  const auto option = choicesOf(wi).get<numerics::Choice::DeviceQueueCommandBytes>();
  bool fullUnderSome = false;
  for (const auto o : {DeviceQueueCommandBytesOption::Bytes16, DeviceQueueCommandBytesOption::Bytes128})
    fullUnderSome = fullUnderSome || pending >= size / deviceCommandBytes(o);
  if (fullUnderSome)
    noteChoice(wi, op, numerics::Choice::DeviceQueueCommandBytes, "a device queue's capacity in commands");
  const uint64_t bytes = deviceCommandBytes(option);
  if (pending < size / bytes) return false;
  why = "the queue holds " + std::to_string(pending) + " commands that have not started, as many as its CL_QUEUE_SIZE of " +
        std::to_string(size) + " bytes allows at " + std::to_string(bytes) +
        " bytes per command (choice device_queue_command_bytes=" +
        std::string(numerics::infoOf(numerics::Choice::DeviceQueueCommandBytes).options[uint8_t(option)]) + ")";
  return true;
}

// The block kernel an instruction names, or nullptr after a fault (it cannot be lowered).
const LoweredKernel* blockKernel(WorkItem& wi, const Op* op, uint32_t invoke) {
  try {
    return &wi.launch->kernel->blockKernels->get(invoke);
  } catch (const std::exception& e) {
    fault(wi, op, FaultKind::ExecutionFailed, std::string("the block's kernel cannot be run: ") + e.what());
    return nullptr;
  }
}

const Op* enqueue(WorkItem& wi, const Op* op) {
  const auto& site = *static_cast<const EnqueueSite*>(op->aux);
  EnqueueFamily& f = familyOf(wi);
  std::lock_guard lock(f.mutex);
  const uint32_t bytes = ptrBytes(wi);
  ChildCommand cmd;
  cmd.origin = diagnosticAt(wi, op, "");
  const auto queue = queueOf(wi, site.queue);
  if (!queue)
    return enqueueFailed(wi, op, site, kClkInvalidQueue,
                         readWord(wi, site.queue, bytes) == 0 ? "the queue is CLK_NULL_QUEUE (no default device queue?)"
                                                              : "the queue is not a valid device queue");
  cmd.queue = *queue;
  std::string why;
  switch (readWaitList(wi, op, site, cmd.waitEvents, why)) {
    case WaitList::Fault: return nullptr;
    case WaitList::Invalid: return enqueueFailed(wi, op, site, kClkInvalidEventWaitList, why);
    case WaitList::Valid: break;
  }
  if (site.invoke) {
    const uint32_t flags = rd<uint32_t>(wi, site.flags);
    // OpenCL C 3.0 §6.15.19.4 [[determining-when-a-child-kernel-begins-execution]]: the three kernel_enqueue_flags_t.
    if (flags > 2)
      return enqueueFailed(wi, op, site, kClkEnqueueFailure,
                           "flags " + std::to_string(flags) + " is no kernel_enqueue_flags_t value");
    cmd.kernel = blockKernel(wi, op, site.invoke);
    if (!cmd.kernel) return nullptr;
    const LoweredKernel& child = *cmd.kernel;
    uint32_t dims = 0;
    if (!readNDRange(wi, op, site.ndrange, dims, cmd.range)) return nullptr;
    if (!validNDRange(dims, cmd.range, child, *wi.launch->choices, f.deviceMaxWorkGroupSize, why))
      return enqueueFailed(wi, op, site, kClkInvalidNDRange, why);
    if (child.params.empty() || child.params[0].kind != ParamKind::Buffer ||
        child.params.size() != 1 + site.localSizes.size())
      return fault(wi, op, FaultKind::ExecutionFailed,
                   "the block's kernel " + child.name + " takes " + std::to_string(child.params.size()) +
                       " parameters; a block kernel takes the block literal and one local pointer per local size (" +
                       std::to_string(site.localSizes.size()) + " given)");
    for (size_t i = 0; i < site.localSizes.size(); ++i) {
      uint64_t size = readWord(wi, site.localSizes[i].first, site.localSizes[i].second ? bytes : 4);
      if (site.localSizes[i].second) {
        const uint8_t* p = access(wi, op, size, bytes, bytes, false);
        if (!p) return nullptr;
        size = 0;
        std::memcpy(&size, p, bytes);
      }
      if (size == 0)
        return enqueueFailed(wi, op, site, kClkInvalidArgSize, "local size " + std::to_string(i) + " is 0");
      cmd.localSizes.push_back(size);
    }
    const uint32_t literalBytes = rd<uint32_t>(wi, site.paramSize);
    const uint8_t* literal = access(wi, op, readWord(wi, site.param, bytes), literalBytes, 1, false);
    if (!literal) return nullptr;
    cmd.literal.assign(literal, literal + literalBytes);
    for (uint32_t at : site.literalPointers) {
      if (at + bytes > literalBytes) continue;
      uint64_t v = 0;
      std::memcpy(&v, cmd.literal.data() + at, bytes);
      v = childPointer(wi, v, child, cmd);
      std::memcpy(cmd.literal.data() + at, &v, bytes);
    }
  }
  if (queueFull(wi, op, f.pending[cmd.queue], f.queues[cmd.queue].size, why))
    return enqueueFailed(wi, op, site, kClkDeviceQueueFull, why);
  uint64_t pendingAll = 0;
  for (const uint64_t p : f.pending) pendingAll += p;
  if (pendingAll >= f.maxPending)
    return enqueueFailed(wi, op, site, kClkOutOfResources,
                         std::to_string(pendingAll) + " commands of the launch and the kernels it enqueued have not "
                         "started over all device queues, as many as clref holds in host memory");
  const uint64_t retPtr = readWord(wi, site.retEvent, bytes);
  // enqueue_marker: "event_ret must not be NULL as otherwise this is a no-op".
  if (!site.invoke && retPtr == 0) {
    wr<int32_t>(wi, op->r, kClkSuccess);
    return op + 1;
  }
  uint8_t* ret = nullptr;
  if (retPtr) {
    ret = access(wi, op, retPtr, bytes, bytes, true);
    if (!ret) return nullptr;
  }
  // Every command has an event (its status is what wait lists and profiling read); the kernel holds a reference
  // only to a returned one.
  const auto event = f.newEvent(kStatusQueued, ret != nullptr, bytes);
  if (!event)
    return enqueueFailed(wi, op, site, kClkEventAllocationFailure,
                         std::to_string(kMaxOnDeviceEvents) + " events (CL_DEVICE_MAX_ON_DEVICE_EVENTS) are in use");
  cmd.event = *event;
  if (ret) {
    const uint64_t h = eventHandle(*event, bytes);
    std::memcpy(ret, &h, bytes);
  }
  ++f.pending[cmd.queue];
  wi.launch->enqueue->commands.push_back(std::move(cmd));
  wr<int32_t>(wi, op->r, kClkSuccess);
  return op + 1;
}

// OpGetDefaultQueue: the default device queue, or CLK_NULL_QUEUE.
const Op* getDefaultQueue(WorkItem& wi, const Op* op) {
  const uint64_t h = familyOf(wi).hasDefaultQueue ? kQueueHandleTag : 0;
  std::memcpy(wi.regs + op->r, &h, ptrBytes(wi));
  return op + 1;
}

// OpenCL C 3.0 §6.15.19.8 [[built-in-functions-event-functions]]: retain_event, release_event and
// set_user_event_status on an invalid event are undefined: a fault.
DeviceEvent* eventOperand(WorkItem& wi, const Op* op, const char* function, uint32_t* index = nullptr) {
  DeviceEvent* e = familyOf(wi).liveEvent(readWord(wi, op->a, ptrBytes(wi)), index);
  if (!e)
    fault(wi, op, FaultKind::UndefinedBehaviour,
          std::string(function) + " of a value that is not a valid event (released, CLK_NULL_EVENT or undefined)");
  return e;
}

const Op* retainEvent(WorkItem& wi, const Op* op) {
  std::lock_guard lock(familyOf(wi).mutex);
  DeviceEvent* e = eventOperand(wi, op, "retain_event");
  if (!e) return nullptr;
  ++e->references;
  return op + 1;
}

const Op* releaseEvent(WorkItem& wi, const Op* op) {
  EnqueueFamily& f = familyOf(wi);
  std::lock_guard lock(f.mutex);
  uint32_t index = 0;
  if (!eventOperand(wi, op, "release_event", &index)) return nullptr;
  f.release(index);
  return op + 1;
}

// create_user_event: a user event with status CL_SUBMITTED, or CLK_NULL_EVENT when none can be made.
const Op* createUserEvent(WorkItem& wi, const Op* op) {
  EnqueueFamily& f = familyOf(wi);
  std::lock_guard lock(f.mutex);
  const auto index = f.newEvent(kStatusSubmitted, true, ptrBytes(wi));
  uint64_t h = ~uint64_t(0);
  if (index) {
    f.events[*index].user = true;
    h = eventHandle(*index, ptrBytes(wi));
  } else {
    warnOnce(wi, op,
             "create_user_event returns CLK_NULL_EVENT: " + std::to_string(kMaxOnDeviceEvents) +
                 " events (CL_DEVICE_MAX_ON_DEVICE_EVENTS) are in use");
  }
  std::memcpy(wi.regs + op->r, &h, ptrBytes(wi));
  return op + 1;
}

const Op* isValidEvent(WorkItem& wi, const Op* op) {
  EnqueueFamily& f = familyOf(wi);
  std::lock_guard lock(f.mutex);
  wr<uint8_t>(wi, op->r, f.liveEvent(readWord(wi, op->a, ptrBytes(wi))) != nullptr);
  return op + 1;
}

// set_user_event_status: "status can be either CL_COMPLETE or a negative integer value"; a user event's status is
// set once (OpenCL 3.0 API §5.11 [[event-objects]] clSetUserEventStatus, whose rule the built-in mirrors).
const Op* setUserEventStatus(WorkItem& wi, const Op* op) {
  EnqueueFamily& f = familyOf(wi);
  std::lock_guard lock(f.mutex);
  DeviceEvent* e = eventOperand(wi, op, "set_user_event_status");
  if (!e) return nullptr;
  const int32_t status = rd<int32_t>(wi, op->b);
  if (!e->user)
    return fault(wi, op, FaultKind::UndefinedBehaviour,
                 "set_user_event_status of an event that create_user_event did not return");
  if (status > 0)
    return fault(
        wi, op, FaultKind::UndefinedBehaviour,
        "set_user_event_status with status " + std::to_string(status) + " (CL_COMPLETE or a negative error code)");
  if (e->status != kStatusSubmitted)
    return fault(wi, op, FaultKind::UndefinedBehaviour, "set_user_event_status of a user event whose status is set");
  e->status = status;
  e->start = e->end = e->complete = std::chrono::steady_clock::now();
  return op + 1;
}

// capture_event_profiling_info(event, CLK_PROFILING_COMMAND_EXEC_TIME, value): two 64-bit values written once the
// command completes.
const Op* captureProfilingInfo(WorkItem& wi, const Op* op) {
  EnqueueFamily& f = familyOf(wi);
  std::lock_guard lock(f.mutex);
  uint32_t index = 0;
  DeviceEvent* e = eventOperand(wi, op, "capture_event_profiling_info", &index);
  if (!e) return nullptr;
  if (e->user)
    return fault(wi, op, FaultKind::UndefinedBehaviour,
                 "capture_event_profiling_info of a user event (undefined: not an event enqueue_kernel returned)");
  const uint32_t name = rd<uint32_t>(wi, op->b);
  if (name != 1)  // CLK_PROFILING_COMMAND_EXEC_TIME
    return fault(wi, op, FaultKind::UndefinedBehaviour,
                 "capture_event_profiling_info with name " + std::to_string(name) +
                     " (only CLK_PROFILING_COMMAND_EXEC_TIME, 1, is defined)");
  uint8_t* value = access(wi, op, readWord(wi, op->c, ptrBytes(wi)), 16, 8, true);
  if (!value) return nullptr;
  e->profilingTargets.push_back(value);
  if (e->status == kStatusComplete) f.finish(index, kStatusComplete);
  return op + 1;
}

// The block kernel queries: work-group size, preferred multiple, sub-group count and size for an ND-range, and the
// sub-group dispatch ones (capability SubgroupDispatch): the most sub-groups, the local size for a sub-group count.
struct KernelQuery {
  uint32_t invoke = 0;
  NDRangeOperand ndrange;  // the sub-group queries
  uint32_t count = 0;      // OpGetKernelLocalSizeForSubgroupCount's Subgroup Count
};

enum class Query {
  WorkGroupSize,
  PreferredMultiple,
  SubGroupCount,
  MaxSubGroupSize,
  MaxNumSubgroups,
  LocalSizeForCount
};

template <Query Q> const Op* kernelQuery(WorkItem& wi, const Op* op) {
  const auto& q = *static_cast<const KernelQuery*>(op->aux);
  const LoweredKernel* child = blockKernel(wi, op, q.invoke);
  if (!child) return nullptr;
  const EnqueueFamily& f = familyOf(wi);
  const uint64_t sg = wi.launch->subgroupSize;
  uint64_t value = 0;
  if constexpr (Q == Query::WorkGroupSize) {
    value = maxWorkGroupSize(*child, f.deviceMaxWorkGroupSize);
  } else if constexpr (Q == Query::PreferredMultiple) {
    value = sg;  // as the host's CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE
  } else if constexpr (Q == Query::MaxNumSubgroups) {
    // SPIR-V 1.1 OpGetKernelMaxNumSubgroups [external]: as the host's CL_KERNEL_MAX_NUM_SUB_GROUPS.
    value = maxNumSubgroups(maxWorkGroupSize(*child, f.deviceMaxWorkGroupSize), sg);
  } else if constexpr (Q == Query::LocalSizeForCount) {
    // SPIR-V 1.1 OpGetKernelLocalSizeForSubgroupCount [external]: as the host's
    // CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT (its first dimension).
    value =
        localSizeForSubgroupCount(rd<uint32_t>(wi, q.count), maxWorkGroupSize(*child, f.deviceMaxWorkGroupSize), sg);
  } else {
    uint32_t dims = 0;
    NDRangeSpec r;
    if (!readNDRange(wi, op, q.ndrange, dims, r)) return nullptr;
    std::string why;
    if (!validNDRange(dims, r, *child, *wi.launch->choices, f.deviceMaxWorkGroupSize, why))
      return fault(wi, op, FaultKind::UndefinedBehaviour, "a sub-group query of an ND-range that is not valid: " + why);
    const uint64_t group = r.local[0] * r.local[1] * r.local[2];
    value = Q == Query::SubGroupCount ? (group + sg - 1) / sg : std::min(group, sg);
  }
  wr<uint32_t>(wi, op->r, uint32_t(value));
  return op + 1;
}

// The pointers of the block literal: the operand traced through casts to the variable that holds it, and the
// pointer members of that variable's type.
void pointerOffsets(const Lowerer& L, uint32_t typeId, uint64_t at, std::vector<uint32_t>& out, int depth = 0) {
  const Type& t = L.type(typeId);
  if (depth > 16) return;
  switch (t.kind) {
    case TypeKind::Pointer: out.push_back(uint32_t(at)); break;
    case TypeKind::Struct:
      for (size_t i = 0; i < t.members.size(); ++i)
        pointerOffsets(L, t.members[i], at + t.memberOffsets[i], out, depth + 1);
      break;
    case TypeKind::Array:
      for (uint32_t i = 0; i < t.count && out.size() < 4096; ++i)
        pointerOffsets(L, t.element, at + i * L.type(t.element).size, out, depth + 1);
      break;
    default: break;
  }
}

std::vector<uint32_t> literalPointers(Lowerer& L, const Instruction& inst, uint32_t id) {
  using S = spv::Op;
  for (int steps = 0; steps < 64; ++steps) {
    const Instruction& d = L.m.def(id);
    if (d.opcode == S::OpVariable) {
      std::vector<uint32_t> out;
      pointerOffsets(L, L.type(d.resultType).element, 0, out);
      return out;
    }
    const bool cast = d.opcode == S::OpPtrCastToGeneric || d.opcode == S::OpBitcast || d.opcode == S::OpCopyObject ||
                      d.opcode == S::OpGenericCastToPtr;
    bool zeroChain = d.opcode == S::OpInBoundsPtrAccessChain || d.opcode == S::OpPtrAccessChain ||
                     d.opcode == S::OpAccessChain || d.opcode == S::OpInBoundsAccessChain;
    for (size_t i = 1; zeroChain && i < d.operandCount(); ++i)
      zeroChain = L.isConstant(d.operand(i)) && L.constantInt(d.operand(i)) == 0;
    if (!cast && !zeroChain) break;
    id = d.operand(0);
  }
  L.reject(inst,
           "the block literal (Param) is not a variable clref can trace through casts, so the pointers it "
           "captured cannot be told from its other bytes");
}

void lowerEnqueue(Lowerer& L, const Instruction& inst) {
  const bool kernel = inst.opcode == spv::Op::OpEnqueueKernel;
  auto site = std::make_shared<EnqueueSite>();
  site->queue = L.reg(inst.operand(0));
  size_t i = 1;
  if (kernel) {
    site->flags = L.reg(inst.operand(1));
    site->ndrange = ndrangeOperand(L, inst, inst.operand(2));
    i = 3;
  }
  site->numEvents = L.reg(inst.operand(i));
  site->waitEvents = L.reg(inst.operand(i + 1));
  site->retEvent = L.reg(inst.operand(i + 2));
  if (kernel) {
    site->invoke = inst.operand(6);
    site->param = L.reg(inst.operand(7));
    site->paramSize = L.reg(inst.operand(8));
    site->literalPointers = literalPointers(L, inst, inst.operand(7));
    for (size_t j = 10; j < inst.operandCount(); ++j)
      site->localSizes.emplace_back(L.reg(inst.operand(j)), L.typeOfValue(inst.operand(j)).kind == TypeKind::Pointer);
  }
  site->detailedErrors = L.opt.detailedEnqueueErrors;
  Op& op = L.emit(&enqueue, inst);
  op.r = L.reg(inst.resultId);
  op.aux = site.get();
  L.k.auxObjects.push_back(std::move(site));
  L.k.usesDeviceEnqueue = true;
}

void lowerBuildNDRange(Lowerer& L, const Instruction& inst);

template <Query Q> void lowerQuery(Lowerer& L, const Instruction& inst) {
  auto q = std::make_shared<KernelQuery>();
  const bool withRange = Q == Query::SubGroupCount || Q == Query::MaxSubGroupSize;
  const bool withCount = Q == Query::LocalSizeForCount;
  if (withRange) q->ndrange = ndrangeOperand(L, inst, inst.operand(0));
  if (withCount) q->count = L.reg(inst.operand(0));
  q->invoke = inst.operand(withRange || withCount ? 1 : 0);
  Op& op = L.emit(&kernelQuery<Q>, inst);
  op.r = L.reg(inst.resultId);
  op.aux = q.get();
  L.k.auxObjects.push_back(std::move(q));
  L.k.usesDeviceEnqueue = true;
}

void lowerEvent(Lowerer& L, const Instruction& inst) {
  using S = spv::Op;
  Handler fn = nullptr;
  switch (inst.opcode) {
    case S::OpRetainEvent: fn = &retainEvent; break;
    case S::OpReleaseEvent: fn = &releaseEvent; break;
    case S::OpCreateUserEvent: fn = &createUserEvent; break;
    case S::OpIsValidEvent: fn = &isValidEvent; break;
    case S::OpSetUserEventStatus: fn = &setUserEventStatus; break;
    case S::OpCaptureEventProfilingInfo: fn = &captureProfilingInfo; break;
    default: fn = &getDefaultQueue; break;
  }
  Op& op = L.emit(fn, inst);
  if (inst.resultId) op.r = L.reg(inst.resultId);
  if (inst.operandCount() > 0) op.a = L.reg(inst.operand(0));
  if (inst.operandCount() > 1) op.b = L.reg(inst.operand(1));
  if (inst.operandCount() > 2) op.c = L.reg(inst.operand(2));
  L.k.usesDeviceEnqueue = true;
}

// OpBuildNDRange: GlobalWorkSize, LocalWorkSize, GlobalWorkOffset, each a size_t or an array of 1 to 3 of them; the
// work dimension is the global size's length.
struct NDRangeBuild {
  NDRangeLayout layout;
  std::array<uint32_t, 3> reg{}, count{};  // global, local, offset
};

const Op* buildNDRange(WorkItem& wi, const Op* op) {
  const auto& b = *static_cast<const NDRangeBuild*>(op->aux);
  uint8_t* out = wi.regs + op->r;
  std::memset(out, 0, b.layout.size);
  const uint32_t dims = b.count[0];
  std::memcpy(out + b.layout.dims, &dims, 4);
  const std::array<uint32_t, 3> at{b.layout.global, b.layout.local, b.layout.offset};
  for (int k = 0; k < 3; ++k) std::memcpy(out + at[k], wi.regs + b.reg[k], uint64_t(b.count[k]) * b.layout.element);
  return op + 1;
}

void lowerBuildNDRange(Lowerer& L, const Instruction& inst) {
  auto b = std::make_shared<NDRangeBuild>();
  b->layout = ndrangeLayout(L, inst, inst.resultType);
  for (int k = 0; k < 3; ++k) {
    const uint32_t id = inst.operand(k);
    const Type& t = L.typeOfValue(id);
    const uint32_t count = t.kind == TypeKind::Array ? t.count : 1;
    const Type& element = t.kind == TypeKind::Array ? L.type(t.element) : t;
    if (count < 1 || count > 3 || element.kind != TypeKind::Int || element.width != L.ptrBytes() * 8)
      L.reject(inst, "an ND-range operand that is not a size_t or an array of 1 to 3 of them");
    b->reg[k] = L.reg(id);
    b->count[k] = count;
  }
  Op& op = L.emit(&buildNDRange, inst);
  op.r = L.reg(inst.resultId);
  op.aux = b.get();
  L.k.auxObjects.push_back(std::move(b));
}

}  // namespace

void registerEnqueue(DispatchTable& t) {
  using S = spv::Op;
  t.declaration({S::OpTypeDeviceEvent, S::OpTypeQueue}, "types");
  t.lower({S::OpEnqueueKernel, S::OpEnqueueMarker}, lowerEnqueue);
  t.lower(S::OpBuildNDRange, lowerBuildNDRange);
  t.lower({S::OpGetDefaultQueue, S::OpRetainEvent, S::OpReleaseEvent, S::OpCreateUserEvent, S::OpIsValidEvent,
           S::OpSetUserEventStatus, S::OpCaptureEventProfilingInfo},
          lowerEvent);
  t.lower(S::OpGetKernelWorkGroupSize, lowerQuery<Query::WorkGroupSize>);
  t.lower(S::OpGetKernelPreferredWorkGroupSizeMultiple, lowerQuery<Query::PreferredMultiple>);
  t.lower(S::OpGetKernelNDrangeSubGroupCount, lowerQuery<Query::SubGroupCount>);
  t.lower(S::OpGetKernelNDrangeMaxSubGroupSize, lowerQuery<Query::MaxSubGroupSize>);
  t.lower(S::OpGetKernelMaxNumSubgroups, lowerQuery<Query::MaxNumSubgroups>);
  t.lower(S::OpGetKernelLocalSizeForSubgroupCount, lowerQuery<Query::LocalSizeForCount>);
}

}  // namespace clref::interpreter
