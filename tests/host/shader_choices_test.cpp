// Vulkan's freedoms as named choices (numerics/choices.hpp, issue 36), each option run through a compute shader whose
// output changes with it: shader_denormals, vulkan_contraction, shader_out_of_bounds, vulkan_srem_smod_negative and
// vulkan_frem_fmod. Expected values are computed on the host, step by step in the host's IEEE 754 arithmetic. An
// OpenCL kernel with the same operations keeps its behaviour under every one of them (they are shader-only).
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "interpreter/diagnostic.hpp"

using namespace clref;
using Catch::Matchers::Contains;

namespace {

template <class T> std::shared_ptr<host::Buffer> bufferOf(const std::vector<T>& v) {
  return std::make_shared<host::Buffer>(v.data(), v.size() * sizeof(T));
}

host::Device deviceWith(const std::vector<std::string>& choices) {
  host::DeviceConfig config;
  for (const auto& c : choices) config.choices.set(c);
  return host::Device(config);
}

// Runs a one-invocation GLSL shader (local_size_x = 1 and one work-group) with `buffers` bound to set 0, binding i.
host::RunResult runGlsl(const host::Device& device, const std::string& body,
                        const std::vector<std::shared_ptr<host::Buffer>>& buffers) {
  auto program = host::Program::fromGlsl(device, "#version 450\nlayout(local_size_x = 1) in;\n" + body);
  host::Kernel k(program, "main");
  for (size_t i = 0; i < buffers.size(); ++i) k.setArg(*k.resourceArg(0, uint32_t(i)), buffers[i]);
  return k.run(k.dispatch({1, 1, 1}));
}

bool used(const host::RunResult& r, numerics::Choice c) {
  for (const auto& u : r.choicesUsed)
    if (u.choice == c && u.count > 0) return true;
  return false;
}

bool warned(const host::RunResult& r, const std::string& text) {
  for (const auto& w : r.warnings)
    if (w.message.find(text) != std::string::npos) return true;
  return false;
}

template <class T> T flushed(T x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(T(0), x) : x; }

// out[i] = in[i] · 0.5 at 32 bits, with the execution mode `mode` for them when not empty.
std::string halvingShader(const std::string& mode) {
  const std::string cap = mode.empty() ? "" : "OpCapability " + mode + "\n";
  const std::string exec = mode.empty() ? "" : "OpExecutionMode %main " + mode + " 32\n";
  return "OpCapability Shader\n" + cap + R"(OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %in %out
OpExecutionMode %main LocalSize 1 1 1
)" + exec +
         R"(OpDecorate %rta ArrayStride 4
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
%half = OpConstant %float 0.5
%main = OpFunction %void None %fn
%entry = OpLabel
%src0_p = OpAccessChain %ptr_float %in %uint_0 %uint_0
%src0 = OpLoad %float %src0_p
%res0 = OpFMul %float %src0 %half
%dst0_p = OpAccessChain %ptr_float %out %uint_0 %uint_0
OpStore %dst0_p %res0
%src1_p = OpAccessChain %ptr_float %in %uint_0 %uint_1
%src1 = OpLoad %float %src1_p
%res1 = OpFMul %float %src1 %half
%dst1_p = OpAccessChain %ptr_float %out %uint_0 %uint_1
OpStore %dst1_p %res1
OpReturn
OpFunctionEnd
)";
}

std::vector<float> halve(const host::Device& device, const std::string& mode, const std::vector<float>& in) {
  auto program = host::Program::fromShader(device, compiler::ShaderLanguage::SpirvAssembly, halvingShader(mode));
  host::Kernel k(program, "main");
  auto out = std::make_shared<host::Buffer>(in.size() * sizeof(float));
  k.setArg(*k.resourceArg(0, 0), bufferOf(in));
  k.setArg(*k.resourceArg(0, 1), out);
  const auto result = k.run(k.dispatch({1, 1, 1}));
  INFO((result.fault ? result.fault->message : ""));
  REQUIRE(result.ok);
  return {out->as<float>().begin(), out->as<float>().end()};
}

}  // namespace

