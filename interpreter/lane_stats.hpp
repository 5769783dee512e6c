// How much of this process's launches ran on the lane executor (interpreter/lanes.hpp): spans of work-items run on
// lanes, barrier intervals among them, spans undone to run one by one (a data race, or lanes that parted after
// touching shared memory), and spans whose lanes all returned together (their work-items ran whole on lanes). For
// tests and benchmarks: the results never depend on it.
#pragma once
#include <cstdint>

namespace clref::interpreter {

struct LaneStats {
  uint64_t spans = 0;
  uint64_t barrierIntervals = 0;
  uint64_t undone = 0;
  uint64_t returned = 0;
};
// The sums over every launch that ended so far.
LaneStats laneStats();
// A launch's worker adds its counts when it ends.
void addLaneStats(const LaneStats& s);

}  // namespace clref::interpreter
