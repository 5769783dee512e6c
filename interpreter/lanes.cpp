// The lane executor's registry of lane forms (lanes.hpp): filled by the lowering functions as they pick handlers.
#include "interpreter/lanes.hpp"

#include <mutex>
#include <unordered_map>

namespace clref::interpreter {

namespace {
struct LaneForms {
  std::mutex mu;
  std::unordered_map<Handler, LaneHandler> forms;
};
LaneForms& laneForms() {
  static LaneForms f;
  return f;
}
}  // namespace

void registerLaneForm(Handler h, LaneHandler lanes) {
  auto& f = laneForms();
  std::lock_guard lock(f.mu);
  f.forms.emplace(h, lanes);
}

LaneHandler laneFormOf(Handler h) {
  auto& f = laneForms();
  std::lock_guard lock(f.mu);
  const auto it = f.forms.find(h);
  return it == f.forms.end() ? nullptr : it->second;
}

const Op* leaveLanes(LaneBatch& b, const Op* op) { return stopBefore(b, op, 0); }

}  // namespace clref::interpreter
