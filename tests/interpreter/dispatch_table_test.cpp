// The lowering dispatch table against the SPIR-V grammar: every opcode an OpenCL kernel can
// contain has an entry (lowered, module-level declaration, or unsupported with its diagnostic), and every lowered
// opcode that can produce a floating-point value has an allowed-set rule for the shadow mode (or is listed here, with
// its reason, as needing none). That an unsupported instruction is rejected naming its opcode is in
// rejection_test.cpp.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
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
    std::string cls;      // the grammar's class: "Arithmetic", "Composite", …
    bool hasResultType = false;
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
      inst.cls = i.value("class", "");
      for (const auto& o : i.value("operands", nlohmann::json::array()))
        inst.hasResultType = inst.hasResultType || o.at("kind") == "IdResultType";
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
  CHECK(unsupported > 5);  // pipe storage, sub-group dispatch, OpSizeOf, OpQuantizeToF16, ...
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

namespace {

// Whether a SPIR-V instruction's result may be floating point. The grammar does not say which types a result may
// have, so this reads it from what the grammar does give, the name and the class, by the kinds of instruction that
// can give a float:
//  - floating-point operations: an F operation (OpFAdd, OpFNegate, OpFConvert, OpGroupFAdd,
//    OpGroupNonUniformFMin, OpAtomicFAddEXT, …; not the comparisons OpFOrd*/OpFUnord*, whose result is Boolean),
//    a conversion to float (OpConvertSToF, OpQuantizeToF16, …) and the float vector algebra (OpDot,
//    OpVectorTimesScalar, the matrix and transpose instructions);
//  - instructions whose result has the type of an operand or of memory, whatever it is: the Composite, Function,
//    Control-Flow (OpPhi) and Miscellaneous classes, OpLoad, OpBitcast, OpSelect, the atomics that return the value
//    memory held (load, exchange, compare-exchange), the group and sub-group broadcasts, shuffles, rotations and
//    reads, and the image reads and samples.
// OpExtInst is judged per OpenCL.std instruction (floatStdInstructions below).
bool mayGiveFloat(const Grammar::Instruction& i) {
  if (!i.hasResultType || i.name == "OpExtInst") return false;
  static const std::regex floatOp("^Op(Group|GroupNonUniform|Atomic)?F[A-Z].*");
  static const std::regex comparison("^OpF(Ord|Unord).*");
  static const std::regex toFloat(".*ToF(16)?$");
  static const std::regex algebra("^Op(Dot|VectorTimesScalar|.*Matrix.*|OuterProduct|Transpose)$");
  if ((std::regex_match(i.name, floatOp) && !std::regex_match(i.name, comparison)) ||
      std::regex_match(i.name, toFloat) || std::regex_match(i.name, algebra))
    return true;
  if (i.cls == "Composite" || i.cls == "Function" || i.cls == "Control-Flow" || i.cls == "Miscellaneous") return true;
  if (i.name == "OpLoad" || i.name == "OpBitcast" || i.name == "OpSelect") return true;
  static const std::regex atomicValue("^OpAtomic(Load|Exchange|CompareExchange.*)$");
  if (i.cls == "Atomic" && std::regex_match(i.name, atomicValue)) return true;
  static const std::regex moves(".*(Broadcast|Shuffle|Rotate|ReadInvocation|BlockRead|Quad).*");
  if ((i.cls == "Group" || i.cls == "Non-Uniform") && std::regex_match(i.name, moves)) return true;
  static const std::regex imageRead("^OpImage(Sparse)?(Sample|Read|Fetch|Gather|DrefGather).*");
  return i.cls == "Image" && std::regex_match(i.name, imageRead);
}

// Lowered opcodes that mayGiveFloat but whose entry names no rule (the generic rule applies), each with why none is
// needed.
const std::map<std::string, std::string> kNoRuleNeeded = {
    {"OpUndef", "never lowered: lower.cpp skips it (its register holds the undefined value, any value)"},
    {"OpExpectKHR", "integer or Boolean only (SPV_KHR_expect_assume): the value of its operand"},
};

// The OpenCL.std instructions (extinst.opencl.std.100.grammar.json): number → name.
const std::map<uint32_t, std::string>& openclStdGrammar() {
  static const std::map<uint32_t, std::string> all = [] {
    std::ifstream in(CLREF_OPENCL_STD_GRAMMAR);
    REQUIRE(in);
    const auto g = nlohmann::json::parse(in);
    std::map<uint32_t, std::string> out;
    for (const auto& i : g.at("instructions")) out[i.at("opcode")] = i.at("opname");
    return out;
  }();
  return all;
}

// Those whose result may be floating point: the math, common and geometric functions (OpenCL C 3.0 §6.15.2
// [[math-functions]]; they come before the integer functions, which start at s_abs), the instructions of any gentype
// (select, bitselect, shuffle, shuffle2), and the vector loads (vloadn, vload_half, vload_halfn, vloada_halfn).
std::map<uint32_t, std::string> floatStdInstructions() {
  uint32_t firstInteger = 0;
  for (const auto& [n, name] : openclStdGrammar())
    if (name == "s_abs") firstInteger = n;
  REQUIRE(firstInteger > 100);
  std::map<uint32_t, std::string> out;
  for (const auto& [n, name] : openclStdGrammar())
    if (n < firstInteger || name == "select" || name == "bitselect" || name == "shuffle" || name == "shuffle2" ||
        name.rfind("vload", 0) == 0)
      out[n] = name;
  return out;
}

}  // namespace

