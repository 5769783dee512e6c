// `clref sweep` (sweep_command.hpp).
#include "cli/sweep_command.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/cluster.hpp"
#include "cli/math_command.hpp"
#include "cli/math_operations.hpp"
#include "cli/math_values.hpp"
#include "cli/split_mix64.hpp"
#include "numerics/math.hpp"
#include "numerics/verdict.hpp"

namespace clref::cli {
namespace {

using namespace clref::numerics;
using nlohmann::json;

// Inputs per block: the unit of work handed to a rank, and of the report's order.
constexpr uint64_t kBlock = uint64_t(1) << 16;

// The histogram's classes of ulp error (Verdict::errorUlps), in order.
constexpr const char* kClasses[] = {"0",       "(0, 0.5]",   "(0.5, 1]", "(1, 2]",   "(2, 4]",
                                    "(4, 16]", "(16, 2^10]", "> 2^10",   "infinite", "NaN (one side a NaN)"};
constexpr size_t kClassCount = std::size(kClasses);
size_t classOf(double e) {
  if (std::isnan(e)) return 9;
  if (std::isinf(e)) return 8;
  const double bounds[] = {0, 0.5, 1, 2, 4, 16, 1024};
  for (size_t i = 0; i < std::size(bounds); ++i)
    if (e <= bounds[i]) return i;
  return 7;
}

// Operands that are integers, not floats: ldexp's k, pown's and rootn's n (int).
bool sweepIntegerOperand(MathFn f, size_t i) {
  return (f == MathFn::ldexp || f == MathFn::pown || f == MathFn::rootn) && i == 1;
}

struct Sweep {
  MathFn f{};
  int arity = 1;
  Rounding rounding = Rounding::RTE;
  Judging judging;
  uint64_t lo = 0, hi = 0;  // input indices
  int observedFd = -1, inputsFd = -1;
  uint64_t seed = 1, show = 20;
  bool out = false;
};

// The operands' bits of input k: the bit pattern k itself (one operand), the tuple k of --inputs, or the sample's
// k-th tuple: SplitMix64 seeded with seed + k (and its complement for a third operand), the same however the range
// is cut.
std::array<uint32_t, 3> operandsOf(const Sweep& s, uint64_t k) {
  std::array<uint32_t, 3> bits{};
  if (s.arity == 1) {
    bits[0] = uint32_t(k);
  } else if (s.inputsFd >= 0) {
    const size_t bytes = size_t(s.arity) * 4;
    if (::pread(s.inputsFd, bits.data(), bytes, off_t(k * bytes)) != ssize_t(bytes))
      throw Rejected("--inputs: cannot read tuple " + std::to_string(k));
  } else {
    const uint64_t z = SplitMix64(s.seed + k).next();
    bits[0] = uint32_t(z);
    bits[1] = uint32_t(z >> 32);
    bits[2] = uint32_t(SplitMix64(~(s.seed + k)).next());
  }
  return bits;
}

double operandValue(const Sweep& s, size_t i, uint32_t bits) {
  return sweepIntegerOperand(s.f, i) ? double(int32_t(bits)) : double(std::bit_cast<float>(bits));
}

// One block's outcome: the histogram, the violations (the first `show` listed), and with --out the results.
struct Block {
  std::array<uint64_t, kClassCount> histogram{};
  uint64_t violations = 0;
  json listed = json::array();
  std::string results;  // --out: raw floats
};

void sweepRange(const Sweep& s, uint64_t begin, uint64_t end, Block& b) {
  std::vector<float> observed;
  if (!s.out) {
    observed.resize(end - begin);
    const size_t bytes = observed.size() * 4;
    if (::pread(s.observedFd, observed.data(), bytes, off_t((begin - s.lo) * 4)) != ssize_t(bytes))
      throw Rejected("--observed: cannot read the results of inputs " + std::to_string(begin) + " on");
  } else {
    b.results.resize((end - begin) * 4);
  }
  std::vector<double> args(size_t(s.arity));
  for (uint64_t k = begin; k < end; ++k) {
    const auto bits = operandsOf(s, k);
    for (size_t i = 0; i < args.size(); ++i) args[i] = operandValue(s, i, bits[i]);
    if (s.out) {
      const float r = float(evaluate(s.f, args, Format::Float, s.rounding).value);
      std::memcpy(b.results.data() + (k - begin) * 4, &r, 4);
      continue;
    }
    const double o = double(observed[k - begin]);
    Verdict v = judge(s.f, args, o, Format::Float, s.judging.profile, s.judging.verdict);
    if (!v.allowed) applyOptimizationOptions(s.judging, args, evaluate(s.f, args, Format::Float).value, o, v);
    ++b.histogram[classOf(v.errorUlps)];
    if (v.allowed) continue;
    if (b.violations++ >= s.show) continue;
    const float correct = float(evaluate(s.f, args, Format::Float, Rounding::RTE).value);
    char error[32];
    std::snprintf(error, sizeof error, "%.4g", v.errorUlps);
    json operands = json::array();
    for (int i = 0; i < s.arity; ++i) operands.push_back(bits[size_t(i)]);
    b.listed.push_back(
        {k, operands, std::bit_cast<uint32_t>(observed[k - begin]), std::bit_cast<uint32_t>(correct), error, v.rule});
  }
}

// A block, its inputs split over `threads` threads; packed as its JSON line and, with --out, the raw results.
std::string sweepBlock(const Sweep& s, uint64_t begin, uint64_t end, unsigned threads) {
  const uint64_t n = end - begin;
  threads = unsigned(std::clamp<uint64_t>(threads, 1, std::max<uint64_t>(1, n / 1024)));
  std::vector<Block> parts(threads);
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> failed(threads);
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        sweepRange(s, begin + n * t / threads, begin + n * (t + 1) / threads, parts[t]);
      } catch (...) { failed[t] = std::current_exception(); }
      // MPFR keeps per-thread caches (constants, the exponent range's state): freed before the thread ends.
      numerics::releaseThreadResources();
    });
  for (auto& th : pool) th.join();
  for (auto& e : failed)
    if (e) std::rethrow_exception(e);
  Block all;
  for (Block& p : parts) {
    for (size_t c = 0; c < kClassCount; ++c) all.histogram[c] += p.histogram[c];
    for (auto& l : p.listed)
      if (all.listed.size() < s.show) all.listed.push_back(std::move(l));
    all.violations += p.violations;
    all.results += p.results;
  }
  return json{{"histogram", all.histogram}, {"violations", all.violations}, {"listed", all.listed}}.dump() + "\n" +
         all.results;
}

