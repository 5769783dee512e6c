// GLSL and HLSL compute shaders through glslang's C++ interface, SPIR-V assembly through SPIRV-Tools' assembler
// (shader_source.hpp).
#include "compiler/shader_source.hpp"

#include <fstream>
#include <memory>
#include <regex>
#include <sstream>

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>
#include <spirv-tools/libspirv.hpp>

namespace clref::compiler {

namespace {

// glslang's process-wide tables (its symbol tables and pool allocators) are built by InitializeProcess and torn down
// by FinalizeProcess, once per process: a function-local static is initialised exactly once even when several threads
// compile at the same time (C++20 §8.8 [external] stmt.dcl/4), and destroyed at exit.
void ensureGlslangProcess() {
  struct Process {
    Process() { glslang::InitializeProcess(); }
    ~Process() { glslang::FinalizeProcess(); }
  };
  static const Process process;
  (void)process;
}

struct Target {
  glslang::EShTargetClientVersion client;
  glslang::EShTargetLanguageVersion spirv;
  spv_target_env env;
};

Target targetOf(VulkanVersion v) {
  switch (v) {
    case VulkanVersion::V1_0: return {glslang::EShTargetVulkan_1_0, glslang::EShTargetSpv_1_0, SPV_ENV_VULKAN_1_0};
    case VulkanVersion::V1_1: return {glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3, SPV_ENV_VULKAN_1_1};
    case VulkanVersion::V1_2: return {glslang::EShTargetVulkan_1_2, glslang::EShTargetSpv_1_5, SPV_ENV_VULKAN_1_2};
    case VulkanVersion::V1_3: break;
  }
  return {glslang::EShTargetVulkan_1_3, glslang::EShTargetSpv_1_6, SPV_ENV_VULKAN_1_3};
}

std::optional<std::string> readText(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

// #include for GLSL (GL_GOOGLE_include_directive) and HLSL: "…" first beside the including file, then, as <…> does,
// in the include folders in order. The text lives until glslang releases it.
class FileIncluder : public glslang::TShader::Includer {
 public:
  explicit FileIncluder(const std::vector<std::filesystem::path>& dirs) : dirs_(dirs) {}

  IncludeResult* includeLocal(const char* header, const char* includer, size_t) override {
    return open(std::filesystem::path(includer).parent_path() / header);
  }
  IncludeResult* includeSystem(const char* header, const char*, size_t) override {
    for (const auto& dir : dirs_)
      if (auto* r = open(dir / header)) return r;
    return nullptr;
  }
  void releaseInclude(IncludeResult* result) override {
    if (!result) return;
    delete static_cast<std::string*>(result->userData);
    delete result;
  }

 private:
  IncludeResult* open(const std::filesystem::path& path) {
    auto text = readText(path);
    if (!text) return nullptr;
    auto* owned = new std::string(std::move(*text));
    return new IncludeResult(path.string(), owned->data(), owned->size(), owned);
  }
  const std::vector<std::filesystem::path>& dirs_;
};

// glslang's info log as diagnostics: "ERROR: NAME:LINE: MESSAGE" becomes "NAME:LINE: error: MESSAGE"; a message
// without a place (a link error) gets the source's name; the closing count ("2 compilation errors.  No code
// generated.") and "compilation terminated" are left out, the lines before them say more.
std::string diagnostics(const std::string& log, const std::string& name) {
  static const std::regex placed(R"(^(ERROR|WARNING): (.*):(\d+): (.*)$)");
  static const std::regex count(R"(^ERROR: \d+ compilation errors?\..*$)");
  std::istringstream in(log);
  std::string line, out;
  std::smatch m;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    // "'' : compilation terminated" only says that glslang stopped at the error before it.
    if (line.empty() || std::regex_match(line, count) || line.ends_with("'' : compilation terminated")) continue;
    if (std::regex_match(line, m, placed)) {
      out += m[2].str() + ":" + m[3].str() + ": " + (m[1] == "ERROR" ? "error: " : "warning: ") + m[4].str() + "\n";
    } else if (line.rfind("ERROR: ", 0) == 0) {
      out += name + ": error: " + line.substr(7) + "\n";
    } else if (line.rfind("WARNING: ", 0) != 0) {
      out += name + ": " + line + "\n";
    }
  }
  if (out.empty()) out = name + ": error: glslang reported a failure without a message\n";
  out.pop_back();
  return out;
}

std::vector<uint32_t> compileWithGlslang(bool hlsl, const std::string& source, const std::string& name,
                                         const ShaderOptions& options) {
  ensureGlslangProcess();
  const Target target = targetOf(options.target);
  glslang::TShader shader(EShLangCompute);
  const char* text = source.c_str();
  const int length = int(source.size());
  const char* sourceName = name.c_str();
  shader.setStringsWithLengthsAndNames(&text, &length, &sourceName, 1);
  std::string preamble;
  for (const auto& [macro, value] : options.defines)
    preamble += "#define " + macro + " " + (value.empty() ? "1" : value) + "\n";
  shader.setPreamble(preamble.c_str());
  shader.setEnvInput(hlsl ? glslang::EShSourceHlsl : glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan,
                     100);
  shader.setEnvClient(glslang::EShClientVulkan, target.client);
  shader.setEnvTarget(glslang::EShTargetSpv, target.spirv);
  if (hlsl) shader.setEntryPoint(options.entryPoint.c_str());
  // SPIR-V 1.4 and later have no BufferBlock decoration (SPIR-V 1.4 §3.20 [external]: up to 1.3); glslang 12's HLSL
  // front end still writes a storage buffer as a BufferBlock Uniform unless told to use the StorageBuffer storage
  // class, which every target from SPIR-V 1.3 on has.
  if (options.target != VulkanVersion::V1_0) shader.getIntermediate()->setUseStorageBuffer();
  const auto messages = EShMessages(EShMsgSpvRules | EShMsgVulkanRules | (hlsl ? int(EShMsgReadHlsl) : 0));
  FileIncluder includer(options.includeDirs);
  // 100: the version a GLSL source without #version is read as (glslang's default, as glslangValidator's).
  if (!shader.parse(GetDefaultResources(), 100, false, messages, includer))
    throw Error(diagnostics(shader.getInfoLog(), name));
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages)) throw Error(diagnostics(program.getInfoLog(), name));
  // glslang only warns when HLSL's entry-point function is missing, and emits a module without an entry point.
  const glslang::TIntermediate& intermediate = *program.getIntermediate(EShLangCompute);
  if (intermediate.getNumEntryPoints() == 0)
    throw Error(name + ": error: no entry-point function named '" + options.entryPoint + "'" +
                (hlsl ? " (an HLSL shader's entry point is named by the entry-point option)" : ""));
  std::vector<unsigned int> words;
  spv::SpvBuildLogger logger;
  glslang::SpvOptions spvOptions;
  // HLSL's SPIR-V is legal for Vulkan only after SPIRV-Tools' legalisation passes (opaque handles in locals and
  // parameters forwarded), which glslang runs with its optimiser, as glslangValidator does by default; GLSL's is not
  // optimised.
  spvOptions.disableOptimizer = !hlsl;
  glslang::GlslangToSpv(intermediate, words, &logger, &spvOptions);
  const std::string errors = logger.getAllMessages();
  if (words.empty()) throw Error(name + ": error: no SPIR-V generated" + (errors.empty() ? "" : ": " + errors));
  return {words.begin(), words.end()};
}

