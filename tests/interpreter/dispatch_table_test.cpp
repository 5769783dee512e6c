// The lowering dispatch table against the SPIR-V grammar: every opcode an OpenCL kernel can
// contain has an entry (lowered, module-level declaration, or unsupported with its diagnostic).
// That an unsupported instruction is rejected naming its opcode is in rejection_test.cpp.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "interpreter/dispatch.hpp"
#include "interpreter/module.hpp"
#include "interpreter/program.hpp"

using namespace clref;
using interpreter::dispatchTable;
using interpreter::OpcodeRule;

namespace {

struct Grammar {
  struct Instruction {
    std::string name;
    uint32_t opcode = 0;
    std::vector<std::string> capabilities, extensions;
    std::string version;  // first core version with it; "None" for extension-only instructions
  };
  std::vector<Instruction> instructions;
  std::map<std::string, std::vector<std::string>> impliedBy;      // capability → capabilities it implies
  std::map<std::string, std::vector<std::string>> capExtensions;  // capability → enabling extensions

  Grammar() {
    std::ifstream in(CLREF_SPIRV_GRAMMAR);
    REQUIRE(in);
    const auto g = nlohmann::json::parse(in);
    for (const auto& i : g.at("instructions")) {
      Instruction inst;
      inst.name = i.at("opname");
      inst.opcode = i.at("opcode");
      inst.capabilities = i.value("capabilities", std::vector<std::string>{});
      inst.extensions = i.value("extensions", std::vector<std::string>{});
      inst.version = i.value("version", "1.0");
      instructions.push_back(inst);
    }
    for (const auto& kind : g.at("operand_kinds"))
      if (kind.at("kind") == "Capability")
        for (const auto& e : kind.at("enumerants")) {
          impliedBy[e.at("enumerant")] = e.value("capabilities", std::vector<std::string>{});
          capExtensions[e.at("enumerant")] = e.value("extensions", std::vector<std::string>{});
        }
  }

  // A capability that implies Shader (Shader itself, Geometry, Tessellation, …) is for graphics
  // and Vulkan modules only: the OpenCL SPIR-V environment never declares it.
  bool shaderOnly(const std::string& cap) const {
    if (cap == "Shader") return true;
    auto it = impliedBy.find(cap);
    if (it == impliedBy.end()) return false;
    for (const auto& c : it->second)
      if (shaderOnly(c)) return true;
    return false;
  }

  // Why an instruction cannot occur in a kernel clref accepts, or "" when it can.
  std::string excluded(const Instruction& i) const {
    if (!i.capabilities.empty() &&
        std::all_of(i.capabilities.begin(), i.capabilities.end(), [&](const auto& c) { return shaderOnly(c); }))
      return "Shader-only";
    if (i.version == "None") {
      // An extension-only instruction needs one of its extensions (or its capabilities'
      // extensions) declared, and clref rejects an OpExtension it does not support.
      std::set<std::string> enabling(i.extensions.begin(), i.extensions.end());
      for (const auto& c : i.capabilities) {
        auto it = capExtensions.find(c);
        if (it != capExtensions.end()) enabling.insert(it->second.begin(), it->second.end());
      }
      if (std::none_of(enabling.begin(), enabling.end(),
                       [](const std::string& e) { return interpreter::extensionSupported(e); }))
        return "needs an extension clref does not support";
    }
    return "";
  }
};

const Grammar& grammar() {
  static const Grammar g;
  return g;
}

}  // namespace

TEST_CASE("every opcode a kernel can contain has a rule in the lowering table", "[dispatch]") {
  const auto& table = dispatchTable();
  size_t checked = 0, lowered = 0, declared = 0, unsupported = 0;
  for (const auto& inst : grammar().instructions) {
    if (!grammar().excluded(inst).empty()) continue;
    ++checked;
    INFO(inst.name << " (opcode " << inst.opcode << ")");
    const OpcodeRule* rule = table.find(spv::Op(inst.opcode));
    REQUIRE(rule != nullptr);
    switch (rule->kind) {
      case OpcodeRule::Kind::Lower:
        CHECK(rule->lower != nullptr);
        ++lowered;
        break;
      case OpcodeRule::Kind::Declaration:
        CHECK(rule->why != nullptr);
        ++declared;
        break;
      case OpcodeRule::Kind::Unsupported:
        CHECK(rule->why != nullptr);
        ++unsupported;
        break;
    }
  }
  // The grammar is the installed SPIRV-Headers'; these bounds only catch a broken classification.
  CHECK(checked > 300);
  CHECK(lowered > 140);
  CHECK(declared > 40);
  CHECK(unsupported > 20);  // pipe storage, sub-group dispatch, quads, matrices, ...
}

TEST_CASE("every rule in the lowering table is for an opcode of the grammar", "[dispatch]") {
  std::set<uint32_t> opcodes;
  for (const auto& inst : grammar().instructions) opcodes.insert(inst.opcode);
  for (const auto& [opcode, rule] : dispatchTable().rules()) {
    INFO(interpreter::opcodeName(spv::Op(opcode)));
    CHECK(opcodes.count(opcode) == 1);
    if (rule.kind == OpcodeRule::Kind::Lower)
      CHECK(rule.lower != nullptr);
    else
      CHECK(rule.why != nullptr);
  }
}

TEST_CASE("the image instructions OpenCL C's image built-ins compile to are lowered", "[dispatch]") {
  using spv::Op;
  for (Op op : {Op::OpSampledImage, Op::OpImage, Op::OpImageSampleExplicitLod, Op::OpImageRead, Op::OpImageWrite,
                Op::OpImageQuerySizeLod, Op::OpImageQuerySize, Op::OpImageQueryLevels, Op::OpImageQueryFormat,
                Op::OpImageQueryOrder, Op::OpMemoryBarrier}) {
    INFO(interpreter::opcodeName(op));
    const OpcodeRule* rule = dispatchTable().find(op);
    REQUIRE(rule != nullptr);
    CHECK(rule->kind == OpcodeRule::Kind::Lower);
  }
  for (Op op : {Op::OpTypeImage, Op::OpTypeSampler, Op::OpTypeSampledImage, Op::OpConstantSampler}) {
    INFO(interpreter::opcodeName(op));
    const OpcodeRule* rule = dispatchTable().find(op);
    REQUIRE(rule != nullptr);
    CHECK(rule->kind == OpcodeRule::Kind::Declaration);
  }
  for (Op op : {Op::OpImageQuerySamples, Op::OpImageFetch, Op::OpImageTexelPointer}) {
    INFO(interpreter::opcodeName(op));
    const OpcodeRule* rule = dispatchTable().find(op);
    REQUIRE(rule != nullptr);
    CHECK(rule->kind == OpcodeRule::Kind::Unsupported);
  }
}

TEST_CASE("opcode names come from the grammar", "[dispatch]") {
  CHECK(interpreter::opcodeName(spv::Op::OpFAdd) == "OpFAdd");
  CHECK(interpreter::opcodeName(spv::Op::OpIAddCarry) == "OpIAddCarry");
  CHECK(interpreter::opcodeName(spv::Op(65000)) == "opcode 65000");
}
