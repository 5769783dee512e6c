// The check layer's reports (report.hpp).
#include "layer/report.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>

#include "check/check_json.hpp"
#include "layer/settings.hpp"

namespace clref::layer {
namespace {

// Elements listed per enqueue in the JSON details; the rest are counted in "details_omitted".
constexpr size_t kMaxDetails = 1000;

std::string sizes(const std::array<size_t, 3>& s, unsigned dims) {
  std::string out = "(";
  for (unsigned d = 0; d < dims; ++d) out += (d ? "," : "") + std::to_string(s[d]);
  return out + ")";
}

nlohmann::json sizesJson(const std::array<size_t, 3>& s, unsigned dims) {
  auto j = nlohmann::json::array();
  for (unsigned d = 0; d < dims; ++d) j.push_back(s[d]);
  return j;
}

void append(const nlohmann::json& j) {
  const std::string& path = settings().reportPath;
  if (path.empty()) return;
  const std::string line = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    std::fprintf(stderr, "clref check layer: cannot open CLREF_CHECK_REPORT=%s\n", path.c_str());
    return;
  }
  const ssize_t written = ::write(fd, line.data(), line.size());
  if (written != ssize_t(line.size()))
    std::fprintf(stderr, "clref check layer: could not write to CLREF_CHECK_REPORT=%s\n", path.c_str());
  ::close(fd);
}

// CLREF_CHECK_HTML: the page holds the first kMaxHtmlSections checked enqueues (later ones are counted in its title),
// and of each output at most kMaxHtmlAllowed allowed elements (for the histogram and the map): the layer keeps them in
// memory for the whole application.
constexpr size_t kMaxHtmlSections = 200;
constexpr size_t kMaxHtmlAllowed = size_t(1) << 18;

// Adds the enqueue to the application's HTML report and writes the whole page anew, to a temporary file renamed over
// the report: after every enqueue, not at exit, so that an application that crashes, calls _exit or is killed still
// leaves a complete page of what was judged until then (a layer's exit handlers run in an order the application and
// the loader decide).
void writeHtml(const Enqueue& e) {
  const std::string& path = settings().htmlPath;
  if (path.empty()) return;
  static std::mutex mu;
  static std::vector<host::HtmlSection> sections;
  static uint64_t checked = 0;
  std::lock_guard lock(mu);
  ++checked;
  if (sections.size() < kMaxHtmlSections) {
    host::HtmlSection s;
    s.title = "enqueue " + std::to_string(checked) + ": " + e.kernel;
    s.kernel = e.kernel;
    s.profile = e.profile;
    s.buildOptions = e.buildOptions + (e.optionsNote.empty() ? "" : " (not weighed: " + e.optionsNote + ")");
    s.range = e.range;
    s.choices = e.choices;
    s.images = e.images;
    s.report = e.report;
    for (auto& b : s.report.buffers) {
      size_t allowed = 0;
      std::erase_if(b.details, [&](const host::ElementVerdict& d) {
        return d.cls == host::ElementClass::Allowed && ++allowed > kMaxHtmlAllowed;
      });
    }
    sections.push_back(std::move(s));
  }
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary);
    std::string title =
        "clref check layer: " + std::to_string(checked) + " checked enqueue" + (checked == 1 ? "" : "s");
    if (checked > sections.size())
      title += " (the first " + std::to_string(sections.size()) + " shown; CLREF_CHECK_REPORT lists every one)";
    host::writeHtmlReport(out, title, sections);
    if (!out) {
      std::fprintf(stderr, "clref check layer: could not write CLREF_CHECK_HTML=%s\n", temporary.c_str());
      return;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0)
    std::fprintf(stderr, "clref check layer: could not write CLREF_CHECK_HTML=%s\n", path.c_str());
}

}  // namespace

