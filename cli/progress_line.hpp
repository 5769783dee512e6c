// A progress line on stderr for long work (`clref run`, `check`, `explore`, `amber`): "<done>/<total> <what> (<pct>%),
// <rate>/s, <time> left", redrawn in place with \r at most every kRedrawInterval, erased when the work ends. Drawn
// only when stderr is a terminal and the command was not given --quiet: a pipe or a file never sees it.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>

namespace clref::cli {

class ProgressLine {
 public:
  // The least time between two draws; CLREF_PROGRESS_INTERVAL_MS overrides it (tests draw every update with 0).
  static constexpr std::chrono::milliseconds kRedrawInterval{250};

  // `what` names the units ("work-groups", "runs"); `enabled` false: update and finish do nothing.
  ProgressLine(std::string what, bool enabled, std::FILE* to = stderr);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Whether a command with --quiet = `quiet` shows progress: stderr is a terminal and not quiet.
  static bool wanted(bool quiet);

  // `done` of `total` units are finished. Thread-safe (work-groups finish on several threads); redraws only when the
  // last draw is kRedrawInterval old, and the first time only once the work has run that long since its first update
  // (quick work shows nothing).
  void update(uint64_t done, uint64_t total);
  // The callback for host::DeviceConfig::progress.
  std::function<void(uint64_t, uint64_t)> callback();
  // Erases the line (when one was drawn; update does when done reaches total) and starts the next piece of work: update
  // draws again after it, with the rate from now.
  void finish();

  // The line for `done` of `total` after `elapsed`: counts, percentage, rate and time left (for tests).
  static std::string format(const std::string& what, uint64_t done, uint64_t total,
                            std::chrono::duration<double> elapsed);

 private:
  std::string what_;
  bool enabled_;
  std::FILE* to_;
  int64_t intervalNs_;
  std::atomic<int64_t> firstNs_{-1};  // steady-clock nanoseconds of the first update since finish(); -1: none yet
  std::atomic<int64_t> lastDraw_{0};  // nanoseconds since firstNs_ of the last draw
  std::mutex mu_;
  bool drawn_ = false;     // under mu_
  bool complete_ = false;  // under mu_: done reached total
  void erase();            // under mu_
};

}  // namespace clref::cli
