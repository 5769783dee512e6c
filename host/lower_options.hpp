// The lowering options of a device's kernels (Program checks a module's support with them, Kernel lowers with them).
#pragma once
#include "host/host.hpp"

#include "interpreter/program.hpp"

namespace clref::host {

// The device's configuration as the interpreter's LowerOptions (no specialization constants, globals or run kind).
interpreter::LowerOptions lowerOptions(const DeviceConfig& cfg);

}  // namespace clref::host
