// Host references of the golden corpus's shaders of GLSL.std.450 floating-point functions (golden/shaders/glsl_*.comp,
// cases golden/cases/shader_glsl_*.json), independent of clref: the exponential, trigonometric and hyperbolic
// functions correctly rounded through MPFR (clref's value for them, Vulkan's precision rules allowing an error
// around it), the packing and geometric functions by GLSL's formulas with every operation rounded in binary32
// (GLSL 4.60 §8.4 [external], §8.5 [external]; this library is compiled with -ffp-contract=off: nothing is fused),
// and the two-result functions through the C++ library's exact frexp, modf, ldexp and fma.
#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "tests/golden/host_bytes.hpp"
#include "tests/golden/host_half.hpp"
#include "tests/golden/host_reference.hpp"

namespace clref::golden {

namespace {

using cli::Case;

template <class T> T load(const std::vector<std::byte>& bytes, size_t i) { return loadAt<T>(bytes, i * sizeof(T)); }
template <class T> void store(std::vector<std::byte>& bytes, size_t i, T v) { storeAt<T>(bytes, i * sizeof(T), v); }

size_t invocations(const Case& c, size_t perGroup) {
  if (!c.dispatch || (*c.dispatch)[1] != 1 || (*c.dispatch)[2] != 1) shapeError(c, "expected a 1-D dispatch");
  return size_t((*c.dispatch)[0]) * perGroup;
}

// f(args) correctly rounded to binary32 (to nearest even): MPFR evaluates it at binary32's 24-bit precision with
// correct rounding. Its exponent range is wider than binary32's, so the case's results must be normal binary32
// numbers (checked).
template <class F> float correctlyRounded(const Case& c, F f, std::initializer_list<float> args) {
  mpfr_t r, x[2];
  if (args.size() > 2) shapeError(c, "more than two operands");
  mpfr_init2(r, 24);
  size_t k = 0;
  for (float v : args) {
    mpfr_init2(x[k], 24);
    mpfr_set_flt(x[k++], v, MPFR_RNDN);  // exact
  }
  f(r, x);
  const float out = mpfr_get_flt(r, MPFR_RNDN);  // exact: 24 bits
  mpfr_clear(r);
  for (size_t i = 0; i < k; ++i) mpfr_clear(x[i]);
  if (std::fpclassify(out) != FP_NORMAL) shapeError(c, "a result that is not a normal binary32 number");
  return out;
}

// glsl_transcendental.comp: 16 results per pair (x, y), each correctly rounded.
void glslTranscendental(const Case& c, ArgBytes& a) {
  using X = mpfr_t[2];
  const auto one = [&](int (*fn)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), float v) {
    return correctlyRounded(c, [fn](mpfr_ptr r, X& x) { fn(r, x[0], MPFR_RNDN); }, {v});
  };
  const auto two = [&](int (*fn)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t), float u, float v) {
    return correctlyRounded(c, [fn](mpfr_ptr r, X& x) { fn(r, x[0], x[1], MPFR_RNDN); }, {u, v});
  };
  for (size_t i = 0; i < invocations(c, 8); ++i) {
    const float x = load<float>(a[0], 2 * i), y = load<float>(a[0], 2 * i + 1);
    const float r[16] = {one(mpfr_exp, x),    one(mpfr_exp2, y),     one(mpfr_log, x),      one(mpfr_log2, y),
                         two(mpfr_pow, x, y), one(mpfr_sqrt, x),     one(mpfr_rec_sqrt, y), one(mpfr_sin, x),
                         one(mpfr_cos, y),    one(mpfr_tan, x),      one(mpfr_asin, y),     one(mpfr_acos, x),
                         one(mpfr_atan, y),   two(mpfr_atan2, y, x), one(mpfr_sinh, x),     one(mpfr_tanh, y)};
    for (int k = 0; k < 16; ++k) store(a[1], i * 16 + k, r[k]);
  }
}

