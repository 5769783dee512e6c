// The named choices every launch records besides those its instructions decide (addLaunchChoices,
// launch_state.hpp).
#include "interpreter/launch_state.hpp"

#include <algorithm>

namespace clref::interpreter {

// The choices that may decide values without an instruction clref watches deciding them: the bytes of private and
// local memory read before their first store (OpenCL C 3.0 §6.7 [[address-space-qualifiers]]; reads are not
// tracked), and the bits of OpUndef. Recorded with count 0 for every launch that has such memory or values, so that
// a user (clref explore) can rerun under the other option and see whether an output depends on them.
void addLaunchChoices(const LoweredKernel& kernel, uint64_t workgroupBytes, std::vector<ChoiceUse>& uses) {
  uint64_t privateBytes = 0;
  for (const auto& d : kernel.allocations)
    if (d.source == AllocationSource::Private && d.init.empty()) privateBytes += d.size;
  if (privateBytes || workgroupBytes) {
    ChoiceUse u{numerics::Choice::UninitialisedMemory, 0, {}};
    u.first.message = "the kernel has " + std::to_string(privateBytes) + " bytes of private memory per work-item and " +
                      std::to_string(workgroupBytes) +
                      " bytes of local memory per work-group without an initial value; a read before the first store "
                      "sees this choice's bytes (clref does not track such reads)";
    uses.push_back(std::move(u));
  }
  if (!kernel.undefConsumers.empty()) {
    ChoiceUse u{numerics::Choice::UndefValue, 0, {}};
    u.first.message = std::to_string(kernel.undefConsumers.size()) + " instruction" +
                      (kernel.undefConsumers.size() == 1 ? " consumes" : "s consume") + " a value deriving from OpUndef";
    if (kernel.module) {
      u.first.instruction = kernel.module->describe(kernel.undefConsumers.front());
      u.first.source = kernel.module->sourceOf(kernel.undefConsumers.front());
      u.first.sourceLine = kernel.module->sourceText(kernel.undefConsumers.front());
    }
    uses.push_back(std::move(u));
  }
  std::stable_sort(uses.begin(), uses.end(), [](const ChoiceUse& a, const ChoiceUse& b) { return a.choice < b.choice; });
}

}  // namespace clref::interpreter
