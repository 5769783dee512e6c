// The OpenCL objects of the C API (OpenCL 3.0 API §4 [[opencl-platform-layer]]–§5 [[opencl-runtime]]) as thin shells
// over clref::host.
//
// Every object starts with the ICD dispatch pointer (cl_khr_icd: the loader reads the first
// pointer-sized field of any handle to find the vendor's dispatch table). Handles are checked
// against a registry of live objects, so an invalid or already released handle gives the spec's
// CL_INVALID_<OBJECT> instead of a crash. A released object's memory stays behind as a tombstone
// (entomb below) whose first word is still the dispatch table, so that a released handle also
// reaches clref's check through the ICD loader, which reads that word before calling clref.
//
// Concurrency: the whole API runs under one lock (ApiLock). Commands execute synchronously when
// their wait list is complete; a command waiting on an incomplete user event stays pending in
// its queue (in order) until the event completes. User callbacks run after the lock is released.
// The exception is a kernel launch while its context has SVM allocations with CL_MEM_SVM_ATOMICS:
// it runs on a thread of its own, without the lock, at the same time as the host (queue.cpp).
#pragma once
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <CL/cl_icd.h>

#include <array>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "host/host.hpp"
#include "icd/api_log.hpp"

namespace clref::cl {

enum class Kind : uint32_t {
  Platform = 0x504c4154,
  Device,
  Context,
  Queue,
  Mem,
  Program,
  Kernel,
  Event,
  Sampler,
  Released,  // a tombstone (see entomb)
  CommandBuffer
};

// ---- the API lock and deferred callbacks ---------------------------------------------------

std::mutex& apiMutex();
std::condition_variable& apiCondition();  // notified whenever an event changes status
// Callbacks collected while the lock is held; run by ~ApiLock after unlocking, so a callback
// may call the API (e.g. clSetUserEventStatus from an event callback).
void deferCallback(std::function<void()> fn);
// Room for n more deferred callbacks: deferCallback then cannot fail for lack of memory (for
// changes that must not be left half-done by CL_OUT_OF_HOST_MEMORY).
void reserveDeferred(size_t n);

class ApiLock {
 public:
  ApiLock();
  ~ApiLock();
  std::unique_lock<std::mutex>& lock() { return lock_; }

 private:
  std::unique_lock<std::mutex> lock_;
};

// ---- exceptions at the API boundary ---------------------------------------------------------

// Every entry point is a function-try-block: no C++ exception crosses into the C caller. A
// failed allocation is the spec's CL_OUT_OF_HOST_MEMORY ("a failure to allocate resources
// required by the OpenCL implementation on the host", listed for nearly every entry point); any
// other escaping exception is an internal failure, reported as CL_OUT_OF_RESOURCES. Either is
// logged on the channel "api" as an error of `function`, with the exception's message.
cl_int currentExceptionCode(const char* function);  // call from a catch handler
template <class R> R failedCall(const char* function, cl_int* errcode_ret) {
  const cl_int code = currentExceptionCode(function);
  if constexpr (std::is_same_v<R, cl_int>) {
    return code;
  } else {
    if (errcode_ret) *errcode_ret = code;
    if constexpr (!std::is_void_v<R>) return R{};
  }
}

// ---- object base, registry, reference counts -----------------------------------------------

struct Object {
  cl_icd_dispatch* dispatch;  // must stay the first field (cl_khr_icd)
  Kind kind;
  cl_uint refCount = 1;  // the application's references (CL_*_REFERENCE_COUNT)
  cl_uint internal = 0;  // references held by other objects and pending commands
  explicit Object(Kind k);
};

cl_icd_dispatch* dispatchTable();
void registerObject(Object* o);
void unregisterObject(Object* o);  // undoes registerObject (for an object never handed out)
bool isLive(const void* p, Kind k);
void retainInternal(Object* o);
void releaseInternal(Object* o);
void retainExternal(Object* o);
void releaseExternal(Object* o);  // the handle becomes invalid at 0

// What stays of an object after its last reference is gone: its memory, no longer in the registry
// (isLive is false for it), with the dispatch pointer still first and kind Released. The ICD
// loader dereferences a handle's first word before calling clref, so a released handle must keep
// pointing at readable memory whose first word is the dispatch table; clref's checks then answer
// CL_INVALID_<OBJECT>. The block is the object's whole allocation (it cannot be shrunk in place),
// the size of the _cl_* struct (on x86-64: sampler 24, event and kernel 104, buffer 176, program
// 360 bytes): too much to keep forever for an application that makes millions of events. So
// tombstones are kept first in, first out up to a total of kTombstoneBytes (4 MiB: some 40000
// events); past that the oldest is freed, and a handle released that long ago is back to the
// loader's behaviour for a dangling pointer.
struct Tombstone {
  cl_icd_dispatch* dispatch;  // at the offset of Object::dispatch
  Kind kind;                  // at the offset of Object::kind: Kind::Released
  uint32_t bytes;             // the size of the allocation
  Tombstone* next;            // the next younger tombstone
};
inline constexpr size_t kTombstoneBytes = size_t(4) << 20;
void bury(void* block, size_t bytes);  // keeps block (operator new'd, bytes long) as a tombstone
// Destroys o's contents (not its memory) and keeps the memory as a tombstone. Never fails.
template <class T> void entomb(T* o) noexcept {
  static_assert(sizeof(T) >= sizeof(Tombstone) && alignof(T) >= alignof(Tombstone));
  o->~T();
  bury(o, sizeof(T));
}

}  // namespace clref::cl

