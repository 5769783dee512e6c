// Case files (golden/README.md): a kernel, an NDRange and every argument, as JSON.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "api/host.hpp"

namespace clref::reference {

// A bad case file; the message names the file and the field (e.g. "args[2].buffer.count").
class CaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class ElemType : uint8_t { Char, UChar, Short, UShort, Int, UInt, Long, ULong, Half, Float, Double };
size_t sizeOf(ElemType);
bool isFloat(ElemType);
std::string_view toString(ElemType);
std::optional<ElemType> parseElemType(std::string_view);

struct BufferSpec {
  ElemType type = ElemType::UChar;
  size_t count = 0;
  bool output = false;
  std::string initJson;  // the "init" object as JSON text ("" = zeros), materialised later
};

struct ArgSpec {
  enum class Kind : uint8_t { Buffer, Local, Value, Null } kind = Kind::Value;
  BufferSpec buffer;           // Buffer
  size_t localBytes = 0;       // Local
  std::vector<uint8_t> value;  // Value: the bytes passed by value
};

struct Case {
  std::filesystem::path file;    // the case file itself
  std::filesystem::path module;  // resolved against the case file's folder
  std::string buildOptions = "-cl-std=CL1.2";
  std::string kernel;
  host::NDRange range;
  std::vector<ArgSpec> args;
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> specConstants;
  std::vector<std::string> choices;
  std::optional<uint64_t> instructionBudget;
};

Case loadCase(const std::filesystem::path& file);
// The initial bytes of a buffer argument (zeros, values, iota, fill, random, special, file, text).
std::vector<std::byte> materialize(const Case& c, size_t argIndex);
// One scalar per line (golden/README.md "Output text format").
std::string formatElements(ElemType type, const std::byte* data, size_t count);

struct CaseRun {
  host::RunResult result;
  std::vector<std::pair<size_t, std::shared_ptr<host::Buffer>>> outputs;  // (arg index, buffer)
};
// Loads the module (compiling .cl when needed), applies spec constants and choices to a copy of
// the device, sets every argument and runs the NDRange.
CaseRun runCase(const Case& c, const host::Device& device);

}  // namespace clref::reference
