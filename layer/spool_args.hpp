// CLREF_CHECK_SPOOL: how the spooler learns what each kernel argument is without building the program on clref (that
// build is `clref check-spool`'s). clSetKernelArg gives only a size and bytes; the bytes of a memory object, sampler or
// command queue argument are its handle. The layer remembers the handles the application creates through it, so that
// an argument's bytes that are one of them say its kind (enqueue_check.cpp spoolArgsWithoutBuild), and anything else
// of a pointer's size that is not NULL and not zero is a value passed by value.
#pragma once
#include <cstdint>
#include <optional>

#include "layer/layer.hpp"

namespace clref::layer {

enum class HandleKind : uint8_t { Memory, Sampler, Queue };

// Installs the creation and release entry points of memory objects, samplers and command queues over `table`.
void interceptHandles(cl_icd_dispatch& table);
// The kind of a live handle the application created through the layer, if `handle` is one.
std::optional<HandleKind> handleKind(const void* handle);

}  // namespace clref::layer
