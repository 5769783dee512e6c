// clref: the command-line tool of the reference device (docs/ARCHITECTURE.md, cli/).
//   clref run CASE.json   run a case (golden/README.md) and print or write its output buffers and images; --trace
//                         prints what chosen work-items executed (trace.hpp), --profile counts it (profile.hpp)
//   clref dis MODULE.spv|SOURCE.cl|SHADER  disassemble, with the word offsets diagnostics cite (SHADER: a Vulkan
//                         compute shader, .comp/.glsl/.hlsl/.spvasm, compiled in process: compiler/shader_source.hpp)
//   clref info MODULE.spv|SOURCE.cl|SHADER  what the module declares: version, capabilities, kernels, arguments;
//                         a shader's local size, specialization constants, resources and their layouts
//   clref choices         every named choice (spec freedom) with its options and default
//   clref explore CASE.json rerun a case under every other option of each choice its run consulted (explore.hpp)
//   clref check CASE.json --observed DIR  judge another implementation's outputs element by element (check_command.hpp)
//   clref math FUNC ARG.. a math function exactly, and the verdict on a result (math_command.hpp)
//   clref image read|write one image access exactly, and the verdict on a result (image_command.hpp)
//   clref debug CASE.json  step through a case's work-items: breakpoints, watchpoints, variables (debugger.hpp)
//   clref amber SCRIPT.amber  run an AmberScript's compute pipelines and judge its EXPECTs (amber_run.hpp; its own
//                         exit statuses: 0 all pass, 1 an EXPECT failed, 2 a script error, 3 unsupported)
//   clref check-spool DIR  judge the enqueues the check layer spooled (CLREF_CHECK_SPOOL), also under mpirun
//                         (spool_command.hpp)
//   clref sweep FUNC --type float  a math function over every float input of a range: judge a device's results or
//                         write clref's, also under mpirun (sweep_command.hpp)
// Exit status: 0 success, 1 the kernel faulted, 2 the input was rejected (command line, case
// file, module), 3 an internal error.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <limits>
#include <thread>

#include <CLI/CLI.hpp>

#include "check/check.hpp"
#include "check/version.hpp"
#include "compiler/shader_source.hpp"
#include "interpreter/diagnostic.hpp"
#include "interpreter/module.hpp"
#include "numerics/choices.hpp"
#include "cli/amber_run.hpp"
#include "cli/case_file.hpp"
#include "cli/check_command.hpp"
#include "cli/cluster.hpp"
#include "cli/debugger.hpp"
#include "cli/explore.hpp"
#include "cli/image_command.hpp"
#include "cli/math_command.hpp"
#include "cli/spool_command.hpp"
#include "cli/sweep_command.hpp"
#include "cli/module_info.hpp"
#include "cli/observed_run.hpp"
#include "cli/progress_line.hpp"
#include "cli/cluster.hpp"
#include "cli/shard.hpp"
#include "cli/rank_output.hpp"

namespace {

using namespace clref;

constexpr int kFault = 1, kRejected = 2, kInternal = 3;
constexpr int kOtherRank = -1;  // runCommand: a rank other than 0 of a split launch, which prints nothing
constexpr size_t kWarningsShown = 5;

struct RunOptions {
  std::string casePath;
  bool print = false;
  std::string outDir;
  std::vector<std::string> choices;
  unsigned threads = 0;
  uint64_t budget = 0;  // 0: the case's or the device's
  std::optional<uint64_t> perturb;  // --perturb SEED: any conforming device (check/check.hpp runPerturbed)
  std::string perturbProfile = "full";  // with --perturb: the profile and build options whose freedom is drawn from
  std::string options;
  std::string checks;  // --check: the optional checkers (interpreter::parseChecks)
  std::optional<std::string> trace;  // --trace: the work-items whose instructions are printed (cli::parseWorkItems)
  std::string traceOut;
  uint64_t traceLimit = 100000;
  bool profile = false;  // --profile: counts per line, opcode, instruction and memory traffic per allocation
  bool quiet = false;    // --quiet: no progress line (cli/progress_line.hpp)
};

// CLREF_CHECKS_FATAL=0: findings of the checkers are reported but do not fail the run (as for the ICD).
bool checksFatal() {
  const char* v = std::getenv("CLREF_CHECKS_FATAL");
  return !(v && std::string(v) == "0");
}

void writeFile(const std::filesystem::path& path, const void* data, size_t size) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(data), std::streamsize(size));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// The case of `run` or `explore` with the command line's choices and budget, or nullopt after reporting why not.
std::optional<cli::Case> caseOf(const RunOptions& o) {
  cli::Case c;
  try {
    c = cli::loadCase(o.casePath);
  } catch (const cli::CaseError& e) {
    std::cerr << e.what() << "\n";
    return std::nullopt;
  }
  // Command-line choices come after the case's, so they win.
  for (const auto& choice : o.choices) {
    try {
      numerics::Choices().set(choice);
    } catch (const std::invalid_argument& e) {
      std::cerr << "--choice " << choice << ": " << e.what() << "\n";
      return std::nullopt;
    }
    c.choices.push_back(choice);
  }
  if (o.budget) c.instructionBudget = o.budget;
  return c;
}