TEST_CASE("shader_denormals: a shader without float controls keeps or flushes denormals, and a mode still decides",
          "[shader][choices]") {
  // 2^-126 · 0.5 = 2^-127 is subnormal; 2^-125 · 0.5 the smallest normal.
  const std::vector<float> in{-0x1p-126f, 0x1p-125f};
  std::vector<float> exact;
  for (float x : in) exact.push_back(x * 0.5f);
  REQUIRE(std::fpclassify(exact[0]) == FP_SUBNORMAL);
  const auto kept = halve(host::Device(), "", in);
  CHECK(kept[0] == exact[0]);
  CHECK(kept[1] == exact[1]);
  const host::Device flushing = deviceWith({"shader_denormals=flush"});
  const auto gone = halve(flushing, "", in);
  CHECK(std::bit_cast<uint32_t>(gone[0]) == std::bit_cast<uint32_t>(flushed(exact[0])));  // -0
  CHECK(gone[1] == exact[1]);
  // DenormPreserve for 32 bits wins over the choice.
  const auto preserved = halve(flushing, "DenormPreserve", in);
  CHECK(preserved[0] == exact[0]);

  // 64 bits too: 2^-1022 · 0.5 is subnormal.
  const std::string body = R"(layout(set = 0, binding = 0) buffer D { double d[]; };
void main() { d[1] = d[0] * 0.5; }
)";
  for (const bool flush : {false, true}) {
    auto d = bufferOf(std::vector<double>{0x1p-1022, 7.0});
    const auto r = runGlsl(flush ? flushing : host::Device(), body, {d});
    REQUIRE(r.ok);
    const double expected = 0x1p-1022 * 0.5;
    CHECK(d->as<double>()[1] == (flush ? flushed(expected) : expected));
  }
}

TEST_CASE("the Vulkan choices do not change an OpenCL kernel", "[shader][choices]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("no OpenCL C compiler: not tested");
    return;
  }
  // The Vulkan choices at their other options: an OpenCL kernel's subnormal product, its a·b + c written with
  // FP_CONTRACT OFF (an OpFMul and an OpFAdd), its negative %, and its out-of-bounds store behave as by default.
  const std::string source = R"(#pragma OPENCL FP_CONTRACT OFF
kernel void k(global float* f, global int* i) {
  f[3] = f[0] * f[1] + f[2];
  f[5] = f[4] * 0.5f;
  i[2] = i[0] % i[1];
  if (i[3] == 1) f[i[3] + 6] = 1.0f;
}
)";
  const float a = 1.0f + 0x1p-12f, c = -(1.0f + 0x1p-11f);
  const float product = a * a, separate = product + c;  // rounded apart: 1 + 2^-11, then 0
  for (const bool vulkanOptions : {false, true}) {
    const host::Device device = vulkanOptions
                                    ? deviceWith({"shader_denormals=flush", "vulkan_contraction=fuse",
                                                  "vulkan_srem_smod_negative=fault", "shader_out_of_bounds=robust"})
                                    : host::Device();
    auto program = host::Program::fromOpenCLC(device, source);
    host::Kernel k(program, "k");
    auto f = bufferOf(std::vector<float>{a, a, c, 9.0f, -0x1p-126f, 9.0f});
    auto i = bufferOf(std::vector<int32_t>{-7, 3, 0, 0});
    k.setArg(0, f);
    k.setArg(1, i);
    auto r = k.run(host::NDRange{});
    INFO((r.fault ? r.fault->message : ""));
    REQUIRE(r.ok);
    CHECK(f->as<float>()[3] == separate);
    CHECK(f->as<float>()[5] == -0x1p-127f);
    CHECK(i->as<int32_t>()[2] == -7 % 3);  // OpSRem, C's %
    CHECK_FALSE(used(r, numerics::Choice::VulkanContraction));
    // Out of bounds: the OpenCL fault, not a shader binding's.
    i->as<int32_t>()[3] = 1;
    r = k.run(host::NDRange{});
    REQUIRE_FALSE(r.ok);
    REQUIRE(r.fault);
    CHECK(r.fault->kind == interpreter::FaultKind::OutOfBounds);
    CHECK_THAT(r.fault->message, !Contains("binding") && !Contains("shader_out_of_bounds"));
  }
}

TEST_CASE("vulkan_contraction: a product feeding a sum is rounded apart or fused, and NoContraction keeps it apart",
          "[shader][choices]") {
  const std::string body = R"(layout(set = 0, binding = 0) buffer Io { float v[]; };
void main() {
  float a = v[0], b = v[1], c = v[2], s = v[3];
  v[4] = a * b + c;
  v[5] = s - a * b;
  v[6] = a * b - s;
  v[8] = a * b;
}
)";
  // glslang decorates every operation that contributes to a precise variable NoContraction (in a shader of its own:
  // the loads of a, b and c would make the others precise too).
  const std::string precise = R"(layout(set = 0, binding = 0) buffer Io { float v[]; };
