// SPIR-V 1.0 §3.16 [external] FPRoundingMode ↔ numerics::Rounding: the only place that maps the two.
#pragma once
#include <spirv/unified1/spirv.hpp11>
#include <stdexcept>

#include "numerics/format.hpp"

namespace clref::interpreter {

using numerics::Rounding;

// Throws std::invalid_argument for a value that is no FPRoundingMode of SPIR-V 1.0.
constexpr Rounding toRounding(spv::FPRoundingMode m) {
  switch (m) {
    case spv::FPRoundingMode::RTE: return Rounding::RTE;
    case spv::FPRoundingMode::RTZ: return Rounding::RTZ;
    case spv::FPRoundingMode::RTP: return Rounding::RTP;
    case spv::FPRoundingMode::RTN: return Rounding::RTN;
    default: throw std::invalid_argument("FPRoundingMode is not RTE, RTZ, RTP or RTN");
  }
}

constexpr spv::FPRoundingMode toSpirv(Rounding r) {
  switch (r) {
    case Rounding::RTE: return spv::FPRoundingMode::RTE;
    case Rounding::RTZ: return spv::FPRoundingMode::RTZ;
    case Rounding::RTP: return spv::FPRoundingMode::RTP;
    case Rounding::RTN: return spv::FPRoundingMode::RTN;
  }
  throw std::invalid_argument("not a numerics::Rounding");
}

// The SPIR-V values (RTE 0, RTZ 1, RTP 2, RTN 3) and the round trip.
static_assert(toRounding(spv::FPRoundingMode(0)) == Rounding::RTE &&
              toRounding(spv::FPRoundingMode(1)) == Rounding::RTZ &&
              toRounding(spv::FPRoundingMode(2)) == Rounding::RTP &&
              toRounding(spv::FPRoundingMode(3)) == Rounding::RTN);
static_assert(toSpirv(Rounding::RTE) == spv::FPRoundingMode::RTE &&
              toSpirv(Rounding::RTZ) == spv::FPRoundingMode::RTZ &&
              toSpirv(Rounding::RTP) == spv::FPRoundingMode::RTP && toSpirv(Rounding::RTN) == spv::FPRoundingMode::RTN);
static_assert(toRounding(toSpirv(Rounding::RTN)) == Rounding::RTN &&
              toRounding(toSpirv(Rounding::RTP)) == Rounding::RTP);

}  // namespace clref::interpreter
