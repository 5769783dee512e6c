// interpreter::Module: a parsed and validated SPIR-V module, as plain tables of types,
// constants, decorations, names, entry points, functions and debug lines. No execution state.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "interpreter/diagnostic.hpp"

namespace clref::interpreter {

// One instruction as it appears in the module: its words and where it starts.
struct Instruction {
  spv::Op opcode;
  uint32_t resultType = 0;
  uint32_t resultId = 0;
  uint32_t wordOffset = 0;      // index of the first word in the module binary
  uint32_t extInstSet = 0;      // OpExtInst: the OpExtInstImport id
  std::vector<uint32_t> words;  // all words, including the opcode word
  // Operand words after the result type and result id (or after the opcode word when the
  // instruction has neither).
  uint32_t firstOperand = 1;
  uint32_t operand(size_t i) const { return words[firstOperand + i]; }
  size_t operandCount() const { return words.size() - firstOperand; }
};

// SPIR-V 1.0 §2.16 [external]: a literal string is nul-terminated UTF-8 packed into words.
std::string literalString(const std::vector<uint32_t>& words, size_t start, size_t* nextWord = nullptr);

enum class TypeKind : uint8_t {
  Void,
  Bool,
  Int,
  Float,
  Vector,
  Array,
  RuntimeArray,
  Struct,
  Pointer,
  Function,
  Event,
  DeviceEvent,
  ReserveId,
  Queue,
  Pipe,
  Image,
  Sampler,
  SampledImage,
  NamedBarrier,
  Opaque,
  ForwardPointer,
  Matrix  // Shader modules: `element` is the column type, `count` the number of columns
};

struct Type {
  Type() = default;
  explicit Type(TypeKind k) : kind(k) {}
  TypeKind kind = TypeKind::Void;
  uint32_t width = 0;     // Int/Float: bits
  bool isSigned = false;  // Int: signedness operand (OpenCL modules always say 0)
  uint32_t element = 0;   // Vector/Array/RuntimeArray/Pointer: element or pointee type id
  uint32_t count = 0;     // Vector: components; Array: length
  spv::StorageClass storage = spv::StorageClass::Function;  // Pointer
  std::vector<uint32_t> members;                            // Struct members; Function: return type then parameters
  // Memory layout (OpenCL C 3.0 §6.3.5 [[alignment-of-types]] alignment of types; 3-component vectors take 4 slots).
  uint64_t size = 0;
  uint32_t align = 1;
  std::vector<uint64_t> memberOffsets;  // Struct
  uint64_t stride = 0;                  // Array/RuntimeArray/Pointer(for PtrAccessChain): element stride
};

struct Decoration {
  spv::Decoration kind;
  std::vector<uint32_t> literals;
  int32_t member = -1;  // OpMemberDecorate
};

struct EntryPoint {
  std::string name;
  uint32_t function = 0;
  std::vector<uint32_t> interface;
  std::optional<std::array<uint32_t, 3>> requiredLocalSize;  // LocalSize execution mode
  // LocalSizeId execution mode (SPIR-V 1.2 and later): the ids of the three constants, which may be specialization
  // constants.
  std::optional<std::array<uint32_t, 3>> localSizeIds;
  bool contractionOff = false;
  // Float controls (SPV_KHR_float_controls execution modes), one bit per width: 1 for 16, 2 for 32, 4 for 64 bits.
  uint8_t denormPreserve = 0, denormFlushToZero = 0, signedZeroInfNanPreserve = 0, roundingModeRTE = 0,
          roundingModeRTZ = 0;
};

struct Block {
  uint32_t label = 0;
  std::vector<uint32_t> instructions;  // indices into Module::instructions, OpLabel excluded
};

struct Function {
  uint32_t id = 0;
  uint32_t resultType = 0;
  uint32_t functionType = 0;
  std::vector<uint32_t> parameters;
  std::vector<Block> blocks;
  std::vector<uint32_t> variables;  // OpVariable Function ids
  uint32_t definition = 0;          // instruction index of OpFunction
  bool isImport = false;            // declaration without body (LinkageAttributes Import)
};

struct SourceLocation {
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
};

// Extended instruction sets that only describe the program: OpenCL.DebugInfo.100 and the
// NonSemantic.* sets (SPIR-V 1.6 §2.2.1 [external]: non-semantic instructions may be removed). Their
// instructions have no run-time effect; None for every other set.
enum class DebugInfoSet : uint8_t { None, OpenCLDebugInfo100, NonSemantic };
DebugInfoSet debugInfoSetOf(std::string_view extInstSetName);

class Module {
 public:
  // Parses with SPIRV-Tools' binary parser and validates for the environment the module is written for (the OpenCL
  // environment matching its version, or the Vulkan one for a shader module: isVulkanShader); throws ModuleError
  // with the validator's message, the disassembled instruction and its word offset.
  static Module load(std::vector<uint32_t> words);
  // Parses without validating (for `clref dis`/`info` on modules the validator rejects).
  static Module parse(std::vector<uint32_t> words);

  const std::vector<uint32_t>& binary() const { return words_; }
  uint32_t version() const { return words_.size() > 1 ? words_[1] : 0; }
  uint32_t bound() const { return words_.size() > 3 ? words_[3] : 0; }

