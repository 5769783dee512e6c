// `clref run --trace`: the instructions chosen work-items executed, in execution order, one line each with the
// work-item, the instruction (word offset and disassembly), the value it produced or stored, the memory it touched
// and its source line.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "host/host.hpp"
#include "interpreter/observer.hpp"
#include "cli/value_format.hpp"

namespace clref::cli {

// A work-item by its global id (x, y, z); dimensions the NDRange does not have are 0.
using GlobalId = std::array<uint64_t, 3>;

// The work-items of --trace: global ids separated by ',', each "x", "x:y" or "x:y:z" ("5", "5:0:0,7:1").
// Throws std::invalid_argument saying what is wrong.
std::vector<GlobalId> parseWorkItems(const std::string& text);
// "" when every id is a global id of the NDRange (its global offset included), else why not.
std::string checkWorkItems(const std::vector<GlobalId>& ids, const host::NDRange& range);

// Prints the trace of the chosen work-items to `out` as they run (an observed launch runs on one thread, so the
// lines come in execution order). A line:
//   [3] word 311: %24 = OpIAdd %uint %22 %23 -> 7  ; k.cl:4: out[i] = a[i] * 2 + 1;
//   [3] word 318: OpStore %26 %24 Aligned 4 stores 7 [write 4 bytes at argument 1 (out) + 12]  ; k.cl:4: ...
// the work-item's global id as --trace names it, the instruction's word offset and disassembly, then "-> V", the
// value it produced, or "stores V", the value an OpStore or OpAtomicStore writes, then the memory it accessed, then
// its source line and the line's text when the module has them (-g). An OpFunctionCall's line comes when the call is
// made and again with its value when the callee returns; a work-group collective's likewise when the group completes
// it. At most `limit` lines are printed; finish() says how many more there were.
class TraceObserver : public interpreter::ExecutionObserver {
 public:
  TraceObserver(std::vector<GlobalId> workItems, std::ostream& out, uint64_t limit);
  void instruction(interpreter::WorkItem& wi, uint32_t inst) override;
  void result(interpreter::WorkItem& wi, uint32_t inst, const uint8_t* bytes, uint32_t size) override;
  void access(interpreter::WorkItem& wi, uint32_t inst, uint32_t tag, uint64_t off, uint64_t bytes,
              bool write) override;
  // Prints the line still open (a faulting instruction's) and, when lines were left out, the truncation notice.
  void finish();
  uint64_t lines() const { return lines_; }

 private:
  bool selected(const interpreter::WorkItem& wi) const;
  // "[3] word 311: <disassembly>" of the work-item and instruction; the instruction's part is cached.
  std::string head(const interpreter::WorkItem& wi, uint32_t inst);
  std::string source(const interpreter::Module& module, uint32_t inst);
  std::optional<std::string> storedValue(const interpreter::WorkItem& wi, uint32_t inst);
  void flush();
  void emit(const std::string& line);

  std::vector<GlobalId> workItems_;
  std::ostream& out_;
  uint64_t limit_;
  uint64_t lines_ = 0, dropped_ = 0;
  // The line of the instruction now running, completed by its accesses and its result and printed when the next
  // instruction starts (its value then is known, or it produced none).
  struct Open {
    const interpreter::WorkItem* wi = nullptr;
    uint32_t inst = 0;
    std::string head, value, accesses, source;  // printed in this order
    unsigned accessCount = 0;
  };
  std::optional<Open> open_;
  std::unordered_map<uint32_t, std::string> heads_, sources_;
};

}  // namespace clref::cli
