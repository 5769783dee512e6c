#pragma once
#include "interpreter/module.hpp"  // upward: numerics may include no other module
