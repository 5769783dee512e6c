// OpenCL 3.0 API §5.8.6 [[compiler-options]] build options (see program_options.hpp).
#include "icd/program_options.hpp"

#include "icd/device_info.hpp"

namespace clref::cl {
host::Device deviceFor(const Options& o) {
  host::DeviceConfig cfg = theDevice()->device.config();
  // OpenCL 3.0 API §5.8.6.2 [[math-intrinsics-options]] -cl-denorms-are-zero: denormals "may be flushed"; the choice
  // denorms_are_zero says which (by default the float ones, so the option has its observable meaning).
  using clref::numerics::Choice, clref::numerics::DenormsAreZeroOption, clref::numerics::Denorm;
  const auto flush = cfg.choices.get<Choice::DenormsAreZero>();
  if (o.denormsAreZero && flush != DenormsAreZeroOption::Ignore) cfg.denormFloat = Denorm::Flush;
  if (o.denormsAreZero && flush == DenormsAreZeroOption::FlushFloatAndDouble) cfg.denormDouble = Denorm::Flush;
  // OpenCL C 3.0 §6.15.19.1 [[built-in-functions-enqueuing-a-kernel]]: with -g enqueue_kernel may return the precise
  // CLK_* error instead of CLK_ENQUEUE_FAILURE; clref does.
  cfg.enqueueErrorCodes = o.debug;
  return host::Device(cfg);
}

}  // namespace clref::cl