TEST_CASE("every lowered opcode that can produce a floating-point value has an allowed-set rule", "[dispatch][shadow]") {
  const auto& table = dispatchTable();
  size_t withRule = 0, listed = 0;
  std::set<std::string> seen;
  for (const auto& inst : grammar().instructions) {
    if (!grammar().excluded(inst).empty() || !mayGiveFloat(inst)) continue;
    const OpcodeRule* rule = table.find(spv::Op(inst.opcode));
    if (!rule || rule->kind != OpcodeRule::Kind::Lower) continue;  // rejected: no value to judge
    INFO(inst.name << " (opcode " << inst.opcode << ") can produce a floating-point value: register its shadow rule "
                   << "with its lowering (dispatch.hpp), or list it in kNoRuleNeeded with why");
    const bool hasRule = rule->shadow.emit != nullptr;
    const bool isListed = kNoRuleNeeded.count(inst.name) != 0;
    CHECK((hasRule || isListed));
    CHECK(!(hasRule && isListed));  // a listed opcode that gained a rule leaves the list
    withRule += hasRule;
    listed += isListed;
    seen.insert(inst.name);
  }
  // Every listed opcode is one the criterion selects (a stale entry is removed).
  for (const auto& [name, why] : kNoRuleNeeded) {
    INFO(name << ": " << why);
    CHECK(seen.count(name) == 1);
  }
  // Known members of the criterion, so that a broken classification cannot pass by selecting nothing.
  for (const char* name : {"OpFAdd", "OpFNegate", "OpFConvert", "OpConvertSToF", "OpDot", "OpCopyObject", "OpLoad",
                           "OpSelect", "OpPhi", "OpAtomicFAddEXT", "OpGroupFMin", "OpImageRead"})
    CHECK(seen.count(name) == 1);
  CHECK(withRule > 40);
  CHECK(listed == kNoRuleNeeded.size());
}

TEST_CASE("every OpenCL.std instruction that can produce a floating-point value has an allowed-set rule",
          "[dispatch][shadow]") {
  const auto& table = dispatchTable();
  const OpcodeRule* extInst = table.find(spv::Op::OpExtInst);
  REQUIRE(extInst != nullptr);
  CHECK(extInst->shadow.emit != nullptr);  // it dispatches on the instruction number to these
  const auto floats = floatStdInstructions();
  for (const auto& [number, name] : floats) {
    INFO("OpenCL.std " << name << " (" << number << "): register its shadow rule with t.openclStd in its family");
    const interpreter::ShadowRule* rule = table.findOpenclStd(number);
    REQUIRE(rule != nullptr);
    CHECK(rule->emit != nullptr);
  }
  // acos … native_tan, fclamp … sign, cross … fast_normalize, 4 of any gentype, 4 loads.
  CHECK(floats.size() == 95 + 9 + 7 + 4 + 4);
  // Every rule registered is for an instruction of the grammar: these, or a store that moves the data's sets into
  // memory (vstoren, and the vstore_half family, which rounds them to half).
  size_t stores = 0;
  for (const auto& [number, rule] : table.openclStdRules()) {
    INFO("OpenCL.std " << number);
    REQUIRE(openclStdGrammar().count(number) == 1);
    const bool store = openclStdGrammar().at(number).starts_with("vstore");
    stores += store;
    CHECK((floats.count(number) == 1 || store));
  }
  CHECK(stores == 7);  // vstoren, vstore_half(n)(_r), vstorea_halfn(_r)
}

TEST_CASE("opcode names come from the grammar", "[dispatch]") {
  CHECK(interpreter::opcodeName(spv::Op::OpFAdd) == "OpFAdd");
  CHECK(interpreter::opcodeName(spv::Op::OpIAddCarry) == "OpIAddCarry");
  CHECK(interpreter::opcodeName(spv::Op(65000)) == "opcode 65000");
}
