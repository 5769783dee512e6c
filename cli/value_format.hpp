// Values of a running kernel as `clref run --trace` prints them: a register's or memory's bytes read as a SPIR-V type
// (integers in decimal, floats as the shortest round-trip decimal with the exact hex-float, vectors as (a, b, c),
// pointers as the allocation they point into plus an offset, bools true/false).
#pragma once
#include <cstdint>
#include <string>

#include "interpreter/observer.hpp"

namespace clref::cli {

// What a value needs besides its bytes: the module's types, and for pointers the kernel's allocation table and the
// tag layout of its pointers (WorkItem::tagShift).
struct ValueContext {
  const interpreter::Module& module;
  interpreter::ObservedKernel kernel;
  uint32_t tagShift = 40;
};

// `size` bytes at `bytes` as a value of type `typeId` (a Module type id). Bytes missing for the type's size print as
// "?"; aggregates longer than a trace line should hold show their first elements and the count.
std::string formatValue(const ValueContext& context, uint32_t typeId, const uint8_t* bytes, uint64_t size);

// A tagged pointer: "argument 0 (a) + 12", "null", or the raw bits when the tag names no allocation.
std::string formatPointer(const ValueContext& context, uint64_t pointer);

// Floating-point values by their bits: "0.1 (0x1.99999ap-4)" — the shortest decimal that reads back as the same
// value, then the exact value in hex; "inf", "-inf", "nan (0x7fc00000)" (a NaN's bits, since sign and payload
// matter).
std::string formatHalf(uint16_t bits);
std::string formatFloat(uint32_t bits);
std::string formatDouble(uint64_t bits);

}  // namespace clref::cli
