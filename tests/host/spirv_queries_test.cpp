// cl_khr_spirv_queries' answers (host::spirvQueries): every listed capability really builds on the device, the
// capabilities the OpenCL SPIR-V environment requires are all there, each one's dependency (a SPIR-V version clref
// reads, or a listed extension) is met by the grammar's own record, and a device without fp64 or device-side enqueue
// does not list what it cannot run.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>
#include <spirv-tools/libspirv.hpp>

#include "host/host.hpp"

namespace clref {
namespace {

// Capability name → (first SPIR-V version that has it, or "None"; the extensions that enable it), from the grammar.
struct GrammarCapability {
  uint32_t token;
  std::string version;
  std::vector<std::string> extensions;
};
std::map<std::string, GrammarCapability> grammarCapabilities() {
  std::ifstream in(CLREF_SPIRV_GRAMMAR);
  REQUIRE(in);
  const auto grammar = nlohmann::json::parse(in);
  std::map<std::string, GrammarCapability> caps;
  for (const auto& kind : grammar["operand_kinds"]) {
    if (kind["kind"] != "Capability") continue;
    for (const auto& e : kind["enumerants"]) {
      GrammarCapability c{e["value"].get<uint32_t>(), e.value("version", std::string("1.0")), {}};
      if (e.contains("extensions"))
        for (const auto& x : e["extensions"]) c.extensions.push_back(x.get<std::string>());
      caps.emplace(e["enumerant"].get<std::string>(), c);
    }
  }
  return caps;
}

std::string nameOf(const std::map<std::string, GrammarCapability>& caps, uint32_t token) {
  for (const auto& [name, c] : caps)
    if (c.token == token) return name;
  return "capability " + std::to_string(token);
}

std::vector<std::string> extensionsOf(const host::DeviceConfig& config) {
  // The device extensions the ICD reports beside the OpenCL C ones (icd/device.cpp deviceExtensions).
  auto v = host::openCLCExtensions(config);
  v.push_back("cl_khr_spirv_no_integer_wrap_decoration");
  v.push_back("cl_khr_spirv_linkonce_odr");
  return v;
}

bool listed(const std::vector<uint32_t>& v, uint32_t token) { return std::find(v.begin(), v.end(), token) != v.end(); }

TEST_CASE("cl_khr_spirv_queries: the required capabilities and instruction set are listed", "[spirv_queries]") {
  const host::DeviceConfig config;
  const auto q = host::spirvQueries(config, extensionsOf(config));
  CHECK(std::count(q.extendedInstructionSets.begin(), q.extendedInstructionSets.end(), "OpenCL.std") == 1);
  const auto caps = grammarCapabilities();
  // OpenCL SPIR-V Environment §3.1 [[required-capabilities-1.0]]: every full-profile device, and the image ones for a
  // device with images, fp64's and the generic address space's with those features.
  for (const char* name : {"Addresses", "Float16Buffer", "Int64", "Int16", "Int8", "Kernel", "Linkage", "Vector16",
                           "GenericPointer", "Groups", "Pipes", "DeviceEnqueue", "Float64", "ImageBasic",
                           "LiteralSampler", "Sampled1D", "Image1D", "SampledBuffer", "ImageBuffer",
                           "ImageReadWrite", "Int64Atomics", "GroupNonUniform", "GroupNonUniformBallot",
                           "DotProduct", "DotProductInput4x8BitPacked"}) {
    INFO(name);
    CHECK(listed(q.capabilities, caps.at(name).token));
  }
  // §3.2 [[required-capabilities-1.1]]: SubgroupDispatch for a device with sub-groups (clref's all have them).
  CHECK(listed(q.capabilities, caps.at("SubgroupDispatch").token));
  for (const char* name : {"Shader", "Matrix", "PipeStorage"}) {
    INFO(name << " must not be listed: clref refuses it in kernels");
    CHECK(!listed(q.capabilities, caps.at(name).token));
  }
}

TEST_CASE("cl_khr_spirv_queries: each capability's version or extension is available", "[spirv_queries]") {
  const host::DeviceConfig config;
  const auto q = host::spirvQueries(config, extensionsOf(config));
  const auto caps = grammarCapabilities();
  for (uint32_t token : q.capabilities) {
    const std::string name = nameOf(caps, token);
    INFO(name);
    const auto it = caps.find(name);
    REQUIRE(it != caps.end());
    const auto& c = it->second;
    // SPIR-V versions clref reads: 1.0 to 1.6 (the grammar's "1.0" … "1.6"; "None" means extension only).
    const bool byVersion = c.version != "None" && c.version <= "1.6";
    bool byExtension = false;
    for (const auto& x : c.extensions)
      byExtension |= std::count(q.extensions.begin(), q.extensions.end(), x) > 0;
    CHECK((byVersion || byExtension));
  }
}

TEST_CASE("cl_khr_spirv_queries: every listed capability builds on the device", "[spirv_queries]") {
  host::Device device;
  const auto q = host::spirvQueries(device.config(), extensionsOf(device.config()));
  const auto caps = grammarCapabilities();
  for (uint32_t token : q.capabilities) {
    const std::string name = nameOf(caps, token);
    INFO(name);
    const auto& c = caps.at(name);
    std::string text = "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpCapability " + name + "\n";
    for (const auto& x : c.extensions)
      if (std::count(q.extensions.begin(), q.extensions.end(), x)) text += "OpExtension \"" + x + "\"\n";
    text += R"(OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
    spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
    std::vector<uint32_t> words;
    REQUIRE(tools.Assemble(text, &words));
    CHECK_NOTHROW(host::Program::fromSpirv(device, words));
  }
}

TEST_CASE("cl_khr_spirv_queries: a device without fp64 or device enqueue does not list them", "[spirv_queries]") {
  host::DeviceConfig config;
  config.fp64 = false;
  config.deviceEnqueue = false;
  const auto q = host::spirvQueries(config, extensionsOf(config));
  const auto caps = grammarCapabilities();
  for (const char* name : {"Float64", "DeviceEnqueue", "AtomicFloat64AddEXT", "AtomicFloat64MinMaxEXT"}) {
    INFO(name);
    CHECK(!listed(q.capabilities, caps.at(name).token));
  }
  CHECK(listed(q.capabilities, caps.at("AtomicFloat32AddEXT").token));
}

}  // namespace
}  // namespace clref