// ---- the objects (global namespace: cl.h declares them as struct _cl_*) ---------------------

struct _cl_platform_id : clref::cl::Object {
  _cl_platform_id() : Object(clref::cl::Kind::Platform) {}
};

struct _cl_device_id : clref::cl::Object {
  _cl_device_id() : Object(clref::cl::Kind::Device) {}
  clref::host::Device device;
  // host::openCLCExtensions of the device, computed when the device is made: the image entry points ask it without
  // allocating.
  std::vector<std::string> extensions;
  // OpenCL 3.0 API §4.3 [[platform-device-partitioning]]: a compute unit is one worker thread of the interpreter (the
  // root device has DeviceConfig::threads of them, or the host's hardware threads); a sub-device is a partition of its
  // parent's threads that runs the same interpreter with the same configuration, so every device computes the same
  // results and only the number of threads running a launch differs.
  cl_uint computeUnits = 1;
  cl_device_id parent = nullptr;                                // a sub-device's parent; null for the root device
  std::vector<cl_device_partition_property> partitionType;      // a sub-device's properties as given, with the 0
  bool isSubDevice() const { return parent != nullptr; }
};

struct _cl_context : clref::cl::Object {
  _cl_context() : Object(clref::cl::Kind::Context) {}
  // Its devices, without duplicates, in the order given; sub-devices among them are retained (internally) by the
  // context, and every object made in the context reaches its devices through it.
  std::vector<cl_device_id> devices;
  bool hasDevice(cl_device_id d) const;
  std::vector<cl_context_properties> properties;  // as given, with the terminating 0
  void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*) = nullptr;
  void* notifyData = nullptr;
  std::vector<std::pair<void(CL_CALLBACK*)(cl_context, void*), void*>> destructorCallbacks;
  // Its SVM allocations (svm.cpp: clSVMAlloc), by base address; freed with the context if the application did not.
  struct SvmAllocation {
    size_t size = 0;
    cl_svm_mem_flags flags = 0;
  };
  std::map<const void*, SvmAllocation> svm;
  size_t svmAtomicAllocations = 0;  // how many of them have CL_MEM_SVM_ATOMICS (kernels then run beside the host)
  // The SVM allocation of this context that holds [p, p + bytes) (bytes 0: p may be its end), or nullptr.
  const std::pair<const void* const, SvmAllocation>* svmAllocationHolding(const void* p, size_t bytes) const;
  // Per device (the same order as `devices`, sized when the context is made, so that keeping count allocates
  // nothing): its device queues and its default device queue in this context. OpenCL 3.0 API §5.1 [[_command_queues]]
  // CL_QUEUE_ON_DEVICE_DEFAULT: "There can only be one default device queue for each device within a context";
  // §4.2 [[platform-querying-devices]] CL_DEVICE_MAX_ON_DEVICE_QUEUES counts "for this device in a single context".
  struct DeviceQueues {
    cl_uint live = 0;                         // device queues made and not yet released
    cl_command_queue defaultQueue = nullptr;  // not retained: forgotten when it is released
  };
  std::vector<DeviceQueues> deviceQueues;
  DeviceQueues& deviceQueuesOf(cl_device_id d);  // d must be a device of the context
};

