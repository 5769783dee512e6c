// `clref run` and `clref check` of one launch split over MPI ranks by work-groups (cli/shard.hpp).
#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/cluster.hpp"
#include "cli/diagnostic_json.hpp"
#include "cli/shard.hpp"

namespace clref::cli {
namespace {

using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;  // [begin, end) byte ranges, ascending

// A message between ranks: 64-bit numbers and byte strings, one after the other.
class Writer {
 public:
  void number(uint64_t v) { bytes.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void text(std::string_view s) {
    number(s.size());
    bytes.append(s);
  }
  std::string bytes;
};

class Reader {
 public:
  explicit Reader(const std::string& s) : s_(s) {}
  uint64_t number() {
    uint64_t v = 0;
    std::memcpy(&v, s_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  std::string text() {
    const uint64_t n = number();
    std::string t = s_.substr(at_, n);
    at_ += n;
    return t;
  }
  const char* here(uint64_t n) {
    const char* p = s_.data() + at_;
    at_ += n;
    return p;
  }

 private:
  const std::string& s_;
  size_t at_ = 0;
};

// Each rank runs its share with this host's cores over the ranks on it, unless the user gave a thread count.
host::Device shareDevice(const host::Device& device) {
  host::Device d = device;
  if (!d.config().threads)
    d.config().threads = std::max(1u, std::thread::hardware_concurrency() / unsigned(std::max(1, cluster::localSize())));
  return d;
}

// The bytes that differ between `before` and `after`, as ranges with the new bytes.
void putChanges(Writer& w, const std::byte* before, const std::byte* after, size_t n) {
  Ranges runs;
  for (size_t i = 0; i < n;) {
    if (before[i] == after[i]) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < n && before[j] != after[j]) ++j;
    runs.emplace_back(i, j);
    i = j;
  }
  w.number(runs.size());
  for (const auto& [lo, hi] : runs) {
    w.number(lo);
    w.text(std::string_view(reinterpret_cast<const char*>(after + lo), hi - lo));
  }
}

// Where two ranks' ranges overlap: "" when none do. `ranges[r]` are rank r's, each ascending and disjoint.
std::string overlapOf(const std::vector<Ranges>& ranges) {
  std::vector<std::tuple<uint64_t, uint64_t, size_t>> all;
  for (size_t r = 0; r < ranges.size(); ++r)
    for (const auto& [lo, hi] : ranges[r]) all.emplace_back(lo, hi, r);
  std::sort(all.begin(), all.end());
  for (size_t i = 1; i < all.size(); ++i)
    if (std::get<0>(all[i]) < std::get<1>(all[i - 1]))
      return "ranks " + std::to_string(std::get<2>(all[i - 1])) + " and " + std::to_string(std::get<2>(all[i])) +
             " wrote the same bytes (offset " + std::to_string(std::get<0>(all[i])) + ")";
  return "";
}

// Rank 0's reading of the shares' messages (run and check alike): each a clean flag, then what `head(s, in)` reads
// of share s, then for each of `outputs` a count of ranges, each read by `range(o, s, in)`. Returns the first share
// that was not clean, if any (the rest is not read). The text `in` points into is the share's, which outlives it.
template <class Head, class Range>
std::optional<size_t> readShareMessages(const std::vector<std::string>& shares, size_t outputs, Head head,
                                        Range range) {
  for (size_t s = 0; s < shares.size(); ++s) {
    Reader in(shares[s]);
    if (!in.number()) return s;
    head(s, in);
    for (size_t o = 0; o < outputs; ++o)
      for (uint64_t n = in.number(); n--;) range(o, s, in);
  }
  return std::nullopt;
}

// The shares' choice uses as one run's (RunResult::choicesUsed): counts added, the first use the lowest rank's (the
// shares are contiguous and ascending), in registry order.
std::vector<interpreter::ChoiceUse> mergeChoices(const std::vector<std::vector<interpreter::ChoiceUse>>& shares) {
  std::map<int, interpreter::ChoiceUse> merged;
  for (const auto& uses : shares)
    for (const auto& u : uses) {
      auto [it, fresh] = merged.try_emplace(int(u.choice), u);
      if (fresh) continue;
      if (!it->second.count && u.count) it->second.first = u.first;
      it->second.count += u.count;
    }
  std::vector<interpreter::ChoiceUse> out;
  for (auto& [choice, u] : merged) out.push_back(std::move(u));
  return out;
}

// Writes packed image contents back into the image, level by level (as run_case.cpp's makeImage fills one).
void storeImage(host::Image& image, const images::ImageDesc& desc, const std::vector<std::byte>& contents) {
  const size_t elementBytes = images::elementSize(desc.format);
  size_t offset = 0;
  for (uint32_t level = 0; level < desc.numMipLevels; ++level) {
    const auto region = imageLevelRegion(desc, level);
    image.write({0, 0, 0}, region, contents.data() + offset, 0, 0, level);
    offset += region[0] * region[1] * region[2] * elementBytes;
  }
}

}  // namespace

std::optional<CaseRun> runSharded(const Case& c, const host::Device& device, std::vector<std::string>& notes) {
  const int rank = cluster::rank(), ranks = cluster::size();
  PreparedCase p = prepareCase(c, shareDevice(device));
  auto alone = [&](const std::string& why) -> std::optional<CaseRun> {
    if (rank != 0) return std::nullopt;
    notes.push_back("run on one rank: " + why);
    return runCase(c, device);
  };
  if (const std::string why = splitRefusal(p, ranks); !why.empty()) return alone(why);

  std::vector<std::vector<std::byte>> before;
  for (const auto& [arg, buffer] : p.outputs) {
    const auto* b = static_cast<const std::byte*>(buffer->data());
    before.emplace_back(b, b + buffer->size());
  }
  for (const auto& [arg, image] : p.imageOutputs) before.push_back(imageContents(*image));
  host::RunResult r = p.kernel->runGroups(p.range, groupShare(workGroupCount(*p.kernel, p.range), rank, ranks));

  // The share's message: whether it ran cleanly, its choice uses, work-items, and the bytes it changed per output.
  Writer w;
  const bool clean = r.ok && !r.fault && r.warningCount == 0 && r.findings.empty() && r.printfOutput.empty();
  w.number(clean);
  nlohmann::json uses = nlohmann::json::array();
  for (const auto& u : r.choicesUsed)
    uses.push_back({{"choice", int(u.choice)}, {"count", u.count}, {"first", diagnosticToJson(u.first)}});
  w.text(uses.dump());
  w.number(r.workItems);
  size_t k = 0;
  for (const auto& [arg, buffer] : p.outputs)
    putChanges(w, before[k++].data(), static_cast<const std::byte*>(buffer->data()), buffer->size());
  std::vector<std::vector<std::byte>> imagesAfter;
  for (const auto& [arg, image] : p.imageOutputs) {
    imagesAfter.push_back(imageContents(*image));
    putChanges(w, before[k].data(), imagesAfter.back().data(), before[k].size());
    ++k;
  }
  const auto shares = cluster::gather(w.bytes);
  if (rank != 0) return std::nullopt;

  // Rank 0: every share's changes applied over its own results, unless a share did not run cleanly or two wrote the
  // same bytes (then the launch runs here alone).
  const size_t outputs = before.size();
  std::vector<std::vector<Ranges>> written(outputs, std::vector<Ranges>(size_t(ranks)));
  std::vector<std::vector<std::vector<std::pair<uint64_t, const char*>>>> changes(
      outputs, std::vector<std::vector<std::pair<uint64_t, const char*>>>(size_t(ranks)));
  std::vector<std::vector<interpreter::ChoiceUse>> choiceShares;
  uint64_t workItems = 0;
  const auto unclean = readShareMessages(
      shares, outputs,
      [&](size_t, Reader& in) {
        auto& list = choiceShares.emplace_back();
        for (const auto& j : nlohmann::json::parse(in.text())) {
          interpreter::ChoiceUse u;
          u.choice = numerics::Choice(j["choice"].get<int>());
          u.count = j["count"];
          u.first = diagnosticFromJson(j["first"]);
          list.push_back(std::move(u));
        }
        workItems += in.number();
      },
      [&](size_t o, size_t s, Reader& in) {
        const uint64_t at = in.number(), len = in.number();
        written[o][s].emplace_back(at, at + len);
        changes[o][s].emplace_back(at, in.here(len));
      });
  if (unclean) return alone("rank " + std::to_string(*unclean) + "'s work-groups faulted, warned or printed");
  for (size_t o = 0; o < outputs; ++o)
    if (const std::string why = overlapOf(written[o]); !why.empty())
      return alone("the work-groups are not independent: " + why);
  for (size_t o = 0; o < outputs; ++o) {
    std::byte* target = o < p.outputs.size() ? static_cast<std::byte*>(p.outputs[o].second->data())
                                             : imagesAfter[o - p.outputs.size()].data();
    for (size_t s = 1; s < size_t(ranks); ++s)
      for (size_t i = 0; i < changes[o][s].size(); ++i) {
        const auto& [lo, hi] = written[o][s][i];
        std::memcpy(target + lo, changes[o][s][i].second, hi - lo);
      }
  }
  for (size_t i = 0; i < p.imageOutputs.size(); ++i)
    storeImage(*p.imageOutputs[i].second, c.args[p.imageOutputs[i].first].image.desc, imagesAfter[i]);
  CaseRun run;
  run.result = std::move(r);
  run.result.choicesUsed = mergeChoices(choiceShares);
  run.result.workItems = workItems;
  run.choices = p.choices;
  run.outputs = std::move(p.outputs);
  run.imageOutputs = std::move(p.imageOutputs);
  return run;
}

namespace {

uint64_t bitsOf(double v) { return std::bit_cast<uint64_t>(v); }
double doubleOf(uint64_t b) { return std::bit_cast<double>(b); }

// A share's buffer verdicts, exactly (the sets' bounds as bits: JSON numbers have no infinities).
nlohmann::json toJson(const host::BufferVerdict& b) {
  nlohmann::json j = {{"arg", b.arg},           {"name", b.name},        {"type", int(b.type)},
                      {"elements", b.elements}, {"identical", b.identical}, {"allowed", b.allowed},
                      {"violations", b.violations}, {"undetermined", b.undetermined}, {"not_judged", b.notJudged},
                      {"any_value", b.anyValue}};
  j["by"] = nlohmann::json::array();
  for (const auto& a : b.anyValueBy) j["by"].push_back({a.instruction, a.why, a.elements});
  j["details"] = nlohmann::json::array();
  for (const auto& d : b.details)
    j["details"].push_back({d.index, int(d.cls), d.observed, d.reference, bitsOf(d.allowed.lo), bitsOf(d.allowed.hi),
                            d.allowed.nan, d.allowedText, d.reason, d.rule, d.instruction, d.anyValue});
  return j;
}

host::BufferVerdict verdictOf(const nlohmann::json& j) {
  host::BufferVerdict b;
  b.arg = j["arg"];
  b.name = j["name"];
  b.type = numerics::ScalarType(j["type"].get<int>());
  b.elements = j["elements"];
  b.identical = j["identical"];
  b.allowed = j["allowed"];
  b.violations = j["violations"];
  b.undetermined = j["undetermined"];
  b.notJudged = j["not_judged"];
  b.anyValue = j["any_value"];
  for (const auto& a : j["by"]) b.anyValueBy.push_back({a[0], a[1], a[2]});
  for (const auto& d : j["details"]) {
    host::ElementVerdict e;
    e.index = d[0];
    e.cls = host::ElementClass(d[1].get<int>());
    e.observed = d[2];
    e.reference = d[3];
    e.allowed.lo = doubleOf(d[4]);
    e.allowed.hi = doubleOf(d[5]);
    e.allowed.nan = d[6];
    e.allowedText = d[7];
    e.reason = d[8];
    e.rule = d[9];
    e.instruction = d[10];
    e.anyValue = d[11];
    b.details.push_back(std::move(e));
  }
  return b;
}

// The shares' verdicts on one buffer as one check's: counts added, the details in element order, the "any value"
// sources added by source and ordered as check() orders them (most elements first, ties in source order). False when
// the shares did not judge every element exactly once.
bool mergeInto(host::BufferVerdict& into, const host::BufferVerdict& share) {
  into.identical += share.identical;
  into.allowed += share.allowed;
  into.violations += share.violations;
  into.undetermined += share.undetermined;
  into.anyValue += share.anyValue;
  into.notJudged -= share.elements - share.notJudged;  // into.notJudged starts at elements
  into.details.insert(into.details.end(), share.details.begin(), share.details.end());
  into.anyValueBy.insert(into.anyValueBy.end(), share.anyValueBy.begin(), share.anyValueBy.end());
  return into.notJudged <= into.elements;
}

void finish(host::BufferVerdict& b) {
  std::stable_sort(b.details.begin(), b.details.end(),
                   [](const host::ElementVerdict& x, const host::ElementVerdict& y) { return x.index < y.index; });
  std::map<std::pair<std::string, std::string>, uint64_t> by;
  for (const auto& a : b.anyValueBy) by[{a.instruction, a.why}] += a.elements;
  b.anyValueBy.clear();
  for (const auto& [key, n] : by) b.anyValueBy.push_back({key.first, key.second, n});
  std::stable_sort(b.anyValueBy.begin(), b.anyValueBy.end(),
                   [](const host::AnyValueSource& x, const host::AnyValueSource& y) { return x.elements > y.elements; });
}

// [0, size) less the union of `taken`.
Ranges complementOf(std::vector<std::pair<uint64_t, uint64_t>> taken, uint64_t size) {
  std::sort(taken.begin(), taken.end());
  Ranges out;
  uint64_t at = 0;
  for (const auto& [lo, hi] : taken) {
    if (lo > at) out.emplace_back(at, lo);
    at = std::max(at, hi);
  }
  if (at < size) out.emplace_back(at, size);
  return out;
}

}  // namespace

std::optional<host::CheckReport> checkSharded(const Case& c, PreparedCase& p, const host::Device& device,
                                              const std::vector<host::ObservedBuffer>& observed,
                                              const std::vector<host::ObservedImage>& observedImages,
                                              const host::CheckOptions& options, std::vector<std::string>& notes) {
  const int rank = cluster::rank(), ranks = cluster::size();
  std::string refusal = splitRefusal(p, ranks);
  if (refusal.empty() && !observedImages.empty()) refusal = "the case has output images; a split check judges buffers";
  if (refusal.empty() && options.sampleGroups) refusal = "a sample of the work-groups is judged";
  if (!refusal.empty()) {
    if (rank != 0) return std::nullopt;
    notes.push_back("judged on one rank: " + refusal);
    return host::check(*p.kernel, p.range, observed, observedImages, options);
  }
  host::GroupCheck share(*p.kernel, p.range, observed, options,
                         groupShare(workGroupCount(*p.kernel, p.range), rank, ranks));
  // What each share wrote, to rank 0, which decides whether the shares' verdicts make the check's.
  Writer w;
  w.number(share.run().ok && !share.run().fault && share.selfContained());
  for (size_t k = 0; k < observed.size(); ++k) {
    const Ranges mine = share.written(k);
    w.number(mine.size());
    for (const auto& [lo, hi] : mine) {
      w.number(lo);
      w.number(hi);
    }
  }
  const auto shares = cluster::gather(w.bytes);
  std::string decision;  // "" split; else why not
  std::vector<Ranges> zeroJudges(observed.size());
  if (rank == 0) {
    std::vector<std::vector<Ranges>> written(observed.size(), std::vector<Ranges>(size_t(ranks)));
    const auto unclean = readShareMessages(shares, observed.size(), [](size_t, Reader&) {},
                                           [&](size_t k, size_t s, Reader& in) {
                                             const uint64_t lo = in.number(), hi = in.number();
                                             written[k][s].emplace_back(lo, hi);
                                           });
    if (unclean)
      decision = "rank " + std::to_string(*unclean) + "'s work-groups faulted or left a decision open (a decision's "
                 "effect reaches the other work-groups' verdicts)";
    for (size_t k = 0; k < observed.size() && decision.empty(); ++k) {
      if (const std::string why = overlapOf(written[k]); !why.empty())
        decision = "the work-groups are not independent: " + why;
      // Rank 0 judges what no other rank's groups wrote: its own groups' bytes and the bytes no group wrote.
      Ranges others;
      for (size_t s = 1; s < size_t(ranks); ++s) others.insert(others.end(), written[k][s].begin(), written[k][s].end());
      zeroJudges[k] = complementOf(others, observed[k].bytes.size());
    }
  }
  decision = cluster::broadcast(decision);
  auto alone = [&](const std::string& why) -> std::optional<host::CheckReport> {
    if (rank != 0) return std::nullopt;
    notes.push_back("judged on one rank: " + why);
    PreparedCase q = prepareCase(c, device);  // the inputs as they were: p's buffers hold a share's results
    return host::check(*q.kernel, q.range, observed, observedImages, options);
  };
  if (!decision.empty()) return alone(decision);
  std::vector<Ranges> mine(observed.size());
  for (size_t k = 0; k < observed.size(); ++k) mine[k] = rank == 0 ? zeroJudges[k] : share.written(k);
  const host::CheckReport part = share.judge(mine);
  nlohmann::json partJson = nlohmann::json::array();
  for (const auto& b : part.buffers) partJson.push_back(toJson(b));
  const auto parts = cluster::gather(rank == 0 ? std::string() : partJson.dump());
  if (rank != 0) return std::nullopt;
  host::CheckReport report = part;
  for (size_t s = 1; s < parts.size(); ++s) {
    const auto j = nlohmann::json::parse(parts[s]);
    for (size_t k = 0; k < report.buffers.size(); ++k)
      if (!mergeInto(report.buffers[k], verdictOf(j.at(k))))
        return alone("a scalar was written in part by work-groups of two ranks");
  }
  for (auto& b : report.buffers) {
    if (b.notJudged != 0) return alone("a scalar was written in part by work-groups of two ranks");
    finish(b);
  }
  return report;
}

}  // namespace clref::cli
