// The uninitialised-value checker's builds (compiler/variable_promotion.hpp): function-scope variables become SSA values,
// write-only variables go, a variable whose address escapes stays, the program computes what it computed before,
// and a variable read before any write stays visible as an OpUndef that names it.
#include <catch2/catch.hpp>
#include <spirv-tools/libspirv.hpp>

#include <string>
#include <vector>

#include "host/host.hpp"
#include "compiler/variable_promotion.hpp"
#include "interpreter/module.hpp"

using namespace clref;
using Catch::Matchers::Contains;

namespace {

// x is assigned on one path only, y is written by a callee through its address, w is written and never read:
// out[0] = x + y.
const char* kModule = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpName %x "x"
OpName %w "w"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%ptrF = OpTypePointer Function %uint
%ptrG = OpTypePointer CrossWorkgroup %uint
%fnk = OpTypeFunction %void %ptrG %uint
%fnf = OpTypeFunction %void %ptrF
%c2 = OpConstant %uint 2
%f = OpFunction %void None %fnf
%p = OpFunctionParameter %ptrF
%fl = OpLabel
OpStore %p %c2
OpReturn
OpFunctionEnd
%k = OpFunction %void None %fnk
%out = OpFunctionParameter %ptrG
%n = OpFunctionParameter %uint
%entry = OpLabel
%x = OpVariable %ptrF Function
%y = OpVariable %ptrF Function
%w = OpVariable %ptrF Function
OpStore %w %n
%cond = OpUGreaterThan %bool %n %c2
OpBranchConditional %cond %then %merge
%then = OpLabel
OpStore %x %n
OpBranch %merge
%merge = OpLabel
%xv = OpLoad %uint %x
%call = OpFunctionCall %void %f %y
%yv = OpLoad %uint %y
%s = OpIAdd %uint %xv %yv
OpStore %out %s
OpReturn
OpFunctionEnd
)";

std::vector<uint32_t> assemble(const char* text) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_0);
  std::vector<uint32_t> words;
  REQUIRE(tools.Assemble(text, &words));
  return words;
}

std::string disassemble(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_0);
  std::string text;
  REQUIRE(tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_NO_HEADER));
  return text;
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

uint32_t runK(const std::vector<uint32_t>& words, uint32_t n) {
  host::Device device;
  auto program = host::Program::fromSpirv(device, words);
  host::Kernel k(program, "k");
  auto out = std::make_shared<host::Buffer>(sizeof(uint32_t));
  k.setArg(0, out);
  k.setArgValue(1, &n, sizeof n);
  host::NDRange r;
  r.global = {1, 1, 1};
  REQUIRE(k.run(r).ok);
  return out->as<uint32_t>()[0];
}

}  // namespace

TEST_CASE("promotion: variables become SSA values, write-only ones go, an escaping one stays", "[promotion]") {
  const auto before = assemble(kModule);
  size_t removed = 0;
  const auto after = compiler::withPromotedVariables(before, &removed);
  const std::string text = disassemble(after);
  CHECK(removed == 2);                          // x (promoted) and w (never read)
  CHECK(occurrences(text, "OpVariable") == 1);  // y: its address goes to f
  CHECK(occurrences(text, "OpStore") == 2);     // f's store through %p and the store to out
  CHECK(occurrences(text, "OpPhi") == 1);       // x merged: n on one path, undefined on the other
  CHECK(occurrences(text, "OpUndef") == 1);
  CHECK(occurrences(text, "OpLoad") == 1);  // only y's
  // The result is a valid module that computes what the original computes.
  spvtools::SpirvTools tools(SPV_ENV_OPENCL_1_2);
  CHECK(tools.Validate(after));
  CHECK(runK(before, 5) == 7);
  CHECK(runK(after, 5) == 7);
}

TEST_CASE("promotion: a module the rewriter cannot read comes back unchanged", "[promotion]") {
  auto words = assemble(kModule);
  words.resize(words.size() - 3);  // the last instructions cut off
  size_t removed = 7;
  CHECK(compiler::withPromotedVariables(words, &removed) == words);
  CHECK(removed == 0);
  const std::vector<uint32_t> header{0x07230203, 0x00010000, 0, 10, 0};
  CHECK(compiler::withPromotedVariables(header) == header);
}

TEST_CASE("the uninitialised-value checker's builds promote variables, and each unassigned one keeps its name",
          "[promotion]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  const std::string source = R"(kernel void k(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int a, b;
  int v = in[i];
  if (v > 2) a = v;
  out[i] = a + b;
}
)";
  auto hasFunctionVariables = [](const host::Program& p) {
    for (const auto& inst : p.module().instructions)
      if (inst.opcode == spv::Op::OpVariable && inst.words.size() > 3 &&
          inst.words[3] == uint32_t(spv::StorageClass::Function))
        return true;
    return false;
  };
  host::DeviceConfig cfg;
  cfg.checks.add(interpreter::Check::Uninitialized);
  host::Device checked(cfg);
  host::OpenCLCSource s;
  s.text = source;
  s.options = {"-g"};
  auto promoted = host::Program::fromOpenCLC(checked, s);
  CHECK_FALSE(hasFunctionVariables(*promoted));
  // Each of a and b starts from an OpUndef of its own, which debug information names.
  std::vector<std::string> names;
  for (const auto& inst : promoted->module().instructions)
    if (inst.opcode == spv::Op::OpUndef) names.push_back(promoted->module().debugVariableName(inst.resultId));
  CHECK(std::count(names.begin(), names.end(), "a") == 1);
  CHECK(std::count(names.begin(), names.end(), "b") == 1);
  // Asked for unoptimised code, the checker's build keeps it as it is.
  s.options.push_back("-cl-opt-disable");
  CHECK(hasFunctionVariables(*host::Program::fromOpenCLC(checked, s)));
}
