// host::check of Vulkan compute shaders: their values are judged by Vulkan's precision rules (Vulkan §A.4 [external],
// vulkan/spirvenv.adoc "Precision and Operation of SPIR-V Instructions") and their entry point's float controls, not
// by the OpenCL tables. The expected bounds are computed here from the spec's rows with long double host arithmetic
// (64-bit significands, far finer than the float ulps compared), never from clref's enclosures.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "check/check.hpp"

using namespace clref;
using host::ElementClass;

namespace {

std::vector<uint8_t> bytesOf(const std::vector<float>& v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// The largest float <= v and the smallest float > v.
float floatAtOrBelow(long double v) {
  float f = float(v);
  while ((long double)f > v) f = std::nextafter(f, -INFINITY);
  return f;
}
float floatAbove(long double v) {
  float f = float(v);
  while ((long double)f <= v) f = std::nextafter(f, INFINITY);
  return f;
}
// ulp of a float result x (not a power of two) in [2^e, 2^(e+1)): 2^(e − 23).
long double ulpOf(long double x) {
  int e = 0;
  std::frexp(double(std::fabs(x)), &e);
  return std::ldexp(1.0L, e - 24);
}

// A shader with input buffer (set 0, binding 0) and output buffer (set 0, binding 1) of floats, run once plainly for
// clref's own results; classOf judges an output that differs from clref's in one element.
struct ShaderCheck {
  host::Device device;
  std::shared_ptr<host::Program> program;
  std::unique_ptr<host::Kernel> kernel;
  std::shared_ptr<host::Buffer> out;
  std::vector<float> reference;

  ShaderCheck(std::shared_ptr<host::Program> p, const std::vector<float>& in, size_t outputs) : program(std::move(p)) {
    kernel = std::make_unique<host::Kernel>(program, "main");
    kernel->setArg(*kernel->resourceArg(0, 0), std::make_shared<host::Buffer>(in.data(), in.size() * 4));
    out = std::make_shared<host::Buffer>(outputs * 4);
    kernel->setArg(*kernel->resourceArg(0, 1), out);
    const auto r = kernel->run(kernel->dispatch({1, 1, 1}));
    INFO((r.fault ? r.fault->message : ""));
    REQUIRE(r.ok);
    reference.assign(out->as<float>().begin(), out->as<float>().end());
  }
  ElementClass classOf(size_t element, float observed) {
    std::vector<float> o = reference;
    o[element] = observed;
    const auto report = host::check(*kernel, kernel->dispatch({1, 1, 1}),
                                    {{*kernel->resourceArg(0, 1), numerics::ScalarType::Float, bytesOf(o)}});
    INFO((report.run.fault ? report.run.fault->message : ""));
    REQUIRE(report.run.ok);
    for (const auto& d : report.buffers.at(0).details)
      if (d.index == element) {
        INFO("allowed " << d.allowedString() << " reason " << d.reason);
        return d.cls;
      }
    return ElementClass::Identical;
  }
};

std::shared_ptr<host::Program> glsl(const host::Device& device, const std::string& body) {
  return host::Program::fromGlsl(device,
                                 "#version 450\nlayout(local_size_x = 1) in;\n"
                                 "layout(std430, set = 0, binding = 0) readonly buffer In { float x[]; };\n"
                                 "layout(std430, set = 0, binding = 1) buffer Out { float y[]; };\n"
                                 "void main() {\n" +
                                     body + "\n}\n");
}

}  // namespace

TEST_CASE("shader check: exp2 within 3 + 2|x| ulp (a direct Vulkan row)", "[check][shader]") {
  host::Device device;
  const std::vector<float> in{1.3f};
  ShaderCheck s(glsl(device, "  y[0] = exp2(x[0]);"), in, 1);
  // GLSL.std.450 table: exp2(x) "3 + 2 × |x| ULP" (single precision).
  const long double exact = std::exp2((long double)in[0]);
  const long double bound = (3 + 2 * std::fabs((long double)in[0])) * ulpOf(exact);
  CHECK(s.classOf(0, floatAtOrBelow(exact + bound)) == ElementClass::Allowed);
  CHECK(s.classOf(0, floatAbove(exact + bound)) == ElementClass::Violation);
  CHECK(s.classOf(0, floatAbove(exact - bound)) == ElementClass::Allowed);
  CHECK(s.classOf(0, floatAtOrBelow(exact - bound - ulpOf(exact) / 2)) == ElementClass::Violation);
}

TEST_CASE("shader check: OpFDiv within 2.5 ulp", "[check][shader]") {
  host::Device device;
  const std::vector<float> in{1.0f, 3.0f};
  ShaderCheck s(glsl(device, "  y[0] = x[0] / x[1];"), in, 1);
  // Core table: OpFDiv "2.5 ULP for |y| ... in the range [2^-126, 2^126]"; 1/3 is in [0.25, 0.5): ulp 2^-25.
  const long double exact = 1.0L / 3.0L, bound = 2.5L * std::ldexp(1.0L, -25);
  CHECK(s.classOf(0, floatAtOrBelow(exact + bound)) == ElementClass::Allowed);
  CHECK(s.classOf(0, floatAbove(exact + bound)) == ElementClass::Violation);
  CHECK(s.classOf(0, floatAbove(exact - bound)) == ElementClass::Allowed);
  CHECK(s.classOf(0, floatAtOrBelow(exact - bound)) == ElementClass::Violation);
}

TEST_CASE("shader check: sqrt inherits from 1.0 / inversesqrt()", "[check][shader]") {
  host::Device device;
  const std::vector<float> in{7.3f};
  ShaderCheck s(glsl(device, "  y[0] = sqrt(x[0]);"), in, 1);
  // inversesqrt: 2 ulp around r = 1/sqrt(x) (r in [0.25, 0.5): ulp 2^-25); then 1.0 / that within 2.5 ulp (the
  // quotients near 2.7, ulp 2^-22): Fmin, Fmax; the result within E = max(|x − Fmin|, |x − Fmax|) of the exact root.
  const long double root = std::sqrt((long double)in[0]);
  const long double r = 1 / root, ur = std::ldexp(1.0L, -25), uq = std::ldexp(1.0L, -22);
  const long double fmin = 1 / (r + 2 * ur) - 2.5L * uq, fmax = 1 / (r - 2 * ur) + 2.5L * uq;
  const long double e = std::max(root - fmin, fmax - root);
  CHECK(s.classOf(0, floatAtOrBelow(root + e)) == ElementClass::Allowed);
  CHECK(s.classOf(0, floatAbove(root - e)) == ElementClass::Allowed);
  // The exact root is known only to within half an ulp of clref's value: a few ulps beyond E are outside.
  CHECK(s.classOf(0, floatAbove(root + e + 2 * uq)) == ElementClass::Violation);
  CHECK(s.classOf(0, floatAtOrBelow(root - e - 2 * uq)) == ElementClass::Violation);
}

TEST_CASE("shader check: pow inherits from exp2(y × log2(x))", "[check][shader]") {
  host::Device device;
  const std::vector<float> in{2.0f, 0.5f};
  ShaderCheck s(glsl(device, "  y[0] = pow(x[0], x[1]);"), in, 1);
  // log2(2) = 1 inside [0.5, 2.0]: absolute error < 2^-21; times 0.5 (exact): 0.5 ± 2^-22; exp2 of that within
  // 3 + 2|0.5 + 2^-22| ulp (results near 1.41: ulp 2^-23). The exact result is sqrt(2).
  const long double exact = std::sqrt(2.0L), u = std::ldexp(1.0L, -23);
  const long double m = std::ldexp(1.0L, -22), ulps = 3 + 2 * (0.5L + m);
  const long double fmin = std::exp2(0.5L - m) - ulps * u, fmax = std::exp2(0.5L + m) + ulps * u;
  const long double e = std::max(exact - fmin, fmax - exact);
  // The enclosure rounds each step outward (an ulp or so); inside by two ulps is allowed, outside by two is not.
  CHECK(s.classOf(0, floatAtOrBelow(exact + e - 2 * u)) == ElementClass::Allowed);
  CHECK(s.classOf(0, floatAbove(exact - e + 2 * u)) == ElementClass::Allowed);
  CHECK(s.classOf(0, floatAbove(exact + e + 2 * u)) == ElementClass::Violation);
  CHECK(s.classOf(0, floatAtOrBelow(exact - e - 2 * u)) == ElementClass::Violation);
}

TEST_CASE("shader check: FMod(x, x) may be x (inherited from x − y × floor(x/y))", "[check][shader]") {
  host::Device device;
  const std::vector<float> in{3.7f};
  ShaderCheck s(glsl(device, "  y[0] = mod(x[0], x[0]);"), in, 1);
  REQUIRE(s.reference[0] == 0.0f);
  // x/x within 2.5 ulp of 1: floor gives 0 or 1, so Fmin = 0 and Fmax = x; the exact result is 0: E = x.
  CHECK(s.classOf(0, in[0]) == ElementClass::Allowed);
  CHECK(s.classOf(0, -in[0]) == ElementClass::Allowed);
  CHECK(s.classOf(0, 1.0f) == ElementClass::Allowed);
  CHECK(s.classOf(0, std::nextafter(in[0], INFINITY)) == ElementClass::Violation);
  CHECK(s.classOf(0, std::nextafter(-in[0], -INFINITY)) == ElementClass::Violation);
}

TEST_CASE("shader check: a dot product may be summed in any order", "[check][shader]") {
  host::Device device;
  // (1e8 + 1) − 1e8 + 1 is 1 in index order (1e8 + 1 rounds to 1e8), 2 in the order (1e8 − 1e8) + 1 + 1 (clref's
  // value: the exact sum rounded once), 0 in the order ((1 + 1e8) + 1) − 1e8.
  const std::vector<float> in{1e8f, 1.0f, -1e8f, 1.0f};
  ShaderCheck s(glsl(device, "  y[0] = dot(vec4(x[0], x[1], x[2], x[3]), vec4(1.0));"), in, 1);
  CHECK(s.reference[0] == 2.0f);
  CHECK(s.classOf(0, 1.0f) == ElementClass::Allowed);
  CHECK(s.classOf(0, 0.0f) == ElementClass::Allowed);
  // Any order of the three additions, each rounded in either direction (u = 2^-23): within γ(3)·Σ|x_i| of the exact
  // sum 2 (Higham §4.2 [external] eq. (4.4), γ(k) = k·u / (1 − k·u)).
  const long double u = std::ldexp(1.0L, -23), gamma = 3 * u / (1 - 3 * u);
  const long double e = gamma * (2e8L + 2);
  CHECK(s.classOf(0, floatAtOrBelow(2 + e * 0.99L)) == ElementClass::Allowed);
  CHECK(s.classOf(0, floatAbove(2 - e * 0.99L)) == ElementClass::Allowed);
  CHECK(s.classOf(0, floatAbove(2 + e * 1.01L)) == ElementClass::Violation);
  CHECK(s.classOf(0, floatAtOrBelow(2 - e * 1.01L)) == ElementClass::Violation);
}

TEST_CASE("shader check: a matrix times a vector may be summed in any order", "[check][shader]") {
  host::Device device;
  // Row 0 of m is (1e8, 1, −1e8, 1), the other rows 0: (m · (1, 1, 1, 1))[0] is the sum of the dot product test above
  // (clref sums in index order: 1); the rows of zeros are exactly 0.
  const std::vector<float> in{1e8f, 1.0f, -1e8f, 1.0f};
  ShaderCheck s(
      glsl(device,
           "  mat4 m = mat4(x[0], 0.0, 0.0, 0.0, x[1], 0.0, 0.0, 0.0, x[2], 0.0, 0.0, 0.0, x[3], 0.0, 0.0, 0.0);\n"
           "  vec4 r = m * vec4(1.0);\n  y[0] = r.x;\n  y[1] = r.y;"),
      in, 2);
  CHECK(s.reference[0] == 1.0f);
  CHECK(s.classOf(0, 2.0f) == ElementClass::Allowed);
  CHECK(s.classOf(0, 0.0f) == ElementClass::Allowed);
  const long double u = std::ldexp(1.0L, -23), gamma = 3 * u / (1 - 3 * u);
  const long double e = gamma * (2e8L + 2);
  CHECK(s.classOf(0, floatAtOrBelow(2 + e * 0.99L)) == ElementClass::Allowed);
  CHECK(s.classOf(0, floatAbove(2 + e * 1.01L)) == ElementClass::Violation);
  CHECK(s.reference[1] == 0.0f);
  CHECK(s.classOf(1, 0x1p-100f) == ElementClass::Violation);
}

namespace {

// y[0] = x[0] + 1.0 (or x[0] · 0.5 when `halve`) in SPIR-V assembly, with `modes` as further execution modes (and
// their capabilities).
std::string addOneShader(const std::string& capabilities, const std::string& modes, bool halve = false) {
  return R"(
               OpCapability Shader
)" + capabilities +
         R"(
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %in %out
               OpExecutionMode %main LocalSize 1 1 1
)" + modes +
         R"(
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
        %rta = OpTypeRuntimeArray %float
      %block = OpTypeStruct %rta
  %ptr_block = OpTypePointer StorageBuffer %block
         %in = OpVariable %ptr_block StorageBuffer
        %out = OpVariable %ptr_block StorageBuffer
  %ptr_float = OpTypePointer StorageBuffer %float
     %uint_0 = OpConstant %uint 0
        %one = OpConstant %float 1
       %half = OpConstant %float 0.5
       %main = OpFunction %void None %fn
      %entry = OpLabel
      %src_p = OpAccessChain %ptr_float %in %uint_0 %uint_0
        %src = OpLoad %float %src_p
        %res = )" +
         std::string(halve ? "OpFMul %float %src %half" : "OpFAdd %float %src %one") + R"(
      %dst_p = OpAccessChain %ptr_float %out %uint_0 %uint_0
               OpStore %dst_p %res
               OpReturn
               OpFunctionEnd
)";
}

}  // namespace