struct _cl_command_queue;
struct _cl_event;

namespace clref::cl {
// What a command does once it may start: the part that may run without the API lock (a kernel launch in the
// interpreter), returning the part that needs the lock (reporting what happened, releasing what the command held),
// which returns CL_SUCCESS or the negative status the command's event ends with.
using Launch = std::function<std::function<cl_int()>()>;
// One enqueued command: `work` runs under the API lock; a kernel launch gives `launch` instead (queue.cpp decides
// whether it runs at the same time as the host).
struct Command {
  const char* function = nullptr;  // the entry point that enqueued it (for the channel "api")
  cl_event event = nullptr;
  std::vector<cl_event> waits;
  std::function<cl_int()> work;
  Launch launch;
};
// A region mapped by clEnqueueMapBuffer and not yet unmapped, kept on the root buffer so that
// maps of a buffer and of its sub-buffers see each other (OpenCL 3.0 API §5.5.4 [[accessing-mapped-regions]]:
// overlapping write maps).
struct Mapping {
  cl_mem mem;     // the object mapped (the root buffer or one of its sub-buffers)
  void* ptr;      // the pointer returned
  size_t offset;  // in the root buffer
  size_t size;
  bool writing;  // CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION
  // An image's map (kept on the image): the box of elements of one mip level, for the overlap rule.
  std::array<size_t, 3> origin{}, region{};
  uint32_t level = 0;
};
}  // namespace clref::cl

struct _cl_command_queue : clref::cl::Object {
  _cl_command_queue() : Object(clref::cl::Kind::Queue) {}
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue_properties properties = 0;
  std::vector<cl_queue_properties> propertyArray;  // CL_QUEUE_PROPERTIES_ARRAY
  std::deque<clref::cl::Command> pending;
  bool running = false;  // its first command runs on a thread of its own (queue.cpp): the next ones wait
  // A device queue (CL_QUEUE_ON_DEVICE): the host API's queue, which kernels bind; null for a host queue. No host
  // command runs on it (validHostQueue), so it holds no commands and nothing retains it internally.
  std::shared_ptr<clref::host::DeviceQueue> deviceQueue;
};

struct _cl_mem : clref::cl::Object {
  _cl_mem() : Object(clref::cl::Kind::Mem) {}
  cl_context context = nullptr;
  cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
  cl_mem_flags flags = 0;
  size_t size = 0;
  void* hostPtr = nullptr;
  std::shared_ptr<clref::host::Buffer> buffer;
  cl_mem parent = nullptr;  // sub-buffer: the buffer it views
  size_t offset = 0;
  cl_uint mapCount = 0;
  std::vector<clref::cl::Mapping> mappings;  // root buffer: its and its sub-buffers' live maps
  std::vector<cl_mem_properties> propertyArray;
  std::vector<std::pair<void(CL_CALLBACK*)(cl_mem, void*), void*>> destructorCallbacks;
  // Images (OpenCL 3.0 API §5.3 [[_image_objects]]): the host image, the format and the descriptor as clGetImageInfo
  // answers them, and the buffer or image it was created from (image_desc->mem_object, retained internally).
  std::shared_ptr<clref::host::Image> image;
  cl_image_format imageFormat{};
  cl_image_desc imageDesc{};
  cl_mem memObject = nullptr;
  // Pipes (OpenCL 3.0 API §5.4 [[_pipes]]; type CL_MEM_OBJECT_PIPE): the packets, and the properties as given.
  std::shared_ptr<clref::host::Pipe> pipe;
  std::vector<cl_pipe_properties> pipeProperties;
};