// GLSL's round with halves away from zero (the default of the choice glsl_round_half), of a binary32 value.
float roundHalfAway(float v) { return std::round(v); }
float clampTo(float v, float lo, float hi) { return std::min(std::max(v, lo), hi); }

// glsl_pack.comp: 10 words per vec4 v and word w (GLSL 4.60 §8.4 [external]; the first component in the least
// significant bits): packSnorm: round(clamp(c, −1, 1) · 127 or 32767), packUnorm: round(clamp(c, 0, 1) · 65535),
// packHalf: c rounded to binary16 (nearest even), unpackSnorm: clamp(f / 127 or 32767, −1, 1), unpackUnorm:
// f / 255 or 65535, unpackHalf: the binary16 value; each operation rounded in binary32.
void glslPack(const Case& c, ArgBytes& a) {
  const auto snorm = [](float v, float scale) { return int32_t(roundHalfAway(clampTo(v, -1.0f, 1.0f) * scale)); };
  const auto unorm = [](float v, float scale) { return uint32_t(roundHalfAway(clampTo(v, 0.0f, 1.0f) * scale)); };
  for (size_t i = 0; i < invocations(c, 8); ++i) {
    float v[4];
    for (int k = 0; k < 4; ++k) v[k] = load<float>(a[0], 4 * i + k);
    const uint32_t w = load<uint32_t>(a[1], i);
    uint32_t r[10] = {};
    for (int k = 0; k < 4; ++k) r[0] |= (uint32_t(snorm(v[k], 127.0f)) & 0xffu) << (8 * k);
    r[1] = unorm(v[0], 65535.0f) | unorm(v[1], 65535.0f) << 16;
    r[2] = (uint32_t(snorm(v[2], 32767.0f)) & 0xffffu) | uint32_t(snorm(v[3], 32767.0f)) << 16;
    r[3] = uint32_t(toHalf(v[0])) | uint32_t(toHalf(v[1])) << 16;
    r[4] = std::bit_cast<uint32_t>(clampTo(float(int8_t(w & 0xff)) / 127.0f, -1.0f, 1.0f));
    r[5] = std::bit_cast<uint32_t>(clampTo(float(int16_t(w >> 16)) / 32767.0f, -1.0f, 1.0f));
    r[6] = std::bit_cast<uint32_t>(float(w & 0xffff) / 65535.0f);
    r[7] = std::bit_cast<uint32_t>(float(halfValue(uint16_t(w & 0xffff))));  // exact in binary32
    r[8] = std::bit_cast<uint32_t>(float(halfValue(uint16_t(w >> 16))));
    for (int k = 0; k < 4; ++k) r[9] |= unorm(float((w >> (8 * k)) & 0xff) / 255.0f, 255.0f) << (8 * k);
    for (int k = 0; k < 10; ++k) store(a[2], i * 10 + k, r[k]);
  }
}

// dot(x, y) = x[0]·y[0] + x[1]·y[1] + x[2]·y[2], summed from the first component.
float dot3(const float* x, const float* y) {
  float s = x[0] * y[0];
  for (int k = 1; k < 3; ++k) {
    const float p = x[k] * y[k];
    s = s + p;
  }
  return s;
}

// The exact dot product x[0]·y[0] + x[1]·y[1] + x[2]·y[2] rounded once to binary32 (to nearest even): GLSL's dot()
// compiles to the core OpDot, whose reference value this is (the products are exact at 48 bits, their sum at 640).
float dotRoundedOnce(const float* x, const float* y) {
  mpfr_t sum, p;
  mpfr_init2(sum, 640);
  mpfr_init2(p, 48);
  mpfr_set_zero(sum, 1);
  for (int k = 0; k < 3; ++k) {
    mpfr_set_flt(p, x[k], MPFR_RNDN);
    mpfr_mul_d(p, p, double(y[k]), MPFR_RNDN);  // exact: 24 + 24 bits
    mpfr_add(sum, sum, p, MPFR_RNDN);           // exact: binary32 products span fewer than 640 bits
  }
  const float out = mpfr_get_flt(sum, MPFR_RNDN);
  mpfr_clear(sum);
  mpfr_clear(p);
  return out;
}

