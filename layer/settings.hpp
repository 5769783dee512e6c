// The check layer's settings, from the environment when the layer is first used:
//   CLREF_CHECK_REPORT=FILE     append one JSON object per checked enqueue (one line each) to FILE
//   CLREF_CHECK_HTML=FILE       one HTML report of every checked enqueue of the application (check/html_report.hpp),
//                               written anew after each one
//   CLREF_CHECK_KERNELS=a,b     check only these kernels (default: all)
//   CLREF_CHECK_EVERY=N         check every Nth enqueue of each kernel, starting with the first (default 1)
//   CLREF_CHECK_GROUPS=N        run only N work-groups on clref, spread evenly over the NDRange, and judge exactly the
//                               elements they wrote (default: every work-group; check/check.hpp sampleGroups)
//   CLREF_CHECK_PROFILE=full|embedded   the profile whose accuracy the device is held to (default: the device's own
//                               CL_DEVICE_PROFILE)
//   CLREF_CHECK_RACES=0|1       run clref's race checker on the kernel (default 1): a race is reported with the
//                               enqueue, and the elements that differ are then undetermined, not violations
//   CLREF_CHECK_STRICT=0|1      judge an element whose allowed set is any value undetermined, not allowed (default 0;
//                               check/check.hpp CheckOptions::strict)
//   CLREF_PLANT_ERRORS=K        the Vulkan layer only: a wrong device, for testing the layer — element i of each
//                               storage buffer the shader may write, for i a multiple of K, is changed in the layer's
//                               copy of the device's results (never the application's) before it is judged
//                               (host/planted_errors.hpp); the OpenCL layer leaves it to clref's ICD
//   CLREF_CHECK_SPOOL=DIR       judge nothing in the application's process: write each enqueue it would check as a
//                               self-contained case under DIR (layer/spool.hpp), judged later by
//                               `clref check-spool DIR`
// A setting that does not parse is reported once on stderr and left at its default.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "numerics/accuracy.hpp"

namespace clref::layer {

struct Settings {
  std::string reportPath;
  std::string htmlPath;  // CLREF_CHECK_HTML
  std::set<std::string> kernels;  // empty: all
  uint64_t every = 1;
  uint64_t groups = 0;  // 0: every work-group
  std::optional<numerics::Profile> profile;
  bool races = true;
  bool strict = false;
  uint64_t plantErrors = 0;  // 0: none
  std::string spoolDir;  // empty: judge each enqueue at once
};
const Settings& settings();

}  // namespace clref::layer
