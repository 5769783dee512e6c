// The progress line (cli/progress_line.hpp).
#include "cli/progress_line.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace clref::cli {
namespace {

std::string duration(double seconds) {
  char buf[32];
  if (seconds < 60)
    std::snprintf(buf, sizeof buf, "%.0f s", seconds);
  else if (seconds < 3600)
    std::snprintf(buf, sizeof buf, "%.0f min %02.0f s", std::floor(seconds / 60), std::fmod(seconds, 60));
  else
    std::snprintf(buf, sizeof buf, "%.0f h %02.0f min", std::floor(seconds / 3600), std::fmod(seconds / 60, 60));
  return buf;
}

}  // namespace

ProgressLine::ProgressLine(std::string what, bool enabled, std::FILE* to)
    : what_(std::move(what)),
      enabled_(enabled),
      to_(to),
      intervalNs_(std::chrono::duration_cast<std::chrono::nanoseconds>(kRedrawInterval).count()) {
  if (const char* v = std::getenv("CLREF_PROGRESS_INTERVAL_MS"); v && *v)
    intervalNs_ = std::max<int64_t>(0, std::atoll(v)) * 1000000;
}

ProgressLine::~ProgressLine() { finish(); }

bool ProgressLine::wanted(bool quiet) { return !quiet && isatty(STDERR_FILENO); }

std::string ProgressLine::format(const std::string& what, uint64_t done, uint64_t total,
                                 std::chrono::duration<double> elapsed) {
  const double seconds = elapsed.count();
  const double rate = seconds > 0 ? double(done) / seconds : 0;
  char buf[160];
  std::snprintf(buf, sizeof buf, "%llu/%llu %s (%.0f%%)", static_cast<unsigned long long>(done),
                static_cast<unsigned long long>(total), what.c_str(),
                total ? 100.0 * double(done) / double(total) : 0.0);
  std::string s = buf;
  if (rate > 0) {
    std::snprintf(buf, sizeof buf, rate >= 10 ? ", %.0f/s" : ", %.2g/s", rate);
    s += buf;
    if (done < total) s += ", " + duration(double(total - done) / rate) + " left";
  }
  return s;
}

void ProgressLine::update(uint64_t done, uint64_t total) {
  if (!enabled_) return;
  // The work is complete: the line goes before the caller prints its results, and no draw of a thread that was
  // late (with fewer done) brings it back until finish() starts the next piece of work.
  if (done >= total) {
    std::lock_guard lock(mu_);
    complete_ = true;
    erase();
    return;
  }
  const int64_t now =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
  // The work's time counts from its first unit's end: what came before (compiling, setting arguments) is not its rate.
  int64_t first = -1;
  if (firstNs_.compare_exchange_strong(first, now, std::memory_order_relaxed)) return;
  const int64_t ns = now - first;
  // Cheap for the many calls between draws: two atomic loads.
  if (ns - lastDraw_.load(std::memory_order_relaxed) < intervalNs_) return;
  std::unique_lock lock(mu_, std::try_to_lock);
  if (!lock.owns_lock() || complete_) return;  // another thread is drawing, or the work is complete
  lastDraw_.store(ns, std::memory_order_relaxed);
  const std::string line = format(what_, done, total, std::chrono::nanoseconds(ns));
  // \r back to the start of the line, the text, and ESC[K to clear what a longer line before left.
  std::fprintf(to_, "\r%s\x1b[K", line.c_str());
  std::fflush(to_);
  drawn_ = true;
}

std::function<void(uint64_t, uint64_t)> ProgressLine::callback() {
  if (!enabled_) return {};
  return [this](uint64_t done, uint64_t total) { update(done, total); };
}

void ProgressLine::erase() {
  if (drawn_) {
    std::fputs("\r\x1b[K", to_);
    std::fflush(to_);
  }
  drawn_ = false;
}

void ProgressLine::finish() {
  if (!enabled_) return;
  std::lock_guard lock(mu_);
  erase();
  complete_ = false;
  firstNs_.store(-1, std::memory_order_relaxed);
  lastDraw_.store(0, std::memory_order_relaxed);
}

}  // namespace clref::cli