TEST_CASE("shader check: a NaN operand gives any value unless SignedZeroInfNanPreserve", "[check][shader]") {
  host::Device device;
  const std::vector<float> in{NAN};
  // Vulkan §A.4 [external]: without SignedZeroInfNanPreserve, NotNaN is assumed: x + 1 of a NaN may be anything.
  ShaderCheck plain(host::Program::fromShader(device, compiler::ShaderLanguage::SpirvAssembly, addOneShader("", "")),
                    in, 1);
  REQUIRE(std::isnan(plain.reference[0]));
  CHECK(plain.classOf(0, 5.0f) == ElementClass::Allowed);
  // With it, OpFAdd (one of the instructions that respect it) must give a NaN.
  ShaderCheck preserving(host::Program::fromShader(device, compiler::ShaderLanguage::SpirvAssembly,
                                                   addOneShader("               OpCapability SignedZeroInfNanPreserve",
                                                                "               OpExecutionMode %main "
                                                                "SignedZeroInfNanPreserve 32")),
                         in, 1);
  REQUIRE(std::isnan(preserving.reference[0]));
  CHECK(preserving.classOf(0, 5.0f) == ElementClass::Violation);
  const float otherNan = std::bit_cast<float>(0x7fc00001u);
  CHECK(preserving.classOf(0, otherNan) != ElementClass::Violation);
}