// Runs `f` (which runs the case), reporting the case's, the module's and the host API's rejections (kRejected).
template <class F> int guarded(const RunOptions& o, const cli::Case& c, F f) {
  try {
    return f();
  } catch (const cli::CaseError& e) {
    std::cerr << e.what() << "\n";
  } catch (const interpreter::ModuleError& e) {
    std::cerr << c.module.string() << ": " << e.what() << "\n";
  } catch (const host::Error& e) {
    std::cerr << o.casePath << ": " << e.what() << "\n";
  } catch (const std::bad_alloc&) {
    // Memory the host cannot give (a launch's work-group state, an output's copy): the case asks for more than this
    // process may allocate, which is a property of the input and the machine, not a fault of clref's.
    std::cerr << o.casePath << ": out of host memory: the run needs more memory than this process may allocate "
              << "(a smaller NDRange, fewer or smaller buffers, or a higher memory limit)\n";
  }
  return kRejected;
}

host::Device deviceFor(const RunOptions& o, std::function<void(uint64_t, uint64_t)> progress = {}) {
  host::DeviceConfig config;
  config.progress = std::move(progress);
  config.threads = o.threads;
  config.checks = interpreter::parseChecks(o.checks);
  config.checksFatal = checksFatal();
  return host::Device(config);
}

int exploreCommand(const RunOptions& o) {
  const auto c = caseOf(o);
  if (!c) return kRejected;
  // Under mpirun every rank runs the base run (each compares its alternatives with it) and the alternatives' runs are
  // spread over the ranks (cluster.hpp); rank 0 prints the report, the one a single process prints.
  const bool reporting = cli::cluster::rank() == 0;
  RunOptions mine = o;
  if (cli::cluster::localSize() > 1 && o.threads == 0)
    mine.threads = std::max(1u, std::thread::hardware_concurrency() / unsigned(cli::cluster::localSize()));
  const int status = guarded(o, *c, [&] {
    cli::ProgressLine progress("runs", reporting && cli::ProgressLine::wanted(o.quiet));
    const auto e = cli::explore(*c, deviceFor(mine), 5, progress.callback(),
                                [](size_t n, const std::function<std::string(size_t)>& work) {
                                  return cli::cluster::distribute(std::vector<uint64_t>(n, 1), work);
                                });
    progress.finish();
    if (e.base.result.fault || !e.base.result.ok) {
      if (reporting)
        std::cerr << (e.base.result.fault ? e.base.result.fault->format() : std::string("the run failed")) << "\n";
      return kFault;
    }
    if (reporting) std::cout << cli::formatExploration(e);
    return 0;
  });
  return status;  // rank 0's on every rank: main's RankOutput::finish
}