void main() {
  precise float p = v[0] * v[1] + v[2];
  v[7] = p;
}
)";
  // a·a = 1 + 2^-11 + 2^-24 exactly, 1 + 2^-11 rounded (a tie to even).
  const float a = 1.0f + 0x1p-12f, c = -(1.0f + 0x1p-11f), s = 1.0f + 0x1p-11f;
  const float product = a * a;
  const float separate[] = {product + c, s - product, product - s};
  const float fused[] = {std::fma(a, a, c), std::fma(-a, a, s), std::fma(a, a, -s)};
  for (int k = 0; k < 3; ++k) REQUIRE(separate[k] != fused[k]);  // the input tells the two apart
  for (const bool fuse : {false, true}) {
    INFO((fuse ? "fuse" : "separate"));
    auto v = bufferOf(std::vector<float>{a, a, c, s, 0, 0, 0, 0, 0});
    const auto r = runGlsl(fuse ? deviceWith({"vulkan_contraction=fuse"}) : host::Device(), body, {v});
    INFO((r.fault ? r.fault->message : ""));
    REQUIRE(r.ok);
    const auto out = v->as<float>();
    for (int k = 0; k < 3; ++k) CHECK(out[4 + k] == (fuse ? fused[k] : separate[k]));
    CHECK(out[8] == product);  // the product keeps its own value
    CHECK(used(r, numerics::Choice::VulkanContraction) == fuse);
    const auto p = runGlsl(fuse ? deviceWith({"vulkan_contraction=fuse"}) : host::Device(), precise, {v});
    REQUIRE(p.ok);
    CHECK(v->as<float>()[7] == separate[0]);  // precise: NoContraction
    CHECK_FALSE(used(p, numerics::Choice::VulkanContraction));
  }
}

TEST_CASE("shader_out_of_bounds: a fault naming the set and binding, or robust buffer access's zeros",
          "[shader][choices]") {
  const std::string body = R"(layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) buffer Data { uint d[]; };
layout(set = 0, binding = 2) buffer Wide { uvec4 w[]; };
void main() {
  o[0] = d[1];
  o[1] = d[6];
  d[5] = 7u;
  o[2] = atomicAdd(d[9], 5u);
  uvec4 x = w[1];
  o[3] = x.x + x.y + x.z + x.w;
  o[4] = w[0].y;
}
)";
  const std::vector<uint32_t> data{10, 11, 12, 13};
  const std::vector<uint32_t> wide{20, 21, 22, 23, 24, 25};  // 24 bytes: w[1] is half outside
  {
    auto o = bufferOf(std::vector<uint32_t>(5, 99)), d = bufferOf(data), w = bufferOf(wide);
    const auto r = runGlsl(host::Device(), body, {o, d, w});
    REQUIRE_FALSE(r.ok);
    REQUIRE(r.fault);
    CHECK(r.fault->kind == interpreter::FaultKind::OutOfBounds);
    CHECK_THAT(r.fault->message, Contains("out-of-bounds read of 4 bytes at offset 24 (16 bytes bound) of "
                                          "set 0 binding 1 (buffer 'Data')") &&
                                     Contains("choice shader_out_of_bounds=fault"));
    CHECK(o->as<uint32_t>()[0] == data[1]);               // the access before ran
    CHECK(used(r, numerics::Choice::ShaderOutOfBounds));  // recorded, for clref explore
  }
  auto o = bufferOf(std::vector<uint32_t>(5, 99)), d = bufferOf(data), w = bufferOf(wide);
  const auto r = runGlsl(deviceWith({"shader_out_of_bounds=robust"}), body, {o, d, w});
  INFO((r.fault ? r.fault->message : ""));
  REQUIRE(r.ok);
  const auto out = o->as<uint32_t>();
  CHECK(out[0] == data[1]);
  CHECK(out[1] == 0);  // read: zero
  CHECK(out[2] == 0);  // atomic: returns zero, adds nowhere
  CHECK(out[3] == 0);  // a vector partly outside: all of it zero
  CHECK(out[4] == wide[1]);
  const auto after = d->as<uint32_t>();
  CHECK(std::vector<uint32_t>(after.begin(), after.end()) == data);  // the stores went nowhere
  CHECK(used(r, numerics::Choice::ShaderOutOfBounds));
  CHECK(warned(r, "set 0 binding 1 (buffer 'Data'): reads zeros, writes nothing"));
}

TEST_CASE("vulkan_srem_smod_negative: SPIR-V's value with a warning, or a fault", "[shader][choices]") {
  // GLSL's % is OpSMod: the sign of the result is the divisor's (SPIR-V 1.0 §3.32.13 [external]).
  const std::string body = R"(layout(set = 0, binding = 0) buffer Io { int v[]; };
void main() { v[2] = v[0] % v[1]; }
)";
  const auto smod = [](int32_t a, int32_t b) { return int32_t(a - b * int32_t(std::floor(double(a) / b))); };
  for (const auto& [a, b] : std::vector<std::pair<int32_t, int32_t>>{{-7, 3}, {7, -3}, {-7, -3}, {7, 3}}) {
    INFO(a << " % " << b);
    const bool negative = a < 0 || b < 0;
    auto v = bufferOf(std::vector<int32_t>{a, b, 0});
    auto r = runGlsl(host::Device(), body, {v});
    REQUIRE(r.ok);
    CHECK(v->as<int32_t>()[2] == smod(a, b));
    CHECK(used(r, numerics::Choice::VulkanSRemSModNegative) == negative);
    CHECK(warned(r, "choice vulkan_srem_smod_negative=spirv") == negative);
    r = runGlsl(deviceWith({"vulkan_srem_smod_negative=fault"}), body, {v});
    CHECK(r.ok == !negative);
    if (negative) {
      CHECK(used(r, numerics::Choice::VulkanSRemSModNegative));
      REQUIRE(r.fault);
      CHECK_THAT(r.fault->message,
                 Contains("OpSMod of " + std::to_string(a) + " and " + std::to_string(b)) && Contains("poison"));
    }
  }
}