TEST_CASE("shader check: a finite sum's zero sign is free without SignedZeroInfNanPreserve", "[check][shader]") {
  host::Device device;
  const std::vector<float> in{-1.0f};
  ShaderCheck plain(host::Program::fromShader(device, compiler::ShaderLanguage::SpirvAssembly, addOneShader("", "")),
                    in, 1);
  REQUIRE(plain.reference[0] == 0.0f);
  REQUIRE_FALSE(std::signbit(plain.reference[0]));  // −1 + 1 is +0 in round to nearest
  CHECK(plain.classOf(0, -0.0f) == ElementClass::Allowed);
  CHECK(plain.classOf(0, 0x1p-149f) == ElementClass::Violation);
}

namespace {

// y[0] = x[0] · x[1] + x[2] in SPIR-V assembly with RoundingModeRTE, the product decorated NoContraction or not.
std::string mulAddShader(bool noContraction) {
  return R"(
               OpCapability Shader
               OpCapability RoundingModeRTE
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %in %out
               OpExecutionMode %main LocalSize 1 1 1
               OpExecutionMode %main RoundingModeRTE 32
)" + std::string(noContraction ? "               OpDecorate %prod NoContraction\n" : "") +
         R"(
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
        %rta = OpTypeRuntimeArray %float
      %block = OpTypeStruct %rta
  %ptr_block = OpTypePointer StorageBuffer %block
         %in = OpVariable %ptr_block StorageBuffer
        %out = OpVariable %ptr_block StorageBuffer
  %ptr_float = OpTypePointer StorageBuffer %float
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
       %main = OpFunction %void None %fn
      %entry = OpLabel
        %p_a = OpAccessChain %ptr_float %in %uint_0 %uint_0
        %p_b = OpAccessChain %ptr_float %in %uint_0 %uint_1
        %p_c = OpAccessChain %ptr_float %in %uint_0 %uint_2
          %a = OpLoad %float %p_a
          %b = OpLoad %float %p_b
          %c = OpLoad %float %p_c
       %prod = OpFMul %float %a %b
        %sum = OpFAdd %float %prod %c
      %dst_p = OpAccessChain %ptr_float %out %uint_0 %uint_0
               OpStore %dst_p %sum
               OpReturn
               OpFunctionEnd
)";
}

}  // namespace

