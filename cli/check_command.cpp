// `clref check` (cli/check_command.hpp).
#include "cli/check_command.hpp"

#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "check/check_json.hpp"
#include "check/html_report.hpp"

#include "check/check.hpp"
#include "host/elements.hpp"
#include "cli/case_file.hpp"
#include "cli/progress_line.hpp"
#include "cli/value_syntax.hpp"
#include "cli/vulkan_case.hpp"
#include "layer/vulkan/compute_device.hpp"

namespace clref::cli {
namespace {

constexpr int kViolation = 1, kRejected = 2;

struct Rejected : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string readAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  if (!in) throw Rejected(p.string() + ": cannot be read");
  return s.str();
}

// The observed contents of output buffer `arg`: <stem>.arg<N>.bin, else <stem>.arg<N>.txt.
std::vector<uint8_t> observedBytes(const std::filesystem::path& dir, const std::string& stem, size_t arg,
                                   const BufferSpec& spec) {
  const auto base = dir / (stem + ".arg" + std::to_string(arg));
  const size_t size = spec.count * sizeOf(spec.type);
  const auto bin = std::filesystem::path(base.string() + ".bin"), txt = std::filesystem::path(base.string() + ".txt");
  if (std::filesystem::exists(bin)) {
    const std::string bytes = readAll(bin);
    if (bytes.size() != size)
      throw Rejected(bin.string() + ": " + std::to_string(bytes.size()) + " bytes; argument " + std::to_string(arg) +
                     " holds " + std::to_string(spec.count) + " " + std::string(toString(spec.type)) + " (" +
                     std::to_string(size) + " bytes)");
    return std::vector<uint8_t>(bytes.begin(), bytes.end());
  }
  if (!std::filesystem::exists(txt))
    throw Rejected("no observed output for argument " + std::to_string(arg) + ": neither " + bin.string() + " nor " +
                   txt.string());
  std::istringstream lines(readAll(txt));
  std::vector<uint8_t> out(size);
  size_t n = 0, number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    std::istringstream words(line);
    std::string first, second;
    if (!(words >> first)) continue;
    words >> second;
    if (n == spec.count)
      throw Rejected(txt.string() + ": more than " + std::to_string(spec.count) + " values (line " +
                     std::to_string(number) + ")");
    const std::string where = txt.string() + " line " + std::to_string(number);
    // "nan 0x<bits>" keeps a NaN's payload (the output text format); anything else is one value.
    uint64_t bits = 0;
    if (first == "nan" && !second.empty()) {
      try {
        bits = std::stoull(second, nullptr, 16);
      } catch (const std::exception&) { throw Rejected(where + ": bad NaN bits '" + second + "'"); }
    } else {
      try {
        bits = detail::elementBitsFromText(spec.type, first, where);
      } catch (const CaseError& e) { throw Rejected(e.what()); }
    }
    detail::storeBits(spec.type, bits, reinterpret_cast<std::byte*>(out.data()) + n * sizeOf(spec.type));
    ++n;
  }
  if (n != spec.count)
    throw Rejected(txt.string() + ": " + std::to_string(n) + " values; argument " + std::to_string(arg) + " holds " +
                   std::to_string(spec.count));
  return out;
}

// The observed contents of output image `arg` (packed as case files hold images): <stem>.arg<N>.bin, else
// <stem>.arg<N>.txt in the output text format (one element per line).
std::vector<uint8_t> observedImageBytes(const std::filesystem::path& dir, const std::string& stem, size_t arg,
                                        const ImageSpec& spec) {
  const auto base = dir / (stem + ".arg" + std::to_string(arg));
  const size_t size = imageContentBytes(spec.desc);
  const auto bin = std::filesystem::path(base.string() + ".bin"), txt = std::filesystem::path(base.string() + ".txt");
  if (std::filesystem::exists(bin)) {
    const std::string bytes = readAll(bin);
    if (bytes.size() != size)
      throw Rejected(bin.string() + ": " + std::to_string(bytes.size()) + " bytes; image argument " +
                     std::to_string(arg) + " holds " + std::to_string(imageElementCount(spec.desc)) + " elements (" +
                     std::to_string(size) + " bytes)");
    return std::vector<uint8_t>(bytes.begin(), bytes.end());
  }
  if (!std::filesystem::exists(txt))
    throw Rejected("no observed output for argument " + std::to_string(arg) + ": neither " + bin.string() + " nor " +
                   txt.string());
  try {
    const auto bytes = parseImage(spec.desc, readAll(txt), txt.string());
    std::vector<uint8_t> out(bytes.size());
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  } catch (const CaseError& e) { throw Rejected(e.what()); }
}

}  // namespace

