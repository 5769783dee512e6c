// The check layer's reports (report.hpp).
#include "layer/report.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
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

}  // namespace

void reportChecked(const Enqueue& e) {
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
