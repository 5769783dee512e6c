// Exhaustive checks, labelled `slow` in ctest (about 12 minutes on 2 idle cores):
//  - toHalf on all 2^32 binary32 inputs in the four rounding modes, against the F16C
//    instruction (itself checked against MPFR by the default suite), or against MPFR when the
//    CPU has no F16C;
//  - binary16 add, sub, mul and div on all 2^32 operand pairs, against MPFR at precision 11
//    in binary16's exponent range with mpfr_subnormalize.
// Run one with e.g. `numerics_slow_test "half mul*"`.
#include <catch2/catch.hpp>

#include <bit>
#include <chrono>

#include "f16c.hpp"
#include "numerics/half_arith.hpp"
#include "numerics/mpfr_round.hpp"
#include "support.hpp"

using namespace clref::numerics;
using namespace clref::numerics::test;

namespace {

constexpr Rounding kModes[] = {Rounding::RTE, Rounding::RTZ, Rounding::RTP, Rounding::RTN};

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

struct BinaryOp {
  const char* name;
  Half (*impl)(Half, Half);
  int (*mpfr)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
};

void exhaustivePairs(const BinaryOp& op) {
  const auto start = std::chrono::steady_clock::now();
  const HalfTable& table = halfTable();
  Mismatches bad;
  // One work item = one first operand (a row of 65536 pairs).
  parallelFor(
      65536,
      [&](uint64_t begin, uint64_t end) {
        // The code under test uses no MPFR, so the binary16 range can stay set for the whole
        // chunk; this halves the reference's cost compared with HalfReference.
        ExponentRangeGuard range(Format::Half);
        mpfr_t r;
        mpfr_init2(r, 11);
        for (uint64_t a = begin; a < end; ++a)
          for (uint32_t b = 0; b < 65536; ++b) {
            const uint16_t got = op.impl(Half{uint16_t(a)}, Half{uint16_t(b)}).bits;
            uint16_t want;
            if (isNanBits(uint16_t(a)) || isNanBits(uint16_t(b))) {
              want = 0x7e00;  // IEEE 754-2008 §6.2.3 [external]: NaN operand → quiet NaN
            } else {
              // IEEE 754-2008 §4.3.1 [external] roundTiesToEven with IEEE 754-2008 §7.4 [external]/§7.5 [external]
              // overflow and underflow.
              const int t = op.mpfr(r, table[uint16_t(a)], table[uint16_t(b)], MPFR_RNDN);
              mpfr_subnormalize(r, t, MPFR_RNDN);
              want = uint16_t(encode(r, Format::Half));
            }
            if (!sameHalf(got, want))
              bad.add(std::string(op.name) + "(" + hex16(uint16_t(a)) + ", " + hex16(uint16_t(b)) +
                      ") = " + hex16(got) + ", MPFR " + hex16(want));
          }
        mpfr_clear(r);
      },
      64);
  WARN(op.name << ": 2^32 pairs in " << seconds(start) << " s");
  INFO(op.name << ": " << bad.report());
  CHECK(bad.count() == 0);
}

}  // namespace

TEST_CASE("toHalf: all 2^32 floats in all 4 rounding modes", "[numerics][half][slow]") {
  const auto start = std::chrono::steady_clock::now();
  const bool hardware = haveF16C();
  if (!hardware) WARN("no F16C: comparing with MPFR, which takes hours");
  Mismatches bad;
  constexpr uint64_t kBlock = 1 << 12;
  parallelFor((uint64_t(1) << 32) / kBlock,
              [&](uint64_t begin, uint64_t end) {
                alignas(32) float in[kBlock];
                alignas(32) uint16_t want[kBlock];
                Mpfr x(24), y(11);
                for (uint64_t blk = begin; blk < end; ++blk) {
                  for (uint64_t i = 0; i < kBlock; ++i) in[i] = std::bit_cast<float>(uint32_t(blk * kBlock + i));
                  for (Rounding r : kModes) {
                    if (hardware) {
                      for (uint64_t i = 0; i < kBlock; i += 8) f16cConvert8(in + i, want + i, r);
                    } else {
                      for (uint64_t i = 0; i < kBlock; ++i) {
                        setExact(x.get(), in[i]);
                        roundToFormat(y, x, Format::Half, r);
                        want[i] = uint16_t(encode(y, Format::Half));
                      }
                    }
                    for (uint64_t i = 0; i < kBlock; ++i) {
                      const uint16_t got = toHalf(in[i], r).bits;
                      if (!sameHalf(got, want[i]))
                        bad.add("toHalf(" + hexDouble(in[i]) + ", " + std::string(toString(r)) + ") = " + hex16(got) +
                                (hardware ? ", F16C " : ", MPFR ") + hex16(want[i]));
                    }
                  }
                }
              },
              16);
  WARN("toHalf: 2^32 floats x 4 modes in " << seconds(start) << " s");
  INFO(bad.report());
  CHECK(bad.count() == 0);
}

TEST_CASE("half add: all 2^32 pairs match MPFR", "[numerics][half][slow]") {
  exhaustivePairs({"add", addHalf, mpfr_add});
}

TEST_CASE("half mul: all 2^32 pairs match MPFR", "[numerics][half][slow]") {
  exhaustivePairs({"mul", mulHalf, mpfr_mul});
}

TEST_CASE("half div: all 2^32 pairs match MPFR", "[numerics][half][slow]") {
  exhaustivePairs({"div", divHalf, mpfr_div});
}

TEST_CASE("half sub: all 2^32 pairs match MPFR", "[numerics][half][slow]") {
  exhaustivePairs({"sub", subHalf, mpfr_sub});
}