// glsl_geometric.comp: 18 results per invocation from vec3s a, b, n (GLSL 4.60 §8.5 [external] formulas; the dot
// products inside reflect, faceforward, refract, length and distance are the formula's, summed in index order).
void glslGeometric(const Case& c, ArgBytes& a) {
  for (size_t i = 0; i < invocations(c, 4); ++i) {
    float x[3], y[3], n[3];
    for (int k = 0; k < 3; ++k) {
      x[k] = load<float>(a[0], 12 * i + k);
      y[k] = load<float>(a[0], 12 * i + 4 + k);
      n[k] = load<float>(a[0], 12 * i + 8 + k);
    }
    float r[18];
    for (int k = 0; k < 3; ++k) {  // cross(a, b)[k] = a[k+1]·b[k+2] − b[k+1]·a[k+2]
      const int j = (k + 1) % 3, l = (k + 2) % 3;
      const float p = x[j] * y[l], q = y[j] * x[l];
      r[k] = p - q;
    }
    r[3] = dotRoundedOnce(x, y);
    const float twoDot = 2.0f * dot3(n, x);  // reflect(I, N) = I − 2·dot(N, I)·N
    for (int k = 0; k < 3; ++k) {
      const float s = twoDot * n[k];
      r[4 + k] = x[k] - s;
    }
    const bool keep = dot3(n, x) < 0.0f;  // faceforward(N, I, Nref) = dot(Nref, I) < 0 ? N : −N
    for (int k = 0; k < 3; ++k) r[7 + k] = keep ? y[k] : -y[k];
    // refract(I, N, eta): k = 1 − eta·eta·(1 − dot(N, I)·dot(N, I)); 0 if k < 0, else eta·I − (eta·dot(N, I) +
    // sqrt(k))·N.
    const float eta = 0.75f, d = dot3(n, x);
    const float dd = d * d, etaSquared = eta * eta;
    const float oneLess = 1.0f - dd;
    const float scaled = etaSquared * oneLess;
    const float kk = 1.0f - scaled;
    for (int k = 0; k < 3; ++k) {
      if (kk < 0.0f) {
        r[10 + k] = 0.0f;
        continue;
      }
      const float etaDot = eta * d;
      const float s = etaDot + std::sqrt(kk);
      const float e = eta * x[k], m = s * n[k];
      r[10 + k] = e - m;
    }
    const float length = std::sqrt(dot3(y, y));  // length(b) = sqrt(dot(b, b))
    r[13] = length;
    float diff[3];
    for (int k = 0; k < 3; ++k) diff[k] = x[k] - y[k];
    r[14] = std::sqrt(dot3(diff, diff));                    // distance(a, b) = length(a − b)
    for (int k = 0; k < 3; ++k) r[15 + k] = y[k] / length;  // normalize(b) = b / length(b)
    for (int k = 0; k < 18; ++k) store(a[1], i * 18 + k, r[k]);
  }
}

// glsl_frexp_modf.comp: 8 results per pair (x, y), x finite: frexp(x) (significand in [0.5, 1) or 0, exponent),
// modf(x) (fraction and whole number, each with x's sign), ldexp(y, e), fma(x, y, −x) rounded once, isnan(y − y),
// isinf(y).
void glslFrexpModf(const Case& c, ArgBytes& a) {
  for (size_t i = 0; i < invocations(c, 8); ++i) {
    const float x = load<float>(a[0], 2 * i), y = load<float>(a[0], 2 * i + 1);
    if (!std::isfinite(x)) shapeError(c, "frexp of an infinity or NaN is undefined");
    int e = 0;
    const float significand = std::frexp(x, &e);
    float whole = 0.0f;
    const float fraction = std::modf(x, &whole);
    const float difference = y - y;
    const float r[8] = {significand,
                        float(e),
                        fraction,
                        whole,
                        std::ldexp(y, e),
                        std::fma(x, y, -x),
                        std::isnan(difference) ? 1.0f : 0.0f,
                        std::isinf(y) ? 1.0f : 0.0f};
    for (int k = 0; k < 8; ++k) store(a[1], i * 8 + k, r[k]);
  }
}

