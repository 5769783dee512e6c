// The rounding direction of a shader's correctly rounded operations (Vulkan §A.4 [external]
// [[spirvenv-correctly-rounded]]): RoundingModeRTZ for 32-bit floats rounds OpFAdd, OpFSub, OpFMul, OpFDiv,
// OpVectorTimesScalar, OpConvertUToF, GLSL.std.450 Sqrt, Fma, Exp and Mix toward zero; without a rounding mode the
// choice vulkan_rounding decides (nearest_even by default, or toward_zero), and RoundingModeRTE wins over it. Expected
// values: the host's arithmetic under fesetround (FE_TONEAREST or FE_TOWARDZERO), and MPFR for exp.
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <bit>
#include <cfenv>
#include <cmath>
#include <random>
#include <string>

#include "host/host.hpp"

using namespace clref;

namespace {

constexpr uint32_t kResults = 10;  // per invocation
constexpr const char* kNames[kResults] = {"a + b",        "a - b",          "a * b",  "a / b",          "sqrt(a)",
                                          "fma(a, b, c)", "float(bits(a))", "exp(b)", "(a, c) * b [1]", "mix(a, b, c)"};

// out[10i + k] = the k-th result for in[3i], in[3i + 1], in[3i + 2] = a, b, c; `header` holds the capabilities,
// extensions and float-controls execution modes.
std::string roundingShader(const std::string& capabilities, const std::string& modes) {
  return R"(
               OpCapability Shader
)" + capabilities +
         R"(
       %glsl = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %in %out
               OpExecutionMode %main LocalSize 1 1 1
)" + modes +
         R"(
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %rta ArrayStride 4
               OpMemberDecorate %block 0 Offset 0
               OpDecorate %block Block
               OpDecorate %in DescriptorSet 0
               OpDecorate %in Binding 0
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %v2float = OpTypeVector %float 2
     %v3uint = OpTypeVector %uint 3
  %ptr_in_v3 = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_in_v3 Input
        %rta = OpTypeRuntimeArray %float
      %block = OpTypeStruct %rta
  %ptr_block = OpTypePointer StorageBuffer %block
         %in = OpVariable %ptr_block StorageBuffer
        %out = OpVariable %ptr_block StorageBuffer
  %ptr_float = OpTypePointer StorageBuffer %float
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
     %uint_5 = OpConstant %uint 5
     %uint_6 = OpConstant %uint 6
     %uint_7 = OpConstant %uint 7
     %uint_8 = OpConstant %uint 8
     %uint_9 = OpConstant %uint 9
    %uint_10 = OpConstant %uint 10
       %main = OpFunction %void None %fn
      %entry = OpLabel
        %ids = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %ids 0
         %i3 = OpIMul %uint %i %uint_3
        %ib = OpIAdd %uint %i3 %uint_1
        %ic = OpIAdd %uint %i3 %uint_2
         %pa = OpAccessChain %ptr_float %in %uint_0 %i3
         %pb = OpAccessChain %ptr_float %in %uint_0 %ib
         %pc = OpAccessChain %ptr_float %in %uint_0 %ic
          %a = OpLoad %float %pa
          %b = OpLoad %float %pb
          %c = OpLoad %float %pc
         %r0 = OpFAdd %float %a %b
         %r1 = OpFSub %float %a %b
         %r2 = OpFMul %float %a %b
         %r3 = OpFDiv %float %a %b
         %r4 = OpExtInst %float %glsl Sqrt %a
         %r5 = OpExtInst %float %glsl Fma %a %b %c
       %bits = OpBitcast %uint %a
         %r6 = OpConvertUToF %float %bits
         %r7 = OpExtInst %float %glsl Exp %b
         %ac = OpCompositeConstruct %v2float %a %c
        %acb = OpVectorTimesScalar %v2float %ac %b
         %r8 = OpCompositeExtract %float %acb 1
         %r9 = OpExtInst %float %glsl FMix %a %b %c
        %o10 = OpIMul %uint %i %uint_10
               OpStore %p0 %r0
               OpReturn
               OpFunctionEnd
)";
}