void printCheckReport(std::ostream& out, const host::CheckReport& report,
                      const std::function<std::string(const host::BufferVerdict&)>& label, size_t shown, bool strict) {
  for (const auto& b : report.buffers) {
    out << label(b) << b.elements << (b.image ? " image" : "") << " elements): " << b.identical
        << " identical, " << b.allowed << " allowed, " << b.violations << " violation" << (b.violations == 1 ? "" : "s")
        << ", " << b.undetermined << " undetermined\n";
    // How much of the verdict rests on the set "any value", and where those sets came from.
    if (b.anyValue) {
      out << "  " << b.anyValue << " of them judged against the set any value"
          << (strict ? " (undetermined under --strict)" : " (--strict counts them undetermined)") << ":\n";
      size_t listed = 0;
      for (const auto& a : b.anyValueBy) {
        if (listed++ == 3) {
          out << "    ... (--report lists every source)\n";
          break;
        }
        out << "    " << a.elements << " from " << (a.instruction.empty() ? "(no instruction)" : a.instruction) << ": "
            << a.why << "\n";
      }
    }
    size_t printed = 0;
    for (const auto& d : b.details) {
      if (d.cls != host::ElementClass::Violation && d.cls != host::ElementClass::Undetermined) continue;
      if (printed++ == shown) {
        out << "  ...\n";
        break;
      }
      out << "  [" << d.index << "] " << host::toString(d.cls) << ": observed " << d.observed << ", clref "
          << d.reference << "; " << d.reason << "\n";
    }
  }
  if (!report.decisions.empty()) {
    out << report.decisionCount << " open decision" << (report.decisionCount == 1 ? "" : "s")
        << " (the allowed sets do not fix the outcome); the first:\n  " << report.decisions.front().message;
    if (!report.decisions.front().instruction.empty()) out << "\n  at " << report.decisions.front().instruction;
    if (!report.decisions.front().sourceLine.empty()) out << "\n  | " << report.decisions.front().sourceLine;
    out << "\n";
  }
}

