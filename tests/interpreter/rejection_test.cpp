// Rejection (docs/ARCHITECTURE.md principle 4): malformed, invalid or unsupported modules are refused with
// an interpreter::ModuleError that says why (and where, for validation failures), and misuse of
// the host API raises host::Error. Nothing here may crash the process.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <spirv-tools/libspirv.hpp>

#include "host/host.hpp"
#include "interpreter/diagnostic.hpp"
#include "interpreter/module.hpp"
#include "spvasm.hpp"

using namespace clref;
using Catch::Matchers::Contains;
using interpreter::ModuleError;

namespace {

std::vector<uint32_t> assemble(const std::string& text, spv_target_env env = SPV_ENV_UNIVERSAL_1_0) {
  return test::assembleText(text, env, false);
}

// What loading `words` and lowering kernel `name` throws, as (threw ModuleError, message).
// Rejections may come from Program::fromSpirv (parse, validation) or from the Kernel
// constructor (capabilities, recursion, imports: checked when the kernel is lowered).
struct Rejection {
  bool moduleError = false;
  std::string message;
};
Rejection rejectionOf(const std::vector<uint32_t>& words, const std::string& name,
                      const host::Device& device = host::Device()) {
  Rejection r;
  try {
    auto program = host::Program::fromSpirv(device, words);
    host::Kernel k(program, name);
  } catch (const ModuleError& e) {
    r.moduleError = true;
    r.message = e.what();
    return r;
  } catch (const std::exception& e) {
    r.message = std::string("not a ModuleError: ") + e.what();
    return r;
  }
  r.message = "no exception";
  return r;
}

std::vector<uint32_t> compile(const std::string& source, const std::string& options,
                              const host::Device& device = host::Device()) {
  // Program::fromOpenCLC validates too; we want the raw words, so take them from the module.
  return host::Program::fromOpenCLC(device, source, options)->module().binary();
}

const char* kVaddSource = R"CL(
kernel void vadd(global const float* a, global const float* b, global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
kernel void scalars(global int* out, char c, short s, int i, long l, float f) {
  out[0] = c + s + i + (int)l + (int)f;
}
kernel void withlocal(global int* out, local int* tmp) {
  tmp[get_local_id(0)] = 1;
  out[0] = tmp[0];
}
)CL";

std::shared_ptr<host::Program> vaddProgram() {
  static const std::vector<uint32_t> words = compile(kVaddSource, "-cl-std=CL1.2");
  return host::Program::fromSpirv(host::Device(), words);
}

}  // namespace

TEST_CASE("an empty input is not a SPIR-V module", "[rejection]") {
  try {
    host::Program::fromSpirv(host::Device(), {});
    FAIL("no exception");
  } catch (const ModuleError& e) {
    CHECK_THAT(std::string(e.what()), Contains("not a SPIR-V module"));
    CHECK_THAT(std::string(e.what()), Contains("empty"));
  }
}

TEST_CASE("random words are not a SPIR-V module", "[rejection]") {
  std::mt19937 rng(12345);
  for (size_t n : {1u, 4u, 5u, 16u, 200u}) {
    std::vector<uint32_t> words(n);
    for (auto& w : words) w = rng();
    INFO("words " << n);
    try {
      host::Program::fromSpirv(host::Device(), words);
      FAIL("no exception");
    } catch (const ModuleError& e) { CHECK_THAT(std::string(e.what()), Contains("not a SPIR-V module")); }
  }
}

TEST_CASE("a valid header followed by garbage is malformed", "[rejection]") {
  std::mt19937 rng(777);
  std::vector<uint32_t> words{0x07230203u, 0x00010000u, 0u, 100u, 0u};
  for (int i = 0; i < 50; ++i) words.push_back(rng());
  try {
    host::Program::fromSpirv(host::Device(), words);
    FAIL("no exception");
  } catch (const ModuleError& e) {
    CHECK_THAT(std::string(e.what()), Contains("malformed SPIR-V"));
    CHECK_THAT(std::string(e.what()), Contains("word "));
  }
}

TEST_CASE("every truncation of a valid module is rejected", "[rejection]") {
  // A cut inside an instruction is a parse error, a cut inside a function a validation error;
  // a cut before the first function leaves a valid library module (Linkage) without the
  // kernel, which the Kernel constructor refuses as host API misuse (host::Error).
  const auto words = vaddProgram()->module().binary();
  REQUIRE(words.size() > 100);
  size_t malformed = 0, invalid = 0;
  for (size_t n = 0; n < words.size(); ++n) {
    INFO("first " << n << " of " << words.size() << " words");
    const std::vector<uint32_t> prefix(words.begin(), words.begin() + std::ptrdiff_t(n));
    const auto r = rejectionOf(prefix, "vadd");
    INFO(r.message);
    CHECK((r.moduleError || r.message.find("no kernel named 'vadd'") != std::string::npos));
    malformed += r.message.find("malformed") != std::string::npos;
    invalid += r.message.find("validation failed") != std::string::npos;
  }
  CHECK(malformed > 0);
  CHECK(invalid > 0);
}

