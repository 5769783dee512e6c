#pragma once
#include "interpreter/diagnostic.hpp"
