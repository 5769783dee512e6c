// What the check layer remembers of the application's objects: how each program was made (source with its build or
// compile options and headers, IL, binary, a link of other programs), and each kernel's arguments as set. The rest
// (a kernel's program and name, a buffer's size and parent) is asked of the platform when it is needed.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "layer/layer.hpp"

namespace clref::layer {

struct ProgramRecord {
  enum class Kind : uint8_t { Source, IL, Binary, BuiltIn, Linked };
  Kind kind = Kind::Source;
  std::string source;
  std::vector<uint32_t> il;
  std::string options;  // clBuildProgram's, or clCompileProgram's for a compiled object
  std::vector<std::pair<std::string, std::string>> headers;  // clCompileProgram's input headers (include name, text)
  std::vector<ProgramRecord> linked;                         // Linked: the inputs as they were when linked
  std::string linkOptions;
  std::map<cl_uint, std::vector<uint8_t>> specConstants;  // clSetProgramSpecializationConstant: spec id → value
  // Unique to this program and build among all the layer has seen (a released program's handle may come back for
  // another program): clref's builds are cached by it.
  uint64_t version = 0;
  static ProgramRecord of(Kind k) {
    ProgramRecord r;
    r.kind = k;
    return r;
  }
};

struct ArgRecord {
  bool set = false;
  bool svm = false;  // clSetKernelArgSVMPointer: not checkable
  size_t size = 0;
  bool null = false;           // arg_value was NULL (a local size, or a NULL buffer)
  std::vector<uint8_t> bytes;  // arg_value's bytes
};

struct KernelRecord {
  std::vector<ArgRecord> args;
  uint64_t enqueues = 0;  // for CLREF_CHECK_EVERY
  // Its program's record when the kernel was made: the kernel outlives the application's last clReleaseProgram (the
  // program's record goes then), and its program cannot be rebuilt while it exists.
  // OpenCL 3.0 API §5.8.2 [[_retaining_and_releasing_program_objects]] clReleaseProgram: deleted after its kernels.
  std::shared_ptr<const ProgramRecord> program;
};

// The records, behind one lock (the application may call from several threads).
struct Records {
  std::mutex mutex;
  std::map<cl_program, ProgramRecord> programs;
  std::map<cl_kernel, KernelRecord> kernels;
  uint64_t lastVersion = 0;
  uint64_t newVersion() { return ++lastVersion; }  // ProgramRecord::version, under the lock
};
Records& records();

}  // namespace clref::layer