TEST_CASE("corrupted modules are rejected or run without crashing", "[rejection]") {
  // Flip single words of a valid module: the loader, the lowering and the executor must either
  // refuse with an exception or run (possibly faulting), never crash.
  const auto words = vaddProgram()->module().binary();
  std::mt19937 rng(4242);
  host::DeviceConfig cfg;
  cfg.instructionBudget = 10000;
  cfg.threads = 1;
  const host::Device device(cfg);
  int rejected = 0, ran = 0;
  for (int trial = 0; trial < 300; ++trial) {
    auto w = words;
    const size_t at = 5 + rng() % (w.size() - 5);
    switch (trial % 3) {
      case 0: w[at] = rng(); break;
      case 1: w[at] ^= 1u << (rng() % 32); break;
      default: w[at] = rng() % 64; break;
    }
    try {
      auto program = host::Program::fromSpirv(device, w);
      host::Kernel k(program, "vadd");
      if (k.argCount() != 3) {
        ++rejected;
        continue;
      }
      for (size_t i = 0; i < 3; ++i)
        if (k.argInfo(i).kind == host::ArgKind::Buffer) k.setArg(i, std::make_shared<host::Buffer>(64));
      (void)k.run(host::NDRange{1, {0, 0, 0}, {16, 1, 1}, std::array<size_t, 3>{4, 1, 1}});
      ++ran;
    } catch (const std::exception&) { ++rejected; }
  }
  CHECK(rejected + ran == 300);
  CHECK(rejected > 0);
}

TEST_CASE("an instruction clref does not lower is rejected naming its opcode and why", "[rejection]") {
  // Valid SPIR-V 1.1 for a kernel; the dispatch table lists OpSizeOf as unsupported.
  const std::string text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
   %ptr_uint = OpTypePointer Function %uint
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
          %v = OpVariable %ptr_uint Function
       %size = OpSizeOf %uint %v
               OpReturn
               OpFunctionEnd
)";
  const auto r = rejectionOf(assemble(text, SPV_ENV_UNIVERSAL_1_1), "k");
  CHECK(r.moduleError);
  CHECK_THAT(r.message, Contains("unsupported: OpSizeOf"));
  CHECK_THAT(r.message, Contains("OpSizeOf is not supported yet"));
}

TEST_CASE("a module failing validation names the rule, the word offset and the instruction", "[rejection]") {
  // Assembles fine, but OpIAdd's operands must have the result type (SPIR-V 1.0 §3.32.13 [external]).
  const std::string text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
         %fn = OpTypeFunction %void
         %c1 = OpConstant %uint 1
         %cf = OpConstant %float 2
          %k = OpFunction %void None %fn
          %l = OpLabel
        %sum = OpIAdd %uint %c1 %cf
               OpReturn
               OpFunctionEnd
)";
  const auto words = assemble(text);
  try {
    host::Program::fromSpirv(host::Device(), words);
    FAIL("no exception");
  } catch (const ModuleError& e) {
    const std::string m = e.what();
    INFO(m);
    CHECK_THAT(m, Contains("validation failed"));
    CHECK_THAT(m, Contains("IAdd"));     // the validator's rule
    CHECK_THAT(m, Contains("operand"));  // ... and what it demands
    CHECK_THAT(m, Contains("word "));    // where
    CHECK_THAT(m, Contains("OpIAdd"));   // the disassembled instruction
  }
}

TEST_CASE("a module breaking an OpenCL environment rule fails validation", "[rejection]") {
  // The Shader capability is not allowed in the OpenCL environment.
  const std::string text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Shader
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
          %l = OpLabel
               OpReturn
               OpFunctionEnd
)";
  const auto r = rejectionOf(assemble(text), "k");
  INFO(r.message);
  CHECK(r.moduleError);
  CHECK_THAT(r.message, Contains("Shader"));
}

