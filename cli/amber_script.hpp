// AmberScript (google/amber docs/amber_script.md, /work/shared/spec/vulkan/amber_script.md): the compute subset
// `clref amber` runs. parseScript reads a whole script into this data model before anything runs, so a script error
// or an unsupported command is reported before any shader is compiled; amber_run.hpp executes the model.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace clref::cli::amber {

// A script the parser (or the runner, before the first command) rejects: `clref amber` exits 2.
class ScriptError : public std::runtime_error {
 public:
  ScriptError(int line, const std::string& what) : std::runtime_error(what), line(line) {}
  int line;
};

// A command, form or feature clref does not run (graphics pipelines, images, samplers, …): exit 3.
class Unsupported : public std::runtime_error {
 public:
  Unsupported(int line, const std::string& what) : std::runtime_error(what), line(line) {}
  int line;
};

enum class NumberKind : uint8_t { Int, Uint, Float };

// One component: int8 … uint64, float16, float, double.
struct NumberType {
  NumberKind kind = NumberKind::Int;
  uint32_t bits = 32;
  uint32_t bytes() const { return bits / 8; }
};

// A buffer's element type (amber_script.md "Data Types"): a scalar, vecR<T>, matCxR<T> (C columns of R rows), any
// of them as an array (`T[]`), or a FORMAT name read as a vector of its channels.
struct DataType {
  NumberType number;
  uint32_t rows = 1, columns = 1;
  bool isArray = false;
  bool isMatrix() const { return columns > 1; }
};

enum class Layout : uint8_t { Std140, Std430 };

// Where one element's values lie: its size in bytes and the byte offset of each value, in the order DATA and EXPECT
// list them (padding skipped).
struct ElementLayout {
  uint32_t size = 0;
  std::vector<uint32_t> offsets;
};

// amber's layout of one element: a vec3 (and each column of a matrix of 3 rows) is padded to 4 components in both
// layouts; in std140 each column of a matrix and each element of an array is padded to 4 components (amber pads by
// components, so an array of float16 in std140 has 8-byte elements, as amber lays it out).
ElementLayout elementLayout(const DataType& type, Layout layout);

// "int32", "vec3<float>", "mat2x4<double>", "uint8[]": the type; none for anything else.
std::optional<DataType> parseDataType(std::string_view text);
// A FORMAT name whose channels are all UINT, SINT or SFLOAT of 8, 16, 32 or 64 bits (R32G32B32A32_SFLOAT,
// R8_UINT, …): the vector it is in a buffer; none for the others (normalized, packed, depth, sRGB formats).
std::optional<DataType> parseFormat(std::string_view text);

struct Buffer {
  std::string name;
  DataType type;
  Layout layout = Layout::Std430;
  std::vector<std::byte> initial;  // the contents before the first command
  uint64_t elements = 0;
  int line = 0;
};

enum class ShaderFormat : uint8_t { Glsl, Hlsl, SpirvAsm, SpirvHex };

struct Shader {
  std::string name;
  ShaderFormat format = ShaderFormat::Glsl;
  std::string source;                    // the text (SPIRV-HEX: the hex digits)
  std::string sourceName;                // what diagnostics call it: the script, or the (virtual) file
  int sourceLine = 0;                    // the script line the inline source starts on (0: from a file)
  std::optional<std::string> targetEnv;  // TARGET_ENV as written (spv1.x, vulkan1.x)
  int line = 0;
};

struct Specialization {
  uint32_t id = 0;
  std::vector<std::byte> bytes;  // the value in the type `AS` names (4 bytes: uint32, int32, float)
};

enum class BindingKind : uint8_t { Storage, Uniform, PushConstant };

struct Binding {
  std::string buffer;
  BindingKind kind = BindingKind::Storage;
  uint32_t set = 0, binding = 0;  // not for push constants
  uint64_t offset = 0;            // DESCRIPTOR_OFFSET plus a dynamic buffer's OFFSET: the first byte bound
  std::optional<uint64_t> range;  // DESCRIPTOR_RANGE; none: to the end of the buffer
  int line = 0;
  // BIND BUFFER_ARRAY: one Binding per buffer, each the array element it is (vkUpdateDescriptorSets'
  // dstArrayElement); 0 for BIND BUFFER.
  uint32_t arrayElement = 0;
};

// REQUIRED_SIZE MIN or MAX: the device's smallest or largest subgroup size (clref's: 4 and 128).
enum class SizeBound : uint8_t { None, Min, Max };

