#pragma once
#include "numerics/format.hpp"
