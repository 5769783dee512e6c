// Opcodes an OpenCL kernel may contain that clref does not execute, each with the diagnostic a
// kernel using one gets. Most need a capability clref does not declare (capabilities.cpp), so a
// module using them is normally rejected at its OpCapability already; the table entry is the
// instruction-level reason.
#include "interpreter/dispatch.hpp"

namespace clref::interpreter {

void registerUnsupported(DispatchTable& t) {
  using spv::Op;
  t.unsupported({Op::OpTypePipeStorage, Op::OpConstantPipeStorage, Op::OpCreatePipeFromPipeStorage},
                "pipe storage is not supported (capability PipeStorage: program-scope pipes of OpenCL C++)");
  t.unsupported({Op::OpQuantizeToF16}, "OpQuantizeToF16 is not supported yet (the OpenCL C front ends do not emit it)");
  t.unsupported({Op::OpSizeOf}, "OpSizeOf is not supported yet (the OpenCL C front ends do not emit it)");
}

}  // namespace clref::interpreter
