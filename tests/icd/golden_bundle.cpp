// golden_bundle: exports the golden corpus (golden/README.md) as a bundle a plain C OpenCL host
// program can run without a JSON parser (tests/icd/c_host_golden.c). The initial bytes come from
// cli::materialize and the expected bytes from the golden host references
// (tests/golden/host_reference.hpp: plain C++/MPFR, independent of clref); the exporter also
// checks that the host references still reproduce golden/expected/*.txt.
//
// Usage: golden_bundle GOLDEN_DIR OUT_DIR
//
// OUT_DIR/manifest.txt, one block per case, one item per line, "#" lines are comments:
//   case NAME
//   skip REASON                      the case cannot be run through the OpenCL API as it is
//   spirv ABSOLUTE_PATH              the SPIR-V module (clCreateProgramWithIL)
//   source ABSOLUTE_PATH | -         the OpenCL C source of that module, when there is one
//   source_options OPTIONS...        clBuildProgram options for the source (rest of the line)
//   requires ORIGIN NAME             a device extension (cl_khr_...) or OpenCL C feature (__opencl_c_...)
//                                    the SPIR-V module (ORIGIN "il") or the source ("source") needs: the
//                                    module's Float16/Float64 capabilities, the source's fp16/fp64 pragmas,
//                                    the image arguments' extensions, and what the source's "// requires:"
//                                    lines name (golden/build.sh)
//   kernel NAME
//   ndrange DIMS  G0 G1 G2  L0 L1 L2 | -  O0 O1 O2      global, local (or "-": NULL), offset
//   arg buffer TYPE COUNT BYTES INIT_FILE [EXPECTED_FILE]  (files relative to OUT_DIR)
//   arg local BYTES
//   arg value BYTES HEX
//   arg null
//   arg image OBJECT_TYPE ORDER CHANNEL_TYPE WIDTH HEIGHT DEPTH ARRAY_SIZE ROW_PITCH SLICE_PITCH LEVELS
//             ELEMENT_BYTES BYTES INIT_FILE [EXPECTED_FILE]
//                                    cl.h values in hex (0x10f1 CL_MEM_OBJECT_IMAGE2D, 0x10b5 CL_RGBA, ...), the
//                                    sizes the type does not use 1, pitches 0 when tightly packed; the files hold
//                                    the contents packed as golden/README.md says (level 0 first, then each level)
//   arg sampler NORMALIZED ADDRESSING FILTER [MIP_FILTER LOD_MIN LOD_MAX]
//                                    0 or 1, cl.h values in hex; the mip properties (lods as the float's bits in
//                                    hex) only when they are not the defaults (clCreateSamplerWithProperties)
//   spec ID BYTES HEX
//   device_queue BYTES               the kernel runs with a default device queue (CL_QUEUE_ON_DEVICE_DEFAULT) of
//                                    BYTES (CL_QUEUE_SIZE), created before its launch and released after it
//   end
// A skipped block has only "case", "skip" and "end". Every path is free of white space.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/case_file.hpp"
#include "tests/golden/host_reference.hpp"

namespace fs = std::filesystem;
using namespace clref;
using cli::ArgSpec;

namespace {

std::string readText(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  return {std::istreambuf_iterator<char>(in), {}};
}

void writeBytes(const fs::path& file, const std::byte* data, size_t size) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

std::string hex(const uint8_t* data, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < size; ++i) {
    s += digits[data[i] >> 4];
    s += digits[data[i] & 15];
  }
  return s;
}

std::string checkedPath(const fs::path& p) {
  const std::string s = p.string();
  if (s.find_first_of(" \t\r\n") != std::string::npos) throw std::runtime_error("path with white space: " + s);
  return s;
}

// golden/kernels/<file>.cl for a module golden/spv/<file>.O0.spv or .O2.spv, when it exists.
fs::path sourceOf(const fs::path& goldenDir, const fs::path& module) {
  std::string stem = module.stem().string();  // "<file>.O2"
  if (stem.size() < 3 || (stem.substr(stem.size() - 3) != ".O0" && stem.substr(stem.size() - 3) != ".O2")) return {};
  const fs::path source = goldenDir / "kernels" / (stem.substr(0, stem.size() - 3) + ".cl");
  return fs::exists(source) ? source : fs::path();
}

