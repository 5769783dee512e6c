// Inputs found by fuzzing that crashed the loader, the lowering or the executor (docs/ARCHITECTURE.md
// principle 4, "never crash, never guess"): each is hand-written SPIR-V assembly, and each must
// give an error or a fault that names the instruction and the rule, at the stage where the bad
// value first enters.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <spirv-tools/libspirv.hpp>

#include "host/host.hpp"
#include "interpreter/diagnostic.hpp"
#include "interpreter/module.hpp"
#include "spvasm.hpp"

using namespace clref;
using Catch::Matchers::Contains;
using interpreter::FaultKind;
using interpreter::ModuleError;

namespace {

std::vector<uint32_t> assemble(const std::string& text, spv_target_env env = SPV_ENV_UNIVERSAL_1_0) {
  return test::assembleText(text, env);
}

// The message of the ModuleError that loading (Module::load) and, separately, parsing without
// validation (Module::parse, as `clref info` and `clref dis` do) throw; "no exception" when none.
std::string loadError(const std::vector<uint32_t>& words) {
  try {
    (void)interpreter::Module::load(words);
  } catch (const ModuleError& e) { return e.what(); }
  return "no exception";
}
std::string parseError(const std::vector<uint32_t>& words) {
  try {
    (void)interpreter::Module::parse(words);
  } catch (const ModuleError& e) { return e.what(); }
  return "no exception";
}

// What loading and lowering kernel `name` throws.
std::string kernelError(const std::vector<uint32_t>& words, const std::string& name) {
  try {
    auto program = host::Program::fromSpirv(host::Device(), words);
    host::Kernel k(program, name);
  } catch (const ModuleError& e) { return e.what(); } catch (const std::exception& e) {
    return std::string("not a ModuleError: ") + e.what();
  }
  return "no exception";
}

// AddressSanitizer ends the process on an allocation past its maximum (allocation-size-too-big) instead of throwing
// std::bad_alloc, so a test that provokes the exception cannot run under it.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

const std::string kHeader = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int8
               OpMemoryModel Physical64 OpenCL
)";

}  // namespace

TEST_CASE("fuzz: a branch before the function's first OpLabel is refused by the validator", "[rejection][fuzz]") {
  // SPIR-V 1.0 §2.16.1 [external]: a function's body is blocks, each starting with OpLabel.
  // The validation copy (normalizedForValidation) used to take the branch as the terminator
  // of a block that did not exist.
  const auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
               OpBranch %entry
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  const std::string e = loadError(words);
  CHECK_THAT(e, Contains("SPIR-V validation failed"));
  CHECK_THAT(e, Contains("Branch must appear in a block"));
  CHECK_THAT(e, Contains("OpBranch"));
  CHECK(parseError(words) == "no exception");  // nothing in it stops `clref dis`
}

TEST_CASE("fuzz: an array length that is a vector OpConstant is refused before layout", "[rejection][fuzz]") {
  // SPIR-V 1.0 §3.32.6 [external] OpTypeArray: Length is a constant of scalar integer type. The
  // assembler refuses OpConstant of a vector type, so the constant's type word is patched.
  auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
          %4 = OpTypeInt 32 0
          %5 = OpTypeVector %4 4
          %6 = OpConstant %4 0
          %7 = OpTypeArray %5 %6
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  bool patched = false;
  for (size_t i = 5; i < words.size(); i += words[i] >> 16)
    if ((words[i] & 0xffff) == uint32_t(spv::Op::OpConstant) && words[i + 2] == 6) {
      words[i + 1] = 5;  // OpConstant %v4uint
      patched = true;
    }
  REQUIRE(patched);
  const std::string load = loadError(words);
  CHECK_THAT(load, Contains("validation failed") || Contains("malformed SPIR-V"));
  const std::string parse = parseError(words);
  CHECK_THAT(parse, Contains("malformed SPIR-V") || Contains("OpTypeArray"));
}

