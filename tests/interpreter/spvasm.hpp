// Helpers for the hand-written SPIR-V tests: assemble tests/interpreter/spvasm/<name>.spvasm
// with SPIRV-Tools (as the OpenCL CTS does with its .spvasm files) and run one of its kernels
// through the host API.
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <spirv-tools/libspirv.hpp>

#include "host/host.hpp"

namespace clref::test {

// The SPIR-V words of assembly `text` for `env`; `origin` prefixes the assembler's messages.
// Numeric ids are kept by default, so a test can name %6 in an expected diagnostic. Throws with
// the assembler's message on error.
inline std::vector<uint32_t> assembleText(const std::string& text, spv_target_env env = SPV_ENV_UNIVERSAL_1_0,
                                          bool preserveNumericIds = true, const std::string& origin = "") {
  spvtools::SpirvTools tools(env);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& pos, const char* msg) {
    messages += origin + std::to_string(pos.line + 1) + ":" + std::to_string(pos.column + 1) + ": " + msg + "\n";
  });
  std::vector<uint32_t> words;
  if (!tools.Assemble(text, &words, preserveNumericIds ? SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS : 0))
    throw std::runtime_error("spirv-as failed:\n" + messages);
  return words;
}

// The SPIR-V words of spvasm/<name>.spvasm, assembled for the OpenCL 2.2 environment
// (SPIR-V 1.2) unless told otherwise. Throws with the assembler's message on error.
inline std::vector<uint32_t> assembleSpvasm(const std::string& name, spv_target_env env = SPV_ENV_OPENCL_2_2) {
  const std::string path = std::string(CLREF_SPVASM_DIR) + "/" + name + ".spvasm";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::stringstream text;
  text << in.rdbuf();
  return assembleText(text.str(), env, true, path + ":");
}

inline std::shared_ptr<host::Program> loadSpvasm(const host::Device& device, const std::string& name,
                                                 spv_target_env env = SPV_ENV_OPENCL_2_2) {
  return host::Program::fromSpirv(device, assembleSpvasm(name, env));
}

// One work-group of `workItems` work-items along dimension 0.
inline host::NDRange range1(size_t workItems = 1) {
  host::NDRange r;
  r.global = {workItems, 1, 1};
  r.local = std::array<size_t, 3>{workItems, 1, 1};
  return r;
}

// Runs `kernel` with argument 0 a zero-filled buffer of `count` elements of T (other
// arguments set by the caller) and returns the buffer. The run must not fault.
template <class T> std::vector<T> runToVector(host::Kernel& kernel, size_t count, size_t workItems = 1) {
  auto out = std::make_shared<host::Buffer>(count * sizeof(T));
  kernel.setArg(0, out);
  const host::RunResult r = kernel.run(range1(workItems));
  INFO((r.fault ? r.fault->format() : std::string()));
  REQUIRE(r.ok);
  auto s = out->as<T>();
  return {s.begin(), s.end()};
}

template <class To, class From> To bits(From f) {
  static_assert(sizeof(To) == sizeof(From));
  To t;
  std::memcpy(&t, &f, sizeof t);
  return t;
}

}  // namespace clref::test
