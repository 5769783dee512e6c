// Determinism (docs/ARCHITECTURE.md principle 6): every golden case gives byte-identical outputs, the same
// fault and the same warnings with 1, 2 and 3 threads (DeviceConfig::threads), and with the lane executor on and
// off. Independent of the expected files: this compares clref with itself across thread counts and paths.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/case_file.hpp"
#include "interpreter/lane_stats.hpp"

namespace fs = std::filesystem;
using namespace clref;

namespace {

struct Outcome {
  bool ok = false;
  std::string fault;
  std::vector<std::string> warnings;
  uint64_t warningCount = 0;
  std::vector<std::pair<size_t, std::vector<std::byte>>> outputs;
};

Outcome runWithThreads(const cli::Case& c, unsigned threads) {
  host::DeviceConfig cfg;
  cfg.threads = threads;
  const auto run = cli::runCase(c, host::Device(cfg));
  Outcome o;
  o.ok = run.result.ok;
  if (run.result.fault) o.fault = run.result.fault->format();
  for (const auto& w : run.result.warnings) o.warnings.push_back(w.format());
  o.warningCount = run.result.warningCount;
  for (const auto& [i, buffer] : run.outputs)
    o.outputs.emplace_back(i, std::vector<std::byte>(buffer->data(), buffer->data() + buffer->size()));
  for (const auto& [i, image] : run.imageOutputs) o.outputs.emplace_back(i, cli::imageContents(*image));
  return o;
}

}  // namespace

TEST_CASE("golden cases give identical results with 1, 2 and 3 threads", "[golden][determinism]") {
  const fs::path cases = fs::path(CLREF_GOLDEN_DIR) / "cases";
  REQUIRE(fs::is_directory(cases));
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(cases))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 32);
  size_t multiGroup = 0;
  for (const auto& file : files) {
    INFO(file.filename().string());
    const auto c = cli::loadCase(file);
    const Outcome one = runWithThreads(c, 1);
    CHECK(one.ok);
    CHECK_FALSE(one.outputs.empty());
    size_t groups = 1;
    if (c.dispatch) groups = size_t((*c.dispatch)[0]) * (*c.dispatch)[1] * (*c.dispatch)[2];
    if (c.range.local)
      for (unsigned d = 0; d < c.range.dims; ++d)
        groups *= (c.range.global[d] + (*c.range.local)[d] - 1) / (*c.range.local)[d];
    multiGroup += groups > 1;
    for (unsigned threads : {2u, 3u}) {
      INFO("threads " << threads);
      const Outcome other = runWithThreads(c, threads);
      CHECK(other.ok == one.ok);
      CHECK(other.fault == one.fault);
      CHECK(other.warnings == one.warnings);
      CHECK(other.warningCount == one.warningCount);
      REQUIRE(other.outputs.size() == one.outputs.size());
      for (size_t k = 0; k < one.outputs.size(); ++k) {
        INFO("argument " << one.outputs[k].first);
        CHECK(other.outputs[k].first == one.outputs[k].first);
        const auto& a = one.outputs[k].second;
        const auto& b = other.outputs[k].second;
        REQUIRE(a.size() == b.size());
        CHECK(std::memcmp(a.data(), b.data(), a.size()) == 0);
      }
    }
  }
  CHECK(multiGroup > 10);  // the thread count matters only with several work-groups
}

// The lane executor (interpreter/lanes.hpp) against one work-item at a time (CLREF_LANES=0) on every golden case:
// barrier kernels run their intervals on lanes, and a span that a race would change runs one by one.
TEST_CASE("golden cases give identical results with lanes and one by one", "[golden][determinism][lanes]") {
  const fs::path cases = fs::path(CLREF_GOLDEN_DIR) / "cases";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(cases))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 32);
  size_t onLanes = 0, withBarriers = 0;
  for (const auto& file : files) {
    INFO(file.filename().string());
    const auto c = cli::loadCase(file);
    const interpreter::LaneStats before = interpreter::laneStats();
    const Outcome lanes = runWithThreads(c, 2);
    const interpreter::LaneStats after = interpreter::laneStats();
    onLanes += after.spans > before.spans;
    withBarriers += after.barrierIntervals > before.barrierIntervals;
    ::setenv("CLREF_LANES", "0", 1);
    const Outcome alone = runWithThreads(c, 2);
    ::unsetenv("CLREF_LANES");
    CHECK(lanes.ok == alone.ok);
    CHECK(lanes.fault == alone.fault);
    CHECK(lanes.warnings == alone.warnings);
    CHECK(lanes.warningCount == alone.warningCount);
    REQUIRE(lanes.outputs.size() == alone.outputs.size());
    for (size_t k = 0; k < lanes.outputs.size(); ++k) {
      INFO("argument " << lanes.outputs[k].first);
      const auto& a = lanes.outputs[k].second;
      const auto& b = alone.outputs[k].second;
      REQUIRE(a.size() == b.size());
      CHECK(std::memcmp(a.data(), b.data(), a.size()) == 0);
    }
  }
  INFO("cases on lanes " << onLanes << ", with barrier intervals on lanes " << withBarriers);
  CHECK(onLanes > 10);
  CHECK(withBarriers >= 3);
}