struct Pipeline {
  std::string name;
  std::string shader;  // empty until ATTACH
  std::string entryPoint = "main";
  std::vector<Specialization> specializations;
  std::vector<Binding> bindings;
  // SUBGROUP (VK_EXT_subgroup_size_control): the subgroup size the shader runs with (none: the device's), and
  // whether every subgroup must be full (FULLY_POPULATED).
  std::optional<uint32_t> requiredSubgroupSize;
  SizeBound requiredSizeBound = SizeBound::None;  // requiredSubgroupSize came from MIN or MAX
  bool fullSubgroups = false;
  bool varyingSubgroupSize = false;
  int line = 0;
};

// A value of DATA, FILL, SERIES_FROM or EXPECT as written: an integer (decimal or 0x hex) or a real.
struct Value {
  bool isInteger = true;
  uint64_t integer = 0;  // two's complement for negative integers
  double real = 0;       // the number (also for integers)
  std::string text;
};

enum class Comparator : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

struct Tolerance {
  double value = 0;
  bool percent = false;
};

struct Command {
  enum class Kind : uint8_t {
    Run,
    Copy,
    ExpectValues,
    ExpectEqBuffer,
    ExpectRmseBuffer,
    Repeat,
    SetData
  } kind = Kind::Run;
  int line = 0;
  std::string text;  // the command as written, for the report
  // Run
  std::string pipeline;
  uint32_t groups[3] = {1, 1, 1};
  // Copy (buffer → other), Expect (buffer, other for the *_BUFFER forms)
  std::string buffer, other;
  // ExpectValues, SetData
  uint64_t offset = 0;  // IDX: bytes
  // VkScript's probe and subdata name the type they read or write (the buffer has none); none: the buffer's.
  std::optional<DataType> type;
  Layout layout = Layout::Std430;
  Comparator comparator = Comparator::Eq;
  std::vector<Tolerance> tolerances;  // TOLERANCE (EQ only); empty: none given
  std::vector<Value> values;
  // ExpectRmseBuffer
  double tolerance = 0;
  // Repeat
  uint32_t count = 0;
  std::vector<Command> body;
};

struct Script {
  std::string name;  // the path as given, which every message cites
  std::vector<Buffer> buffers;
  std::vector<Shader> shaders;
  std::vector<Pipeline> pipelines;
  std::vector<Command> commands;
  std::vector<std::string> notes;  // what was accepted and ignored (SHADER_OPTIMIZATION, …), with its line
  std::optional<uint32_t> fenceTimeoutMs;
  // The TARGET_ENV of shaders without one, when the script asks for it (VK_KHR_spirv_1_4: spv1.4).
  std::optional<std::string> defaultTargetEnv;
  // DEVICE_FEATURE and DEVICE_EXTENSION (VkScript: [require]) as written: what a real device must have
  // (`clref amber --device`).
  std::vector<std::string> deviceFeatures, deviceExtensions;
  const Buffer* buffer(const std::string& n) const;
  const Shader* shader(const std::string& n) const;
  const Pipeline* pipeline(const std::string& n) const;
};

// One value as scripts write it: an integer (decimal or 0x hex) or a real; none for anything else.
std::optional<Value> parseValue(const std::string& text);
// Stores `v` as a component of type `n` at `p`, as the device reads it (integers modulo 2^bits).
void storeValue(std::byte* p, NumberType n, const Value& v);
// A line's tokens: whitespace and commas separate them, `#` starts a comment.
std::vector<std::string> tokenize(const std::string& line);

// What DEVICE_FEATURE, DEVICE_EXTENSION and INSTANCE_EXTENSION (and VkScript's [require]) may ask for: the features
// and extensions clref's shader execution has.
bool deviceHasFeature(std::string_view feature);
bool deviceHasExtension(std::string_view extension);
bool instanceHasExtension(std::string_view extension);

// VkScript (amber's older format: [require], [compute shader …], [test] sections), its compute subset read into the
// same model; the rest (graphics sections and commands) is Unsupported (cli/amber_vkscript.cpp).
Script parseVkScript(const std::string& text, const std::string& name);

// Parses an AmberScript. `name` is what messages cite; `directory` is where FILE paths are found. Throws ScriptError
// (exit 2) or Unsupported (exit 3); a script not starting with `#!amber` is VkScript (parseVkScript).
Script parseScript(const std::string& text, const std::string& name, const std::string& directory);

}  // namespace clref::cli::amber