TEST_CASE("fuzz: an array of a 0-component vector is refused before layout divides by its size", "[rejection][fuzz]") {
  // SPIR-V 1.0 §3.32.6 [external] OpTypeVector: Component Count is at least 2. The layout of the
  // array divided by the element's alignment, 0 for a vector of 0 components (SIGFPE). The
  // assembler refuses the count, so the word is patched.
  auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
          %4 = OpTypeInt 32 0
          %5 = OpTypeVector %4 4
          %6 = OpConstant %4 3
          %7 = OpTypeArray %5 %6
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  bool patched = false;
  for (size_t i = 5; i < words.size(); i += words[i] >> 16)
    if ((words[i] & 0xffff) == uint32_t(spv::Op::OpTypeVector)) {
      words[i + 3] = 0;
      patched = true;
    }
  REQUIRE(patched);
  const std::string load = loadError(words);
  CHECK_THAT(load, Contains("validation failed"));
  CHECK_THAT(load, Contains("Illegal number of components (0)"));
  const std::string parse = parseError(words);
  CHECK_THAT(parse, Contains("invalid type: Component Count 0 is not between 2 and 16"));
  CHECK_THAT(parse, Contains("OpTypeVector"));
}

TEST_CASE("fuzz: an array length that is a vector constant is refused naming OpTypeArray", "[rejection][fuzz]") {
  // The same rule with a length the binary parser accepts: an OpConstantComposite of int4.
  const auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %uint4 = OpTypeVector %uint 4
     %uint_1 = OpConstant %uint 1
        %len = OpConstantComposite %uint4 %uint_1 %uint_1 %uint_1 %uint_1
        %arr = OpTypeArray %uint4 %len
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  const std::string load = loadError(words);
  CHECK_THAT(load, Contains("validation failed"));
  CHECK_THAT(load, Contains("OpTypeArray Length"));
  const std::string parse = parseError(words);
  CHECK_THAT(parse, Contains("invalid type: Length %6 is not an OpConstant"));
  CHECK_THAT(parse, Contains("OpTypeArray"));
}

TEST_CASE("fuzz: a vector whose component is not a type is refused naming OpTypeVector", "[rejection][fuzz]") {
  // SPIR-V 1.0 §3.32.6 [external] OpTypeVector: Component Type must be a scalar type.
  const auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
        %vec = OpTypeVector %uint_1 4
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  const std::string load = loadError(words);
  CHECK_THAT(load, Contains("validation failed"));
  CHECK_THAT(load, Contains("OpTypeVector Component Type"));
  const std::string parse = parseError(words);
  CHECK_THAT(parse, Contains("invalid type: Component Type %4 is not a sized type"));
  CHECK_THAT(parse, Contains("OpTypeVector"));
}

TEST_CASE("fuzz: a 4 GiB OpConstantNull is refused naming the register file limit", "[rejection][fuzz]") {
  const auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
        %len = OpConstant %uint 4294967295
        %arr = OpTypeArray %uchar %len
       %null = OpConstantNull %arr
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
       %copy = OpCopyObject %arr %null
               OpReturn
               OpFunctionEnd
)");
  // Used as a value (an unused null, or one that only initialises variables, takes no register).
  const std::string e = kernelError(words, "k");
  CHECK_THAT(e, Contains("register file limit"));
  CHECK_THAT(e, Contains("4294967295 bytes"));
  CHECK_THAT(e, Contains(std::to_string(64u << 20)));
  CHECK_THAT(e, Contains("OpConstantNull"));
}

TEST_CASE("fuzz: a private array of gigabytes is refused naming the private memory limit", "[rejection][fuzz]") {
  const auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
               OpName %big "big"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %uint4 = OpTypeVector %uint 4
        %len = OpConstant %uint 268435456
        %arr = OpTypeArray %uint4 %len
        %ptr = OpTypePointer Function %arr
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
        %big = OpVariable %ptr Function
               OpReturn
               OpFunctionEnd
)");
  const std::string e = kernelError(words, "k");
  CHECK_THAT(e, Contains("private memory per work-item limit"));
  CHECK_THAT(e, Contains("big (private variable in"));
  CHECK_THAT(e, Contains("needs 4294967296 bytes"));
  CHECK_THAT(e, Contains("above clref's limit of " + std::to_string(16u << 20) + " bytes"));
  CHECK_THAT(e, Contains("OpVariable"));
}