// The stores of the ten results (spliced in for "OpStore %p0 %r0").
std::string withStores(std::string text) {
  std::string stores;
  for (uint32_t k = 0; k < kResults; ++k) {
    const std::string n = std::to_string(k);
    stores += "        %o" + n + "_ = OpIAdd %uint %o10 %uint_" + n + "\n" + "         %p" + n +
              " = OpAccessChain %ptr_float %out %uint_0 %o" + n + "_\n" + "               OpStore %p" + n + " %r" + n +
              "\n";
  }
  const std::string marker = "               OpStore %p0 %r0\n";
  text.replace(text.find(marker), marker.size(), stores);
  return text;
}

struct Inputs {
  std::vector<float> abc;  // a, b, c per invocation
  size_t count() const { return abc.size() / 3; }
};

Inputs randomInputs() {
  std::mt19937 rng(20261129);
  std::uniform_real_distribution<float> m(1.0f, 2.0f);
  std::uniform_int_distribution<int> e(-4, 4);
  Inputs in;
  for (int i = 0; i < 64; ++i) {
    const float a = std::ldexp(m(rng), e(rng) + 20);  // a ≥ 2^16: float(bits(a)) rounds (bits ≥ 2^24)
    const float b = std::ldexp(m(rng), e(rng)) * (i % 2 ? -1.0f : 1.0f);
    const float c = std::ldexp(m(rng), e(rng));
    in.abc.insert(in.abc.end(), {a, b, c});
  }
  return in;
}

float mpfrExp(float x, mpfr_rnd_t rnd) {
  mpfr_t v, r;
  mpfr_init2(v, 24);
  mpfr_init2(r, 24);
  mpfr_set_flt(v, x, MPFR_RNDN);
  mpfr_exp(r, v, rnd);  // the results here are normal binary32 values: precision 24 is the format
  const float out = mpfr_get_flt(r, MPFR_RNDN);
  mpfr_clear(v);
  mpfr_clear(r);
  return out;
}

// The ten results on the host in the rounding direction `mode` (FE_TONEAREST or FE_TOWARDZERO).
std::vector<float> expected(const Inputs& in, int mode) {
  std::vector<float> out;
  for (size_t i = 0; i < in.count(); ++i) {
    volatile float a = in.abc[3 * i], b = in.abc[3 * i + 1], c = in.abc[3 * i + 2];
    volatile uint32_t bits = std::bit_cast<uint32_t>(float(a));
    std::fesetround(mode);
    volatile float r[kResults];
    r[0] = a + b;
    r[1] = a - b;
    r[2] = a * b;
    r[3] = a / b;
    r[4] = std::sqrt(float(a));
    r[5] = std::fma(float(a), float(b), float(c));
    r[6] = float(bits);
    volatile float oneMinusC = 1.0f - c, x1 = a * oneMinusC, x2 = b * c;  // GLSL mix: x·(1 − a) + y·a
    r[9] = x1 + x2;
    r[8] = c * b;
    std::fesetround(FE_TONEAREST);
    r[7] = mpfrExp(b, mode == FE_TOWARDZERO ? MPFR_RNDZ : MPFR_RNDN);
    for (uint32_t k = 0; k < kResults; ++k) out.push_back(float(r[k]));
  }
  return out;
}

std::vector<float> runShader(const std::string& text, const Inputs& in, const std::string& choice = "") {
  host::DeviceConfig config;
  if (!choice.empty()) config.choices.set(choice);
  host::Device device(config);
  auto program = host::Program::fromShader(device, compiler::ShaderLanguage::SpirvAssembly, withStores(text));
  host::Kernel k(program, "main");
  auto out = std::make_shared<host::Buffer>(in.count() * kResults * sizeof(float));
  k.setArg(*k.resourceArg(0, 0), std::make_shared<host::Buffer>(in.abc.data(), in.abc.size() * sizeof(float)));
  k.setArg(*k.resourceArg(0, 1), out);
  const auto result = k.run(k.dispatch({uint32_t(in.count()), 1, 1}));
  INFO((result.fault ? result.fault->message : ""));
  REQUIRE(result.ok);
  return {out->as<float>().begin(), out->as<float>().end()};
}

