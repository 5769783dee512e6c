// Module-level instructions (SPIR-V 1.0 §2.4 [external] logical layout: everything before the first
// function, and the function structure itself). Module reads them when it parses (module_parse.cpp)
// and lowering places constants (lower_constants.cpp); none is an instruction of a block.
#include "interpreter/dispatch.hpp"

namespace clref::interpreter {

void registerDeclarations(DispatchTable& t) {
  using spv::Op;
  t.declaration({Op::OpCapability, Op::OpExtension, Op::OpExtInstImport, Op::OpMemoryModel, Op::OpEntryPoint,
                 Op::OpExecutionMode, Op::OpExecutionModeId},
                "mode setting, read when the module is parsed");
  t.declaration({Op::OpSource, Op::OpSourceContinued, Op::OpSourceExtension, Op::OpName, Op::OpMemberName, Op::OpString,
                 Op::OpModuleProcessed},
                "debug information, read when the module is parsed");
  t.declaration({Op::OpDecorate, Op::OpMemberDecorate, Op::OpDecorationGroup, Op::OpGroupDecorate,
                 Op::OpGroupMemberDecorate, Op::OpDecorateId, Op::OpDecorateString, Op::OpMemberDecorateString},
                "annotation, read when the module is parsed");
  t.declaration({Op::OpTypeVoid, Op::OpTypeBool, Op::OpTypeInt, Op::OpTypeFloat, Op::OpTypeVector, Op::OpTypeMatrix,
                 Op::OpTypeArray, Op::OpTypeStruct, Op::OpTypeOpaque, Op::OpTypePointer, Op::OpTypeFunction,
                 Op::OpTypeEvent, Op::OpTypeForwardPointer},
                "type declaration, laid out when the module is parsed");
  t.declaration({Op::OpConstantTrue, Op::OpConstantFalse, Op::OpConstant, Op::OpConstantComposite, Op::OpConstantNull,
                 Op::OpSpecConstantTrue, Op::OpSpecConstantFalse, Op::OpSpecConstant, Op::OpSpecConstantComposite,
                 Op::OpSpecConstantOp},
                "constant, placed in the register template when a kernel is lowered");
  t.declaration({Op::OpFunction, Op::OpFunctionParameter, Op::OpFunctionEnd, Op::OpLabel},
                "function structure, read when the module is parsed");
}

}  // namespace clref::interpreter