TEST_CASE("fuzz: local and program-scope variables of gigabytes are refused naming their limit", "[rejection][fuzz]") {
  for (const std::string storage : {"Workgroup", "CrossWorkgroup"}) {
    INFO(storage);
    const auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
               OpName %big "big"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %uint4 = OpTypeVector %uint 4
        %len = OpConstant %uint 268435456
        %arr = OpTypeArray %uint4 %len
        %ptr = OpTypePointer )" +
                                storage + R"( %arr
        %big = OpVariable %ptr )" +
                                storage + R"(
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
    const std::string e = kernelError(words, "k");
    CHECK_THAT(e, Contains(storage == "Workgroup" ? "local memory per work-group limit: big needs 4294967296 bytes"
                                                  : "program-scope variable size limit: big needs 4294967296 bytes"));
    CHECK_THAT(e, Contains("above clref's limit of " + std::to_string(256u << 20) + " bytes"));
    CHECK_THAT(e, Contains("OpVariable"));
  }
}

TEST_CASE("fuzz: program-scope variables each within their limit are refused when together past the total",
          "[rejection][fuzz]") {
  // Five variables of 255 MiB (each under the 256 MiB limit) are 1275 MiB together, past the 1 GiB total a program's
  // program-scope variables may take (CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE).
  std::string vars;
  for (int i = 0; i < 5; ++i) {
    const std::string n = std::to_string(i);
    vars += "               OpName %v" + n + " \"v" + n + "\"\n";
  }
  std::string decls;
  for (int i = 0; i < 5; ++i) decls += "         %v" + std::to_string(i) + " = OpVariable %ptr CrossWorkgroup\n";
  const auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
)" + vars + R"(
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
        %len = OpConstant %uint 66846720
        %arr = OpTypeArray %uint %len
        %ptr = OpTypePointer CrossWorkgroup %arr
)" + decls + R"(
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  const std::string e = kernelError(words, "k");
  CHECK_THAT(e, Contains("program-scope variables' total size limit: v4 needs 267386880 bytes"));
  CHECK_THAT(e, Contains("taking the kernel's program-scope variables' total size to 1336934400 bytes"));
  CHECK_THAT(e, Contains("above clref's limit of " + std::to_string(1u << 30) + " bytes"));
}