  std::vector<Instruction> instructions;
  std::vector<spv::Capability> capabilities;
  std::vector<std::string> extensions;
  spv::AddressingModel addressing = spv::AddressingModel::Physical64;
  spv::MemoryModel memoryModel = spv::MemoryModel::OpenCL;
  std::unordered_map<uint32_t, std::string> extInstImports;
  std::unordered_map<uint32_t, std::string> names;
  std::unordered_map<uint32_t, std::vector<Decoration>> decorations;
  std::unordered_map<uint32_t, Type> types;
  std::unordered_map<uint32_t, uint32_t> definitionOf;  // result id → instruction index
  std::vector<EntryPoint> entryPoints;  // Kernel entry points
  // GLCompute entry points of a Vulkan shader module (isVulkanShader); entryPoint() finds them too.
  std::vector<EntryPoint> computeShaders;
  std::map<uint32_t, Function> functions;               // by id
  std::vector<uint32_t> globalVariables;                // module-scope OpVariable ids
  // OpConstantNull ids some instruction uses as a value: as an id operand other than a variable's initializer and
  // other than in debug names and decorations (the lowering gives the others no register).
  std::set<uint32_t> nullsUsedAsValues;
  std::unordered_map<uint32_t, SourceLocation> lineOf;  // instruction index → source (OpLine)
  std::unordered_map<uint32_t, std::string> strings;    // OpString
  // Parameter names recovered from OpenCL.DebugInfo.100 (DebugLocalVariable with an Arg Number
  // in a DebugFunction): function id → names by parameter index.
  std::unordered_map<uint32_t, std::vector<std::string>> debugParamNames;

  const Instruction& def(uint32_t id) const;
  const Instruction* findDef(uint32_t id) const;
  const Type& type(uint32_t id) const;
  bool hasDecoration(uint32_t id, spv::Decoration d) const;
  const Decoration* decoration(uint32_t id, spv::Decoration d) const;
  std::string nameOf(uint32_t id) const;  // OpName or %id
  // The source variable OpenCL.DebugInfo.100 gives `id`: a DebugDeclare's variable (its OpVariable) or a DebugValue's
  // value, named by its DebugLocalVariable; "" without debug information.
  std::string debugVariableName(uint32_t id) const;
  const EntryPoint* entryPoint(std::string_view name) const;
  bool hasCapability(spv::Capability c) const;
  // Whether the module is written for the Vulkan environment of SPIR-V: the GLSL450 or Vulkan memory model, which
  // the Shader capability declares (SPIR-V 1.0 §3.5 [external] Memory Model); OpenCL modules use the OpenCL one.
  bool isVulkanShader() const;

  // Whether the module imports debug-information instruction sets, and the module without them.
  bool hasDebugInfoSet() const;
  DebugInfoSet debugInfoSet(uint32_t extInstSetId) const;  // of an OpExtInstImport id
  bool isDebugInfo(const Instruction& inst) const;         // an OpExtInst of such a set
  std::vector<uint32_t> withoutDebugInfo() const;
  // The module as the validator should see it when llvm-spirv-15's layout breaks rules that do
  // not affect execution: blocks in reverse post-order (dominators first), function-scope
  // variables at the start of the entry block, out-of-range BuiltIn components clamped.
  std::vector<uint32_t> normalizedForValidation() const;
  // Whether id is an OpLoad of a work-item BuiltIn variable.
  bool isBuiltinLoad(uint32_t id) const;

  // Disassembly of one instruction (friendly names), and of the whole module.
  std::string disassemble(const Instruction& inst) const;
  std::string disassemble() const;
  // "file:line" when the module carries OpLine for this instruction, "" otherwise; for a file named by
  // nameSourceFile, its name ("kernels/blur.cl:12", or "program source line 12" for a program without a file).
  std::string sourceOf(uint32_t instructionIndex) const;
  // The text of that source line (without its line break) when the file's text is known, "" otherwise.
  std::string sourceText(uint32_t instructionIndex) const;
  // Every line of the source file this instruction's OpLine cites (without line breaks) when the file's text is
  // known (nameSourceFile), nullptr otherwise: `clref debug`'s `list` shows the lines around a stop.
  const std::vector<std::string>* sourceLines(uint32_t instructionIndex) const;
  // Names a source file the module's OpLine instructions cite by `fileInModule` (the path the compiler saw, e.g. a
  // temporary copy): diagnostics then call it `displayName` (a path, or "" for a program built from a string)
  // and quote its lines from `text`.
  void nameSourceFile(const std::string& fileInModule, const std::string& displayName, const std::string& text);
  // Text to put in a diagnostic: "word W: <disassembly>" plus source when known.
  std::string describe(uint32_t instructionIndex) const;

 private:
  std::vector<uint32_t> words_;
  // The instructions and the tables that only record them (no value of the module is used:
  // safe on input the validator has not yet seen); then the tables computed from them.
  static Module parseInstructions(std::vector<uint32_t> words);
  static Module loadVulkanShader(Module parsed);  // Module::load's validation of a shader module
  // The <id> operands of extended instructions, (instruction index, id), for the check load() makes before it calls
  // the validator (module_parse.cpp rejectVoidOperands).
  std::vector<std::pair<uint32_t, uint32_t>> extInstIdOperands_;
  void buildTables();
  void completeTables();
  void layoutTypes();
  void readDebugParamNames();
  // Rules SPIRV-Tools 2023.1 does not check (module_rules.cpp); throws ModuleError naming the rule and instruction.
  void checkRulesBeyondValidator() const;
  void appendFixed(const Instruction& inst, std::vector<uint32_t>& out) const;
  mutable std::unordered_map<uint32_t, std::string> friendlyNames_;
  struct NamedSource {
    std::string name;  // "" for a program built from a string
    std::vector<std::string> lines;
  };
  std::unordered_map<std::string, NamedSource> namedSources_;  // by the file name OpLine cites
};

}  // namespace clref::interpreter
