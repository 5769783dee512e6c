#include "api/host.hpp"
#include "interpreter/diagnostic.hpp"
#include "interpreter/module.hpp"  // internal to the interpreter: allowed by an exception
