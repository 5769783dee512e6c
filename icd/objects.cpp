// Object registry, reference counting and the API lock (see objects.hpp).
#include "icd/objects.hpp"

#include <algorithm>
#include <chrono>
#include <unordered_set>

namespace clref::cl {

std::mutex& apiMutex() {
  static std::mutex m;
  return m;
}
std::condition_variable& apiCondition() {
  static std::condition_variable c;
  return c;
}

namespace {
std::vector<std::function<void()>>& deferred() {
  static std::vector<std::function<void()>> d;
  return d;
}
std::unordered_set<const void*>& live() {
  static std::unordered_set<const void*> s;
  return s;
}
}  // namespace

void deferCallback(std::function<void()> fn) { deferred().push_back(std::move(fn)); }
void reserveDeferred(size_t n) { deferred().reserve(deferred().size() + n); }

cl_int currentExceptionCode(const char* function) {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return apiError(function, CL_OUT_OF_HOST_MEMORY, "a host allocation failed (std::bad_alloc)");
  } catch (const std::exception& e) {
    return apiError(function, CL_OUT_OF_RESOURCES, "internal failure: {}", e.what());
  } catch (...) {
    return apiError(function, CL_OUT_OF_RESOURCES, "internal failure (an exception that is no std::exception)");
  }
}

ApiLock::ApiLock() : lock_(apiMutex()) {}
ApiLock::~ApiLock() {
  // Run user callbacks outside the lock, in the order they became due.
  while (!deferred().empty()) {
    auto todo = std::move(deferred());
    deferred().clear();
    lock_.unlock();
    for (auto& f : todo) f();
    lock_.lock();
  }
}

Object::Object(Kind k) : dispatch(dispatchTable()), kind(k) {}

void registerObject(Object* o) { live().insert(o); }
void unregisterObject(Object* o) { live().erase(o); }

bool isLive(const void* p, Kind k) {
  if (!p || !live().count(p)) return false;
  return static_cast<const Object*>(p)->kind == k;
}

namespace {
struct Graveyard {
  std::mutex mutex;  // its own lock: contexts and memory objects with destructor callbacks are
                     // entombed by a deferred call, outside the API lock
  Tombstone* oldest = nullptr;
  Tombstone* youngest = nullptr;
  size_t bytes = 0;
};
Graveyard& graveyard() {
  static Graveyard g;
  return g;
}
}  // namespace

void bury(void* block, size_t bytes) {
  // No allocation here: a release must not fail for lack of memory.
  auto* t = ::new (block) Tombstone{dispatchTable(), Kind::Released, uint32_t(bytes), nullptr};
  auto& g = graveyard();
  std::lock_guard<std::mutex> guard(g.mutex);
  (g.youngest ? g.youngest->next : g.oldest) = t;
  g.youngest = t;
  g.bytes += bytes;
  while (g.bytes > kTombstoneBytes && g.oldest != t) {
    Tombstone* old = g.oldest;
    g.oldest = old->next;
    g.bytes -= old->bytes;
    ::operator delete(static_cast<void*>(old));  // allocated by new T: the unsized form fits (clang has no sized one by default)
  }
}

void retainInternal(Object* o) { ++o->internal; }

}  // namespace clref::cl

bool _cl_context::hasDevice(cl_device_id d) const { return std::find(devices.begin(), devices.end(), d) != devices.end(); }
_cl_context::DeviceQueues& _cl_context::deviceQueuesOf(cl_device_id d) {
  return deviceQueues.at(size_t(std::find(devices.begin(), devices.end(), d) - devices.begin()));
}
// OpenCL 3.0 API §5.8.9 [[_program_object_queries]] (note to clGetProgramBuildInfo): "If a program binary has not been
// built for a sub-device, the program binary associated with the parent device will be used."
bool _cl_program::builtForDevice(cl_device_id d) const {
  for (; d; d = d->parent)
    if (std::find(builtFor.begin(), builtFor.end(), d) != builtFor.end()) return true;
  return false;
}

