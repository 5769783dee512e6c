// CLREF_LOG=api (see api_log.hpp).
#include "icd/api_log.hpp"

#include <cinttypes>
#include <cstdint>
#include <cstdio>

#include "icd/objects.hpp"

namespace clref::cl {

bool apiLogOn() {
  // An error may be the first thing a program meets, and may be a failed host allocation: reading CLREF_LOG then must
  // not throw out of the entry point's catch handler. Without memory for it this error is silent, and the next one
  // reads CLREF_LOG again (a static whose initialisation throws is not initialised).
  try {
    static const bool on = logChannel("api");
    return on;
  } catch (...) { return false; }
}

const char* errorName(cl_int code) {
  switch (code) {
    case CL_SUCCESS: return "CL_SUCCESS";
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
    case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_PROFILING_INFO_NOT_AVAILABLE: return "CL_PROFILING_INFO_NOT_AVAILABLE";
    case CL_MEM_COPY_OVERLAP: return "CL_MEM_COPY_OVERLAP";
    case CL_IMAGE_FORMAT_MISMATCH: return "CL_IMAGE_FORMAT_MISMATCH";
    case CL_IMAGE_FORMAT_NOT_SUPPORTED: return "CL_IMAGE_FORMAT_NOT_SUPPORTED";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_MAP_FAILURE: return "CL_MAP_FAILURE";
    case CL_MISALIGNED_SUB_BUFFER_OFFSET: return "CL_MISALIGNED_SUB_BUFFER_OFFSET";
    case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
    case CL_COMPILE_PROGRAM_FAILURE: return "CL_COMPILE_PROGRAM_FAILURE";
    case CL_LINKER_NOT_AVAILABLE: return "CL_LINKER_NOT_AVAILABLE";
    case CL_LINK_PROGRAM_FAILURE: return "CL_LINK_PROGRAM_FAILURE";
    case CL_DEVICE_PARTITION_FAILED: return "CL_DEVICE_PARTITION_FAILED";
    case CL_KERNEL_ARG_INFO_NOT_AVAILABLE: return "CL_KERNEL_ARG_INFO_NOT_AVAILABLE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_DEVICE_TYPE: return "CL_INVALID_DEVICE_TYPE";
    case CL_INVALID_PLATFORM: return "CL_INVALID_PLATFORM";
    case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
    case CL_INVALID_CONTEXT: return "CL_INVALID_CONTEXT";
    case CL_INVALID_QUEUE_PROPERTIES: return "CL_INVALID_QUEUE_PROPERTIES";
    case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
    case CL_INVALID_HOST_PTR: return "CL_INVALID_HOST_PTR";
    case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
    case CL_INVALID_IMAGE_FORMAT_DESCRIPTOR: return "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR";
    case CL_INVALID_IMAGE_SIZE: return "CL_INVALID_IMAGE_SIZE";
    case CL_INVALID_SAMPLER: return "CL_INVALID_SAMPLER";
    case CL_INVALID_BINARY: return "CL_INVALID_BINARY";
    case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
    case CL_INVALID_PROGRAM: return "CL_INVALID_PROGRAM";
    case CL_INVALID_PROGRAM_EXECUTABLE: return "CL_INVALID_PROGRAM_EXECUTABLE";
    case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_KERNEL_DEFINITION: return "CL_INVALID_KERNEL_DEFINITION";
    case CL_INVALID_KERNEL: return "CL_INVALID_KERNEL";
    case CL_INVALID_ARG_INDEX: return "CL_INVALID_ARG_INDEX";
    case CL_INVALID_ARG_VALUE: return "CL_INVALID_ARG_VALUE";
    case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_DIMENSION: return "CL_INVALID_WORK_DIMENSION";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
    case CL_INVALID_GLOBAL_OFFSET: return "CL_INVALID_GLOBAL_OFFSET";
    case CL_INVALID_EVENT_WAIT_LIST: return "CL_INVALID_EVENT_WAIT_LIST";
    case CL_INVALID_EVENT: return "CL_INVALID_EVENT";
    case CL_INVALID_OPERATION: return "CL_INVALID_OPERATION";
    case CL_INVALID_GL_OBJECT: return "CL_INVALID_GL_OBJECT";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case CL_INVALID_MIP_LEVEL: return "CL_INVALID_MIP_LEVEL";
    case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
    case CL_INVALID_PROPERTY: return "CL_INVALID_PROPERTY";
    case CL_INVALID_IMAGE_DESCRIPTOR: return "CL_INVALID_IMAGE_DESCRIPTOR";
    case CL_INVALID_COMPILER_OPTIONS: return "CL_INVALID_COMPILER_OPTIONS";
    case CL_INVALID_LINKER_OPTIONS: return "CL_INVALID_LINKER_OPTIONS";
    case CL_INVALID_DEVICE_PARTITION_COUNT: return "CL_INVALID_DEVICE_PARTITION_COUNT";
    case CL_INVALID_PIPE_SIZE: return "CL_INVALID_PIPE_SIZE";
    case CL_INVALID_DEVICE_QUEUE: return "CL_INVALID_DEVICE_QUEUE";
    case CL_INVALID_SPEC_ID: return "CL_INVALID_SPEC_ID";
    case CL_MAX_SIZE_RESTRICTION_EXCEEDED: return "CL_MAX_SIZE_RESTRICTION_EXCEEDED";
    default: return nullptr;
  }
}

namespace detail {

void put(std::string& out, std::string_view s) { out += s; }
void put(std::string& out, const char* s) { out += s ? s : "NULL"; }

void put(std::string& out, const void* p) {
  if (!p) {
    out += "NULL";
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIxPTR, reinterpret_cast<uintptr_t>(p));
  out += buf;
}

void put(std::string& out, Hex h) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", h.value);
  out += buf;
}

void put(std::string& out, Status s) {
  switch (s.value) {
    case CL_COMPLETE: out += "CL_COMPLETE"; return;
    case CL_RUNNING: out += "CL_RUNNING"; return;
    case CL_SUBMITTED: out += "CL_SUBMITTED"; return;
    case CL_QUEUED: out += "CL_QUEUED"; return;
    default: break;
  }
  out += std::to_string(s.value);
  if (const char* name = s.value < 0 ? errorName(s.value) : nullptr) out += " (" + std::string(name) + ")";
}

void put(std::string& out, const std::vector<std::string>& v) {
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
}

void put(std::string& out, long long v) { out += std::to_string(v); }
void put(std::string& out, unsigned long long v) { out += std::to_string(v); }

void put(std::string& out, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  out += buf;
}

void print(const char* function, cl_int code, const char* format, const std::string* parts, size_t count) noexcept {
  // One fprintf for the whole line: lines of different threads do not interleave.
  const char* name = errorName(code);
  char number[32];
  if (!name) {
    std::snprintf(number, sizeof number, "error %d", int(code));
    name = number;
  }
  try {
    std::string reason;
    size_t next = 0;
    for (const char* c = format; *c; ++c) {
      if (c[0] == '{' && c[1] == '}') {
        reason += parts && next < count ? parts[next++] : std::string("(?)");
        ++c;
      } else {
        reason += *c;
      }
    }
    // One line per error: the lines of a multi-line text (an exception's message) are joined with "; ".
    std::string line;
    bool pendingBreak = false;
    for (const char c : reason) {
      if (c == '\n') {
        pendingBreak = !line.empty();
        continue;
      }
      if (pendingBreak) line += "; ";
      pendingBreak = false;
      line += c;
    }
    std::fprintf(stderr, "clref: %s: %s: %s\n", function, name, line.c_str());
  } catch (...) {
    // No memory for the message (a failed host allocation is often the error itself): the reason's text without its
    // values, written piece by piece, which allocates nothing.
    flockfile(stderr);
    std::fprintf(stderr, "clref: %s: %s: ", function, name);
    for (const char* c = format; *c; ++c) {
      if (c[0] == '{' && c[1] == '}') {
        std::fputs("(?)", stderr);
        ++c;
      } else {
        std::fputc(*c, stderr);
      }
    }
    std::fputc('\n', stderr);
    funlockfile(stderr);
  }
}

}  // namespace detail

}  // namespace clref::cl
