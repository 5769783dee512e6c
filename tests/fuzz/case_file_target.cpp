// Fuzz target: case-file JSON → what `clref run` does with it (parse, load the module, materialise the arguments,
// run, format the outputs). The case is read as if it were a file in golden/cases, so that its module paths name the
// golden modules. Documented outcomes (a CaseError naming the field, a module or host API error, a kernel fault)
// return; anything else escapes and is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "host/host.hpp"
#include "interpreter/diagnostic.hpp"
#include "cli/case_file.hpp"

using namespace clref;

namespace {

// Bounds that keep one input to milliseconds; a case beyond them is valid but not run (the limits of `clref run`
// itself are tested elsewhere, tests/reference).
constexpr uint64_t kMaxWorkItems = 4096;
constexpr uint64_t kMaxArgumentBytes = uint64_t(1) << 20;
constexpr uint64_t kInstructionBudget = 20000;

bool smallEnough(const cli::Case& c) {
  // Compiling OpenCL C takes a process per input: only SPIR-V modules are run.
  if (c.module.extension() == ".cl") return false;
  uint64_t items = 1;
  for (unsigned d = 0; d < c.range.dims && d < 3; ++d)
    if (__builtin_mul_overflow(items, uint64_t(c.range.global[d]), &items) || items > kMaxWorkItems) return false;
  for (const auto& a : c.args) {
    if (a.kind == cli::ArgSpec::Kind::Buffer &&
        (a.buffer.count > kMaxArgumentBytes || a.buffer.count * numerics::sizeOf(a.buffer.type) > kMaxArgumentBytes))
      return false;
    if (a.kind == cli::ArgSpec::Kind::Local && a.localBytes > kMaxArgumentBytes) return false;
    if (a.kind == cli::ArgSpec::Kind::Image) {
      const auto& d = a.image.desc;
      if (d.width > 4096 || d.height > 4096 || d.depth > 4096 || d.arraySize > 4096) return false;
      if (d.width * d.height * d.depth * d.arraySize * 16 > kMaxArgumentBytes) return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    cli::Case c = cli::parseCase(text, CLREF_FUZZ_CASE_DIR "/fuzz.json");
    if (!smallEnough(c)) return 0;
    c.instructionBudget = std::min<uint64_t>(c.instructionBudget.value_or(kInstructionBudget), kInstructionBudget);
    host::DeviceConfig config;
    config.threads = 1;
    const auto run = cli::runCase(c, host::Device(config));
    if (run.result.fault) (void)run.result.fault->format();
    for (const auto& w : run.result.warnings) (void)w.format();
    for (const auto& [i, buffer] : run.outputs)
      (void)cli::formatElements(c.args[i].buffer.type, buffer->data(),
                                buffer->size() / numerics::sizeOf(c.args[i].buffer.type));
    for (const auto& [i, image] : run.imageOutputs)
      (void)cli::formatImage(image->desc(), cli::imageContents(*image).data());
  } catch (const cli::CaseError&) {
  } catch (const interpreter::ModuleError&) {
  } catch (const host::Error&) {
  }
  return 0;
}