TEST_CASE("shader check: a product feeding a sum may be fused unless NoContraction", "[check][shader]") {
  host::Device device;
  // Vulkan §A.4.1 [external] "Evaluation of Expressions": without NoContraction operations may be combined. With
  // RoundingModeRTE, a = b = 1 + 2^-12, c = −1: a·b = 1 + 2^-11 + 2^-24 is a tie that rounds to even, 1 + 2^-11, so the
  // unfused sum is 2^-11; fused, the exact 2^-11 + 2^-24 (representable).
  const float a = 1.0f + 0x1p-12f;
  const std::vector<float> in{a, a, -1.0f};
  const float fused = 0x1p-11f + 0x1p-24f;
  ShaderCheck contracted(
      host::Program::fromShader(device, compiler::ShaderLanguage::SpirvAssembly, mulAddShader(false)), in, 1);
  CHECK(contracted.reference[0] == 0x1p-11f);
  CHECK(contracted.classOf(0, fused) == ElementClass::Allowed);
  CHECK(contracted.classOf(0, 0x1p-11f + 0x1p-23f) == ElementClass::Violation);
  ShaderCheck precise(host::Program::fromShader(device, compiler::ShaderLanguage::SpirvAssembly, mulAddShader(true)),
                      in, 1);
  CHECK(precise.classOf(0, fused) == ElementClass::Violation);
}