namespace clref::cl {
// What a memory object is, for messages: "a buffer", "an image" or "a pipe".
inline const char* memKindName(cl_mem m) {
  return m->type == CL_MEM_OBJECT_BUFFER ? "a buffer" : m->type == CL_MEM_OBJECT_PIPE ? "a pipe" : "an image";
}

// One kernel argument as OpenCL C declares it (clang's kernel_arg_* metadata), for
// clGetKernelArgInfo: SPIR-V loses signedness, typedef names and type qualifiers.
struct KernelArgMeta {
  cl_uint addressSpace = 0;  // SPIR address space: 0 private, 1 global, 2 constant, 3 local
  std::string access;        // "none", "read_only", "write_only", "read_write"
  std::string type;          // e.g. "uchar4*", "my_struct"
  std::string qualifiers;    // space-separated: const, restrict, volatile, pipe
  std::string name;
};
}  // namespace clref::cl

struct _cl_program : clref::cl::Object {
  _cl_program() : Object(clref::cl::Kind::Program) {}
  enum class Origin { Source, IL, Binary, Linked };
  cl_context context = nullptr;
  Origin origin = Origin::Source;
  std::string source;
  std::vector<uint32_t> il;     // the IL as given (CL_PROGRAM_IL)
  std::vector<uint32_t> spirv;  // compiled object or linked executable
  // The source files its OpLine instructions name, when it was compiled from source here (or linked from such
  // objects): diagnostics name the program's source, not the compiler's temporary copy.
  std::vector<clref::host::SourceName> sourceNames;
  cl_program_binary_type binaryType = CL_PROGRAM_BINARY_TYPE_NONE;
  cl_build_status status = CL_BUILD_NONE;
  // The program's devices (CL_PROGRAM_DEVICES: its context's, or the device_list of clCreateProgramWithBinary), and
  // those the last build, compile or link was for: the build status, options, log and binary type of the others are
  // those of no build (a sub-device uses what was built for a parent). clref keeps one executable for all of them
  // (partitions of one interpreter, one configuration).
  std::vector<cl_device_id> devices;
  std::vector<cl_device_id> builtFor;
  bool builtForDevice(cl_device_id d) const;
  std::string options;
  std::string log;
  std::shared_ptr<clref::host::Program> executable;
  std::map<cl_uint, std::vector<uint8_t>> specConstants;
  cl_uint kernelsAttached = 0;
  bool uniformWorkGroups = false;                                        // work-group sizes must divide the global size
  bool argInfo = false;                                                  // -cl-kernel-arg-info
  std::map<std::string, std::vector<clref::cl::KernelArgMeta>> argMeta;  // per kernel name (with -cl-kernel-arg-info)
  std::map<std::string, std::string> kernelAttributes;                   // per kernel name (OpenCL C source only)
  // Sources whose kernels' attributes are not read yet (cl::readKernelAttributes, when CL_KERNEL_ATTRIBUTES is asked):
  // a build without -cl-kernel-arg-info does without the compiler run that reads clang's metadata.
  std::vector<clref::host::OpenCLCSource> attributesUnread;
};

namespace clref::cl {
// A kernel argument as last set (OpenCL 3.0 API §5.9.2 [[setting-kernel-arguments]] clSetKernelArg); applied to the
// host kernel just before each launch, so deferred launches use the values of their enqueue time.
struct ArgRecord {
  bool set = false;
  host::ArgKind kind = host::ArgKind::Value;
  std::shared_ptr<host::Buffer> buffer;  // null + set: a NULL buffer (unless svm)
  bool svm = false;                      // clSetKernelArgSVMPointer: svmPointer is the argument
  const void* svmPointer = nullptr;
  cl_mem mem = nullptr;                  // for sub-buffer alignment checks (not retained)
  size_t localBytes = 0;
  std::vector<uint8_t> value;
  std::shared_ptr<host::Image> image;  // an image argument
  std::shared_ptr<host::Pipe> pipe;    // a pipe argument
  host::Sampler sampler;               // a sampler argument
  std::shared_ptr<host::DeviceQueue> deviceQueue;  // a queue_t argument
};
}  // namespace clref::cl

