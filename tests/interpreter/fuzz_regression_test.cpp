// Inputs found by fuzzing that crashed the loader, the lowering or the executor (docs/ARCHITECTURE.md
// principle 4, "never crash, never guess"): each is hand-written SPIR-V assembly, and each must
// give an error or a fault that names the instruction and the rule, at the stage where the bad
// value first enters.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <spirv-tools/libspirv.hpp>

#include "api/host.hpp"
#include "interpreter/diagnostic.hpp"
#include "interpreter/module.hpp"

using namespace clref;
using Catch::Matchers::Contains;
using interpreter::FaultKind;
using interpreter::ModuleError;

namespace {

std::vector<uint32_t> assemble(const std::string& text, spv_target_env env = SPV_ENV_UNIVERSAL_1_0) {
  spvtools::SpirvTools tools(env);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& pos, const char* msg) {
    messages += std::to_string(pos.line + 1) + ":" + std::to_string(pos.column + 1) + ": " + msg + "\n";
  });
  std::vector<uint32_t> words;
  if (!tools.Assemble(text, &words, SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS))
    throw std::runtime_error("assembly failed:\n" + messages);
  return words;
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
