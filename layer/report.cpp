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

// With CLREF_CHECK_SPOOL the line goes into the spool at its place in enqueue order, and check-spool writes it.
void append(const nlohmann::json& j, const std::string& summary) {
  if (!settings().spoolDir.empty()) {
    spoolLine(j, summary);
    return;
  }
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

}  // namespace

void reportChecked(const Enqueue& e) {
  const nlohmann::json j = host::enqueueJson(e);
  const std::string line = host::enqueueLine(e, j);
  append(j, line);
  std::fprintf(stderr, "%s\n", line.c_str());
}

void reportNotChecked(const std::string& kernel, const std::string& reason) {
  const std::string line = "clref check: " + kernel + " not checked: " + reason;
  append(host::notCheckedJson(kernel, reason), line);
  std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace clref::layer