int checkCommand(const CheckCommandOptions& o, const host::Device& device) {
  try {
    Case c = loadCase(o.casePath);
    for (const auto& choice : o.choices) c.choices.push_back(choice);
    if (o.budget) c.instructionBudget = o.budget;
    numerics::Profile profile;
    if (o.profile == "full")
      profile = numerics::Profile::Full;
    else if (o.profile == "embedded")
      profile = numerics::Profile::Embedded;
    else
      throw Rejected("--profile: expected full or embedded, got '" + o.profile + "'");
    host::CheckOptions options;
    try {
      options = host::checkOptionsFor(profile, o.options);
    } catch (const host::Error& e) { throw Rejected(std::string("--options: ") + e.what()); }
    options.strict = o.strict;

    std::unique_ptr<vulkan::ComputeDevice> vulkanDevice;
    host::Device clrefDevice = device;
    if (o.device) {
      try {
        vulkanDevice = std::make_unique<vulkan::ComputeDevice>(*o.device);
      } catch (const vulkan::Error& e) { throw Rejected(std::string("--device: ") + e.what()); }
      // The subgroups clref judges with are the device's.
      clrefDevice.config().subgroupSize = vulkanDevice->info().subgroupSize;
      std::cout << "device: " << vulkanDevice->info().describe() << "\n";
    }
    // Work-groups of clref's run done, while it runs; erased before the report is printed (declared before the
    // kernel, which holds its callback).
    ProgressLine progress("work-groups", ProgressLine::wanted(o.quiet));
    clrefDevice.config().progress = progress.callback();
    PreparedCase p = prepareCase(c, clrefDevice);
    const std::string stem = c.file.stem().string();
    std::vector<host::ObservedBuffer> observed;
    if (vulkanDevice) {
      try {
        observed = runOnVulkanDevice(c, p, *vulkanDevice, o.plantErrors);
      } catch (const vulkan::Error& e) { throw Rejected(o.casePath + ": the device could not run it: " + e.what()); }
    } else {
      for (const auto& [arg, buffer] : p.outputs) {
        const auto& spec = c.args[arg].buffer;
        if (spec.judgeAsParameter) {
          const host::KernelArgInfo& info = p.kernel->argInfo(arg);
          observed.push_back({arg, host::elementTypeOf(info.typeName).value_or(spec.type),
                              observedBytes(o.observedDir, stem, arg, spec), host::layoutOf(info)});
        } else {
          observed.push_back({arg, spec.type, observedBytes(o.observedDir, stem, arg, spec)});
        }
      }
    }
    std::vector<host::ObservedImage> observedImages;
    for (const auto& [arg, image] : p.imageOutputs)
      observedImages.push_back({arg, observedImageBytes(o.observedDir, stem, arg, c.args[arg].image)});
    if (observed.empty() && observedImages.empty())
      throw Rejected(o.casePath + ": the case marks no buffer or image as an output");
    std::vector<std::string> notes;
    const std::optional<host::CheckReport> judged =
        o.judge && !vulkanDevice ? o.judge(c, p, clrefDevice, observed, observedImages, options, notes)
                                 : host::check(*p.kernel, p.range, observed, observedImages, options);
    progress.finish();
    if (!judged) return 0;
    const host::CheckReport& report = *judged;
    for (const auto& note : notes) std::cerr << "clref: " << note << "\n";
    const auto label = [&](const host::BufferVerdict& b) {
      // A module without OpName (e.g. llvm-spirv's -O2 output) leaves the parameter unnamed: "arg 3 (768 elements)".
      return "arg " + std::to_string(b.arg) + resourceLabel(c.args[b.arg]) + " (" + b.name + (b.name.empty() ? "" : ", ");
    };
    // The HTML report also of a faulting run: it says the report is incomplete and why.
    if (!o.htmlPath.empty()) {
      host::HtmlSection section;
      section.title = c.kernel + " (" + o.casePath + ")";
      section.kernel = c.kernel;
      section.profile = o.profile;
      section.buildOptions = o.options;
      section.range = p.range;
      section.choices = p.kernel->choices();
      for (const auto& b : report.buffers) section.labels.push_back(label(b) + ")");
      for (const auto& image : observedImages) section.images.push_back(host::htmlImageOf(*p.kernel, image));
      section.report = report;
      std::ofstream out(o.htmlPath);
      host::writeHtmlReport(out, "clref check " + c.file.filename().string(), {section});
      if (!out) throw Rejected("--html: cannot write " + o.htmlPath);
    }
    if (!report.run.ok) {
      std::cerr << (report.run.fault ? report.run.fault->format() : std::string("clref's run failed")) << "\n";
      return kViolation;
    }
    printCheckReport(std::cout, report, label, o.shown, o.strict);
    if (!o.reportPath.empty()) {
      std::ofstream out(o.reportPath);
      auto json = host::toJson(report, c.kernel);
      if (!notes.empty()) json["notes"] = notes;
      out << json.dump(2) << "\n";
      if (!out) throw Rejected("--report: cannot write " + o.reportPath);
    }
    return report.anyViolation() ? kViolation : 0;
  } catch (const Rejected& e) { std::cerr << e.what() << "\n"; } catch (const CaseError& e) {
    std::cerr << e.what() << "\n";
  } catch (const interpreter::ModuleError& e) {
    std::cerr << o.casePath << ": " << e.what() << "\n";
  } catch (const host::Error& e) { std::cerr << o.casePath << ": " << e.what() << "\n"; }
  return kRejected;
}

}  // namespace clref::cli
