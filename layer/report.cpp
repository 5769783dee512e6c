// The check layer's reports (report.hpp).
#include "layer/report.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>

#include "layer/settings.hpp"
#include "layer/spool.hpp"

namespace clref::layer {
namespace {

void appendToReport(const nlohmann::json& j) {
  const std::string& path = settings().reportPath;
  if (path.empty()) return;
  const std::string line = host::reportLine(j);
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

// With CLREF_CHECK_SPOOL the line goes into the spool at its place in enqueue order, and check-spool writes it.
void append(const nlohmann::json& j, const std::string& summary) {
  if (!settings().spoolDir.empty()) {
    spoolLine(j, summary);
    return;
  }
  appendToReport(j);
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
  const nlohmann::json j = host::enqueueJson(e);
  const std::string line = host::enqueueLine(e, j);
  append(j, line);
  std::fprintf(stderr, "%s\n", line.c_str());
}

void reportChecked(const ShaderDispatch& d) {
  const host::CheckReport& r = d.report;
  nlohmann::json j = host::verdictJson(r, d.entryPoint);
  j["api"] = "vulkan";
  j["command"] = d.command;
  j["groups_dispatched"] = d.groups;
  j["local"] = host::sizesJson(r.run.localSize, 3);
  auto bindings = nlohmann::json::array();
  for (const auto& [arg, at] : d.bindingOf) bindings.push_back({{"arg", arg}, {"set", at.first}, {"binding", at.second}});
  j["bindings"] = std::move(bindings);
  if (!d.note.empty()) j["note"] = d.note;
  const std::string line =
      "clref check: " + d.entryPoint + " " + d.command + "(" + std::to_string(d.groups[0]) + "," +
      std::to_string(d.groups[1]) + "," + std::to_string(d.groups[2]) + ") local " +
      host::sizesText(r.run.localSize, 3) + ": " +
      host::verdictText(r, j, settings().strict,
                        [&](const host::BufferVerdict& b) {
                          const auto at = d.bindingOf.find(b.arg);
                          return "set " + std::to_string(at == d.bindingOf.end() ? 0 : at->second.first) +
                                 " binding " + std::to_string(at == d.bindingOf.end() ? 0 : at->second.second) +
                                 " (" + b.name + ")";
                        }) +
      (d.note.empty() ? "" : "\n  " + d.note);
  appendToReport(j);
  std::fprintf(stderr, "%s\n", line.c_str());
}

void reportNotChecked(const std::string& kernel, const std::string& reason) {
  const std::string line = "clref check: " + kernel + " not checked: " + reason;
  append(host::notCheckedJson(kernel, reason), line);
  std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace clref::layer