std::vector<uint32_t> assemble(const std::string& source, const std::string& name, const ShaderOptions& options) {
  spvtools::SpirvTools tools(targetOf(options.target).env);
  std::string failure;
  tools.SetMessageConsumer([&](spv_message_level_t level, const char*, const spv_position_t& pos, const char* msg) {
    if (level > SPV_MSG_ERROR) return;
    // The assembler counts lines and columns from 0.
    failure +=
        name + ":" + std::to_string(pos.line + 1) + ":" + std::to_string(pos.column + 1) + ": error: " + msg + "\n";
  });
  std::vector<uint32_t> words;
  if (!tools.Assemble(source, &words, SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS)) {
    if (failure.empty()) failure = name + ": error: SPIR-V assembly failed\n";
    failure.pop_back();
    throw Error(failure);
  }
  return words;
}

}  // namespace

std::optional<ShaderLanguage> shaderLanguageOf(const std::filesystem::path& file) {
  const auto ext = file.extension();
  if (ext == ".comp" || ext == ".glsl") return ShaderLanguage::Glsl;
  if (ext == ".hlsl") return ShaderLanguage::Hlsl;
  if (ext == ".spvasm") return ShaderLanguage::SpirvAssembly;
  return std::nullopt;
}

std::optional<VulkanVersion> parseVulkanVersion(const std::string& text) {
  if (text == "1.0") return VulkanVersion::V1_0;
  if (text == "1.1") return VulkanVersion::V1_1;
  if (text == "1.2") return VulkanVersion::V1_2;
  if (text == "1.3") return VulkanVersion::V1_3;
  return std::nullopt;
}

std::vector<uint32_t> compileShader(ShaderLanguage language, const std::string& source, const std::string& name,
                                    const ShaderOptions& options) {
  switch (language) {
    case ShaderLanguage::Glsl: return compileWithGlslang(false, source, name, options);
    case ShaderLanguage::Hlsl: return compileWithGlslang(true, source, name, options);
    case ShaderLanguage::SpirvAssembly: break;
  }
  return assemble(source, name, options);
}

std::vector<uint32_t> compileShaderFile(const std::filesystem::path& file, const ShaderOptions& options) {
  const auto language = shaderLanguageOf(file);
  if (!language) throw Error(file.string() + ": not a shader source (.comp, .glsl, .hlsl or .spvasm)");
  const auto text = readText(file);
  if (!text) throw Error(file.string() + ": cannot read the file");
  return compileShader(*language, *text, file.string(), options);
}

}  // namespace clref::compiler