TEST_CASE("shader check: denormal results may be flushed unless DenormPreserve", "[check][shader]") {
  host::Device device;
  // 2^-126 · 0.5 = 2^-127 is subnormal: Vulkan §A.4 [external] lets it be flushed by default ("may: be flushed to zero"); with
  // DenormPreserve "the denormalized result ... must: be preserved".
  const std::vector<float> in{0x1p-126f};
  ShaderCheck plain(
      host::Program::fromShader(device, compiler::ShaderLanguage::SpirvAssembly, addOneShader("", "", true)), in, 1);
  CHECK(plain.reference[0] == 0x1p-127f);
  CHECK(plain.classOf(0, 0.0f) == ElementClass::Allowed);
  CHECK(plain.classOf(0, 0x1p-126f) == ElementClass::Violation);
  ShaderCheck preserving(
      host::Program::fromShader(device, compiler::ShaderLanguage::SpirvAssembly,
                                addOneShader("               OpCapability DenormPreserve",
                                             "               OpExecutionMode %main DenormPreserve 32", true)),
      in, 1);
  CHECK(preserving.reference[0] == 0x1p-127f);
  CHECK(preserving.classOf(0, 0.0f) == ElementClass::Violation);
}

TEST_CASE("shader check: a GLSL.std.450 function's denormal operand or result may be flushed", "[check][shader]") {
  // Vulkan §A.4 [external]: "any denormalized floating-point value input into a shader or potentially generated by any
  // instruction ... or any extended instructions for GLSL in a shader may: be flushed to zero" (seen on a GPU: fabs,
  // fmin and clamp of 2^-149 give 0); a flushed operand is a zero, so sign(2^-149) may be 0.
  host::Device device;
  const std::vector<float> in{0x1p-149f, 1.0f};
  ShaderCheck s(glsl(device, "  y[0] = abs(x[0]); y[1] = min(x[0], x[1]); y[2] = clamp(x[0], -1.5, 2.25);\n"
                             "  y[3] = sign(x[0]); y[4] = floor(x[1]);"),
                in, 5);
  for (size_t i = 0; i < 3; ++i) {
    INFO(i);
    CHECK(s.reference[i] == 0x1p-149f);
    CHECK(s.classOf(i, 0.0f) == ElementClass::Allowed);
    CHECK(s.classOf(i, 0x1p-148f) == ElementClass::Violation);
  }
  CHECK(s.reference[3] == 1.0f);
  CHECK(s.classOf(3, 0.0f) == ElementClass::Allowed);
  CHECK(s.classOf(3, -1.0f) == ElementClass::Violation);
  CHECK(s.classOf(4, 0.0f) == ElementClass::Violation);  // floor(1) = 1: nothing denormal to flush
}

