// `clref sweep` (sweep_command.hpp).
#include "cli/sweep_command.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <bit>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <span>
#include <string_view>
#include <thread>

#include "cli/cluster.hpp"
#include "cli/math_command.hpp"
#include "cli/math_operations.hpp"
#include "cli/math_values.hpp"
#include "cli/split_mix64.hpp"
#include "check/glsl_allowed_set.hpp"
#include "numerics/enclosure.hpp"
#include "numerics/math.hpp"
#include "numerics/nan_bits.hpp"
#include "numerics/verdict.hpp"

namespace clref::cli {
namespace {

using namespace clref::numerics;
using nlohmann::json;

// Inputs per block: the unit of work handed to a rank, and of the report's order. float: at most 2^16 (a second or so
// of one core), and at least 256 blocks in a range of 2^20 inputs or more, so that the ranks finish close together
// (a 2^20 range in 16 blocks left one rank a whole block behind: 1.6× on 2 ranks); half's whole range and double's
// slower inputs in blocks of 2^12, so that they too spread over ranks. It depends on the range alone: the report is
// the same for any number of ranks.
uint64_t blockOf(Format f, uint64_t inputs) {
  if (f != Format::Float) return uint64_t(1) << 12;
  return std::clamp<uint64_t>(std::bit_floor(std::max<uint64_t>(inputs / 256, 1)), uint64_t(1) << 12,
                              uint64_t(1) << 16);
}

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

// GLSL.std.450 instructions of floating-point scalars (check/glsl_allowed_set.hpp): judged as `clref check` judges
// them in a shader without execution modes, by the shadow run's own rules (Vulkan §A.4.2 [external]
// [[precision-of-glsl-std-450-instructions]]: a row of their own, inherited from a formula, correctly rounded or the
// correct result), clref's value from the interpreter's handler of the instruction.
constexpr std::string_view kGlslPrefix = "GLSL.std.450:";

struct Sweep {
  MathFn f{};
  // A GLSL.std.450 instruction: the shadow run's rule and a shader's default freedoms (null: an OpenCL.std function).
  const host::GlslStd450Scalar* glsl = nullptr;
  Format format = Format::Float;
  size_t width = 4;        // bytes per operand
  size_t resultWidth = 4;  // bytes per result: the type's, or ilogb's int
  int arity = 1;
  bool patterns = true;  // a one-operand function's inputs are its bit patterns (else a seeded sample)
  Rounding rounding = Rounding::RTE;
  Judging judging;
  uint64_t lo = 0, hi = 0;  // input indices
  int observedFd = -1, inputsFd = -1;
  uint64_t seed = 1, show = 20;
  bool out = false;
};

// The operands' bits of input k: the bit pattern k itself (one operand), the tuple k of --inputs, or the sample's
// k-th tuple: from SplitMix64 seeded with seed + k, the same however the range is cut. float: the two halves of its
// first draw, and the first draw of the seed's complement for a third operand; half: 16-bit pieces of the first draw;
// double: the successive draws.
std::array<uint64_t, 3> operandsOf(const Sweep& s, uint64_t k) {
  std::array<uint64_t, 3> bits{};
  if (s.arity == 1 && s.patterns) {
    bits[0] = k;
  } else if (s.inputsFd >= 0) {
    const size_t bytes = size_t(s.arity) * s.width;
    std::array<std::byte, 24> tuple{};
    if (::pread(s.inputsFd, tuple.data(), bytes, off_t(k * bytes)) != ssize_t(bytes))
      throw Rejected("--inputs: cannot read tuple " + std::to_string(k));
    for (size_t i = 0; i < size_t(s.arity); ++i) std::memcpy(&bits[i], tuple.data() + i * s.width, s.width);
  } else if (s.format == Format::Float) {
    const uint64_t z = SplitMix64(s.seed + k).next();
    bits[0] = uint32_t(z);
    bits[1] = uint32_t(z >> 32);
    bits[2] = uint32_t(SplitMix64(~(s.seed + k)).next());
  } else if (s.format == Format::Half) {
    const uint64_t z = SplitMix64(s.seed + k).next();
    for (size_t i = 0; i < 3; ++i) bits[i] = (z >> (16 * i)) & 0xffff;
  } else {
    SplitMix64 g(s.seed + k);
    for (auto& b : bits) b = g.next();
  }
  return bits;
}

bool integerOperand(const Sweep& s, size_t i) {
  return s.glsl ? s.glsl->integerExponent && i == 1 : sweepIntegerOperand(s.f, i);
}
// nan(nancode): its operand is an unsigned integer of the type's width (OpenCL C 3.0 §6.15.2 [[math-functions]]
// "gentype nan(ugentype nancode)"), swept over its bit patterns as a float's.
bool nanCode(const Sweep& s) { return !s.glsl && s.f == MathFn::nan; }
// ilogb's result is an int, whatever the type ("intn ilogb(gentype x)"); the others' a value of the type.
bool integerResult(const Sweep& s) { return !s.glsl && s.f == MathFn::ilogb; }

// An integer operand is a signed integer of the type's width (double: its low 32 bits, OpenCL's int); nan's code the
// unsigned bits themselves.
double operandValue(const Sweep& s, size_t i, uint64_t bits) {
  if (nanCode(s)) return double(bits);
  if (!integerOperand(s, i)) return bitsToDouble(bits, s.format);
  return s.format == Format::Half ? double(int16_t(uint16_t(bits))) : double(int32_t(uint32_t(bits)));
}

// A result in the raw form the device writes it: a value of the type, or ilogb's int32.
void storeResult(const Sweep& s, void* at, double v) {
  if (integerResult(s)) {
    const int32_t i = int32_t(v);
    std::memcpy(at, &i, 4);
  } else {
    storeValue(at, s.format, v);
  }
}
double loadResult(const Sweep& s, const void* at) {
  if (!integerResult(s)) return loadValue(at, s.format);
  int32_t i = 0;
  std::memcpy(&i, at, 4);
  return double(i);
}
uint64_t resultBitsOf(const Sweep& s, double v) {
  uint64_t bits = 0;
  storeResult(s, &bits, v);
  return bits;
}
std::string showResult(const Sweep& s, uint64_t bits) {
  return integerResult(s) ? std::to_string(int32_t(uint32_t(bits))) : show(bitsToDouble(bits, s.format), s.format);
}

// clref's result in `rounding`: OpenCL.std's function evaluated, or what the interpreter's handler of the GLSL.std.450
// instruction gives in a shader (rte, or rtz: RoundingModeRTZ), GLSL's undefined cases decided by the default choices.
double clrefValue(const Sweep& s, std::span<const double> args, Rounding rounding) {
  if (s.glsl)
    return host::glslStd450ScalarValue(*s.glsl, args, s.format, rounding == Rounding::RTZ, defaultChoices());
  const MathResult r = evaluate(s.f, args, s.format, rounding);
  return integerResult(s) ? double(r.integer) : r.value;
}

// |observed − reference| in ulp of the reference (numerics::ulpOf), the classes of Verdict::errorUlps: 0 for the same
// value or two NaNs, NaN for one NaN, infinite for another infinity.
double ulpsFrom(double reference, double observed, Format f) {
  if (std::isnan(reference) || std::isnan(observed)) return std::isnan(reference) && std::isnan(observed) ? 0 : NAN;
  if (reference == observed) return 0;
  if (std::isinf(reference) || std::isinf(observed)) return INFINITY;
  return std::fabs(observed - reference) / ulpOf(reference, f);
}

// The allowed results of a GLSL.std.450 instruction, for a listed violation: "[lo, hi]", "or NaN".
std::string setText(const ValueSet& v, Format f) {
  if (v.isAll()) return "any value";
  std::string out = v.hasNumbers() ? "[" + show(v.lo, f) + ", " + show(v.hi, f) + "]" : "";
  if (v.nan) out += out.empty() ? "NaN" : " or NaN";
  return out.empty() ? "nothing" : out;
}

// The verdict on one result: OpenCL.std's row under the profile and the build options, or the GLSL instruction's
// allowed set as `clref check` forms it in a shader without execution modes (check/glsl_allowed_set.hpp). The error in
// ulp: from the exact result for a function with a row; for a GLSL.std.450 instruction without one, from clref's value
// (the exact result correctly rounded, or the formula evaluated step by step).
Verdict verdictOn(const Sweep& s, std::span<const double> args, double observed) {
  if (s.glsl && s.glsl->row) {
    Verdict v = judge(*s.glsl->row, args, observed, s.format, Profile::Vulkan, s.judging.verdict);
    v.allowed = host::glslStd450ScalarAllowedSet(*s.glsl, args, s.format, NAN).contains(observed);
    return v;
  }
  if (s.glsl) {
    const double reference = clrefValue(s, args, Rounding::RTE);
    const ValueSet set = host::glslStd450ScalarAllowedSet(*s.glsl, args, s.format, reference);
    Verdict v;
    v.allowed = set.contains(observed);
    v.errorUlps = ulpsFrom(reference, observed, s.format);
    if (!v.allowed) v.rule = setText(set, s.format);
    return v;
  }
  Verdict v = judge(s.f, args, observed, s.format, s.judging.profile, s.judging.verdict);
  if (!v.allowed) applyOptimizationOptions(s.judging, args, evaluate(s.f, args, s.format).value, observed, v);
  return v;
}

// One block's outcome: the histogram, the violations (the first `show` listed), and with --out the results.
struct Block {
  std::array<uint64_t, kClassCount> histogram{};
  uint64_t violations = 0;
  json listed = json::array();
  std::string results;  // --out: raw values
};

void sweepRange(const Sweep& s, uint64_t begin, uint64_t end, Block& b) {
  std::vector<std::byte> observed;
  if (!s.out) {
    observed.resize((end - begin) * s.resultWidth);
    if (::pread(s.observedFd, observed.data(), observed.size(), off_t((begin - s.lo) * s.resultWidth)) !=
        ssize_t(observed.size()))
      throw Rejected("--observed: cannot read the results of inputs " + std::to_string(begin) + " on");
  } else {
    b.results.resize((end - begin) * s.resultWidth);
  }
  std::vector<double> args(size_t(s.arity));
  for (uint64_t k = begin; k < end; ++k) {
    const auto bits = operandsOf(s, k);
    for (size_t i = 0; i < args.size(); ++i) args[i] = operandValue(s, i, bits[i]);
    if (s.out) {
      char* to = b.results.data() + (k - begin) * s.resultWidth;
      if (nanCode(s)) {
        // The bits the interpreter's nan gives under the default choices (interpreter/ops_math.cpp nanLanes).
        const bool payload = defaultChoices().get<Choice::NanPayload>() == NanPayloadOption::Significand;
        const uint64_t nan = quietNanBits(s.format, bits[0], payload);
        std::memcpy(to, &nan, s.resultWidth);
      } else {
        storeResult(s, to, clrefValue(s, args, s.rounding));
      }
      continue;
    }
    const std::byte* at = observed.data() + (k - begin) * s.resultWidth;
    const double o = loadResult(s, at);
    const Verdict v = verdictOn(s, args, o);
    ++b.histogram[classOf(v.errorUlps)];
    if (v.allowed) continue;
    if (b.violations++ >= s.show) continue;
    const double correct = clrefValue(s, args, Rounding::RTE);
    char error[32];
    std::snprintf(error, sizeof error, "%.4g", v.errorUlps);
    json operands = json::array();
    for (int i = 0; i < s.arity; ++i) operands.push_back(bits[size_t(i)]);
    uint64_t observedBits = 0;
    std::memcpy(&observedBits, at, s.resultWidth);
    b.listed.push_back({k, operands, observedBits, resultBitsOf(s, correct), error, v.rule});
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
    const uint64_t bits = operands[i].get<uint64_t>();
    out += (i ? ", " : "") + (nanCode(s)             ? std::to_string(bits)
                             : integerOperand(s, i) ? std::to_string(int64_t(operandValue(s, i, bits)))
                                                     : show(bitsToDouble(bits, s.format), s.format));
  }
  return out;
}

// The function to sweep: an OpenCL.std function by its name, or GLSL.std.450:NAME.
void chooseFunction(const std::string& name, Sweep& s) {
  if (name.starts_with(kGlslPrefix)) {
    const std::string_view instruction = std::string_view(name).substr(kGlslPrefix.size());
    std::string known;
    for (const host::GlslStd450Scalar& g : host::glslStd450Scalars()) {
      if (g.name == instruction) {
        s.glsl = &g;
        s.f = g.row.value_or(MathFn::sin);
        return;
      }
      known += std::string(known.empty() ? "" : ", ") + std::string(g.name);
    }
    throw Rejected("sweep: '" + name + "': " + host::glslStd450NotScalar(instruction) +
                   "; the GLSL.std.450 instructions swept are those of floating-point scalars: " + known);
  }
  const auto fn = mathFnByName(name);
  if (!fn) throw Rejected("sweep: '" + name + "' is not an OpenCL.std math function (clref math --list), nor GLSL.std.450:NAME");
  s.f = *fn;
}

int run(const SweepOptions& o) {
  if (o.observed.empty() == o.out.empty()) throw Rejected("sweep: give exactly one of --observed FILE and --out FILE");
  if (o.type != "half" && o.type != "float" && o.type != "double")
    throw Rejected("sweep: --type " + o.type + ": expected half, float or double");
  Sweep s;
  chooseFunction(o.function, s);
  s.format = parseFormat(o.type);
  s.width = size_t(storageBits(s.format) / 8);
  s.resultWidth = integerResult(s) ? 4 : s.width;
  s.arity = s.glsl ? s.glsl->arity : arity(s.f);
  s.rounding = parseRounding(o.rounding);
  if (s.glsl) {
    // A shader rounds its correctly rounded operations to nearest even, or toward zero with RoundingModeRTZ
    // (Vulkan §A.4 [external] [[spirvenv-correctly-rounded]]): it has no rounding upward or downward.
    if (s.rounding != Rounding::RTE && s.rounding != Rounding::RTZ)
      throw Rejected("sweep: --rounding " + o.rounding + ": " + o.function +
                     " rounds as a shader does, to nearest even (rte) or toward zero (rtz, RoundingModeRTZ)");
    // A shader without execution modes (interpreter/shadow.cpp ShadowRun::verdictFor): denormals may be flushed,
    // correctly rounded steps round either way. --profile and --options are OpenCL's.
    if (o.profile != "full" || !o.options.empty())
      throw Rejected("sweep: --profile and --options apply to OpenCL.std functions; " + o.function +
                     " is judged by Vulkan's row");
    s.judging.profile = Profile::Vulkan;
    s.judging.verdict.flushToZero = true;
  } else {
    MathCommandOptions m;
    m.profile = o.profile;
    m.options = o.options;
    s.judging = judgingOf(m);
  }
  // A function the type's table has no row for is refused before the sweep (judge() throws for it).
  try {
    const std::vector<double> one(size_t(s.arity), 1.0);
    verdictOn(s, one, 1.0);
  } catch (const std::invalid_argument& e) {
    throw Rejected("sweep: " + o.function + " is not judged in " + o.type + ": " + e.what());
  }
  s.seed = o.seed;
  s.show = o.show;
  s.out = !o.out.empty();
  // One operand: every bit pattern (half, float), or for double a seeded sample unless --range names bit patterns.
  s.patterns = s.arity == 1 && (s.format != Format::Double || !o.range.empty());
  uint64_t count = !s.patterns                  ? o.samples
                   : s.format == Format::Double ? ~uint64_t(0)
                                                : uint64_t(1) << storageBits(s.format);
  if (s.arity > 1 && !o.inputs.empty()) {
    s.inputsFd = fileOf(o.inputs, 0, "--inputs");
    count = uint64_t(::lseek(s.inputsFd, 0, SEEK_END)) / (uint64_t(s.arity) * s.width);
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
  // 2^40 inputs are a year of one core's time: a range beyond that is a mistake, and its block list would not fit.
  if (s.hi - s.lo > uint64_t(1) << 40)
    throw Rejected("--range: at most 2^40 inputs in one sweep (" + std::to_string(s.hi - s.lo) + " asked for)");
  if (!s.out) s.observedFd = fileOf(o.observed, (s.hi - s.lo) * s.resultWidth, "--observed");

  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const unsigned threads = std::max(1u, hardware / unsigned(cluster::localSize()));
  const uint64_t block = blockOf(s.format, s.hi - s.lo);
  const uint64_t blocks = (s.hi - s.lo + block - 1) / block;
  const std::vector<uint64_t> cost(blocks, 1);
  const auto results = cluster::distribute(cost, [&](size_t i) {
    const uint64_t begin = s.lo + i * block;
    return sweepBlock(s, begin, std::min(s.hi, begin + block), threads);
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
    const std::string name = s.glsl ? o.function : std::string(nameOf(s.f));
    // A GLSL.std.450 instruction without a row of its own is listed with clref's value (its formula step by step, or
    // the exact result correctly rounded).
    const char* reference = s.glsl && !s.glsl->row ? ", clref's value " : ", correctly rounded ";
    // A one-operand function's bit patterns are shown in hexadecimal, the type's width of digits.
    auto index = [&](uint64_t k) {
      char text[32];
      if (s.patterns)
        std::snprintf(text, sizeof text, "0x%0*llx", int(s.width * 2), static_cast<unsigned long long>(k));
      else
        std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(k));
      return std::string(text);
    };
    std::cout << "sweep " << name << " " << o.type << ", inputs " << index(s.lo) << ".." << index(s.hi - 1) << " ("
              << s.hi - s.lo << ")";
    if (!s.patterns) std::cout << (o.inputs.empty() ? ", seeded sample " + std::to_string(s.seed) : ", " + o.inputs);
    if (s.out) {
      out.close();
      if (!out) throw Rejected("--out: cannot write " + o.out);
      std::cout << ": clref's results (" << o.rounding << ") written to " << o.out << "\n";
    } else {
      std::cout << ", " << toString(s.judging.profile) << " profile: " << violations << " violation"
                << (violations == 1 ? "" : "s") << "\n";
      for (const auto& l : listed)
        std::cout << "  [" << index(l[0].get<uint64_t>()) << "] " << name << "(" << operandsText(s, l[1])
                  << ") = " << showResult(s, l[2].get<uint64_t>()) << reference
                  << showResult(s, l[3].get<uint64_t>()) << ": " << l[4].get<std::string>()
                  << " ulp (allowed: " << l[5].get<std::string>() << ")\n";
      if (violations > listed.size()) std::cout << "  ... (--show N lists more)\n";
      std::cout << "ulp error histogram:\n";
      for (size_t c = 0; c < kClassCount; ++c)
        if (histogram[c]) std::cout << "  " << kClasses[c] << ": " << histogram[c] << "\n";
      if (violations) status = kNotAllowed;
    }
    // On stderr: the report on stdout is the same on any number of ranks.
    std::cerr << "sweep: " << results.size() << " blocks of " << block << " inputs on " << cluster::size()
              << (cluster::size() == 1 ? " process" : " ranks") << "\n";
  }
  if (s.observedFd >= 0) ::close(s.observedFd);
  if (s.inputsFd >= 0) ::close(s.inputsFd);
  return cluster::fromRankZero(status);
}

}  // namespace

CLI::App* addSweepCommand(CLI::App& app, SweepOptions& o) {
  auto* cmd = app.add_subcommand("sweep",
                                 "judge another device's results of a math function over every half or float input "
                                 "of a range, or a sample of doubles (or write clref's); under mpirun the range is "
                                 "spread over the ranks");
  cmd->add_option("function", o.function,
                  "an OpenCL.std function (clref math --list), or GLSL.std.450:NAME for an instruction of "
                  "floating-point scalars (Exp ... Refract, Ldexp, the first result of Modf and Frexp; not Cross, the "
                  "matrix, packing and integer ones), judged by `clref check`'s rule in a shader without execution modes; its ulp "
                  "errors are from clref's value where it has no accuracy row of its own")
      ->required();
  cmd->add_option("--type", o.type, "the operands' and results' type: half, float or double")->capture_default_str();
  cmd->add_option("--rounding", o.rounding, "--out: rte, rtz, rtp or rtn (GLSL.std.450: rte or rtz, a shader's modes)")
      ->capture_default_str();
  cmd->add_option("--range", o.range,
                  "LO:HI, the inputs LO to HI-1: bit patterns of a one-operand function (default all 2^16 halfs, all "
                  "2^32 floats; double: only with --range, at most 2^40 of the 2^64), else sample or tuple numbers");
  cmd->add_option("--profile", o.profile, "full, embedded, relaxed or relaxed-embedded")->capture_default_str();
  cmd->add_option("--options", o.options, "the build options of the device whose results are judged");
  cmd->add_option("--observed", o.observed,
                  "the device's results: raw values of the type in input order, first the range's LO (ilogb: 32-bit "
                  "ints)");
  cmd->add_option("--out", o.out, "write clref's correctly rounded results there instead (raw values)");
  cmd->add_option("--inputs", o.inputs,
                  "functions of several operands: their tuples (raw operands of the type's width; an int operand "
                  "as a signed integer of that width, double's in its low 32 bits)");
  cmd->add_option("--samples", o.samples,
                  "this many seeded operand tuples: functions of several operands without --inputs, and double "
                  "without --range (2^64 inputs cannot be swept: uniform over the bit patterns)")
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
