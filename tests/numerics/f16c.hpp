// The x86 F16C instruction VCVTPS2PH as a second, hardware reference for binary32 → binary16
// conversion in the four rounding modes. It is fast enough to check all 2^32 floats; it is
// itself checked against MPFR on the dense sample in half_conversion_test.cpp, so agreement
// with it is agreement with MPFR.
#pragma once
#include <cstdint>

#include "numerics/format.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define CLREF_TEST_HAVE_F16C_CODE 1
#endif

namespace clref::numerics::test {

#ifdef CLREF_TEST_HAVE_F16C_CODE
// CPUID.01H:ECX.F16C[bit 29], read directly: clang 15's __builtin_cpu_supports does not know "f16c"
// (GCC's does). The 256-bit form below also needs AVX, which __builtin_cpu_supports checks together
// with the OS's saving of the YMM state.
inline bool haveF16C() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __builtin_cpu_supports("avx") && __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C) != 0;
}

// Intel SDM VCVTPS2PH: imm8[1:0] = 0 nearest-even, 1 down, 2 up, 3 toward zero; imm8[2] = 0
// takes the mode from imm8 rather than MXCSR. The immediate must be a constant, hence the switch.
__attribute__((target("f16c,avx"))) inline void f16cConvert8(const float* in, uint16_t* out, Rounding r) {
  const __m256 v = _mm256_loadu_ps(in);
  __m128i h;
  switch (r) {
    case Rounding::RTE: h = _mm256_cvtps_ph(v, 0); break;
    case Rounding::RTN: h = _mm256_cvtps_ph(v, 1); break;
    case Rounding::RTP: h = _mm256_cvtps_ph(v, 2); break;
    default: h = _mm256_cvtps_ph(v, 3); break;
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), h);
}

inline uint16_t f16cConvert(float x, Rounding r) {
  float in[8] = {x, 0, 0, 0, 0, 0, 0, 0};
  uint16_t out[8];
  f16cConvert8(in, out, r);
  return out[0];
}
#else
inline bool haveF16C() { return false; }
inline void f16cConvert8(const float*, uint16_t*, Rounding) {}
inline uint16_t f16cConvert(float, Rounding) { return 0; }
#endif

}  // namespace clref::numerics::test