TEST_CASE("shader check: every GLSL.std.450 float function has a set that holds another device's result",
          "[check][shader]") {
  // A perturbed run (any conforming device: each value drawn from its set) is judged allowed, never a violation, and
  // no result is "any value" for these finite operands inside every row's domain.
  host::Device device;
  const std::vector<float> in{0.3f, 0.7f, 1.6f, -0.45f};
  ShaderCheck s(glsl(device, R"(  float a = x[0], b = x[1], c = x[2], d = x[3];
  vec3 p = vec3(a, b, c), q = vec3(d, a, b);
  y[0] = tan(a); y[1] = asin(a); y[2] = acos(b); y[3] = sinh(d); y[4] = cosh(a); y[5] = tanh(b);
  y[6] = asinh(a); y[7] = acosh(c); y[8] = atanh(d); y[9] = fma(a, b, d); y[10] = radians(c); y[11] = degrees(d);
  y[12] = mix(a, c, b); y[13] = smoothstep(a, c, b); y[14] = length(p); y[15] = distance(p, q);
  y[16] = cross(p, q).y; y[17] = normalize(p).z; y[18] = faceforward(p, q, p).x; y[19] = reflect(p, q).x;
  y[20] = refract(p, normalize(q), 0.5).y; y[21] = round(c); y[22] = fract(d); y[23] = ldexp(a, 5);
  y[24] = clamp(d, -0.25, 0.5); y[25] = step(a, b); y[26] = pow(c, b); y[27] = sqrt(c); y[28] = exp(d);
  y[29] = log2(c); y[30] = inversesqrt(b); y[31] = atan(d, c); y[32] = mod(c, a); y[33] = sin(a) * cos(b);)"),
                in, 34);
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    INFO("seed " << seed);
    uint64_t perturbed = 0;
    auto out = std::make_shared<host::Buffer>(34 * 4);
    s.kernel->setArg(*s.kernel->resourceArg(0, 1), out);
    REQUIRE(host::runPerturbed(*s.kernel, s.kernel->dispatch({1, 1, 1}), seed, {}, &perturbed).ok);
    CHECK(perturbed > 10);
    const std::vector<float> observed(out->as<float>().begin(), out->as<float>().end());
    s.kernel->setArg(*s.kernel->resourceArg(0, 1), s.out);
    const auto report = host::check(*s.kernel, s.kernel->dispatch({1, 1, 1}),
                                    {{*s.kernel->resourceArg(0, 1), numerics::ScalarType::Float, bytesOf(observed)}});
    REQUIRE(report.run.ok);
    const auto& b = report.buffers.at(0);
    for (const auto& d : b.details) {
      INFO("y[" << d.index << "] observed " << d.observed << " allowed " << d.allowedString() << " " << d.reason);
      CHECK(d.cls == ElementClass::Allowed);
    }
    CHECK(b.violations == 0);
    CHECK(b.anyValue == 0);
    CHECK(b.allowed > 10);
  }
}