uint64_t number(const std::string& text, const std::string& what) {
  try {
    size_t used = 0;
    const uint64_t v = std::stoull(text, &used, 0);
    if (used == text.size() && text[0] != '-') return v;
  } catch (const std::exception&) {}
  throw Rejected("--range: " + what + " '" + text + "' is not a number (decimal or 0x hexadecimal)");
}

int fileOf(const std::string& path, uint64_t expected, const std::string& option) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Rejected(option + ": cannot read " + path);
  const off_t size = ::lseek(fd, 0, SEEK_END);
  if (expected && uint64_t(size) != expected)
    throw Rejected(option + ": " + path + " holds " + std::to_string(size) + " bytes; the range needs " +
                   std::to_string(expected));
  return fd;
}

std::string operandsText(const Sweep& s, const json& operands) {
  std::string out;
  for (size_t i = 0; i < operands.size(); ++i) {
    const uint32_t bits = operands[i].get<uint32_t>();
    out += (i ? ", " : "") + (sweepIntegerOperand(s.f, i) ? std::to_string(int32_t(bits))
                                                     : show(double(std::bit_cast<float>(bits)), Format::Float));
  }
  return out;
}

int run(const SweepOptions& o) {
  if (o.observed.empty() == o.out.empty()) throw Rejected("sweep: give exactly one of --observed FILE and --out FILE");
  if (o.type != "float") throw Rejected("sweep: --type " + o.type + ": only float inputs are swept");
  const auto fn = mathFnByName(o.function);
  if (!fn || *fn == MathFn::ilogb || *fn == MathFn::nan)
    throw Rejected("sweep: '" + o.function +
                   "' is not an OpenCL.std function with a floating-point result and "
                   "floating-point operands (clref math --list)");
  Sweep s;
  s.f = *fn;
  s.arity = arity(s.f);
  s.rounding = parseRounding(o.rounding);
  MathCommandOptions m;
  m.profile = o.profile;
  m.options = o.options;
  s.judging = judgingOf(m);
  s.seed = o.seed;
  s.show = o.show;
  s.out = !o.out.empty();
  uint64_t count = s.arity == 1 ? uint64_t(1) << 32 : o.samples;
  if (s.arity > 1 && !o.inputs.empty()) {
    s.inputsFd = fileOf(o.inputs, 0, "--inputs");
    count = uint64_t(::lseek(s.inputsFd, 0, SEEK_END)) / (uint64_t(s.arity) * 4);
  }
  s.lo = 0;
  s.hi = count;
  if (!o.range.empty()) {
    const size_t colon = o.range.find(':');
    if (colon == std::string::npos) throw Rejected("--range: expected LO:HI, e.g. 0x3f800000:0x40000000");
    s.lo = number(o.range.substr(0, colon), "LO");
    s.hi = number(o.range.substr(colon + 1), "HI");
    if (s.lo >= s.hi || s.hi > count)
      throw Rejected("--range: expected LO < HI <= " + std::to_string(count) + " (the inputs there are)");
  }
  if (!s.out) s.observedFd = fileOf(o.observed, (s.hi - s.lo) * 4, "--observed");

  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const unsigned threads = std::max(1u, hardware / unsigned(cluster::localSize()));
  const uint64_t blocks = (s.hi - s.lo + kBlock - 1) / kBlock;
  const std::vector<uint64_t> cost(blocks, 1);
  const auto results = cluster::distribute(cost, [&](size_t i) {
    const uint64_t begin = s.lo + i * kBlock;
    return sweepBlock(s, begin, std::min(s.hi, begin + kBlock), threads);
  });
  int status = 0;
  if (cluster::rank() == 0) {
    std::array<uint64_t, kClassCount> histogram{};
    uint64_t violations = 0;
    json listed = json::array();
    std::ofstream out;
    if (s.out) {
      out.open(o.out, std::ios::binary | std::ios::trunc);
      if (!out) throw Rejected("--out: cannot write " + o.out);
    }
    for (const std::string& r : results) {
      const size_t end = r.find('\n') + 1;
      const json b = json::parse(r.substr(0, end));
      for (size_t c = 0; c < kClassCount; ++c) histogram[c] += b["histogram"][c].get<uint64_t>();
      violations += b["violations"].get<uint64_t>();
      for (const auto& l : b["listed"])
        if (listed.size() < s.show) listed.push_back(l);
      if (s.out) out.write(r.data() + end, std::streamsize(r.size() - end));
    }
    const auto name = std::string(nameOf(s.f));
    // A one-operand function's inputs are bit patterns, shown in hexadecimal.
    auto index = [&](uint64_t k) {
      char text[32];
      std::snprintf(text, sizeof text, s.arity == 1 ? "0x%08llx" : "%llu", static_cast<unsigned long long>(k));
      return std::string(text);
    };
    std::cout << "sweep " << name << " float, inputs " << index(s.lo) << ".." << index(s.hi - 1) << " (" << s.hi - s.lo
              << ")";
    if (s.arity > 1) std::cout << (o.inputs.empty() ? ", seeded sample " + std::to_string(s.seed) : ", " + o.inputs);
    if (s.out) {
      out.close();
      if (!out) throw Rejected("--out: cannot write " + o.out);
      std::cout << ": clref's results (" << o.rounding << ") written to " << o.out << "\n";
    } else {
      std::cout << ", " << toString(s.judging.profile) << " profile: " << violations << " violation"
                << (violations == 1 ? "" : "s") << "\n";
      for (const auto& l : listed)
        std::cout << "  [" << index(l[0].get<uint64_t>()) << "] " << name << "(" << operandsText(s, l[1])
                  << ") = " << show(double(std::bit_cast<float>(l[2].get<uint32_t>())), Format::Float)
                  << ", correctly rounded " << show(double(std::bit_cast<float>(l[3].get<uint32_t>())), Format::Float)
                  << ": " << l[4].get<std::string>() << " ulp (allowed: " << l[5].get<std::string>() << ")\n";
      if (violations > listed.size()) std::cout << "  ... (--show N lists more)\n";
      std::cout << "ulp error histogram:\n";
      for (size_t c = 0; c < kClassCount; ++c)
        if (histogram[c]) std::cout << "  " << kClasses[c] << ": " << histogram[c] << "\n";
      if (violations) status = kNotAllowed;
    }
    // On stderr: the report on stdout is the same on any number of ranks.
    std::cerr << "sweep: " << results.size() << " blocks of " << kBlock << " inputs on " << cluster::size()
              << (cluster::size() == 1 ? " process" : " ranks") << "\n";
  }
  if (s.observedFd >= 0) ::close(s.observedFd);
  if (s.inputsFd >= 0) ::close(s.inputsFd);
  return cluster::fromRankZero(status);
}

}  // namespace