// Compares bit for bit; returns how many results differ from `other` (the other rounding's expectation), per result.
std::vector<int> compare(const std::vector<float>& got, const std::vector<float>& want,
                         const std::vector<float>& other) {
  REQUIRE(got.size() == want.size());
  std::vector<int> differ(kResults, 0);
  for (size_t j = 0; j < got.size(); ++j) {
    INFO(kNames[j % kResults] << " of invocation " << j / kResults << ": got " << got[j] << " want " << want[j]);
    CHECK(std::bit_cast<uint32_t>(got[j]) == std::bit_cast<uint32_t>(want[j]));
    if (want[j] != other[j]) ++differ[j % kResults];
  }
  return differ;
}

const std::string kRtzCapabilities = R"(               OpCapability RoundingModeRTZ
               OpExtension "SPV_KHR_float_controls")";

}  // namespace

TEST_CASE("a shader with RoundingModeRTZ 32 rounds its float operations toward zero", "[shader][rounding]") {
  const Inputs in = randomInputs();
  const auto towardZero = expected(in, FE_TOWARDZERO), nearest = expected(in, FE_TONEAREST);
  const auto got =
      runShader(roundingShader(kRtzCapabilities, "               OpExecutionMode %main RoundingModeRTZ 32"), in);
  const auto differ = compare(got, towardZero, nearest);
  // Every operation has inputs where the two directions differ, so the comparison tells them apart.
  for (uint32_t k = 0; k < kResults; ++k) {
    INFO(kNames[k]);
    CHECK(differ[k] > 0);
  }
}

TEST_CASE("RoundingModeRTZ for another width leaves 32-bit operations to nearest even", "[shader][rounding]") {
  const Inputs in = randomInputs();
  const auto got = runShader(roundingShader("               OpCapability Float64\n" + kRtzCapabilities,
                                            "               OpExecutionMode %main RoundingModeRTZ 64"),
                             in);
  compare(got, expected(in, FE_TONEAREST), expected(in, FE_TOWARDZERO));
}

TEST_CASE("vulkan_rounding: a shader without a rounding mode rounds to nearest even or toward zero",
          "[shader][rounding][choices]") {
  const Inputs in = randomInputs();
  const auto towardZero = expected(in, FE_TOWARDZERO), nearest = expected(in, FE_TONEAREST);
  const std::string plain = roundingShader("", "");
  compare(runShader(plain, in), nearest, towardZero);
  compare(runShader(plain, in, "vulkan_rounding=nearest_even"), nearest, towardZero);
  const auto differ = compare(runShader(plain, in, "vulkan_rounding=toward_zero"), towardZero, nearest);
  CHECK(differ[0] > 0);
  // RoundingModeRTE is the entry point's own answer: the choice does not apply to its width.
  const std::string rte = roundingShader(R"(               OpCapability RoundingModeRTE
               OpExtension "SPV_KHR_float_controls")",
                                         "               OpExecutionMode %main RoundingModeRTE 32");
  compare(runShader(rte, in, "vulkan_rounding=toward_zero"), nearest, towardZero);
}

