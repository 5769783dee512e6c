// Case files (golden/README.md): a kernel, an NDRange and every argument, as JSON.
#pragma once
#include <cstddef>
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "numerics/scalar_type.hpp"

namespace clref::cli {

// A bad case file; the message names the file and the field (e.g. "args[2].buffer.count").
class CaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The element types of buffers and values (golden/README.md "Case file format"): OpenCL C scalar types, with their
// sizes, names and parsing in numerics/scalar_type.hpp.
using numerics::ScalarType;
// A case file's element type from its name: any OpenCL C scalar type but bool, which cannot be a kernel argument
// (OpenCL C 3.0 §6.11 [[restrictions]]) and so never the element of a buffer or a value a case passes.
std::optional<ScalarType> parseElementType(std::string_view name);

struct BufferSpec {
  ScalarType type = ScalarType::UChar;
  size_t count = 0;
  bool output = false;
  // "judge_as_parameter": `clref check` judges the observed bytes as the kernel parameter's element type (and struct
  // layout), not as `type`: the check layer spools buffers as bytes without building the program (docs/SCALE.md).
  bool judgeAsParameter = false;
  std::string initJson;  // the "init" object as JSON text ("" = zeros), materialised later
};

// An image argument (golden/README.md "Image arguments"). `desc` is as the case file gives it: pitches 0 where the
// case gives none (tightly packed), sizes the type does not use 1.
struct ImageSpec {
  images::ImageDesc desc;
  bool output = false;
  std::string initJson;  // the "init" object as JSON text ("" = zeros), materialised later
};

// The contents of an image as case files and outputs see them: every element tightly packed (no pitch padding),
// x fastest, then y (the layer of a 1D array), then z (the slice of a 3D image, the layer of a 2D array), mip level
// 0 first and each further level after it. An element is the bytes of the format (images::elementSize).
size_t imageElementCount(const images::ImageDesc& desc);
size_t imageContentBytes(const images::ImageDesc& desc);
// The region (width, height or layers, depth or layers) of mip level `level` in elements, as host::Image::write takes
// it (cl_khr_mipmap_image: each level halves the width, height and 3D depth, at least 1; layers stay).
std::array<size_t, 3> imageLevelRegion(const images::ImageDesc& desc, uint32_t level);
// The image's case-file type name ("image2d", "image1d_buffer", ...).
std::string_view imageTypeName(images::ImageType type);

struct ArgSpec {
  enum class Kind : uint8_t { Buffer, Local, Value, Null, Image, Sampler } kind = Kind::Value;
  BufferSpec buffer;           // Buffer
  size_t localBytes = 0;       // Local
  std::vector<uint8_t> value;  // Value: the bytes passed by value
  ImageSpec image;             // Image
  host::Sampler sampler;       // Sampler
  // A compute shader's argument names the resource it binds (golden/README.md "Shader cases"): a descriptor set and
  // binding, or the push-constant block.
  std::optional<std::array<uint32_t, 3>> binding;  // (set, binding, array element)
  bool pushConstant = false;
};

// ": set S binding B" or ": push constants" for a shader's argument, "" for a kernel's: what output headers add to
// "arg N".
std::string resourceLabel(const ArgSpec& arg);

struct Case {
  std::filesystem::path file;    // the case file itself
  std::filesystem::path module;  // resolved against the case file's folder
  std::string buildOptions = "-cl-std=CL1.2";
  std::string kernel;
  // An OpenCL kernel's NDRange ("ndrange"); a compute shader's launch is `dispatch` instead: work-groups per
  // dimension (vkCmdDispatch), whose NDRange prepareCase computes from the shader's specialized work-group size.
  host::NDRange range;
  std::optional<std::array<uint32_t, 3>> dispatch;
  std::vector<ArgSpec> args;
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> specConstants;
  std::vector<std::string> choices;
  std::optional<uint64_t> instructionBudget;
  // "device_queue": the kernel's default device queue (get_default_queue) has this many bytes (CL_QUEUE_SIZE);
  // none: the kernel has no default device queue (CLK_NULL_QUEUE).
  std::optional<uint64_t> deviceQueueSize;
};

Case loadCase(const std::filesystem::path& file);
// A case from its JSON text, as if read from `file` (paths in it resolve against file's folder); loadCase reads the
// file and calls it.
Case parseCase(std::string_view text, const std::filesystem::path& file);
// The initial bytes of a buffer argument (zeros, values, iota, fill, random, special, file, text).
std::vector<std::byte> materialize(const Case& c, size_t argIndex);
// The same written into `out`, count × element size bytes that hold zeros (a new buffer's own memory: a large case
// then holds no second copy of its inputs).
void materializeInto(const Case& c, size_t argIndex, std::byte* out);
// The initial contents of an image argument (imageContentBytes bytes, packed as above): zeros, values, iota, fill,
// random, special (per channel) or a file (raw elements).
std::vector<std::byte> materializeImage(const Case& c, size_t argIndex);
// One scalar per line (golden/README.md "Output text format").
std::string formatElements(ScalarType type, const std::byte* data, size_t count);
// One image element per line, its channels in memory order separated by ", ", each as formatElements writes a scalar
// of the channel's type (golden/README.md "Output text format"); `data` holds imageContentBytes(desc) bytes.
std::string formatImage(const images::ImageDesc& desc, const std::byte* data);
// The inverse of formatImage: the contents (imageContentBytes bytes) from its text. Throws CaseError naming `where`
// and the line.
std::vector<std::byte> parseImage(const images::ImageDesc& desc, std::string_view text, const std::string& where);

struct CaseRun {
  host::RunResult result;
  numerics::Choices choices;  // in force: the device's with the case's applied
  std::vector<std::pair<size_t, std::shared_ptr<host::Buffer>>> outputs;      // (arg index, buffer)
  std::vector<std::pair<size_t, std::shared_ptr<host::Image>>> imageOutputs;  // (arg index, image)
};
// The contents of an image (imageContentBytes bytes, packed as above), read level by level.
std::vector<std::byte> imageContents(const host::Image& image);
// Loads the module (compiling .cl when needed), applies spec constants and choices to a copy of
// the device, sets every argument and runs the NDRange.
CaseRun runCase(const Case& c, const host::Device& device);
// Everything runCase does but the run: the kernel with every argument set, ready for run() or host::check().
struct PreparedCase {
  std::shared_ptr<host::Program> program;  // the kernel's (its module: `clref debug` places breakpoints before the run)
  std::unique_ptr<host::Kernel> kernel;
  numerics::Choices choices;
  std::vector<std::pair<size_t, std::shared_ptr<host::Buffer>>> outputs;
  std::vector<std::pair<size_t, std::shared_ptr<host::Image>>> imageOutputs;
  host::NDRange range;  // the case's NDRange; for a shader, its dispatch's
};
PreparedCase prepareCase(const Case& c, const host::Device& device);
// The case's module as a program: SPIR-V as it is, or a .cl file compiled with the case's build options (the OpenCL
// build options, -D, -I, -g and -O0). Throws CaseError naming the field.
std::shared_ptr<host::Program> loadProgram(const Case& c, const host::Device& device);

}  // namespace clref::cli