struct _cl_kernel : clref::cl::Object {
  _cl_kernel() : Object(clref::cl::Kind::Kernel) {}
  cl_program program = nullptr;
  std::string name;
  std::unique_ptr<clref::host::Kernel> kernel;
  std::vector<clref::cl::ArgRecord> args;
  cl_ulong staticLocalBytes = 0;  // __local variables of the kernel and the functions it calls
  // clSetKernelExecInfo: the SVM pointers the kernel may use without an argument (every SVM allocation is reachable
  // to every kernel, so this is only validated and kept).
  std::vector<const void*> svmPointers;
};

struct _cl_event : clref::cl::Object {
  _cl_event() : Object(clref::cl::Kind::Event) {}
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;  // null for user events
  cl_command_type type = CL_COMMAND_USER;
  cl_int status = CL_QUEUED;
  cl_ulong queued = 0, submit = 0, start = 0, end = 0;
  struct Callback {
    cl_int trigger;
    void(CL_CALLBACK* fn)(cl_event, cl_int, void*);
    void* data;
    bool done = false;
  };
  std::vector<Callback> callbacks;
};

// A sampler object (OpenCL 3.0 API §5.7 [[_sampler_objects]]): its descriptor and the properties it was created with.
struct _cl_sampler : clref::cl::Object {
  _cl_sampler() : Object(clref::cl::Kind::Sampler) {}
  cl_context context = nullptr;
  clref::host::Sampler sampler;
  std::vector<cl_sampler_properties> propertyArray;  // CL_SAMPLER_PROPERTIES: as given, with the terminating 0
};