namespace clref::cl {
void retainExternal(Object* o) { ++o->refCount; }

void releaseInternal(Object* o) {
  if (--o->internal == 0 && o->refCount == 0) finalize(o);
}

void releaseExternal(Object* o) {
  if (--o->refCount == 0) {
    live().erase(o);
    if (o->internal == 0) finalize(o);
  }
}

void finalize(Object* o) {
  switch (o->kind) {
    case Kind::Platform: return;  // static: never destroyed
    case Kind::Device: {
      auto* d = static_cast<cl_device_id>(o);
      if (!d->isSubDevice()) return;  // the root device is static: never destroyed
      cl_device_id parent = d->parent;
      entomb(d);
      if (parent->isSubDevice()) releaseInternal(parent);
      return;
    }
    case Kind::Context: {
      auto* c = static_cast<cl_context>(o);
      freeSvmAllocations(c);
      // Its sub-devices' references go now (without allocating): the destructor callbacks get only the context.
      for (cl_device_id d : c->devices)
        if (d->isSubDevice()) releaseInternal(d);
      // OpenCL 3.0 API §4.4 [[_contexts]] clSetContextDestructorCallback: called in reverse order of registration.
      // One deferred call capturing only c: it needs no allocation beyond the slot the releasing
      // entry point reserved (reserveDeferred), so a release cannot fail half-done.
      // Without callbacks c is deleted at once: a release that allocates nothing cannot fail.
      if (c->destructorCallbacks.empty()) {
        entomb(c);
        return;
      }
      deferCallback([c] {
        for (auto it = c->destructorCallbacks.rbegin(); it != c->destructorCallbacks.rend(); ++it)
          it->first(c, it->second);
        entomb(c);
      });
      return;
    }
    case Kind::Queue: {
      auto* q = static_cast<cl_command_queue>(o);
      if (q->deviceQueue) {
        // A released default device queue leaves its device without a default (get_default_queue: CLK_NULL_QUEUE).
        auto& dq = q->context->deviceQueuesOf(q->device);
        --dq.live;
        if (dq.defaultQueue == q) dq.defaultQueue = nullptr;
      }
      forgetQueue(q);
      releaseInternal(q->context);
      entomb(q);
      return;
    }
    case Kind::Mem: {
      auto* m = static_cast<cl_mem>(o);
      // OpenCL 3.0 API §5.5.1 [[_retaining_and_releasing_memory_objects]] clSetMemObjectDestructorCallback: reverse
      // order of registration, after the memory object is deleted (the handle is only passed back, not usable).
      // One deferred call capturing only m (no allocation beyond the reserved slot, as above);
      // without callbacks m is deleted at once (no allocation at all).
      const bool callbacks = !m->destructorCallbacks.empty();
      if (callbacks)
        deferCallback([m] {
          for (auto it = m->destructorCallbacks.rbegin(); it != m->destructorCallbacks.rend(); ++it)
            it->first(m, it->second);
          entomb(m);
        });
      m->buffer.reset();
      m->image.reset();
      cl_mem parent = m->parent;
      cl_mem memObject = m->memObject;
      cl_context ctx = m->context;
      if (!callbacks) entomb(m);
      if (parent) releaseInternal(parent);
      if (memObject) releaseInternal(memObject);
      releaseInternal(ctx);
      return;
    }
    case Kind::Program: {
      auto* p = static_cast<cl_program>(o);
      cl_context ctx = p->context;
      entomb(p);
      releaseInternal(ctx);
      return;
    }
    case Kind::Kernel: {
      auto* k = static_cast<cl_kernel>(o);
      cl_program p = k->program;
      --p->kernelsAttached;
      entomb(k);
      releaseInternal(p);
      return;
    }
    case Kind::Event: {
      auto* e = static_cast<cl_event>(o);
      cl_context ctx = e->context;
      cl_command_queue q = e->queue;
      entomb(e);
      if (q) releaseInternal(q);
      releaseInternal(ctx);
      return;
    }
    case Kind::Sampler: {
      auto* s = static_cast<cl_sampler>(o);
      cl_context ctx = s->context;
      entomb(s);
      releaseInternal(ctx);
      return;
    }
    case Kind::CommandBuffer: finalizeCommandBuffer(o); return;
    case Kind::Released: return;  // not reached: a tombstone is in no registry and holds no reference
  }
}

cl_ulong nowNs() {
  return cl_ulong(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

}  // namespace clref::cl