CLI::App* addSweepCommand(CLI::App& app, SweepOptions& o) {
  auto* cmd = app.add_subcommand("sweep",
                                 "judge another device's results of a math function over every float input of a "
                                 "range (or write clref's); under mpirun the range is spread over the ranks");
  cmd->add_option("function", o.function, "an OpenCL.std function (clref math --list)")->required();
  cmd->add_option("--type", o.type, "the operands' and results' type (float)")->capture_default_str();
  cmd->add_option("--rounding", o.rounding, "--out: rte, rtz, rtp or rtn")->capture_default_str();
  cmd->add_option("--range", o.range,
                  "LO:HI, the inputs LO to HI-1 (bit patterns of a one-operand function; default all 2^32; tuple "
                  "numbers of others)");
  cmd->add_option("--profile", o.profile, "full, embedded, relaxed or relaxed-embedded")->capture_default_str();
  cmd->add_option("--options", o.options, "the build options of the device whose results are judged");
  cmd->add_option("--observed", o.observed, "the device's results: raw floats in input order, first the range's LO");
  cmd->add_option("--out", o.out, "write clref's correctly rounded results there instead (raw floats)");
  cmd->add_option("--inputs", o.inputs, "functions of several operands: their tuples (raw 32-bit operands)");
  cmd->add_option("--samples", o.samples, "functions of several operands without --inputs: this many seeded tuples")
      ->capture_default_str();
  cmd->add_option("--seed", o.seed, "the sample's seed")->capture_default_str();
  cmd->add_option("--show", o.show, "violations listed")->capture_default_str();
  return cmd;
}

int sweepCommand(const SweepOptions& o) {
  try {
    return run(o);
  } catch (const Rejected& e) {
    if (cluster::rank() == 0) std::cerr << e.what() << "\n";
    return kRejected;
  }
}

}  // namespace clref::cli
