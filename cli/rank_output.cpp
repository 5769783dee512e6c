// What the ranks of an MPI job print (cli/rank_output.hpp).
#include "cli/rank_output.hpp"

#include <iostream>
#include <sstream>
#include <streambuf>
#include <string>

#include "cli/cluster.hpp"

namespace clref::cli {
namespace {

// `text` with every line prefixed `prefix` (a last line without its newline gets one).
std::string withRankPrefix(const std::string& text, const std::string& prefix) {
  std::string out;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += prefix;
    out.append(text, start, end - start);
    out += '\n';
    start = end + 1;
  }
  return out;
}

}  // namespace

struct RankOutput::Held {
  // Takes every character and keeps none: a rank's standard output, which rank 0 prints. (A member type, not one of
  // this file's anonymous namespace: Held's linkage is the header's.)
  class DroppingBuffer : public std::streambuf {
   protected:
    int_type overflow(int_type c) override { return traits_type::not_eof(c); }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
  };
  DroppingBuffer dropped;
  std::ostringstream errors;
  std::streambuf* out = nullptr;
  std::streambuf* err = nullptr;
  bool printed = false;

  // Restores the streams and, when `print`, writes what was held to the real standard error.
  void release(bool print) {
    if (printed) return;
    printed = true;
    std::cout.rdbuf(out);
    std::cerr.rdbuf(err);
    if (print && !errors.str().empty())
      std::cerr << withRankPrefix(errors.str(), "rank " + std::to_string(cluster::rank()) + ": ") << std::flush;
  }
};

RankOutput::RankOutput() {
  if (cluster::size() <= 1 || cluster::rank() == 0) return;
  held_ = std::make_unique<Held>();
  std::cout.flush();
  std::cerr.flush();
  held_->out = std::cout.rdbuf(&held_->dropped);
  held_->err = std::cerr.rdbuf(held_->errors.rdbuf());
}

RankOutput::~RankOutput() {
  if (held_) held_->release(true);
}

int RankOutput::finish(int status) {
  const int zero = cluster::fromRankZero(status);
  // The same failure as rank 0's (a rejected case, a fault every rank ran into) is rank 0's to report.
  if (held_) held_->release(status != 0 && status != zero);
  return zero;
}

}  // namespace clref::cli