TEST_CASE("fuzz: pointer arithmetic overflowing 64 bits faults on the pointer's own allocation", "[faults][fuzz]") {
  // out[idx] with 8-byte elements and idx ≥ 2^60: idx × 8 overflows 64 bits. Wrapped, 2^61 × 8
  // is the pointer itself, and (2^61 + 2^37) × 8 is one tag (2^40 bytes) further, in 'other'.
  // Both must fault as out-of-bounds accesses of 'out'. Kernel 'fused' has the chain folded
  // into its store (single use), kernel 'apart' keeps it as its own Op (two uses).
  const auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %fused "fused"
               OpEntryPoint Kernel %apart "apart"
               OpName %out "out"
               OpName %out2 "out"
       %void = OpTypeVoid
      %ulong = OpTypeInt 64 0
        %ptr = OpTypePointer CrossWorkgroup %ulong
    %ulong_1 = OpConstant %ulong 1
         %fn = OpTypeFunction %void %ptr %ptr %ulong
      %fused = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr
      %other = OpFunctionParameter %ptr
        %idx = OpFunctionParameter %ulong
         %b1 = OpLabel
         %p1 = OpPtrAccessChain %ptr %out %idx
               OpStore %p1 %ulong_1
               OpReturn
               OpFunctionEnd
      %apart = OpFunction %void None %fn
       %out2 = OpFunctionParameter %ptr
     %other2 = OpFunctionParameter %ptr
       %idx2 = OpFunctionParameter %ulong
         %b2 = OpLabel
         %p2 = OpInBoundsPtrAccessChain %ptr %out2 %idx2
               OpStore %p2 %ulong_1
               OpStore %p2 %ulong_1
               OpReturn
               OpFunctionEnd
)");
  auto program = host::Program::fromSpirv(host::Device(), words);
  for (const char* name : {"fused", "apart"}) {
    host::Kernel k(program, name);
    auto out = std::make_shared<host::Buffer>(64);
    auto other = std::make_shared<host::Buffer>(64);
    k.setArg(0, out);
    k.setArg(1, other);
    host::NDRange r;
    r.global = {1, 1, 1};
    r.local = std::array<size_t, 3>{1, 1, 1};
    // And without overflow: ±2^37 × 8 = ±2^40 bytes, one whole tag away, which no allocation spans.
    for (uint64_t idx : {uint64_t(1) << 61, (uint64_t(1) << 61) + (uint64_t(1) << 37), ~uint64_t(0) / 4,
                         uint64_t(1) << 37, uint64_t(0) - (uint64_t(1) << 37)}) {
      INFO(name << ", index " << idx);
      k.setArg(2, idx);
      const auto res = k.run(r);
      REQUIRE(res.fault);
      CHECK(res.fault->kind == FaultKind::OutOfBounds);
      CHECK_THAT(res.fault->message, Contains("'argument 0 (out)'"));
      CHECK_THAT(res.fault->instruction, Contains("OpStore"));
    }
    for (uint64_t w : out->as<uint64_t>()) CHECK(w == 0);
    for (uint64_t w : other->as<uint64_t>()) CHECK(w == 0);
  }
}

TEST_CASE("fuzz: constant pointer arithmetic overflowing 64 bits faults on the pointer's own allocation",
          "[faults][fuzz]") {
  const auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
               OpName %out "out"
       %void = OpTypeVoid
      %ulong = OpTypeInt 64 0
       %ptr = OpTypePointer CrossWorkgroup %ulong
    %ulong_1 = OpConstant %ulong 1
  %ulong_big = OpConstant %ulong 2305843009213693952
         %fn = OpTypeFunction %void %ptr
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr
      %entry = OpLabel
         %p1 = OpInBoundsPtrAccessChain %ptr %out %ulong_big
               OpStore %p1 %ulong_1
               OpReturn
               OpFunctionEnd
)");
  auto program = host::Program::fromSpirv(host::Device(), words);
  host::Kernel k(program, "k");
  auto out = std::make_shared<host::Buffer>(64);
  k.setArg(0, out);
  host::NDRange r;
  r.global = {1, 1, 1};
  r.local = std::array<size_t, 3>{1, 1, 1};
  const auto res = k.run(r);
  REQUIRE(res.fault);
  CHECK(res.fault->kind == FaultKind::OutOfBounds);
  CHECK_THAT(res.fault->message, Contains("'argument 0 (out)'"));
  for (uint64_t w : out->as<uint64_t>()) CHECK(w == 0);
}

TEST_CASE("fuzz: a work-group the worker threads cannot allocate is a fault of the launch", "[faults][fuzz]") {
  // 2^62 bytes of local memory: the worker thread's allocation of the work-group arena throws
  // (std::bad_alloc); with several threads that used to end the process (std::terminate).
  if (kAddressSanitizer) {
    WARN("skipped under AddressSanitizer: it aborts on the 2^62-byte allocation instead of throwing std::bad_alloc");
    return;
  }
  const auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
       %lptr = OpTypePointer Workgroup %uint
         %fn = OpTypeFunction %void %lptr
          %k = OpFunction %void None %fn
        %tmp = OpFunctionParameter %lptr
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  for (unsigned threads : {1u, 2u}) {
    INFO("threads " << threads);
    host::DeviceConfig cfg;
    cfg.threads = threads;
    cfg.localMemSize = UINT64_MAX;  // past the host API's check, into the executor's allocation
    const host::Device device(cfg);
    auto program = host::Program::fromSpirv(device, words);
    host::Kernel k(program, "k");
    k.setArgLocal(0, size_t(1) << 62);
    host::NDRange r;
    r.global = {4, 1, 1};
    r.local = std::array<size_t, 3>{1, 1, 1};
    const auto res = k.run(r);
    REQUIRE(res.fault);
    CHECK(res.fault->kind == FaultKind::ExecutionFailed);
    CHECK_THAT(res.fault->message, Contains("work-group 0 of kernel k could not be executed"));
    CHECK_THAT(res.fault->message, Contains("work-group memory " + std::to_string(uint64_t(1) << 62) + " bytes"));
  }
}