int runCommand(const RunOptions& o) {
  const auto maybeCase = caseOf(o);
  if (!maybeCase) return kRejected;
  const cli::Case& c = *maybeCase;
  const bool observed = o.trace || o.profile;
  // Under mpirun an observed or perturbed run is not split: rank 0 runs it alone (and alone writes --trace-out).
  if ((observed || o.perturb) && cli::cluster::rank() != 0) return 0;
  cli::ObserveOptions observe;
  std::ofstream traceFile;
  if (observed) {
    // Observing runs the kernel as it is; a perturbed run's values are another device's, drawn from sets.
    if (o.perturb) {
      std::cerr << "--trace and --profile cannot be combined with --perturb\n";
      return kRejected;
    }
    if (o.trace) {
      try {
        observe.trace = cli::parseWorkItems(*o.trace);
      } catch (const std::invalid_argument& e) {
        std::cerr << "--trace: " << e.what() << "\n";
        return kRejected;
      }
      observe.traceOut = &std::cout;
      if (!o.traceOut.empty()) {
        traceFile.open(o.traceOut);
        if (!traceFile) {
          std::cerr << "--trace-out: cannot write " << o.traceOut << "\n";
          return kRejected;
        }
        observe.traceOut = &traceFile;
      }
    }
    observe.traceLimit = o.traceLimit;
    observe.profile = o.profile;
  }
  cli::CaseRun run;
  std::vector<std::string> notes;  // why a launch under mpirun ran on one rank
  std::optional<std::string> profile;
  // Work-groups done of the launch's, while it runs; erased before anything is printed.
  cli::ProgressLine progress("work-groups", cli::ProgressLine::wanted(o.quiet));
  const auto onGroup = progress.callback();
  const int status = guarded(o, c, [&] {
        if (observed) {
          auto p = cli::prepareCase(c, deviceFor(o, onGroup));
          // A shader's NDRange is known once its work-group size is (prepareCase).
          if (const auto why = cli::checkWorkItems(observe.trace, p.range); !why.empty()) {
            std::cerr << "--trace: " << why << "\n";
            return kRejected;
          }
          run.choices = p.choices;
          run.outputs = std::move(p.outputs);
          run.imageOutputs = std::move(p.imageOutputs);
          auto r = cli::runObserved(*p.kernel, p.range, observe);
          run.result = std::move(r.result);
          profile = std::move(r.profile);
          return 0;
        }
        if (!o.perturb && cli::cluster::size() > 1) {
          // Under mpirun: the launch's work-groups split over the ranks; rank 0 prints and writes (cli/shard.hpp).
          auto merged = cli::runSharded(c, deviceFor(o, onGroup), notes);
          if (!merged) return kOtherRank;
          run = std::move(*merged);
          return 0;
        }
        if (!o.perturb) {
          run = cli::runCase(c, deviceFor(o, onGroup));
          return 0;
        }
        if (o.perturbProfile != "full" && o.perturbProfile != "embedded") {
          std::cerr << "--perturb-profile: expected full or embedded, got '" << o.perturbProfile << "'\n";
          return kRejected;
        }
        const auto options = host::checkOptionsFor(
            o.perturbProfile == "full" ? numerics::Profile::Full : numerics::Profile::Embedded, o.options);
        auto p = cli::prepareCase(c, deviceFor(o, onGroup));
        run.choices = p.choices;
        run.outputs = std::move(p.outputs);
        run.imageOutputs = std::move(p.imageOutputs);
        uint64_t perturbed = 0;
        run.result = host::runPerturbed(*p.kernel, p.range, *o.perturb, options, &perturbed);
        std::cerr << "perturbed " << perturbed << " value" << (perturbed == 1 ? "" : "s")
                  << " within their allowed sets (seed " << *o.perturb << ")\n";
        return 0;
      });
  progress.finish();
  if (status == kOtherRank) return 0;
  if (status) return status;
  for (const auto& note : notes) std::cerr << "clref: " << note << "\n";

  const auto& result = run.result;
  // The kernel's printf output, in work-group order (also for a faulting run: it helps debug).
  std::cout << result.printfOutput << std::flush;
  // The profile also of a faulting run: what ran up to the fault.
  if (profile) std::cout << *profile << std::flush;
  if (result.warningCount > 0) {
    std::cerr << result.warningCount << " warning" << (result.warningCount == 1 ? "" : "s") << "\n";
    for (size_t i = 0; i < result.warnings.size() && i < kWarningsShown; ++i)
      std::cerr << result.warnings[i].format() << "\n";
    if (result.warningCount > kWarningsShown) std::cerr << "...\n";
  }
  // No silent choices: every named choice that decided a value, and where first.
  std::cerr << interpreter::formatChoiceUses(result.choicesUsed, run.choices);
  for (const auto& f : result.findings) std::cerr << f.format() << "\n";
  if (!result.fault && !result.ok) {
    std::cerr << "the checkers found " << result.findings.size() << " problem"
              << (result.findings.size() == 1 ? "" : "s") << "; no output written (CLREF_CHECKS_FATAL=0 keeps going)\n";
    return kFault;
  }
  if (result.fault || !result.ok) {
    // A faulting run's buffers are partial: no output is written, so none passes for golden.
    std::cerr << (result.fault ? result.fault->format() : std::string("the run failed without a diagnostic")) << "\n";
    return kFault;
  }

  if (!o.outDir.empty()) std::filesystem::create_directories(o.outDir);
  const std::string stem = c.file.stem().string();
  for (const auto& [index, buffer] : run.outputs) {
    if (!o.print && o.outDir.empty()) break;  // nothing asks for the text
    const auto& spec = c.args[index].buffer;
    if (o.print)
      std::cout << "== arg " << index << cli::resourceLabel(c.args[index]) << " (" << numerics::toString(spec.type)
                << ", " << spec.count << ") ==\n";
    std::ofstream textFile;
    const auto base = std::filesystem::path(o.outDir) / (stem + ".arg" + std::to_string(index));
    if (!o.outDir.empty()) textFile.open(base.string() + ".txt", std::ios::binary);
    // The text a chunk of elements at a time: a buffer of 2^26 floats is over a GiB of it.
    const size_t elementBytes = numerics::sizeOf(spec.type), chunk = size_t(1) << 16;
    for (size_t first = 0; first < spec.count; first += chunk) {
      const std::string text =
          cli::formatElements(spec.type, buffer->data() + first * elementBytes, std::min(chunk, spec.count - first));
      if (o.print) std::cout << text;
      if (textFile.is_open()) textFile.write(text.data(), std::streamsize(text.size()));
    }
    if (!o.outDir.empty()) {
      if (!textFile) throw std::runtime_error("cannot write " + base.string() + ".txt");
      writeFile(base.string() + ".bin", buffer->data(), spec.count * elementBytes);
    }
  }
  // Images: one element per line, and their elements packed as a case file's "file" init reads them.
  for (const auto& [index, image] : run.imageOutputs) {
    const auto& desc = c.args[index].image.desc;
    const auto contents = cli::imageContents(*image);
    const std::string text = cli::formatImage(desc, contents.data());
    if (o.print)
      std::cout << "== arg " << index << " (" << cli::imageTypeName(desc.type) << " "
                << images::nameOf(desc.format.order) << "/" << images::nameOf(desc.format.type) << ", "
                << cli::imageElementCount(desc) << " elements) ==\n"
                << text;
    if (!o.outDir.empty()) {
      const auto base = std::filesystem::path(o.outDir) / (stem + ".arg" + std::to_string(index));
      writeFile(base.string() + ".txt", text.data(), text.size());
      writeFile(base.string() + ".bin", contents.data(), contents.size());
    }
  }
  return 0;
}

