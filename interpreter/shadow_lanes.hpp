// The shadow mode's rules on lanes (lanes.hpp): while no value of the launch has a set or is undetermined, the rules of
// an exact kernel's instructions have nothing to move, so the lanes run them as they run the instructions, and leave
// the lanes where a rule would give a value its first set. Internal to the interpreter.
//
// Why this keeps the shadow run's results: every rule below, run alone in that state, changes nothing but the record
// of each byte's last writer (ShadowRun::noteWriter), which the lanes keep in their log and hand over when their span
// stands (LaneLog::writerNotes); a rule that would start a set, a decision or an open allocation stops the lanes
// before the lane that would, and that lane runs it alone, as it would have. Lane forms whose handlers do shadow work
// of their own (images) do not run in a shadow run (LaneShadow::NotInShadow).
#pragma once
#include "interpreter/lanes.hpp"
#include "interpreter/shadow.hpp"

namespace clref::interpreter {

// No value of the run has a set or is undetermined, no allocation is open and no choice has freed a result; a
// perturbed run is never quiet (its rules draw from the sets).
inline bool shadowQuiet(const ShadowRun& s) {
  return s.exact() && s.openAllocations.empty() && s.choiceFreedInst == UINT32_MAX && !s.perturbSeed &&
         !s.choices;
}

// The lane forms of the shadow handlers of shadow_support.hpp, registered once (before a shadow run looks them up).
void registerShadowLaneForms();

// A rule with nothing to do in a quiet run: loads, branches, comparisons, selections, copies, integer instructions.
const Op* shQuietOnLanes(LaneBatch& b, const Op* op);
// shStore: each lane's store noted as its bytes' last writer when the span stands.
const Op* shStoreOnLanes(LaneBatch& b, const Op* op);
// shFloat: correctly rounded additions, subtractions and multiplications of normal values, whose results no rounding
// mode or flush changes; anything else gives a set, and leaves the lanes.
const Op* shFloatOnLanes(LaneBatch& b, const Op* op);

}  // namespace clref::interpreter