void reportChecked(const Enqueue& e) {
  writeHtml(e);
  const host::CheckReport& r = e.report;
  nlohmann::json j = host::toJson(r, e.kernel);
  // The elements are listed once, in "details" below, violating and undetermined ones only and at most kMaxDetails:
  // an allowed difference in every element of a large launch would otherwise make a line of hundreds of megabytes.
  for (auto& b : j["buffers"]) b.erase("details");
  j["checked"] = true;
  j["global"] = sizesJson(e.range.global, e.range.dims);
  j["offset"] = sizesJson(e.range.offset, e.range.dims);
  j["local"] = sizesJson(r.run.localSize, e.range.dims);
  j["local_chosen_by"] = e.deviceChoseLocal ? "clref (the application gave none)" : "the application";
  if (!e.optionsNote.empty()) j["options_note"] = e.optionsNote;
  uint64_t notJudged = 0;
  for (const auto& b : r.buffers) notJudged += b.notJudged;
  if (!r.sampledGroups.empty()) {
    j["groups"] = r.sampledGroups;  // CLREF_CHECK_GROUPS: the work-groups clref ran
    j["not_judged"] = notJudged;    // elements none of them wrote
  }
  // Every violating or undetermined element, across buffers.
  auto details = nlohmann::json::array();
  size_t omitted = 0;
  const host::ElementVerdict* firstViolation = nullptr;
  const host::BufferVerdict* firstBuffer = nullptr;
  for (const auto& b : r.buffers)
    for (const auto& d : b.details) {
      if (d.cls == host::ElementClass::Violation && !firstViolation) {
        firstViolation = &d;
        firstBuffer = &b;
      }
      if (d.cls != host::ElementClass::Violation && d.cls != host::ElementClass::Undetermined) continue;
      if (details.size() == kMaxDetails) {
        ++omitted;
        continue;
      }
      details.push_back({{"arg", b.arg},
                         {"name", b.name},
                         {"index", d.index},
                         {"class", host::toString(d.cls)},
                         {"observed", d.observed},
                         {"reference", d.reference},
                         {"allowed", d.allowedString()},
                         {"reason", d.reason}});
    }
  j["details"] = std::move(details);
  if (omitted) j["details_omitted"] = omitted;
  if (r.run.fault) j["fault"] = r.run.fault->format();
  j["findings"] = nlohmann::json::array();
  for (const auto& f : r.run.findings) j["findings"].push_back(f.format());
  append(j);

  std::string line = "clref check: " + e.kernel + " global " + sizes(e.range.global, e.range.dims) + " local " +
                     sizes(r.run.localSize, e.range.dims) + ": " + std::to_string(j["identical"].get<uint64_t>()) +
                     " identical, " + std::to_string(j["allowed"].get<uint64_t>()) + " allowed, " +
                     std::to_string(j["violations"].get<uint64_t>()) + " violations, " +
                     std::to_string(j["undetermined"].get<uint64_t>()) + " undetermined";
  if (const uint64_t any = j["any_value"].get<uint64_t>())
    line += " (" + std::to_string(any) + " judged against the set any value" +
            (settings().strict ? ", undetermined under CLREF_CHECK_STRICT" : "") + ")";
  if (!r.sampledGroups.empty())
    line += " (" + std::to_string(r.sampledGroups.size()) + " work-groups sampled; " + std::to_string(notJudged) +
            " elements they did not write not judged)";
  if (firstViolation)
    line += "; first violation: argument " + std::to_string(firstBuffer->arg) + " (" + firstBuffer->name + ") [" +
            std::to_string(firstViolation->index) + "] observed " + firstViolation->observed + ", allowed " +
            firstViolation->allowedString() + " (" + firstViolation->reason + ")";
  if (r.run.fault) line += "\n  clref's run faulted, so the verdicts are incomplete: " + r.run.fault->format();
  for (const auto& f : r.run.findings) line += "\n  " + f.format();
  if (e.deviceChoseLocal)
    line += "\n  the application gave no local size; clref used " + sizes(r.run.localSize, e.range.dims);
  std::fprintf(stderr, "%s\n", line.c_str());
}

void reportNotChecked(const std::string& kernel, const std::string& reason) {
  append({{"kernel", kernel}, {"checked", false}, {"reason", reason}});
  std::fprintf(stderr, "clref check: %s not checked: %s\n", kernel.c_str(), reason.c_str());
}

}  // namespace clref::layer