TEST_CASE("recursion is rejected with the call cycle", "[rejection]") {
  const char* src = R"CL(
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int even(int n);
int odd(int n) { return n == 0 ? 0 : even(n - 1); }
int even(int n) { return n == 0 ? 1 : odd(n - 1); }
kernel void direct(global int* a) { a[0] = fact(a[0]); }
kernel void mutual(global int* a) { a[0] = even(a[0]); }
kernel void fine(global int* a) { a[0] = 5; }
)CL";
  const auto words = compile(src, "-cl-std=CL1.2 -O0 -fno-discard-value-names");
  {
    const auto r = rejectionOf(words, "direct");
    INFO(r.message);
    CHECK(r.moduleError);
    CHECK_THAT(r.message, Contains("recursion"));
    CHECK_THAT(r.message, Contains("fact"));
  }
  {
    const auto r = rejectionOf(words, "mutual");
    INFO(r.message);
    CHECK(r.moduleError);
    CHECK_THAT(r.message, Contains("recursion"));
    CHECK_THAT(r.message, Contains("even"));
    CHECK_THAT(r.message, Contains("odd"));
  }
  // A kernel of the same module that does not recurse is fine.
  auto program = host::Program::fromSpirv(host::Device(), words);
  host::Kernel k(program, "fine");
  auto a = std::make_shared<host::Buffer>(sizeof(int));
  k.setArg(0, a);
  REQUIRE(k.run(host::NDRange{}).ok);
  CHECK(a->as<int>()[0] == 5);
}

TEST_CASE("a call to an imported (undefined) function is rejected", "[rejection]") {
  const char* src = R"CL(
int external_helper(int);
kernel void imp(global int* a) { a[0] = external_helper(a[0]); }
kernel void fine(global int* a) { a[0] = 6; }
)CL";
  const auto words = compile(src, "-cl-std=CL1.2 -O0 -fno-discard-value-names");
  const auto r = rejectionOf(words, "imp");
  INFO(r.message);
  CHECK(r.moduleError);
  CHECK_THAT(r.message, Contains("external_helper"));
  CHECK_THAT(r.message, Contains("not defined"));
  CHECK_THAT(r.message, Contains("OpFunctionCall"));
  auto program = host::Program::fromSpirv(host::Device(), words);
  host::Kernel k(program, "fine");
  auto a = std::make_shared<host::Buffer>(sizeof(int));
  k.setArg(0, a);
  REQUIRE(k.run(host::NDRange{}).ok);
  CHECK(a->as<int>()[0] == 6);
}

TEST_CASE("a 64-bit module on a 32-bit device and fp64 on a device without it are rejected", "[rejection]") {
  const auto words = vaddProgram()->module().binary();
  host::DeviceConfig c32;
  c32.addressBits = 32;
  {
    const auto r = rejectionOf(words, "vadd", host::Device(c32));
    INFO(r.message);
    CHECK(r.moduleError);
    CHECK_THAT(r.message, Contains("Physical64"));
  }
  const char* dsrc = "kernel void d(global double* a) { a[0] = a[0] * 2.0; }\n";
  const auto dwords = compile(dsrc, "-cl-std=CL1.2");
  host::DeviceConfig nofp64;
  nofp64.fp64 = false;
  const auto r = rejectionOf(dwords, "d", host::Device(nofp64));
  INFO(r.message);
  CHECK(r.moduleError);
  CHECK_THAT(r.message, Contains("Float64"));
}

TEST_CASE("an unknown kernel name is refused and the known kernels are listed", "[rejection]") {
  auto program = vaddProgram();
  try {
    host::Kernel k(program, "vsub");
    FAIL("no exception");
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    CHECK_THAT(m, Contains("vsub"));
    CHECK_THAT(m, Contains("vadd"));
    CHECK_THAT(m, Contains("scalars"));
  }
}

TEST_CASE("an unknown kernel name is host API misuse (host::Error, as host.hpp documents)", "[rejection]") {
  // host.hpp: "class Error — Misuse of the host API (bad argument index, wrong size, unknown
  // kernel, ...)": the Kernel constructor looks the name up before lowering, so no interpreter::ModuleError.
  auto program = vaddProgram();
  CHECK_THROWS_AS(host::Kernel(program, "vsub"), host::Error);
  CHECK_THROWS_AS(host::Kernel(program, ""), host::Error);
}