namespace clref::cl {

// The one platform and its one device.
cl_platform_id thePlatform();
cl_device_id theDevice();
// CLREF_LOG: a list of channels separated by commas or spaces, for programs that run unmodified through the ICD.
// "choices": after each kernel, the named choices that decided values (as `clref run` prints them), on stderr.
// "api": each error an entry point returns, with the rule the call broke, on stderr (api_log.hpp).
bool logChannel(std::string_view channel);

inline bool validPlatform(cl_platform_id p) { return isLive(p, Kind::Platform); }
inline bool validDevice(cl_device_id d) { return isLive(d, Kind::Device); }
inline bool validContext(cl_context c) { return isLive(c, Kind::Context); }
inline bool validQueue(cl_command_queue q) { return isLive(q, Kind::Queue); }
inline bool validMem(cl_mem m) { return isLive(m, Kind::Mem); }
inline bool validProgram(cl_program p) { return isLive(p, Kind::Program); }
inline bool validKernel(cl_kernel k) { return isLive(k, Kind::Kernel); }
inline bool validEvent(cl_event e) { return isLive(e, Kind::Event); }
inline bool validSampler(cl_sampler s) { return isLive(s, Kind::Sampler); }

// The error of a command_queue that is not a valid command-queue (nearly every command's first check).
inline cl_int invalidQueue(const char* function, cl_command_queue q) {
  return apiError(function, CL_INVALID_COMMAND_QUEUE, "command_queue {} is not a valid command-queue", q);
}

// A queue host commands may be enqueued to: every clEnqueue*, clFlush and clFinish says "CL_INVALID_COMMAND_QUEUE if
// command_queue is not a valid host command-queue" (e.g. OpenCL 3.0 API §5.16 [[_flush_and_finish]] clFinish); a
// device queue (CL_QUEUE_ON_DEVICE) takes only what kernels enqueue.
inline bool validHostQueue(cl_command_queue q) { return validQueue(q) && !q->deviceQueue; }
inline cl_int invalidHostQueue(const char* function, cl_command_queue q) {
  if (!validQueue(q)) return invalidQueue(function, q);
  return apiError(function, CL_INVALID_COMMAND_QUEUE,
                  "command_queue {} is a device queue (CL_QUEUE_ON_DEVICE), not a host command-queue", q);
}

// Sets *errcode_ret when given, and returns `value` (the pattern of every clCreate*).
template <class T> T withError(cl_int* errcode_ret, cl_int code, T value) {
  if (errcode_ret) *errcode_ret = code;
  return value;
}

// ---- clGet*Info ----------------------------------------------------------------------------

// OpenCL 3.0 API §4.2 [[platform-querying-devices]] (and every clGet*Info): CL_INVALID_VALUE if param_value is not NULL
// and param_value_size is smaller than the size of the return type.
struct InfoOut {
  size_t size;
  void* value;
  size_t* sizeRet;
  const char* function;  // the entry point, and the param_name asked, for the channel "api"
  cl_uint param;
  cl_int bytes(const void* src, size_t n) const {
    if (value) {
      if (size < n)
        return apiError(function, CL_INVALID_VALUE, "param_value_size is {}, less than the {} bytes of param_name {}",
                        size, n, hex(param));
      if (n) std::memcpy(value, src, n);
    }
    if (sizeRet) *sizeRet = n;
    return CL_SUCCESS;
  }
  template <class T> cl_int operator()(const T& v) const requires std::is_trivially_copyable_v<T> {
    return bytes(&v, sizeof(T));
  }
  cl_int operator()(const std::string& s) const { return bytes(s.c_str(), s.size() + 1); }
  cl_int operator()(const char* s) const { return bytes(s, std::strlen(s) + 1); }
  template <class T> cl_int operator()(const std::vector<T>& v) const { return bytes(v.data(), v.size() * sizeof(T)); }
};

// ---- queues and events ---------------------------------------------------------------------

cl_ulong nowNs();
// OpenCL 3.0 API §5.11 [[event-objects]] (every clEnqueue*): CL_INVALID_EVENT_WAIT_LIST / CL_INVALID_CONTEXT checks.
// `function` is the entry point checking (for the channel "api"), as in the helpers below.
cl_int checkWaitList(const char* function, cl_context context, cl_uint n, const cl_event* list);
// Creates the command's event, queues it, runs what can run; blocking waits for completion.
// Returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when a blocking command's wait list failed.
cl_int enqueue(const char* function, ApiLock& lock, cl_command_queue q, cl_command_type type, cl_uint n,
               const cl_event* list, cl_event* eventOut, std::function<cl_int()> work, bool blocking = false);
// The same for a kernel launch (Command::launch).
cl_int enqueueLaunch(const char* function, ApiLock& lock, cl_command_queue q, cl_command_type type, cl_uint n,
                     const cl_event* list, cl_event* eventOut, Launch launch);
void setEventStatus(cl_event e, cl_int status);
void drainAll();
void forgetQueue(cl_command_queue q);
void waitQueueEmpty(ApiLock& lock, cl_command_queue q);
void finalize(Object* o);  // last reference gone: release what the object holds and delete it

// ---- command-buffers (command_buffer.cpp) ---------------------------------------------------

// cl_khr_command_buffer: a command is recorded by the clEnqueue* entry point that would enqueue it, so it is checked
// exactly as an enqueue is; while this thread's recorder is set, enqueue/enqueueLaunch hand the command's work to it
// instead of queuing it, and the command-buffer runs the same work on every enqueue.
struct Recorder {
  bool recorded = false;
  cl_command_type type = 0;
  std::function<cl_int()> work;
  Launch launch;
  // Objects the work releases each time it ends (a kernel launch's kernel): retained again before each run.
  std::vector<Object*> perRun;
};
Recorder*& recorder();
void finalizeCommandBuffer(Object* o);
// The command-buffer entry point named `name` (for clGetExtensionFunctionAddressForPlatform), or null.
void* commandBufferFunction(const char* name);

// ---- kernels -------------------------------------------------------------------------------

// Reports a kernel fault: stderr and the context's notification callback.
void reportFault(cl_context context, const std::string& text);

// ---- SVM (svm.cpp) ---------------------------------------------------------------------------

// Frees the SVM allocations a context still has (when the context goes).
void freeSvmAllocations(cl_context context);

}  // namespace clref::cl
