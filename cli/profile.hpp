// `clref run --profile`: what a launch executed, counted — per source line, per opcode and per instruction (as
// Oclgrind's InstructionCounter plugin counts) — and the memory traffic of every allocation it touched.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "interpreter/observer.hpp"

namespace clref::cli {

// Counts while the launch runs; report() prints the tables after it. Instructions are those the kernel executes as
// instructions: OpPhi (copies on the edge into a block), OpLabel, OpVariable and debug information are not counted.
class ProfileObserver : public interpreter::ExecutionObserver {
 public:
  void instruction(interpreter::WorkItem& wi, uint32_t inst) override;
  void access(interpreter::WorkItem& wi, uint32_t inst, uint32_t tag, uint64_t off, uint64_t bytes,
              bool write) override;
  // The tables:
  //   per source line: "reached", the times a work-item's execution came to the line from another line (a loop body
  //     line executed 5 times by each of 8 work-items is reached 40 times), and "instructions", those it executed
  //     on the line, with the line's text;
  //   per opcode (an OpExtInst by its extended instruction's name), most executed first;
  //   per instruction, in module order, with its word offset and source line;
  //   memory traffic per allocation (a global or constant buffer by its argument, local and private memory by
  //     variable, summed over work-items and work-groups): accesses and bytes read and written.
  // An empty launch (no observed instruction) prints only the summary line.
  std::string report() const;

 private:
  struct Line {
    std::string file;
    uint32_t line = 0;
    uint32_t firstInst = 0;  // an instruction on it, for its display name and text
    uint64_t reached = 0, instructions = 0;
  };
  struct Traffic {
    uint64_t reads = 0, bytesRead = 0, writes = 0, bytesWritten = 0;
  };
  // The work-item a slot (WorkItem) last ran and the line it was on: a slot runs many work-items one after another.
  struct Slot {
    bool started = false;
    std::array<uint64_t, 3> globalId{};
    int64_t line = 0;
  };
  int64_t lineOf(uint32_t inst);

  const interpreter::Module* module_ = nullptr;
  std::optional<interpreter::ObservedKernel> kernel_;
  uint64_t workItems_ = 0, executed_ = 0;
  std::vector<uint64_t> counts_;      // per Module::instructions index
  std::vector<int64_t> lineIndex_;    // per instruction: index into lines_, -1 none, -2 not looked up yet
  std::vector<Line> lines_;
  std::map<std::pair<std::string, uint32_t>, int64_t> lineKeys_;  // (file, line) → index into lines_
  Line unlined_;  // the instructions without a source line, as one
  std::unordered_map<const interpreter::WorkItem*, Slot> slots_;
  std::vector<Traffic> traffic_;  // per allocation tag
};

}  // namespace clref::cli