// `clref debug`: the case's kernel under the debugger, with commands from --commands FILE or stdin. Scripted commands
// (a file, or stdin that is not a terminal) are echoed after the prompt so that the output reads as a session.
int debugCommand(const RunOptions& o, const std::string& commandsPath) {
  const auto c = caseOf(o);
  if (!c) return kRejected;
  std::ifstream file;
  if (!commandsPath.empty()) {
    file.open(commandsPath);
    if (!file) {
      std::cerr << "--commands: cannot read " << commandsPath << "\n";
      return kRejected;
    }
  }
  std::istream& in = commandsPath.empty() ? std::cin : file;
  const bool echo = !commandsPath.empty() || !isatty(STDIN_FILENO);
  return guarded(o, *c, [&] { return cli::debugCase(*c, deviceFor(o), in, std::cout, echo); });
}

// The SPIR-V of a .cl file as `clref run` compiles a case's OpenCL C (the OpenCL build options, -D, -I, -g and -O0;
// diagnostics name the file), or nullopt for any other file.
std::optional<std::vector<uint32_t>> compiledOpenCLC(const std::string& path, const std::string& buildOptions) {
  if (std::filesystem::path(path).extension() != ".cl") return std::nullopt;
  cli::Case c;
  c.file = path;
  c.module = path;
  c.buildOptions = buildOptions;
  try {
    return cli::loadProgram(c, host::Device())->spirv();
  } catch (const cli::CaseError& e) {
    // The case's field is this command's --build-options; the caller names the file.
    std::string m = e.what();
    if (m.rfind(path + ": ", 0) == 0) m.erase(0, path.size() + 2);
    if (m.rfind("build_options: ", 0) == 0) m = "--build-options: " + m.substr(15);
    throw std::runtime_error(m);
  }
}

// How `dis` and `info` compile their input: a .cl file's OpenCL build options, a shader's (shader_source.hpp).
struct SourceOptions {
  std::string buildOptions;
  compiler::ShaderOptions shader;  // the entry point; target, defines and include folders from the fields below
  std::string vulkan = "1.3";
  std::vector<std::string> defines, includeDirs;
};

// The SPIR-V of a shader file (.comp, .glsl, .hlsl, .spvasm), or of a .cl file as compiledOpenCLC makes it, or
// nullopt for any other file (read as a SPIR-V binary).
std::optional<std::vector<uint32_t>> compiledSource(const std::string& path, SourceOptions options) {
  if (compiler::shaderLanguageOf(path)) {
    const auto target = compiler::parseVulkanVersion(options.vulkan);
    if (!target) throw std::runtime_error("--vulkan: " + options.vulkan + " is not 1.0, 1.1, 1.2 or 1.3");
    options.shader.target = *target;
    for (const auto& d : options.defines) {
      const auto eq = d.find('=');
      options.shader.defines.emplace_back(d.substr(0, eq), eq == std::string::npos ? "" : d.substr(eq + 1));
    }
    options.shader.includeDirs.assign(options.includeDirs.begin(), options.includeDirs.end());
    return compiler::compileShaderFile(path, options.shader);
  }
  return compiledOpenCLC(path, options.buildOptions);
}

int disCommand(const std::string& path, const SourceOptions& sourceOptions) {
  try {
    auto words = compiledSource(path, sourceOptions);
    std::cout << interpreter::Module::parse(words ? std::move(*words) : cli::readSpirvFile(path)).disassemble();
  } catch (const compiler::Error& e) {  // a shader's diagnostics name the file and line themselves
    std::cerr << e.what() << "\n";
    return kRejected;
  } catch (const std::runtime_error& e) {  // ModuleError, a build error or an unreadable file
    std::cerr << path << ": " << e.what() << "\n";
    return kRejected;
  }
  return 0;
}