TEST_CASE("fuzz: local memory sizes that wrap 64 bits are refused before the launch", "[faults][fuzz]") {
  // SIZE_MAX - 8 bytes of local memory: arena size + 16 bytes of slack wrapped to a tiny arena
  // that the argument's allocation believed to be SIZE_MAX - 8 bytes long.
  const auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
       %lptr = OpTypePointer Workgroup %uint
         %fn = OpTypeFunction %void %lptr %lptr
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %lptr
          %b = OpFunctionParameter %lptr
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  host::DeviceConfig cfg;
  cfg.localMemSize = UINT64_MAX;  // past the host API's check: the executor refuses the sum itself
  auto program = host::Program::fromSpirv(host::Device(cfg), words);
  host::Kernel k(program, "k");
  k.setArgLocal(0, 64);
  k.setArgLocal(1, SIZE_MAX - 8);
  host::NDRange r;
  r.global = {1, 1, 1};
  r.local = std::array<size_t, 3>{1, 1, 1};
  try {
    (void)k.run(r);
    FAIL("no exception");
  } catch (const host::Error& e) {  // the host API reports the executor's refusal as its own error
    CHECK_THAT(std::string(e.what()), Contains("local memory for argument 1"));
    CHECK_THAT(std::string(e.what()), Contains(std::to_string(SIZE_MAX - 8) + " bytes"));
  }
}

TEST_CASE("fuzz: a DebugLocalVariable with a huge Arg Number sizes nothing", "[rejection][fuzz]") {
  // OpenCL.DebugInfo.100 §4.6 [external] DebugLocalVariable: 'Arg Number' is the 1-based index of a parameter of
  // the function its scope describes. `clref info` reads it without validation; a number past the function's
  // parameters used to resize the name table to that many strings (gigabytes).
  const auto words = assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
          %2 = OpExtInstImport "OpenCL.DebugInfo.100"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %7 "k"
         %19 = OpString "k.cl"
         %28 = OpString "k"
         %29 = OpString ""
         %31 = OpString "a"
         %33 = OpString "b"
          %4 = OpTypeInt 32 0
         %24 = OpConstant %4 32
          %3 = OpTypeVoid
          %6 = OpTypeFunction %3 %4 %4
         %11 = OpExtInst %3 %2 DebugInfoNone
         %21 = OpExtInst %3 %2 DebugSource %19
         %22 = OpExtInst %3 %2 DebugCompilationUnit 65536 5 %21 OpenCL_C
         %25 = OpExtInst %3 %2 DebugTypeBasic %28 %24 Signed
         %27 = OpExtInst %3 %2 DebugTypeFunction None %11 %25 %25
         %30 = OpExtInst %3 %2 DebugFunction %28 %27 %21 1 0 %22 %29 FlagIsDefinition 1 %7 %11
         %32 = OpExtInst %3 %2 DebugLocalVariable %31 %25 %21 1 0 %30 None 2000000000
         %34 = OpExtInst %3 %2 DebugLocalVariable %33 %25 %21 1 0 %30 None 2
          %7 = OpFunction %3 None %6
          %8 = OpFunctionParameter %4
          %9 = OpFunctionParameter %4
         %10 = OpLabel
               OpReturn
               OpFunctionEnd
)");
  const auto m = interpreter::Module::parse(words);
  const auto names = m.debugParamNames.find(7);
  REQUIRE(names != m.debugParamNames.end());
  CHECK(names->second == std::vector<std::string>{"", "b"});
}

