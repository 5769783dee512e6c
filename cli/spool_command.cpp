// `clref check-spool` (spool_command.hpp).
#include "cli/spool_command.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "check/enqueue_report.hpp"
#include "cli/case_file.hpp"
#include "cli/cluster.hpp"

namespace clref::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kViolation = 1, kSpoolRejected = 2;
// The layer's reason for not checking a kernel that enqueues kernels (layer/enqueue_check.cpp prepare).
constexpr const char* kDeviceSideEnqueue = "the kernel enqueues kernels on the device (device-side enqueue)";

// A case folder that cannot be judged as it is (a file missing or of the wrong size).
struct Incomplete : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  if (!in) throw Incomplete(p.string() + " cannot be read");
  return s.str();
}

// The spool's case folders (layer/spool.hpp: named by their number), in enqueue order.
std::vector<fs::path> caseFolders(const fs::path& dir) {
  std::vector<std::pair<uint64_t, fs::path>> found;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    found.emplace_back(std::stoull(name), entry.path());
  }
  std::sort(found.begin(), found.end());
  std::vector<fs::path> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

// A case's size in bytes: what judging it costs, roughly (clref's run touches every byte of its buffers).
uint64_t bytesOf(const fs::path& folder) {
  uint64_t n = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec))
    if (entry.is_regular_file(ec)) n += entry.file_size(ec);
  return n;
}

// The report object and the summary line of one enqueue, packed as the object's line (which ends with a newline)
// followed by the summary: what a rank sends back.
std::string packed(const json& line, const std::string& summary) { return host::reportLine(line) + summary; }

std::string notChecked(const std::string& kernel, const std::string& reason) {
  return packed(host::notCheckedJson(kernel, reason), "clref check: " + kernel + " not checked: " + reason);
}

// Why the layer judging at once would not have checked an enqueue whose case does not prepare on clref: the layer
// spools most enqueues without building their programs on clref (layer/spool_args.hpp), so a program that does not
// build on clref, or a kernel the layer passes over, comes to light here. Built as the layer builds (enqueue_check.cpp
// buildOnClref, programOf), so the reason is the layer's; only when that build succeeds is the case's own error given.
std::string layerReason(const Case& c, const host::Device& device, const std::string& kernel,
                        const std::exception& caseError) {
  std::shared_ptr<host::Program> program;
  try {
    const std::string bytes = readAll(c.module);
    if (c.module.extension() == ".cl") {
      host::BuildOptions parsed;
      host::parseBuildOptions(c.buildOptions.c_str(), host::BuildStep::Build, parsed);
      program = host::Program::fromOpenCLC(device, host::OpenCLCSource{bytes, parsed.compiler, {}, ""});
    } else {
      std::vector<uint32_t> words(bytes.size() / sizeof(uint32_t));
      std::memcpy(words.data(), bytes.data(), words.size() * sizeof(uint32_t));
      program = host::Program::fromSpirv(device, std::move(words));
    }
    for (const auto& [id, value] : c.specConstants) program->setSpecConstant(id, value.data(), value.size());
  } catch (const std::exception& e) { return std::string("the program does not build on clref: ") + e.what(); }
  try {
    if (host::Kernel(program, kernel).enqueuesKernels()) return kDeviceSideEnqueue;
  } catch (const std::exception& e) { return e.what(); }
  return std::string("the program does not build on clref: ") + caseError.what();
}

