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

// Runs `c` on `device`, then once more for every other option of every choice the base run recorded
// (host::RunResult::choicesUsed). Throws what runCase throws; a faulting base run is returned without alternatives.
// `onRun` (when set) is called after each run with the runs done and the runs the exploration takes (a progress line).
Exploration explore(const Case& c, const host::Device& device, size_t shown = 5,
                    const std::function<void(uint64_t done, uint64_t total)>& onRun = {});

// The exploration for people: one paragraph per alternative.
std::string formatExploration(const Exploration& e);

}  // namespace clref::cli