TEST_CASE("fuzz: a float vector access-chain index is refused at load, naming the instruction", "[rejection][fuzz]") {
  // SPIR-V 1.0 §3.32.8 [external] OpPtrAccessChain: Element must be a scalar integer. SPIRV-Tools 2023.1 accepts a
  // float4 constant there; the lowering used to sign-extend it by shifting 64 bits (width 0).
  const auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
        %ptr = OpTypePointer CrossWorkgroup %float
    %float_1 = OpConstant %float 1
       %idx4 = OpConstantComposite %v4float %float_1 %float_1 %float_1 %float_1
         %fn = OpTypeFunction %void %ptr
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr
      %entry = OpLabel
          %q = OpInBoundsPtrAccessChain %ptr %p %idx4
               OpStore %q %float_1
               OpReturn
               OpFunctionEnd
)");
  const std::string load = loadError(words);
  if (load.find("validation failed") == std::string::npos) {  // a later SPIRV-Tools refusing it is fine too
    CHECK_THAT(load, Contains("index operand 1") && Contains("is not a scalar integer") &&
                         Contains("OpInBoundsPtrAccessChain"));
  }
  CHECK_THAT(kernelError(words, "k"), !Contains("not a ModuleError") && !Contains("no exception"));
}

TEST_CASE("fuzz: a function with fewer OpFunctionParameter than its type is refused at load", "[rejection][fuzz]") {
  // SPIR-V 1.0 §2.4 [external]: a function definition declares one OpFunctionParameter per parameter of its type.
  // SPIRV-Tools 2023.1 accepts a missing one; a call passing every declared argument then read past the
  // callee's parameter list (std::out_of_range from the lowering).
  const auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %float = OpTypeFloat 32
        %ptr = OpTypePointer CrossWorkgroup %float
         %f2 = OpTypeFunction %void %ptr %float
          %g = OpFunction %void DontInline %f2
         %gp = OpFunctionParameter %ptr
      %gbody = OpLabel
               OpReturn
               OpFunctionEnd
          %k = OpFunction %void None %f2
          %p = OpFunctionParameter %ptr
          %x = OpFunctionParameter %float
      %entry = OpLabel
       %call = OpFunctionCall %void %g %p %x
               OpReturn
               OpFunctionEnd
)");
  const std::string load = loadError(words);
  if (load.find("validation failed") == std::string::npos) {
    CHECK_THAT(load, Contains("declares 1 OpFunctionParameter but its function type has 2 parameters") &&
                         Contains("OpFunction"));
  }
  CHECK_THAT(kernelError(words, "k"), !Contains("not a ModuleError") && !Contains("no exception"));
}

TEST_CASE("fuzz: a constant array with fewer constituents than its 64-bit length is refused", "[rejection][fuzz]") {
  // SPIR-V 1.0 §3.32.7 [external] OpConstantComposite: one constituent per element. SPIRV-Tools 2023.1 compares a
  // 64-bit Length by its low word (here 2); clref refuses the length (past its array limit) or the count.
  const auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %uint_1 = OpConstant %uint 1
        %len = OpConstant %ulong 4294967298
        %arr = OpTypeArray %uint %len
          %c = OpConstantComposite %arr %uint_1 %uint_1
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  const std::string load = loadError(words);
  CHECK_THAT(load, Contains("validation failed") || Contains("Length 4294967298 is not between 1 and") ||
                       Contains("2 constituents for an array of length"));
  CHECK(load != "no exception");
}

