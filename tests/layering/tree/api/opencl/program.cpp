#include "interpreter/module.hpp"  // internal to the interpreter
