// One kernel's lowering (lowerKernel, program.hpp), stage by stage: reachable functions and the
// per-block lowering through the dispatch table (lower.cpp), registers and allocations
// (lower_allocations.cpp), constants and specialisation (lower_constants.cpp), peephole fusion
// (fusion.cpp). Internal to the interpreter.
#pragma once
#include <deque>
#include <set>
#include <string>
#include <vector>

#include "interpreter/lower.hpp"

namespace clref::interpreter {

class KernelLowering {
 public:
  KernelLowering(const Module& m, const LowerOptions& o, LoweredKernel& k) : m_(m), L_(m, o, k), k_(k) {}
  void run(const std::string& name);
  // Lowers `function` as the kernel `name` (run's entry point's, or a block's invoke function).
  void runFunction(uint32_t function, const std::string& name);

 private:
  const Module& m_;
  Lowerer L_;
  LoweredKernel& k_;
  std::vector<uint32_t> order_;  // reachable functions, entry first
  bool isCallEdge(const Edge& e) const { return callEdges_.count(&e) != 0; }
  std::set<const Edge*> callEdges_;
  std::vector<uint32_t> pendingInit_;
  std::deque<Instruction> specInstructions_;

  // lower.cpp
  void collectReachable(uint32_t entry);
  void lowerFunction(const Function& f);
  void resolve(uint32_t entry);
  uint32_t bodyOf(uint32_t entry) const;
  // lower_allocations.cpp
  void assignRegisters();
  uint32_t newTag(AllocationDesc d);
  std::string paramName(const Function& f, size_t i);
  void assignParams(uint32_t entry);
  bool scalarFields(uint32_t typeId, uint64_t at, std::vector<ScalarField>& out) const;
  bool hasParamAttr(uint32_t id, spv::FunctionParameterAttribute a) const;
  uint64_t placeIn(uint64_t& arena, uint64_t size, uint32_t align);
  // placeIn refusing an arena past `limit` (program.hpp), naming the memory, the allocation,
  // the sizes and the instruction that declares it; placePrivate for the private arena.
  uint64_t placeBounded(uint64_t& arena, const AllocationDesc& d, uint64_t limit, const char* memory,
                        const Instruction& at);
  uint64_t placePrivate(const AllocationDesc& d, const Instruction& at);
  void assignModuleVariables();
  // lower_shader_interface.cpp
  void assignShaderResources();
  void addShaderResource(uint32_t variable, ShaderResource kind, uint32_t set, uint32_t binding, uint32_t count,
                         uint32_t element, uint32_t reg);
  void specializeLocalSize(const EntryPoint& ep);
  void assignFunctionVariables();
  bool isSpecSized(uint32_t typeId) const;
  void placeSpecSized();
  std::vector<uint32_t> specSized_;  // tags of the variables isSpecSized defers
  void usedThroughMemory(uint32_t var);
  void finishTags();
  // lower_constants.cpp
  void writeConstants();
  void applySpec(const Instruction& inst, uint8_t* dst, uint64_t size);
  void evaluateSpecOp(const Instruction& inst);
  // fusion.cpp
  void countUses();
  void planFusion(const Block& b);
};

// OpConstant*, OpSpecConstant*: the instructions whose values lower_constants.cpp writes into the
// register template.
bool isConstantOp(spv::Op op);
// Storage classes of a shader's resources, bound by the API (lower_shader_interface.cpp).
bool isShaderResource(spv::StorageClass sc);

}  // namespace clref::interpreter