TEST_CASE("setArg* with the wrong kind, size or index throws host::Error", "[rejection]") {
  auto program = vaddProgram();
  host::Kernel v(program, "vadd");
  REQUIRE(v.argCount() == 3);
  auto buf = std::make_shared<host::Buffer>(16);
  CHECK_THROWS_AS(v.setArg(3, buf), host::Error);
  CHECK_THROWS_AS(v.argInfo(3), host::Error);
  CHECK_THROWS_AS(v.setArg(0, 1.0f), host::Error);     // a value for a buffer
  CHECK_THROWS_AS(v.setArgLocal(0, 64), host::Error);  // local for a buffer
  try {
    v.setArg(2, 1);
    FAIL("no exception");
  } catch (const host::Error& e) {
    CHECK_THAT(std::string(e.what()), Contains("argument 2"));
    CHECK_THAT(std::string(e.what()), Contains("buffer"));
  }

  host::Kernel s(program, "scalars");
  REQUIRE(s.argCount() == 6);
  CHECK(s.argInfo(1).kind == host::ArgKind::Value);
  CHECK(s.argInfo(1).size == 1);
  CHECK(s.argInfo(2).size == 2);
  CHECK(s.argInfo(3).size == 4);
  CHECK(s.argInfo(4).size == 8);
  CHECK(s.argInfo(5).size == 4);
  CHECK_THROWS_AS(s.setArg(1, int(1)), host::Error);  // char takes 1 byte
  CHECK_THROWS_AS(s.setArg(2, int(1)), host::Error);  // short takes 2
  CHECK_THROWS_AS(s.setArg(4, int(1)), host::Error);  // long takes 8
  CHECK_THROWS_AS(s.setArg(5, double(1)), host::Error);
  CHECK_THROWS_AS(s.setArg(3, buf), host::Error);  // a buffer for a value
  CHECK_THROWS_AS(s.setArgNull(3), host::Error);
  try {
    s.setArg(3, int64_t(1));
    FAIL("no exception");
  } catch (const host::Error& e) {
    CHECK_THAT(std::string(e.what()), Contains("4 bytes"));
    CHECK_THAT(std::string(e.what()), Contains("8 given"));
  }
  CHECK_NOTHROW(s.setArg(1, int8_t(1)));
  CHECK_NOTHROW(s.setArg(2, int16_t(1)));

  host::Kernel l(program, "withlocal");
  CHECK(l.argInfo(1).kind == host::ArgKind::Local);
  CHECK_THROWS_AS(l.setArg(1, buf), host::Error);     // a buffer for a local pointer
  CHECK_THROWS_AS(l.setArg(1, int(4)), host::Error);  // a value for a local pointer
  CHECK_THROWS_AS(l.setArgLocal(1, 0), host::Error);  // local size 0
  CHECK_THROWS_AS(l.setArgLocal(0, 16), host::Error);
}

TEST_CASE("running with unset arguments throws host::Error naming the argument", "[rejection]") {
  auto program = vaddProgram();
  host::Kernel v(program, "vadd");
  auto buf = std::make_shared<host::Buffer>(64);
  v.setArg(0, buf);
  v.setArg(2, buf);
  host::NDRange r;
  r.global = {16, 1, 1};
  try {
    v.run(r);
    FAIL("no exception");
  } catch (const host::Error& e) {
    CHECK_THAT(std::string(e.what()), Contains("argument 1"));
    CHECK_THAT(std::string(e.what()), Contains("not set"));
  }
  v.setArg(1, buf);
  CHECK(v.run(r).ok);
}

TEST_CASE("invalid NDRanges throw host::Error", "[rejection]") {
  auto program = vaddProgram();
  host::Kernel v(program, "vadd");
  auto buf = std::make_shared<host::Buffer>(4096);
  for (int i = 0; i < 3; ++i) v.setArg(size_t(i), buf);
  host::NDRange r;
  r.global = {16, 1, 1};
  r.dims = 0;
  CHECK_THROWS_AS(v.run(r), host::Error);
  r.dims = 4;
  CHECK_THROWS_AS(v.run(r), host::Error);
  r.dims = 1;
  r.local = std::array<size_t, 3>{0, 1, 1};
  CHECK_THROWS_AS(v.run(r), host::Error);
  r.global = {2048, 1, 1};
  r.local = std::array<size_t, 3>{2048, 1, 1};  // above maxWorkGroupSize 1024
  CHECK_THROWS_AS(v.run(r), host::Error);
  r.dims = 2;
  r.global = {16, 0, 1};
  r.local = std::nullopt;
  CHECK_THROWS_AS(v.run(r), host::Error);
  // After all that, a valid launch works.
  r.dims = 1;
  r.global = {16, 1, 1};
  CHECK(v.run(r).ok);
}

TEST_CASE("an OpPhi naming one parent twice with different values is still refused", "[rejection]") {
  // module_validate.cpp merges only identical repeated (value, parent) pairs (llvm-spirv-15's switch cases sharing a
  // block); one parent with two values has no single meaning (SPIR-V 1.0 §3.32.17 [external] OpPhi).
  const auto text = [](const char* second) {
    return std::string(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_5 = OpConstant %uint 5
     %uint_7 = OpConstant %uint 7
         %fn = OpTypeFunction %void %uint
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
      %entry = OpLabel
               OpSwitch %x %join 1 %join 2 %join
       %join = OpLabel
          %v = OpPhi %uint %uint_5 %entry )") +
           second + R"( %entry
               OpReturn
               OpFunctionEnd
)";
  };
  CHECK_NOTHROW(host::Program::fromSpirv(host::Device(), assemble(text("%uint_5"))));
  try {
    host::Program::fromSpirv(host::Device(), assemble(text("%uint_7")));
    FAIL("no exception");
  } catch (const ModuleError& e) {
    CHECK_THAT(std::string(e.what()), Contains("OpPhi"));
  }
}