// The options golden/build.sh compiles the source with: a first line "// build: OPTIONS", else
// -cl-std=CL1.2; without the clang-only "-Xclang ARG" pairs (golden/build.sh enables optional features and
// extensions such as __opencl_c_read_write_images or cl_khr_mipmap_image with them, which an OpenCL compiler turns on
// by itself for a device that supports them: they are no clBuildProgram options, OpenCL 3.0 API §5.8.6
// [[compiler-options]]).
std::string sourceOptions(const fs::path& source) {
  std::istringstream in(readText(source));
  std::string first;
  std::getline(in, first);
  const std::string tag = "// build: ";
  if (first.rfind(tag, 0) != 0) return "-cl-std=CL1.2";
  std::istringstream words(first.substr(tag.size()));
  std::string out;
  for (std::string w; words >> w;) {
    if (w == "-Xclang") {
      words >> w;
      continue;
    }
    out += (out.empty() ? "" : " ") + w;
  }
  return out;
}

// Extensions the module's capabilities need (SPIR-V 1.0 §3.31 [external]: Float16 = 9, Float64 = 10).
std::vector<std::string> requiredExtensions(const fs::path& spv) {
  const std::string bytes = readText(spv);
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  std::vector<std::string> out;
  if (words.size() < 5 || words[0] != 0x07230203u)
    throw std::runtime_error("not a little-endian SPIR-V module: " + spv.string());
  for (size_t at = 5; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size()) break;
    if (opcode == 17 /* OpCapability */ && count == 2) {
      if (words[at + 1] == 9) out.push_back("cl_khr_fp16");
      if (words[at + 1] == 10) out.push_back("cl_khr_fp64");
    }
    at += count;
  }
  return out;
}

// The extensions and OpenCL C features the source's "// requires: NAME ..." lines name, in its leading comment lines
// (golden/build.sh): what the kernel needs whether it is built from the source or from its SPIR-V.
std::vector<std::string> declaredRequirements(const fs::path& source) {
  std::istringstream in(readText(source));
  std::vector<std::string> out;
  const std::string tag = "// requires: ";
  for (std::string line; std::getline(in, line) && line.rfind("//", 0) == 0;) {
    if (line.rfind(tag, 0) != 0) continue;
    std::istringstream words(line.substr(tag.size()));
    for (std::string w; words >> w;) out.push_back(w);
  }
  return out;
}

// `names` without repetitions, in their first order.
std::vector<std::string> unique(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& n : names)
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  return out;
}

// Extensions the source enables (#pragma OPENCL EXTENSION cl_khr_fp16/fp64 : enable) or its
// module needs: a half kernel whose SPIR-V only declares Float16Buffer (clang computes its half
// arithmetic in float) still needs cl_khr_fp16 to compile from source.
std::vector<std::string> sourceExtensions(const fs::path& source, const fs::path& spv) {
  auto out = requiredExtensions(spv);
  const std::string text = readText(source);
  for (const char* ext : {"cl_khr_fp16", "cl_khr_fp64"})
    if (text.find(std::string("#pragma OPENCL EXTENSION ") + ext) != std::string::npos &&
        std::find(out.begin(), out.end(), ext) == out.end())
      out.push_back(ext);
  return out;
}

// Why the case cannot be run through the OpenCL API with the result the corpus states, or "".
std::string skipReason(const fs::path& goldenDir, const cli::Case& c) {
  if (!c.choices.empty()) return "uses clref choices (registry switches), not expressible through the OpenCL API";
  if (c.instructionBudget) return "uses an instruction budget, a clref-specific limit";
  if (c.dispatch) return "a Vulkan compute shader (the OpenCL API does not run shaders)";
  if (c.module.extension() != ".spv") return "module is not SPIR-V";
  if (!golden::hostReferences().count(golden::caseName(c))) return "no host reference";
  for (size_t i = 0; i < c.args.size(); ++i)
    if (((c.args[i].kind == ArgSpec::Kind::Buffer && c.args[i].buffer.output) ||
         (c.args[i].kind == ArgSpec::Kind::Image && c.args[i].image.output)) &&
        !fs::exists(golden::expectedFile(goldenDir, golden::caseName(c), i)))
      return "no expected output file for arg" + std::to_string(i);
  return "";
}

