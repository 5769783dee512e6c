// Choices explorer (`clref explore`): rerun a case under each other option of every named choice its run consulted,
// and report which output elements change under which option. Where a kernel's output depends on freedom the spec
// gives devices, this shows where and by how much.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cli/case_file.hpp"

namespace clref::cli {

struct ElementChange {
  size_t index = 0;
  std::string before, after;  // as `clref run --print` prints the element
};

// The elements of one output argument (buffer or image) that differ from the base run.
struct OutputChange {
  size_t arg = 0;
  size_t elements = 0;  // in the argument
  size_t changed = 0;
  std::vector<ElementChange> first;  // the lowest changed elements, at most `shown`
};

// One other option of a consulted choice, and what it does to the outputs.
struct Alternative {
  numerics::Choice choice = numerics::Choice::Count;
  uint8_t option = 0;
  std::optional<interpreter::Diagnostic> fault;  // the rerun faulted (e.g. an option that faults), no outputs
  std::vector<OutputChange> changes;             // only the arguments with changed elements
};

struct Exploration {
  CaseRun base;
  std::vector<Alternative> alternatives;  // registry order, then option order
  size_t runs = 0;                        // the base run included
};

// Spreads `count` pieces of work somewhere (cli/cluster.hpp's distribute under mpirun) and returns every piece's
// result in piece order, or nothing where this process is not the one that reports (an MPI rank other than 0).
using Spread = std::function<std::vector<std::string>(size_t count, const std::function<std::string(size_t)>& work)>;

// Runs `c` on `device`, then once more for every other option of every choice the base run recorded
// (host::RunResult::choicesUsed). Throws what runCase throws; a faulting base run is returned without alternatives.
// `onRun` (when set) is called after each run with the runs done and the runs the exploration takes (a progress line);
// with `spread`, from the threads that run the alternatives. `spread` (when set) runs the alternatives' runs, each
// passed through encodeAlternative; where it returns nothing the exploration holds the base run only.
Exploration explore(const Case& c, const host::Device& device, size_t shown = 5,
                    const std::function<void(uint64_t done, uint64_t total)>& onRun = {}, const Spread& spread = {});

// An alternative as text and back (the message a rank sends rank 0), so that the report rank 0 formats is the one a
// single process formats.
std::string encodeAlternative(const Alternative& a);
Alternative decodeAlternative(const std::string& text);

// The exploration for people: one paragraph per alternative.
std::string formatExploration(const Exploration& e);

}  // namespace clref::cli