namespace {

// out[4i..4i+3] = length(x.xyz), (mat2(x) · x.w)[0][0], outerProduct(x.xy, x.zw)[0][1], and d[i] = p[2i] / p[2i + 1] in
// binary64.
const char* kGlslRounding = R"(#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer In { vec4 v[]; };
layout(std430, set = 0, binding = 1) buffer Out { float r[]; };
layout(std430, set = 0, binding = 2) readonly buffer P { double p[]; };
layout(std430, set = 0, binding = 3) buffer D { double d[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 x = v[i];
  r[4 * i] = length(x.xyz);
  mat2 m = mat2(x.x, x.y, x.z, x.w) * x.w;
  r[4 * i + 1] = m[0][0];
  mat2 o = outerProduct(x.xy, x.zw);
  r[4 * i + 2] = o[0][1];
  r[4 * i + 3] = o[1][1];
  d[i] = p[2 * i] / p[2 * i + 1];
}
)";

struct GlslResults {
  std::vector<float> r;
  std::vector<double> d;
};

GlslResults glslExpected(const std::vector<float>& v, const std::vector<double>& p, int mode) {
  GlslResults out;
  for (size_t i = 0; i < v.size() / 4; ++i) {
    volatile float x = v[4 * i], y = v[4 * i + 1], z = v[4 * i + 2], w = v[4 * i + 3];
    volatile double a = p[2 * i], b = p[2 * i + 1];
    std::fesetround(mode);
    volatile float s = x * x;  // GLSL length: sqrt of the sum of squares from the first component, each step rounded
    s = s + y * y;
    s = s + z * z;
    volatile float len = std::sqrt(float(s)), m00 = x * w, o01 = y * z, o11 = y * w;
    volatile double q = a / b;
    std::fesetround(FE_TONEAREST);
    out.r.insert(out.r.end(), {float(len), float(m00), float(o01), float(o11)});
    out.d.push_back(double(q));
  }
  return out;
}

}  // namespace

TEST_CASE("vulkan_rounding=toward_zero rounds a GLSL shader's length, matrix products and binary64 division",
          "[shader][rounding][choices]") {
  std::mt19937 rng(36);
  std::uniform_real_distribution<float> f(-3.0f, 3.0f);
  std::uniform_real_distribution<double> g(0.5, 4.0);
  const uint32_t n = 48;
  std::vector<float> v(4 * n);
  std::vector<double> p(2 * n);
  for (auto& x : v) x = f(rng);
  for (auto& x : p) x = g(rng);
  const GlslResults towardZero = glslExpected(v, p, FE_TOWARDZERO), nearest = glslExpected(v, p, FE_TONEAREST);
  for (const bool rtz : {false, true}) {
    host::DeviceConfig config;
    if (rtz) config.choices.set("vulkan_rounding=toward_zero");
    host::Device device(config);
    host::Kernel k(host::Program::fromGlsl(device, kGlslRounding), "main");
    auto r = std::make_shared<host::Buffer>(v.size() * sizeof(float));
    auto d = std::make_shared<host::Buffer>(n * sizeof(double));
    k.setArg(*k.resourceArg(0, 0), std::make_shared<host::Buffer>(v.data(), v.size() * sizeof(float)));
    k.setArg(*k.resourceArg(0, 1), r);
    k.setArg(*k.resourceArg(0, 2), std::make_shared<host::Buffer>(p.data(), p.size() * sizeof(double)));
    k.setArg(*k.resourceArg(0, 3), d);
    const auto result = k.run(k.dispatch({n, 1, 1}));
    INFO((result.fault ? result.fault->message : ""));
    REQUIRE(result.ok);
    const GlslResults& want = rtz ? towardZero : nearest;
    const GlslResults& other = rtz ? nearest : towardZero;
    int differ[5] = {};
    for (size_t j = 0; j < want.r.size(); ++j) {
      INFO("rtz " << rtz << ", result " << j % 4 << " of invocation " << j / 4);
      CHECK(std::bit_cast<uint32_t>(r->as<float>()[j]) == std::bit_cast<uint32_t>(want.r[j]));
      if (want.r[j] != other.r[j]) ++differ[j % 4];
    }
    for (size_t i = 0; i < n; ++i) {
      INFO("rtz " << rtz << ", quotient of invocation " << i);
      CHECK(std::bit_cast<uint64_t>(d->as<double>()[i]) == std::bit_cast<uint64_t>(want.d[i]));
      if (want.d[i] != other.d[i]) ++differ[4];
    }
    for (int k2 = 0; k2 < 5; ++k2) {
      INFO("result " << k2);
      CHECK(differ[k2] > 0);
    }
  }
}