std::string hexNumber(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

bool defaultMipProperties(const host::Sampler& s) {
  return s.mipFilter == images::FilterMode::Nearest && s.lodMin == 0.0f &&
         s.lodMax == std::numeric_limits<float>::max();
}

// The extensions the case's image and sampler arguments need, for both origins.
std::vector<std::string> imageExtensions(const cli::Case& c) {
  std::vector<std::string> out;
  const auto add = [&out](const char* e) {
    if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
  };
  for (const auto& a : c.args) {
    if (a.kind == ArgSpec::Kind::Image && a.image.desc.numMipLevels > 1) add("cl_khr_mipmap_image");
    if (a.kind == ArgSpec::Kind::Image && a.image.desc.format.order == images::ChannelOrder::Depth)
      add("cl_khr_depth_images");
    if (a.kind == ArgSpec::Kind::Sampler && !defaultMipProperties(a.sampler)) add("cl_khr_mipmap_image");
  }
  return out;
}

std::string ndrangeLine(const host::NDRange& r) {
  std::ostringstream s;
  s << "ndrange " << r.dims;
  for (size_t g : r.global) s << ' ' << g;
  if (r.local)
    for (size_t l : *r.local) s << ' ' << l;
  else
    s << " -";
  for (size_t o : r.offset) s << ' ' << o;
  return s.str();
}

// Writes the initial bytes of argument i (and for an output, `expectedText` set, its expected bytes, after checking
// that the host reference still reproduces golden/expected) and ends the manifest line with their file names.
void exportContents(const fs::path& goldenDir, const fs::path& outDir, const std::string& name, size_t i,
                    const golden::ArgBytes& initial, const golden::ArgBytes& expected, size_t size,
                    const std::optional<std::string>& expectedText, std::ostream& m) {
  if (initial[i].size() != size || expected[i].size() != size)
    throw std::runtime_error(name + ": arg" + std::to_string(i) + " has an unexpected byte size");
  const std::string stem = name + ".arg" + std::to_string(i);
  writeBytes(outDir / (stem + ".init.bin"), initial[i].data(), size);
  m << ' ' << stem << ".init.bin";
  if (expectedText) {
    if (*expectedText != readText(golden::expectedFile(goldenDir, name, i)))
      throw std::runtime_error(name + ": arg" + std::to_string(i) +
                               ": the host reference no longer reproduces golden/expected (rerun golden_make_expected)");
    writeBytes(outDir / (stem + ".expected.bin"), expected[i].data(), size);
    m << ' ' << stem << ".expected.bin";
  }
  m << '\n';
}

// Writes the block of one runnable case and its .bin files.
void exportCase(const fs::path& goldenDir, const fs::path& outDir, const cli::Case& c, std::ostream& m) {
  const std::string name = golden::caseName(c);
  const auto initial = golden::materializeArgs(c);
  const auto expected = golden::expectedArgs(c);
  const fs::path source = sourceOf(goldenDir, c.module);

  m << "spirv " << checkedPath(fs::absolute(c.module).lexically_normal()) << '\n';
  if (source.empty())
    m << "source -\n";
  else
    m << "source " << checkedPath(fs::absolute(source).lexically_normal()) << "\nsource_options "
      << sourceOptions(source) << '\n';
  std::vector<std::string> il = requiredExtensions(c.module), fromSource;
  if (!source.empty()) fromSource = sourceExtensions(source, c.module);
  for (const auto& ext : imageExtensions(c)) {
    il.push_back(ext);
    if (!source.empty()) fromSource.push_back(ext);
  }
  if (!source.empty())
    for (const auto& name : declaredRequirements(source)) {
      il.push_back(name);
      fromSource.push_back(name);
    }
  for (const auto& name : unique(il)) m << "requires il " << name << '\n';
  for (const auto& name : unique(fromSource)) m << "requires source " << name << '\n';
  m << "kernel " << c.kernel << '\n' << ndrangeLine(c.range) << '\n';
  if (c.deviceQueueSize) m << "device_queue " << *c.deviceQueueSize << '\n';

  for (size_t i = 0; i < c.args.size(); ++i) {
    const auto& a = c.args[i];
    switch (a.kind) {
      case ArgSpec::Kind::Buffer: {
        const size_t size = a.buffer.count * numerics::sizeOf(a.buffer.type);
        m << "arg buffer " << numerics::toString(a.buffer.type) << ' ' << a.buffer.count << ' ' << size;
        std::optional<std::string> text;
        if (a.buffer.output) text = cli::formatElements(a.buffer.type, expected[i].data(), a.buffer.count);
        exportContents(goldenDir, outDir, name, i, initial, expected, size, text, m);
        break;
      }
      case ArgSpec::Kind::Local: m << "arg local " << a.localBytes << '\n'; break;
      case ArgSpec::Kind::Value:
        m << "arg value " << a.value.size() << ' ' << hex(a.value.data(), a.value.size()) << '\n';
        break;
      case ArgSpec::Kind::Null: m << "arg null\n"; break;
      case ArgSpec::Kind::Image: {
        const images::ImageDesc& d = a.image.desc;
        const size_t size = cli::imageContentBytes(d);
        m << "arg image " << hexNumber(uint32_t(d.type)) << ' ' << hexNumber(uint32_t(d.format.order)) << ' '
          << hexNumber(uint32_t(d.format.type)) << ' ' << d.width << ' ' << d.height << ' ' << d.depth << ' '
          << d.arraySize << ' ' << d.rowPitch << ' ' << d.slicePitch << ' ' << d.numMipLevels << ' '
          << images::elementSize(d.format) << ' ' << size;
        std::optional<std::string> text;
        if (a.image.output) text = cli::formatImage(d, expected[i].data());
        exportContents(goldenDir, outDir, name, i, initial, expected, size, text, m);
        break;
      }
      case ArgSpec::Kind::Sampler: {
        const host::Sampler& s = a.sampler;
        m << "arg sampler " << (s.normalizedCoords ? 1 : 0) << ' ' << hexNumber(uint32_t(s.addressing)) << ' '
          << hexNumber(uint32_t(s.filter));
        if (!defaultMipProperties(s))
          m << ' ' << hexNumber(uint32_t(s.mipFilter)) << ' ' << hexNumber(std::bit_cast<uint32_t>(s.lodMin)) << ' '
            << hexNumber(std::bit_cast<uint32_t>(s.lodMax));
        m << '\n';
        break;
      }
    }
  }
  for (const auto& [id, bytes] : c.specConstants)
    m << "spec " << id << ' ' << bytes.size() << ' ' << hex(bytes.data(), bytes.size()) << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: golden_bundle GOLDEN_DIR OUT_DIR\n";
    return 2;
  }
  const fs::path goldenDir = fs::absolute(argv[1]).lexically_normal(), outDir = argv[2];
  try {
    fs::create_directories(outDir);
    for (const auto& entry : fs::directory_iterator(outDir))
      if (entry.path().extension() == ".bin") fs::remove(entry.path());

    std::ostringstream manifest;
    manifest << "# golden bundle of " << goldenDir.string() << " (format: tests/icd/golden_bundle.cpp)\n";
    size_t cases = 0, skipped = 0;
    for (const auto& file : golden::caseFiles(goldenDir)) {
      const auto c = cli::loadCase(file);
      manifest << "case " << golden::caseName(c) << '\n';
      const std::string reason = skipReason(goldenDir, c);
      if (reason.empty())
        exportCase(goldenDir, outDir, c, manifest);
      else {
        manifest << "skip " << reason << '\n';
        ++skipped;
      }
      manifest << "end\n";
      ++cases;
    }
    std::ofstream out(outDir / "manifest.txt", std::ios::trunc);
    out << manifest.str();
    if (!out) throw std::runtime_error("cannot write " + (outDir / "manifest.txt").string());
    std::cout << cases << " cases exported to " << outDir.string() << " (" << skipped << " skipped)\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "golden_bundle: " << e.what() << '\n';
    return 1;
  }
}