TEST_CASE("fuzz: a constant structure with a missing member is refused", "[rejection][fuzz]") {
  const auto words = assemble(kHeader + R"(
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
          %s = OpTypeStruct %uint %uint
          %c = OpConstantComposite %s %uint_1
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  const std::string load = loadError(words);
  CHECK_THAT(load, Contains("validation failed") || Contains("1 constituents for a structure of 2 members"));
  CHECK(load != "no exception");
}

TEST_CASE("fuzz: an extended instruction's operand that is a void result is refused before the validator",
          "[rejection][fuzz]") {
  // Found by fuzz_spirv_operands on the golden vector_data kernel: vstore_halfn's data operand replaced by the result
  // of a vstoren (type void). SPIRV-Tools 2023.1's validator reads that operand's bit width and crashes (spirv-val
  // itself segfaults on it); Module::load refuses the module first, naming the instruction and the operand.
  const auto words = assemble(kHeader + R"(
               OpCapability Float16Buffer
        %std = OpExtInstImport "OpenCL.std"
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %float = OpTypeFloat 32
       %half = OpTypeFloat 16
      %ulong = OpTypeInt 64 0
    %ulong_0 = OpConstant %ulong 0
    %v4float = OpTypeVector %float 4
   %float_1 = OpConstant %float 1
         %v4 = OpConstantComposite %v4float %float_1 %float_1 %float_1 %float_1
  %ptr_float = OpTypePointer CrossWorkgroup %float
   %ptr_half = OpTypePointer CrossWorkgroup %half
         %fn = OpTypeFunction %void %ptr_float %ptr_half
          %k = OpFunction %void None %fn
          %f = OpFunctionParameter %ptr_float
          %h = OpFunctionParameter %ptr_half
      %entry = OpLabel
     %stored = OpExtInst %void %std vstoren %v4 %ulong_0 %f
         %bad = OpExtInst %void %std vstore_halfn %stored %ulong_0 %h
               OpReturn
               OpFunctionEnd
)");
  const std::string e = loadError(words);
  CHECK_THAT(e, Contains("malformed SPIR-V"));
  CHECK_THAT(e, Contains("the result of an instruction of type void"));
  CHECK(parseError(words) == "no exception");  // `clref dis` still shows it
  CHECK_THAT(kernelError(words, "k"), Contains("type void"));
}

TEST_CASE("fuzz: an extended instruction's value operand of a pointer type is refused before the validator",
          "[rejection][fuzz]") {
  // Found by fuzz_spirv_operands on the golden vector_data kernel: vstorea_halfn_r's data operand replaced by a
  // pointer. SPIRV-Tools 2023.1's validator reads the bit width of the operand's type, finds none and crashes;
  // Module::load refuses the module first. The pointer operand itself (the third) stays a pointer.
  const auto words = assemble(kHeader + R"(
               OpCapability Float16Buffer
        %std = OpExtInstImport "OpenCL.std"
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %float = OpTypeFloat 32
       %half = OpTypeFloat 16
      %ulong = OpTypeInt 64 0
    %ulong_0 = OpConstant %ulong 0
    %v4float = OpTypeVector %float 4
   %float_1 = OpConstant %float 1
         %v4 = OpConstantComposite %v4float %float_1 %float_1 %float_1 %float_1
  %ptr_float = OpTypePointer CrossWorkgroup %float
   %ptr_half = OpTypePointer CrossWorkgroup %half
         %fn = OpTypeFunction %void %ptr_float %ptr_half
          %k = OpFunction %void None %fn
          %f = OpFunctionParameter %ptr_float
          %h = OpFunctionParameter %ptr_half
      %entry = OpLabel
       %good = OpExtInst %void %std vstorea_halfn_r %v4 %ulong_0 %h RTP
        %bad = OpExtInst %void %std vstorea_halfn_r %f %ulong_0 %h RTP
               OpReturn
               OpFunctionEnd
)");
  const std::string e = loadError(words);
  CHECK_THAT(e, Contains("malformed SPIR-V"));
  CHECK_THAT(e, Contains(": operand 1 of OpExtInst %"));
  CHECK_THAT(e, Contains("not a scalar or vector value"));
  CHECK(parseError(words) == "no exception");
}

namespace {
// A kernel loading built-in `builtin` through a variable of `storage` class and type `type` (one of the types
// declared below; an Input variable is in the entry point's interface, as the validator requires, a local one is not,
// as in the fuzzed module): lowering is what is tested.
std::string builtinKernel(const std::string& builtin, const std::string& storage, const std::string& type) {
  return kHeader + R"(
               OpEntryPoint Kernel %k "k" )" + (storage == "Input" ? "%var" : "") + R"(
               OpDecorate %var BuiltIn )" + builtin + R"(
       %void = OpTypeVoid
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
   %ulong_64 = OpConstant %ulong 64
    %v3ulong = OpTypeVector %ulong 3
     %arr64 = OpTypeArray %uint %ulong_64
        %ptr = OpTypePointer )" + storage + " %" + type + R"(
        %var = OpVariable %ptr )" + storage + R"(
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
          %v = OpLoad %)" + type + R"( %var
               OpReturn
               OpFunctionEnd
)";
}
}  // namespace