TEST_CASE("vulkan_frem_fmod: the exact remainder or the inherited formula with each operation rounded",
          "[shader][choices]") {
  // v[2] = OpFRem(v[0], v[1]) (x - y·trunc(x/y)), v[3] = OpFMod(v[0], v[1]) (x - y·floor(x/y)), v[4] = OpFRem(v[0],
  // v[0]), v[5] = OpFMod(v[0], v[0]). In assembly: glslang compiles GLSL's mod and HLSL's fmod both to OpFMod.
  const std::string shader = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %io
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %rta ArrayStride 4
OpMemberDecorate %block 0 Offset 0
OpDecorate %block Block
OpDecorate %io DescriptorSet 0
OpDecorate %io Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%rta = OpTypeRuntimeArray %float
%block = OpTypeStruct %rta
%ptr_block = OpTypePointer StorageBuffer %block
%io = OpVariable %ptr_block StorageBuffer
%ptr_float = OpTypePointer StorageBuffer %float
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%u5 = OpConstant %uint 5
%main = OpFunction %void None %fn
%entry = OpLabel
%px = OpAccessChain %ptr_float %io %u0 %u0
%x = OpLoad %float %px
%py = OpAccessChain %ptr_float %io %u0 %u1
%y = OpLoad %float %py
%rem = OpFRem %float %x %y
%mod = OpFMod %float %x %y
%remxx = OpFRem %float %x %x
%modxx = OpFMod %float %x %x
%p2 = OpAccessChain %ptr_float %io %u0 %u2
OpStore %p2 %rem
%p3 = OpAccessChain %ptr_float %io %u0 %u3
OpStore %p3 %mod
%p4 = OpAccessChain %ptr_float %io %u0 %u4
OpStore %p4 %remxx
%p5 = OpAccessChain %ptr_float %io %u0 %u5
OpStore %p5 %modxx
OpReturn
OpFunctionEnd
)";
  // The formula rounded step by step on the host; the exact remainders from fmod (exact), OpFMod's with one rounded
  // addition of y when the signs differ.
  const auto formula = [](float x, float y, bool floor) {
    const float q = x / y;
    const float n = floor ? std::floor(q) : std::trunc(q);
    const float p = y * n;
    return x - p;
  };
  const auto exactMod = [](float x, float y) {
    float r = std::fmod(x, y);
    if (r != 0 && std::signbit(r) != std::signbit(y)) r = r + y;
    return r;
  };
  for (const auto& [x, y] : std::vector<std::pair<float, float>>{{16777215.0f, 0.1f}, {-16777215.0f, 0.1f}}) {
    const float exact[] = {std::fmod(x, y), exactMod(x, y)};
    const float inherited[] = {formula(x, y, false), formula(x, y, true)};
    INFO(x << " and " << y << ": FRem " << exact[0] << " or " << inherited[0] << ", FMod " << exact[1] << " or "
           << inherited[1]);
    REQUIRE(exact[0] != inherited[0]);  // the input tells the two apart
    REQUIRE(exact[1] != inherited[1]);
    for (const bool useFormula : {false, true}) {
      const host::Device device = useFormula ? deviceWith({"vulkan_frem_fmod=formula"}) : host::Device();
      auto program = host::Program::fromShader(device, compiler::ShaderLanguage::SpirvAssembly, shader);
      host::Kernel k(program, "main");
      auto v = bufferOf(std::vector<float>{x, y, 7, 7, 7, 7});
      k.setArg(*k.resourceArg(0, 0), v);
      const auto r = k.run(k.dispatch({1, 1, 1}));
      REQUIRE(r.ok);
      const auto out = v->as<float>();
      CHECK(out[2] == (useFormula ? inherited[0] : exact[0]));
      CHECK(out[3] == (useFormula ? inherited[1] : exact[1]));
      // Of (x, x): the quotient is exactly 1 either way, so 0.
      CHECK(out[4] == 0.0f);
      CHECK(out[5] == 0.0f);
    }
  }
}