// Judges one spooled enqueue as the layer judges one at once (layer/enqueue_check.cpp finish): clref's device with the
// facts of the application's device, the kernel from the case, every buffer and image the kernel may write observed.
std::string judge(const fs::path& folder, unsigned threads) {
  const json enqueue = json::parse(readAll(folder / "enqueue.json"));
  if (enqueue.contains("line")) return packed(enqueue["line"], enqueue.value("summary", std::string()));
  const std::string kernel = enqueue.at("kernel").get<std::string>();
  host::DeviceConfig config;
  const json& d = enqueue.at("device");
  config.addressBits = d.at("address_bits").get<unsigned>();
  config.fp16 = d.at("fp16").get<bool>();
  config.fp64 = d.at("fp64").get<bool>();
  config.maxWorkGroupSize = d.at("max_work_group_size").get<size_t>();
  config.localMemSize = d.at("local_mem_size").get<uint64_t>();
  config.maxMemAllocSize = d.at("max_mem_alloc_size").get<uint64_t>();
  if (d.at("races").get<bool>()) config.checks.add(interpreter::Check::Races);
  config.checksFatal = false;
  config.threads = threads;
  const host::Device device(config);

  const Case c = loadCase(folder / "case.json");
  PreparedCase p;
  try {
    p = prepareCase(c, device);
  } catch (const std::exception& e) { return notChecked(kernel, layerReason(c, device, kernel, e)); }
  // The layer passes such a kernel over (enqueue_check.cpp prepare); spooled without a build, it is said here.
  if (p.kernel->enqueuesKernels()) return notChecked(kernel, kDeviceSideEnqueue);
  const numerics::Profile profile =
      enqueue.at("profile") == "embedded" ? numerics::Profile::Embedded : numerics::Profile::Full;
  host::EnqueueVerdict v;
  v.kernel = kernel;
  try {
    host::CheckOptions options;
    try {
      options = host::checkOptionsFor(profile, enqueue.at("build_options").get<std::string>());
    } catch (const std::exception& e) {
      options = host::checkOptionsFor(profile, "");
      v.optionsNote = e.what();
    }
    options.sampleGroups = enqueue.at("groups").get<uint64_t>();
    options.strict = enqueue.at("strict").get<bool>();
    std::vector<host::ObservedBuffer> observed;
    std::vector<host::ObservedImage> observedImages;
    for (size_t i = 0; i < p.kernel->argCount(); ++i) {
      const host::KernelArgInfo& info = p.kernel->argInfo(i);
      const fs::path file = folder / ("case.arg" + std::to_string(i) + ".bin");
      if (info.kind == host::ArgKind::Buffer && c.args[i].kind == ArgSpec::Kind::Buffer &&
          host::mayWriteThrough(info)) {
        const std::string bytes = readAll(file);
        observed.push_back({i, host::elementTypeOf(info.typeName).value_or(numerics::ScalarType::UChar),
                            std::vector<uint8_t>(bytes.begin(), bytes.end()), host::layoutOf(info)});
      } else if (info.kind == host::ArgKind::Image && info.access != host::KernelArgInfo::Access::ReadOnly) {
        const std::string bytes = readAll(file);
        observedImages.push_back({i, std::vector<uint8_t>(bytes.begin(), bytes.end())});
      }
    }
    v.range = p.range;
    v.deviceChoseLocal = !c.range.local.has_value();
    v.strict = options.strict;
    v.report = host::check(*p.kernel, p.range, observed, observedImages, options);
  } catch (const std::exception& e) { return notChecked(kernel, e.what()); }
  const json line = host::enqueueJson(v);
  return packed(line, host::enqueueLine(v, line));
}

}  // namespace

CLI::App* addCheckSpoolCommand(CLI::App& app, CheckSpoolOptions& o) {
  auto* cmd = app.add_subcommand(
      "check-spool",
      "judge every enqueue the check layer spooled (CLREF_CHECK_SPOOL=DIR): the layer's JSON lines in enqueue order "
      "(--report) and its summary lines; under mpirun the cases are spread over the ranks (exit 1 on a violation)");
  cmd->add_option("dir", o.dir, "the spool folder (CLREF_CHECK_SPOOL)")->required();
  cmd->add_option("--report", o.reportPath, "write the JSON lines (one per enqueue) to FILE");
  return cmd;
}

int checkSpoolCommand(const CheckSpoolOptions& o) {
  std::vector<fs::path> folders;
  std::error_code ec;
  if (!fs::is_directory(o.dir, ec)) {
    if (cluster::rank() == 0) std::cerr << "check-spool: " << o.dir << " is not a folder\n";
    return kSpoolRejected;
  }
  folders = caseFolders(o.dir);
  std::vector<uint64_t> cost;
  for (const auto& f : folders) cost.push_back(bytesOf(f));
  // Each rank on a host takes its share of the host's cores for clref's runs.
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const unsigned threads = cluster::localSize() > 1 ? std::max(1u, hardware / unsigned(cluster::localSize())) : 0;
  const auto results = cluster::distribute(cost, [&](size_t i) {
    try {
      return judge(folders[i], threads);
    } catch (const std::exception& e) {
      return notChecked("?", "the spooled case " + folders[i].string() + " cannot be read: " + e.what());
    }
  });
  int status = 0;
  if (cluster::rank() == 0) {
    std::ofstream report;
    if (!o.reportPath.empty()) {
      report.open(o.reportPath, std::ios::binary | std::ios::trunc);
      if (!report) {
        std::cerr << "check-spool: --report: cannot write " << o.reportPath << "\n";
        status = kSpoolRejected;
      }
    }
    size_t violating = 0, unchecked = 0;
    for (const std::string& r : results) {
      const size_t end = r.find('\n') + 1;
      const json line = json::parse(r.substr(0, end));
      if (report.is_open()) report << r.substr(0, end);
      std::cout << r.substr(end) << "\n";
      if (!line.value("checked", false))
        ++unchecked;
      else if (line.value("violations", uint64_t(0)) > 0)
        ++violating;
    }
    std::cout << "check-spool: " << results.size() << " enqueues, " << violating << " with violations, " << unchecked
              << " not checked (" << cluster::size() << (cluster::size() == 1 ? " process" : " ranks") << ")\n";
    if (report.is_open() && !report.flush()) status = kSpoolRejected;
    if (status == 0 && violating) status = kViolation;
  }
  return cluster::fromRankZero(status);
}

}  // namespace clref::cli