// k·x in binary32, where k is π/180 (toDegrees false) or 180/π rounded to binary32 (to nearest even, from 256 bits).
float scaleByPi(float x, bool toDegrees) {
  mpfr_t pi, k;
  mpfr_init2(pi, 256);
  mpfr_init2(k, 24);
  mpfr_const_pi(pi, MPFR_RNDN);
  if (toDegrees)
    mpfr_ui_div(k, 180, pi, MPFR_RNDN);
  else
    mpfr_div_ui(k, pi, 180, MPFR_RNDN);
  const float constant = mpfr_get_flt(k, MPFR_RNDN);  // exact: 24 bits
  mpfr_clear(pi);
  mpfr_clear(k);
  return constant * x;
}

// glsl_remaining.comp: 9 floats per x and y (GLSL 4.60 §8.1 [external], §8.3 [external]); 5 words and a double per
// word w.
void glslRemaining(const Case& c, ArgBytes& a) {
  using X = mpfr_t[2];
  const auto one = [&](int (*fn)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), float v) {
    return correctlyRounded(c, [fn](mpfr_ptr r, X& x) { fn(r, x[0], MPFR_RNDN); }, {v});
  };
  for (size_t i = 0; i < invocations(c, 8); ++i) {
    const float x = load<float>(a[0], i), y = load<float>(a[1], i);
    const uint32_t w = load<uint32_t>(a[2], i);
    // smoothstep(e0, e1, x): t = clamp((x − e0) / (e1 − e0), 0, 1); t·t·(3 − 2·t), each operation rounded.
    const float above = x - -1.0f, width = 2.0f - -1.0f;
    const float t = clampTo(above / width, 0.0f, 1.0f);
    const float square = t * t, twice = 2.0f * t;
    const float yPlusOne = y + 1.0f;
    const float r[9] = {std::ceil(x),       roundHalfAway(x),          scaleByPi(x, false),
                        scaleByPi(x, true), square * (3.0f - twice),   one(mpfr_cosh, y),
                        one(mpfr_asinh, y), one(mpfr_acosh, yPlusOne), one(mpfr_atanh, y)};
    for (int k = 0; k < 9; ++k) store(a[3], i * 9 + k, r[k]);
    // packDouble2x32 (GLSL 4.60 §8.4 [external]): the first component is the low 32 bits.
    const double d = std::bit_cast<double>(uint64_t(0x3ff00000u) << 32 | w);
    const uint64_t doubled = std::bit_cast<uint64_t>(d * 2.0);
    const uint32_t words[5] = {std::min(w, 1000u), std::max(w, 0x80000000u), std::clamp(w, 100u, 0xfffff000u),
                               uint32_t(doubled), uint32_t(doubled >> 32)};
    for (int k = 0; k < 5; ++k) store(a[4], i * 5 + k, words[k]);
    store(a[5], i, d);
  }
}

}  // namespace

std::vector<std::pair<std::string, HostReference>> shaderFunctionHostReferences() {
  return {
      {"shader_glsl_transcendental", glslTranscendental}, {"shader_glsl_pack", glslPack},
      {"shader_glsl_geometric", glslGeometric},           {"shader_glsl_frexp_modf", glslFrexpModf},
      {"shader_glsl_remaining", glslRemaining},
  };
}

}  // namespace clref::golden