int infoCommand(const std::string& path, const SourceOptions& sourceOptions) {
  try {
    auto compiled = compiledSource(path, sourceOptions);
    auto words = compiled ? std::move(*compiled) : cli::readSpirvFile(path);
    std::string info;
    try {
      info = cli::moduleInfo(interpreter::Module::load(words), "");
    } catch (const interpreter::ModuleError& e) {
      // The validator rejects it; the tables from parsing alone still say what it declares.
      info = cli::moduleInfo(interpreter::Module::parse(std::move(words)), e.what());
    }
    std::cout << "module: " << path << "\n" << info;
  } catch (const compiler::Error& e) {  // a shader's diagnostics name the file and line themselves
    std::cerr << e.what() << "\n";
    return kRejected;
  } catch (const std::runtime_error& e) {
    std::cerr << path << ": " << e.what() << "\n";
    return kRejected;
  }
  return 0;
}

// One choice of `clref choices`: its name, description, clause, kind and options.
void printChoice(const numerics::ChoiceInfo& info) {
  const numerics::ChoiceFreedom freedom = numerics::freedomOf(info.choice);
  std::cout << info.name << "\n  " << info.description << "\n  clause: " << info.clause
            << "\n  kind: " << numerics::toString(freedom.kind)
            << (freedom.kind == numerics::ChoiceKind::Set
                    ? (freedom.limitedToOptions ? " (the spec allows only these options)"
                                                : " (the spec allows any value; these are clref's options)")
                    : "")
            << "\n  options:";
  for (size_t i = 0; i < info.options.size() && !info.options[i].empty(); ++i)
    std::cout << " " << info.options[i] << (i == info.defaultOption ? " (default)" : "");
  std::cout << "\n";
}

