// The loader's entry points into the layer (OpenCL Extension Specification 3.0 cl_loader_layers: clGetLayerInfo and
// clInitLayer).
#include <cstring>

#include "layer/layer.hpp"
#include "layer/settings.hpp"
#include "layer/spool_args.hpp"

namespace clref::layer {
namespace {

cl_icd_dispatch target;  // next(): what clInitLayer received
cl_icd_dispatch layerTable;
constexpr char kName[] = "clref check layer: every kernel judged against the clref reference device";

}  // namespace

const cl_icd_dispatch& next() { return target; }

}  // namespace clref::layer

using namespace clref::layer;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clGetLayerInfo(cl_layer_info param_name, size_t param_value_size, void* param_value,
                                               size_t* param_value_size_ret) {
  const void* value = nullptr;
  size_t size = 0;
  static const cl_layer_api_version version = CL_LAYER_API_VERSION_100;
  switch (param_name) {
    case CL_LAYER_API_VERSION:
      value = &version;
      size = sizeof version;
      break;
    case CL_LAYER_NAME:
      value = kName;
      size = sizeof kName;
      break;
    default: return CL_INVALID_VALUE;
  }
  if (param_value && param_value_size < size) return CL_INVALID_VALUE;
  if (param_value) std::memcpy(param_value, value, size);
  if (param_value_size_ret) *param_value_size_ret = size;
  return CL_SUCCESS;
}

// The loader gives the table of what is behind the layer and takes the layer's: a copy of it with the intercepted
// entry points replaced. A table shorter than the layer's (an older loader) is taken as far as it goes; the entries
// past it stay null, as the loader would have them.
CL_API_ENTRY cl_int CL_API_CALL clInitLayer(cl_uint num_entries, const cl_icd_dispatch* target_dispatch,
                                            cl_uint* num_entries_ret, const cl_icd_dispatch** layer_dispatch_ret) {
  if (!target_dispatch || !num_entries_ret || !layer_dispatch_ret) return CL_INVALID_VALUE;
  constexpr size_t kEntries = sizeof(cl_icd_dispatch) / sizeof(void*);
  const size_t n = num_entries < kEntries ? num_entries : kEntries;
  std::memset(&target, 0, sizeof target);
  std::memcpy(&target, target_dispatch, n * sizeof(void*));
  layerTable = target;
  interceptRecords(layerTable);
  interceptEnqueues(layerTable);
  interceptCommandBuffers(layerTable);
  if (!settings().spoolDir.empty()) interceptHandles(layerTable);  // CLREF_CHECK_SPOOL: spool_args.hpp
  *num_entries_ret = cl_uint(n);
  *layer_dispatch_ret = &layerTable;
  return CL_SUCCESS;
}

}  // extern "C"
