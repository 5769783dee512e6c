#pragma once
#include "interpreter/module.hpp"  // a public header including an internal one