TEST_CASE("fuzz: a built-in variable of the wrong storage class or type is refused at lowering",
          "[rejection][fuzz]") {
  // Found by fuzz_spirv_operands: a local array decorated BuiltIn CullDistance; clref wrote the built-in's value over
  // the variable's whole size from an 8-byte value (a stack-buffer-overflow under ASan). OpenCL SPIR-V Environment
  // OpenCL SPIR-V Environment §2.9 [[_built_in_variables]]: built-in variables are Input, of the table's type.
  CHECK(kernelError(assemble(builtinKernel("GlobalInvocationId", "Input", "v3ulong")), "k") == "no exception");
  CHECK(kernelError(assemble(builtinKernel("LocalInvocationIndex", "Input", "ulong")), "k") == "no exception");
  const std::string local = kernelError(assemble(builtinKernel("CullDistance", "Workgroup", "arr64")), "k");
  CHECK_THAT(local, Contains("is not in the Input storage class"));
  const std::string scalar = kernelError(assemble(builtinKernel("GlobalInvocationId", "Input", "ulong")), "k");
  CHECK_THAT(scalar, Contains("BuiltIn GlobalInvocationId variable"));
  CHECK_THAT(scalar, Contains("must be a vector of 3 components of size_t"));
  const std::string array = kernelError(assemble(builtinKernel("CullDistance", "Input", "arr64")), "k");
  CHECK_THAT(array, Contains("must be a scalar or vector of numbers"));
  const std::string wide = kernelError(assemble(builtinKernel("WorkDim", "Input", "ulong")), "k");
  CHECK_THAT(wide, Contains("must be a 32-bit integer"));
}

TEST_CASE("fuzz: overlapping loops of an irreducible graph do not hang the convergence order", "[rejection][fuzz]") {
  // Found by fuzz_spirv on the golden sg_shuffle kernel: a block entering a loop beside its header (%q → %l) makes two
  // loops whose natural bodies each hold the other's header; each was the other's enclosing loop and lowering a
  // sub-group shuffle (its convergence rank) walked that chain forever. The kernel must lower.
  const auto words = assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability GroupNonUniformShuffle
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_3 = OpConstant %uint 3
       %true = OpConstantTrue %bool
         %fn = OpTypeFunction %void %uint
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
          %e = OpLabel
               OpBranch %p
          %p = OpLabel
               OpBranchConditional %true %q %r
          %q = OpLabel
               OpBranchConditional %true %h %l
          %h = OpLabel
               OpBranch %l
          %l = OpLabel
               OpBranchConditional %true %h %r
          %r = OpLabel
               OpBranchConditional %true %p %exit
       %exit = OpLabel
          %s = OpGroupNonUniformShuffle %uint %uint_3 %x %uint_1
               OpReturn
               OpFunctionEnd
)", SPV_ENV_UNIVERSAL_1_3);
  CHECK(kernelError(words, "k") == "no exception");
}