// `clref choices [--api opencl|vulkan]`: the choices under their API's heading ("OpenCL", "Vulkan", "both"); a filter
// keeps its API's and both's. Vulkan's subgroup size follows its choices: a freedom too (Vulkan [[limits-subgroupSize]]
// [external]: any power of two from minSubgroupSize to maxSubgroupSize), but one the device has (DeviceConfig::
// subgroupSize, which OpenCL's sub-groups share) rather than a second setting a choice would duplicate.
int choicesCommand(const std::string& api) {
  using numerics::ChoiceApi;
  const bool opencl = api.empty() || api == "opencl", vulkan = api.empty() || api == "vulkan";
  for (const ChoiceApi group : {ChoiceApi::OpenCL, ChoiceApi::Vulkan, ChoiceApi::Both}) {
    if ((group == ChoiceApi::OpenCL && !opencl) || (group == ChoiceApi::Vulkan && !vulkan)) continue;
    std::cout << "== " << numerics::toString(group) << " ==\n";
    for (const auto& info : numerics::allChoices())
      if (info.api == group) printChoice(info);
    if (group == ChoiceApi::Vulkan) {
      std::cout << "subgroup_size (a device setting, not a --choice)\n  the SubgroupSize every compute shader runs "
                   "with (OpenCL's sub-groups too): host API DeviceConfig::subgroupSize, an AmberScript "
                   "pipeline's SUBGROUP block (REQUIRED_SIZE, VARYING_SIZE)\n  clause: Vulkan [[limits-subgroupSize]] "
                   "[external] subgroupSize "
                   "\"must be a power-of-two\"; a pipeline may get any size from minSubgroupSize to maxSubgroupSize"
                   "\n  kind: set (the spec allows any of these sizes)\n  values:";
      for (uint32_t size = host::kMinShaderSubgroupSize; size <= host::kMaxShaderSubgroupSize; size *= 2)
        std::cout << " " << size << (size == host::DeviceConfig{}.subgroupSize ? " (default)" : "");
      std::cout << "\n";
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"clref: an OpenCL reference device"};
  // The version and the commit it was built from (check/version.hpp).
  app.set_version_flag("--version",
                       std::string("clref ") + host::clrefVersion() + " (commit " + host::clrefCommit() + ")");
  app.require_subcommand(1);

  RunOptions run;
  auto* runCmd = app.add_subcommand("run", "run a case file and print or write its output buffers");
  runCmd->add_option("case", run.casePath, "case file (golden/README.md)")->required();
  runCmd->add_flag("--print", run.print, "print every output buffer");
  runCmd->add_option("--out", run.outDir, "write <case>.argN.txt and <case>.argN.bin for every output buffer");
  runCmd->add_option("--choice", run.choices, "name=option, overriding the default and the case (repeatable)")
      ->allow_extra_args(false);
  runCmd->add_option("--threads", run.threads, "worker threads (0: all hardware threads)");
  runCmd->add_option("--budget", run.budget, "instructions allowed per work-item")
      ->check(CLI::Range(uint64_t{1}, std::numeric_limits<uint64_t>::max()));
  runCmd->add_option("--perturb", run.perturb,
                     "any conforming device: every value with freedom takes a member of its allowed set drawn from "
                     "this seed (one thread)");
  runCmd->add_option("--perturb-profile", run.perturbProfile, "with --perturb: full or embedded")
      ->capture_default_str();
  runCmd->add_option("--options", run.options, "with --perturb: the build options whose freedom to draw from");
  auto* traceOption = runCmd->add_option("--trace", run.trace,
                     "print every instruction these work-items execute, in order, with its value and source line: "
                     "global ids x, x:y or x:y:z separated by commas (--trace 5 or --trace 5:0,7:1); one thread");
  runCmd->add_option("--trace-out", run.traceOut, "with --trace: write the trace to this file instead of stdout")
      ->needs(traceOption);
  runCmd->add_option("--trace-limit", run.traceLimit, "with --trace: print at most this many trace lines")
      ->capture_default_str()
      ->check(CLI::Range(uint64_t{1}, std::numeric_limits<uint64_t>::max()))
      ->needs(traceOption);
  runCmd->add_flag("--profile", run.profile,
                   "after the run, print execution counts per source line, opcode and instruction, and the bytes "
                   "read and written per buffer and variable (one thread)");
  runCmd->add_flag("--quiet", run.quiet, "no progress line on stderr (shown only when stderr is a terminal)");
  runCmd->add_option("--check", run.checks,
                     "optional checkers: races, uninitialized, all (out-of-bounds accesses and barrier divergence are "
                     "always checked)")
      ->check([](const std::string& v) {
        try {
          interpreter::parseChecks(v);
          return std::string();
        } catch (const std::invalid_argument& e) {
          return std::string(e.what());
        }
      });

  RunOptions explore;
  auto* exploreCmd = app.add_subcommand(
      "explore", "rerun a case under every other option of each named choice its run consulted, and show which "
                 "output elements change");
  exploreCmd->add_option("case", explore.casePath, "case file (golden/README.md)")->required();
  exploreCmd->add_option("--choice", explore.choices, "name=option for the base run (repeatable)")
      ->allow_extra_args(false);
  exploreCmd->add_option("--threads", explore.threads, "worker threads (0: all hardware threads)");
  exploreCmd->add_option("--budget", explore.budget, "instructions allowed per work-item")
      ->check(CLI::Range(uint64_t{1}, std::numeric_limits<uint64_t>::max()));
  exploreCmd->add_flag("--quiet", explore.quiet, "no progress line on stderr (shown only when stderr is a terminal)");

  cli::CheckCommandOptions check;
  auto* checkCmd = app.add_subcommand(
      "check", "judge another implementation's output buffers of a case: identical, allowed, violation or "
               "undetermined for every element (exit 1 on a violation)");
  checkCmd->add_option("case", check.casePath, "case file (golden/README.md)")->required();
  auto* observedOpt =
      checkCmd->add_option("--observed", check.observedDir,
                           "folder with the other implementation's <case>.argN.bin (or .txt) for every output buffer");
  std::string checkDevice;
  auto* checkDeviceOpt =
      checkCmd
          ->add_option("--device", checkDevice,
                       "a shader case: run it on the Vulkan device whose name contains NAME (none: the first) and "
                       "judge that device's output buffers")
          ->expected(0, 1)
          ->type_name("[NAME]")
          ->excludes(observedOpt);
  checkCmd
      ->add_option("--plant-errors", check.plantErrors,
                   "with --device: a wrong device for testing the judge: element i of every output buffer, for i a "
                   "multiple of K, is changed beyond any allowed set")
      ->type_name("K")
      ->needs(checkDeviceOpt);
  checkCmd->add_option("--profile", check.profile, "full or embedded")->capture_default_str();
  checkCmd->add_option("--options", check.options,
                       "the build options the other implementation used (-cl-fast-relaxed-math, -cl-mad-enable, "
                       "-cl-denorms-are-zero, ...)");
  checkCmd->add_option("--report", check.reportPath, "write the full report (every element not identical) as JSON");
  checkCmd->add_option("--html", check.htmlPath,
                       "write the report as one self-contained HTML page: counts, a histogram of the distances, the "
                       "violations as a sortable table, maps of the elements by class, the choices' decisions")
      ->type_name("FILE");
  checkCmd->add_flag("--strict", check.strict,
                     "judge an element whose allowed set is any value undetermined instead of allowed (how much of "
                     "the verdict says nothing)");
  checkCmd->add_option("--choice", check.choices, "name=option for clref's run (repeatable)")->allow_extra_args(false);
  checkCmd->add_option("--show", check.shown, "violations and undetermined elements printed per buffer")
      ->capture_default_str();
  checkCmd->add_option("--budget", check.budget, "instructions allowed per work-item")
      ->check(CLI::Range(uint64_t{1}, std::numeric_limits<uint64_t>::max()));
  checkCmd->add_flag("--quiet", check.quiet, "no progress line on stderr (shown only when stderr is a terminal)");

  RunOptions debug;
  std::string debugCommands;
  auto* debugCmd = app.add_subcommand(
      "debug", "run a case under an interactive debugger: breakpoints at source lines or instructions, step and next "
               "per work-item, variables (build the .cl with -g), memory, watchpoints (`help` lists the commands)");
  debugCmd->add_option("case", debug.casePath, "case file (golden/README.md)")->required();
  debugCmd->add_option("--commands", debugCommands, "read the commands from this file (one per line, # comments)");
  debugCmd->add_option("--choice", debug.choices, "name=option, overriding the default and the case (repeatable)")
      ->allow_extra_args(false);
  debugCmd->add_option("--budget", debug.budget, "instructions allowed per work-item")
      ->check(CLI::Range(uint64_t{1}, std::numeric_limits<uint64_t>::max()));

  std::string disPath, infoPath;
  SourceOptions disOptions, infoOptions;
  // A shader's compile options, the same for dis and info.
  const auto addShaderOptions = [](CLI::App* cmd, SourceOptions& o) {
    cmd->add_option("--vulkan", o.vulkan, "Vulkan version a shader is compiled for: 1.0, 1.1, 1.2 or 1.3")
        ->capture_default_str();
    cmd->add_option("--entry", o.shader.entryPoint, "an HLSL shader's entry-point function")->capture_default_str();
    cmd->add_option("-D", o.defines, "a GLSL or HLSL macro, NAME or NAME=VALUE (repeatable)")->allow_extra_args(false);
    cmd->add_option("-I", o.includeDirs, "a folder a GLSL or HLSL #include searches (repeatable)")
        ->allow_extra_args(false);
  };
  auto* disCmd = app.add_subcommand("dis", "disassemble a SPIR-V module (or a .cl file, compiled as clref run does, or "
                                           "a Vulkan compute shader), each instruction after the word offset "
                                           "diagnostics cite");
  disCmd->add_option("module", disPath,
                     "SPIR-V module, OpenCL C source (.cl) or compute shader (.comp, .glsl, .hlsl, .spvasm)")
      ->required();
  disCmd->add_option("--build-options", disOptions.buildOptions,
                     "OpenCL build options for a .cl file (as a case's build_options)");
  addShaderOptions(disCmd, disOptions);
  auto* infoCmd = app.add_subcommand("info", "show a SPIR-V module's (or a .cl file's, or a Vulkan compute shader's) "
                                             "version, capabilities and kernels or shader interface");
  infoCmd->add_option("module", infoPath,
                      "SPIR-V module, OpenCL C source (.cl) or compute shader (.comp, .glsl, .hlsl, .spvasm)")
      ->required();
  infoCmd->add_option("--build-options", infoOptions.buildOptions,
                      "OpenCL build options for a .cl file (as a case's build_options)");
  addShaderOptions(infoCmd, infoOptions);
  auto* choicesCmd = app.add_subcommand("choices", "list every named choice with its options and default, by API");
  std::string choicesApi;
  choicesCmd->add_option("--api", choicesApi, "only the choices of opencl or vulkan programs (and those of both)")
      ->check(CLI::IsMember({"opencl", "vulkan"}));
  std::string amberPath, amberTargetEnv;
  cli::amber::RunOptions amberOptions;
  auto* amberCmd = app.add_subcommand(
      "amber", "run an AmberScript's compute pipelines and judge its EXPECTs: a PASS or FAIL line each, then the "
               "counts (exit 0 all pass, 1 an EXPECT failed, 2 a script error, 3 something clref does not run)");
  amberCmd->add_option("script", amberPath, "AmberScript file (.amber)")->required();
  amberCmd->add_option("--target-env", amberTargetEnv,
                       "Vulkan version of shaders without TARGET_ENV: 1.0, 1.1, 1.2 or 1.3 (default 1.0, amber's "
                       "spv1.0)")
      ->check([](const std::string& v) {
        return compiler::parseVulkanVersion(v) ? std::string() : std::string("expected 1.0, 1.1, 1.2 or 1.3");
      });
  amberCmd->add_option("--threads", amberOptions.threads, "worker threads (0: all hardware threads)");
  std::string amberDevice;
  auto* amberDeviceOpt =
      amberCmd
          ->add_option("--device", amberDevice,
                       "run the pipelines on the Vulkan device whose name contains NAME (none: the first) and judge "
                       "every RUN's storage buffers against clref's allowed sets (exit 1 on a violation)")
          ->expected(0, 1)
          ->type_name("[NAME]");
  amberCmd->add_option("--report", amberOptions.reportPath, "with --device: the JSON report of every judged RUN")
      ->needs(amberDeviceOpt);
  amberCmd
      ->add_option("--html", amberOptions.htmlPath,
                   "with --device: the report of every judged RUN as one self-contained HTML page")
      ->type_name("FILE")
      ->needs(amberDeviceOpt);
  amberCmd
      ->add_option("--plant-errors", amberOptions.plantErrors,
                   "with --device: a wrong device for testing the judge: element i of every storage buffer a RUN may "
                   "write, for i a multiple of K, is changed beyond any allowed set before it is judged")
      ->type_name("K")
      ->needs(amberDeviceOpt);
  amberCmd->add_flag("--quiet", amberOptions.quiet,
                     "no progress line on stderr (shown only when stderr is a terminal)");
  cli::MathCommandOptions math;
  auto* mathCmd = cli::addMathCommand(app, math);
  cli::ImageCommandOptions image;
  const auto imageCmds = cli::addImageCommand(app, image);
  cli::CheckSpoolOptions checkSpool;
  auto* checkSpoolCmd = cli::addCheckSpoolCommand(app, checkSpool);
  cli::SweepOptions sweep;
  auto* sweepCmd = cli::addSweepCommand(app, sweep);

  // Every command's --help ends with one example (paths from the repository's root).
  app.footer("Example: clref run golden/cases/vadd.json --print");
  runCmd->footer("Example: clref run golden/cases/vadd.json --print");
  exploreCmd->footer("Example: clref explore golden/cases/math_functions.json");
  checkCmd->footer("Example: clref check golden/cases/vadd.json --observed out --html report.html  (out holds "
                   "vadd.arg2.bin from the device judged, as clref run --out writes it)");
  debugCmd->footer("Example: clref debug golden/cases/vadd.json --commands commands.txt");
  disCmd->footer("Example: clref dis golden/kernels/vadd.cl");
  infoCmd->footer("Example: clref info tests/compiler/shaders/layouts.comp");
  choicesCmd->footer("Example: clref choices --api vulkan");
  amberCmd->footer("Example: clref amber tests/cli/amber/expect.amber");
  mathCmd->footer("Example: clref math sin 0x1.921fb6p+0 --check 0x1p+0");
  app.get_subcommand("image")->footer(
      "Example: clref image write --format CL_R,CL_UNORM_INT8 --color 0.5 --check 7f");
  imageCmds.read->footer("Example: clref image read --format CL_R,CL_UNORM_INT8 --size 4 --texels 33 --coord 2");
  imageCmds.write->footer("Example: clref image write --format CL_R,CL_UNORM_INT8 --color 0.5 --check 7f");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) { return app.exit(e) == 0 ? 0 : kRejected; }
  try {
    if (*runCmd) {
      cli::RankOutput ranks;
      return ranks.finish(runCommand(run));
    }
    if (*exploreCmd) {
      cli::RankOutput ranks;
      return ranks.finish(exploreCommand(explore));
    }
    if (*debugCmd) return debugCommand(debug, debugCommands);
    if (*checkCmd) {
      cli::RankOutput ranks;
      if (*checkDeviceOpt) check.device = checkDevice;
      if (!*checkDeviceOpt && !*observedOpt) {
        std::cerr << "check: --observed DIR or --device [NAME] is required\n";
        return ranks.finish(kRejected);
      }
      if (cli::cluster::size() > 1) check.judge = cli::checkSharded;
      return ranks.finish(cli::checkCommand(check, host::Device()));
    }
    if (*disCmd) return disCommand(disPath, disOptions);
    if (*infoCmd) return infoCommand(infoPath, infoOptions);
    if (*choicesCmd) return choicesCommand(choicesApi);
    if (*amberCmd) {
      if (!amberTargetEnv.empty()) amberOptions.targetEnv = compiler::parseVulkanVersion(amberTargetEnv);
      if (*amberDeviceOpt) amberOptions.device = amberDevice;
      return cli::amber::runScriptFile(amberPath, std::cout, std::cerr, amberOptions);
    }
    if (*mathCmd) return cli::mathCommand(math);
    if (*imageCmds.read) return cli::imageReadCommand(image);
    if (*imageCmds.write) return cli::imageWriteCommand(image);
    if (*checkSpoolCmd) return cli::checkSpoolCommand(checkSpool);
    if (*sweepCmd) return cli::sweepCommand(sweep);
  } catch (const std::exception& e) {
    std::cerr << "clref: internal error: " << e.what() << "\n";
    return kInternal;
  }
  return 0;
}
