// The check layer (libclref_layer.so): an OpenCL loader layer (cl_loader_layers, CL/cl_layer.h) that the ICD loader
// puts in front of whatever platform an application uses (OPENCL_LAYERS=/path/to/libclref_layer.so). Every call goes
// on to that platform unchanged; the layer remembers how programs were made and how kernel arguments were set, and
// after each kernel enqueue runs the same kernel on clref from a snapshot of its buffers and judges every element the
// device wrote (check/check.hpp: identical, allowed, violation, undetermined). Internal to the layer.
#pragma once
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>
#include <CL/cl_layer.h>

namespace clref::layer {

// The dispatch table of what is behind the layer (the next layer, or the loader's calls into the platform): every
// call goes on through it.
const cl_icd_dispatch& next();

// The entry points the layer intercepts, installed over a copy of next(): program creation and building, kernel
// arguments and releases (records.cpp), and kernel enqueues (enqueue_check.cpp).
void interceptRecords(cl_icd_dispatch& table);
void interceptEnqueues(cl_icd_dispatch& table);
// clGetExtensionFunctionAddress(ForPlatform): the command buffers' entry points (command_buffer_check.cpp).
void interceptCommandBuffers(cl_icd_dispatch& table);

}  // namespace clref::layer
