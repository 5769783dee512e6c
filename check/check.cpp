// Judging another implementation's whole-kernel output (check/check.hpp).
#include "check/check.hpp"

#include "interpreter/observer.hpp"
#include "interpreter/executor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <regex>
#include <sstream>

#include "images/verdict.hpp"
#include "interpreter/module.hpp"
#include "interpreter/shadow.hpp"
#include "numerics/format.hpp"
#include "numerics/math.hpp"

namespace clref::host {
namespace {

double readFloat(const uint8_t* p, numerics::ScalarType t) { return numerics::loadValue(p, floatFormat(t)); }

std::string printFloat(double v) {
  if (std::isnan(v)) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

std::string printInt(const uint8_t* p, numerics::ScalarType t) {
  uint64_t u = 0;
  const size_t n = sizeOf(t);
  std::memcpy(&u, p, n);
  if (isSigned(t) && n < 8 && (u >> (8 * n - 1)) & 1) u |= ~uint64_t(0) << (8 * n);
  return isSigned(t) ? std::to_string(int64_t(u)) : std::to_string(u);
}

// How far a value lies outside a set, in ulps of the format at the nearer end.
std::string distanceOutside(const numerics::ValueSet& s, double v, numerics::Format f) {
  if (std::isnan(v) || !s.hasNumbers()) return std::isnan(v) ? "a NaN where no NaN is allowed" : "not a NaN";
  const double end = v < s.lo ? s.lo : v > s.hi ? s.hi : (v == 0 ? v : s.lo);
  if (std::isinf(v) || std::isinf(end)) return "beyond the allowed set";
  if (v == end) return "a zero of the sign the set excludes";
  const double ulps = std::fabs(v - end) / numerics::ulpOf(end, f);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.4g ulp beyond the allowed set", ulps);
  return buf;
}

// The accuracy row of the instruction at `inst` when it is a floating-point instruction with one (a core operation
// or an OpenCL.std math function): "<= 4 ulp (sin; OpenCL SPIR-V Environment: ... [[...]])", else "".
std::string ruleOf(const interpreter::Module& m, uint32_t inst, numerics::Profile profile,
                   const numerics::VerdictOptions& options) {
  const interpreter::Instruction& i = m.instructions.at(inst);
  if (!i.resultType) return "";
  const interpreter::Type* t = &m.type(i.resultType);
  if (t->kind == interpreter::TypeKind::Vector) t = &m.type(t->element);
  if (t->kind != interpreter::TypeKind::Float) return "";
  const numerics::Format f = numerics::formatOfBytes(t->width / 8);
  std::optional<numerics::MathFn> fn;
  numerics::CoreOp core = numerics::CoreOp::None;
  switch (i.opcode) {
    case spv::Op::OpFAdd: core = numerics::CoreOp::Add; break;
    case spv::Op::OpFSub: core = numerics::CoreOp::Sub; break;
    case spv::Op::OpFMul: core = numerics::CoreOp::Mul; break;
    case spv::Op::OpFDiv: core = numerics::CoreOp::Div; break;
    case spv::Op::OpExtInst: {
      const auto set = m.extInstImports.find(i.extInstSet);
      if (set == m.extInstImports.end() || set->second != "OpenCL.std" ||
          i.operand(1) >= uint32_t(numerics::kMathFnCount))
        return "";
      fn = numerics::MathFn(i.operand(1));
      break;
    }
    default: return "";
  }
  const numerics::AccuracyRequirement* row = numerics::primaryRow(fn, core, f, profile, options.accuracy);
  if (!row) return "";
  return std::string(row->text) + " (" +
         (fn ? std::string(numerics::nameOf(*fn)) : std::string(numerics::toString(core))) + "; " +
         std::string(numerics::toString(row->document)) + ": " + std::string(row->source) + ")";
}

// "<instruction> (source line): source text".
std::string instructionText(const interpreter::Module& m, uint32_t inst) {
  std::string s = m.describe(inst);
  const std::string source = m.sourceOf(inst);
  if (!source.empty() && s.find(source) == std::string::npos) s += " (" + source + ")";
  const std::string text = m.sourceText(inst);
  if (!text.empty()) s += ": " + text;
  return s;
}

// "computed by <instruction> (source line)" for the instruction behind a violation: the one whose rule gave the
// element its set, else the store that wrote it.
// The instruction and its rule also go into ev's fields (ElementVerdict::instruction, rule).
std::string culprit(const interpreter::ShadowRun& shadow, const interpreter::ShadowEntry* e, const uint8_t* at,
                    ElementVerdict& ev) {
  if (!shadow.module) return "";
  std::optional<uint32_t> inst;
  const char* what = "computed by ";
  if (e && e->producer != UINT32_MAX) {
    inst = e->producer;
    what = "its allowed set is the rule of ";
  } else {
    inst = shadow.writerOf(at);
  }
  if (!inst || *inst >= shadow.module->instructions.size()) return "";
  ev.instruction = instructionText(*shadow.module, *inst);
  std::string s = std::string("; ") + what + ev.instruction;
  ev.rule = ruleOf(*shadow.module, *inst, shadow.profile, shadow.verdict);
  if (!ev.rule.empty()) s += "; rule " + ev.rule;
  return s;
}

std::string decisionText(const interpreter::Diagnostic& d) {
  std::string s = d.message;
  if (!d.instruction.empty()) s += " at " + d.instruction;
  if (!d.source.empty() && d.instruction.find(d.source) == std::string::npos) s += " (" + d.source + ")";
  return s;
}

// A decision's instruction with its source line, for ElementVerdict::instruction.
std::string decisionInstruction(const interpreter::Diagnostic& d) {
  std::string s = d.instruction;
  if (!d.source.empty() && s.find(d.source) == std::string::npos) s += " (" + d.source + ")";
  if (!d.sourceLine.empty()) s += ": " + d.sourceLine;
  return s;
}

void configure(interpreter::ShadowRun& shadow, const CheckOptions& options) {
  shadow.profile = options.profile;
  shadow.verdict = options.verdict;
  shadow.contraction = options.contraction;
  shadow.madEnable = options.madEnable;
  shadow.finiteMathOnly = options.finiteMathOnly;
}

}  // namespace

RunResult runPerturbed(Kernel& kernel, const NDRange& range, uint64_t seed, const CheckOptions& options,
                       uint64_t* perturbed) {
  interpreter::ShadowRun shadow;
  configure(shadow, options);
  shadow.perturbSeed = seed;
  shadow.perturbState = seed;
  // Another conforming device may also make other implementation-defined choices: each choice whose every option is
  // a conforming answer the allowed sets cover takes an option drawn from the seed.
  numerics::Choices choices = kernel.choices();
  uint64_t state = seed ^ 0x5DEECE66Dull;
  for (numerics::Choice c :
       {numerics::Choice::Mad, numerics::Choice::FloatToIntOutOfRange, numerics::Choice::Mul24OutOfRange,
        numerics::Choice::IntDivByZero, numerics::Choice::IntDivOverflow}) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const auto& options = numerics::infoOf(c).options;
    const uint64_t count = uint64_t(std::count_if(options.begin(), options.end(), [](auto o) { return !o.empty(); }));
    choices.set(c, uint8_t((state >> 33) % count));
  }
  shadow.choices = choices;
  RunResult r = kernel.runShadow(range, shadow);
  if (perturbed) *perturbed = shadow.perturbed;
  return r;
}

CheckOptions checkOptionsFor(numerics::Profile profile, const std::string& buildOptions) {
  BuildOptions parsed;
  if (!parseBuildOptions(buildOptions.c_str(), BuildStep::Build, parsed))
    throw Error("not an OpenCL build option: " + parsed.rejected);
  CheckOptions o;
  const bool embedded = profile == numerics::Profile::Embedded || profile == numerics::Profile::RelaxedEmbedded;
  o.profile = profile;
  std::istringstream words(buildOptions);
  for (std::string w; words >> w;) {
    // OpenCL 3.0 API §5.8.6.3 [[optimization-options]]: -cl-fast-relaxed-math implies -cl-unsafe-math-optimizations,
    // -cl-finite-math-only and -cl-no-signed-zeros; the unsafe optimizations imply -cl-mad-enable and the relaxed
    // accuracy tables (OpenCL SPIR-V Environment §6.6.3 [[ulp_values_for_math_instructions_with_fast_relaxed_math]]).
    const bool fast = w == "-cl-fast-relaxed-math";
    if (fast || w == "-cl-unsafe-math-optimizations") {
      o.profile = embedded ? numerics::Profile::RelaxedEmbedded : numerics::Profile::Relaxed;
      o.madEnable = true;
    }
    if (fast || w == "-cl-finite-math-only") o.finiteMathOnly = true;
    if (fast || w == "-cl-no-signed-zeros") o.noSignedZeros = true;
    if (w == "-cl-mad-enable") o.madEnable = true;
    if (w == "-cl-denorms-are-zero") o.verdict.flushToZero = true;
    if (w == "-cl-fp32-correctly-rounded-divide-sqrt") o.verdict.accuracy.fp32CorrectlyRoundedDivideSqrt = true;
  }
  return o;
}

const char* toString(ElementClass c) {
  switch (c) {
    case ElementClass::Identical: return "identical";
    case ElementClass::Allowed: return "allowed";
    case ElementClass::Violation: return "violation";
    case ElementClass::Undetermined: return "undetermined";
  }
  return "?";
}

bool CheckReport::anyViolation() const {
  for (const auto& b : buffers)
    if (b.violations) return true;
  return false;
}

namespace {

// CheckOptions::sampleGroups: `count` linear work-group ids spread evenly from the first to the last; empty when the
// launch has no more groups than that.
std::vector<uint64_t> sampleOf(const Kernel& kernel, const NDRange& range, uint64_t count) {
  if (count == 0) return {};
  const auto local = kernel.localSizeFor(range);
  uint64_t total = 1;
  for (unsigned d = 0; d < range.dims; ++d) total *= (range.global[d] + local[d] - 1) / std::max<size_t>(local[d], 1);
  if (count >= total) return {};
  std::vector<uint64_t> groups;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t g = count == 1 ? 0 : i * (total - 1) / (count - 1);
    if (groups.empty() || groups.back() != g) groups.push_back(g);
  }
  return groups;
}

// The bytes a launch wrote into global memory (an OpenCL kernel's CrossWorkgroup, a shader's StorageBuffer, Uniform
// buffer blocks and PhysicalStorageBuffer), as disjoint ranges of host addresses: the elements a sample of work-groups
// is judged on. Local and private memory (an arena per work-group; a shader's Input builtins) are left out: no output
// is there.
class WriteRecorder : public interpreter::ExecutionObserver {
 public:
  void access(interpreter::WorkItem& wi, uint32_t, uint32_t tag, uint64_t off, uint64_t bytes, bool write) override {
    if (!write || bytes == 0) return;
    const auto& a = wi.allocs[tag];
    if (a.storage == spv::StorageClass::Workgroup || a.storage == spv::StorageClass::Function ||
        a.storage == spv::StorageClass::Private || a.storage == spv::StorageClass::Input ||
        a.storage == spv::StorageClass::Output)
      return;
    const uint8_t* lo = a.base + off;
    const uint8_t* hi = lo + bytes;
    auto it = ranges_.upper_bound(lo);
    if (it != ranges_.begin() && std::prev(it)->second >= lo) {
      --it;
      if (it->second >= hi) return;  // already recorded (the common case: a work-item storing again)
      lo = it->first;
      hi = std::max(hi, it->second);
      it = ranges_.erase(it);
    }
    while (it != ranges_.end() && it->first <= hi) {
      hi = std::max(hi, it->second);
      it = ranges_.erase(it);
    }
    ranges_.emplace(lo, hi);
  }
  // The written ranges that meet [begin, end), clipped to it, as byte offsets from begin.
  std::vector<std::pair<uint64_t, uint64_t>> within(const uint8_t* begin, const uint8_t* end) const {
    std::vector<std::pair<uint64_t, uint64_t>> out;
    auto it = ranges_.upper_bound(begin);
    if (it != ranges_.begin()) --it;
    for (; it != ranges_.end() && it->first < end; ++it)
      if (it->second > begin)
        out.emplace_back(uint64_t(std::max(it->first, begin) - begin), uint64_t(std::min(it->second, end) - begin));
    return out;
  }

 private:
  std::map<const uint8_t*, const uint8_t*> ranges_;  // begin → end
};

}  // namespace

std::string ElementVerdict::allowedString() const {
  if (cls == ElementClass::Undetermined) return "";
  return allowedText.empty() ? numerics::toString(allowed) : allowedText;
}

namespace {

// A set that says nothing: every value of the type (with or without NaN).
bool vacuous(const numerics::ValueSet& s) { return std::isinf(s.lo) && s.lo < 0 && std::isinf(s.hi) && s.hi > 0; }

// Where an element's "any value" set came from (check.hpp AnyValueSource): the instruction whose rule gave it, else
// what reinterpreted its bytes, else the store that wrote it.
AnyValueSource anyValueSource(const interpreter::ShadowRun& shadow, const interpreter::ShadowEntry* e,
                              const uint8_t* at, std::string why) {
  AnyValueSource src;
  std::optional<uint32_t> inst;
  if (e && e->producer != UINT32_MAX) inst = e->producer;
  if (e && e->reinterpreted && !inst)
    why = "its bytes were reinterpreted (a partial access, or a load of another type over values with allowed sets): "
          "clref does not follow a set through a reinterpretation";
  if (!inst && !(e && e->reinterpreted)) inst = shadow.writerOf(at);
  if (inst && shadow.module && *inst < shadow.module->instructions.size())
    src.instruction = instructionText(*shadow.module, *inst);
  src.why = std::move(why);
  return src;
}

// The "any value" elements of one buffer, grouped by source (BufferVerdict::anyValueBy).
class AnyValueTally {
 public:
  // Marks an element that the set "any value" allows: allowed, or undetermined under CheckOptions::strict.
  void add(ElementVerdict& ev, AnyValueSource src, bool strict) {
    ev.anyValue = true;
    if (strict) {
      ev.cls = ElementClass::Undetermined;
      ev.reason = "allowed only by the set any value (--strict): " + src.why +
                  (src.instruction.empty() ? std::string() : "; from " + src.instruction);
    }
    ++count_[{std::move(src.instruction), std::move(src.why)}];
  }
  void into(BufferVerdict& bv) const {
    for (const auto& [key, n] : count_) {
      bv.anyValue += n;
      bv.anyValueBy.push_back({key.first, key.second, n});
    }
    std::stable_sort(bv.anyValueBy.begin(), bv.anyValueBy.end(),
                     [](const AnyValueSource& a, const AnyValueSource& b) { return a.elements > b.elements; });
  }

 private:
  std::map<std::pair<std::string, std::string>, uint64_t> count_;
};

void tally(BufferVerdict& bv, ElementVerdict&& ev) {
  switch (ev.cls) {
    case ElementClass::Allowed: ++bv.allowed; break;
    case ElementClass::Violation: ++bv.violations; break;
    case ElementClass::Undetermined: ++bv.undetermined; break;
    case ElementClass::Identical: ++bv.identical; return;
  }
  bv.details.push_back(std::move(ev));
}

// Why every element of the memory object at `base` is open, or "" when nothing makes it so: a data race involving a
// read that clref's race checker found (another device may have read the other value), control flow that depended on
// a decision, or a write into the object at an address that depends on one. Words that go after "differs, and ".
std::string opennessOf(const interpreter::ShadowRun& shadow, const void* base) {
  if (shadow.racedRead)
    return "the kernel has a data race that involves a read, so another device may have read another value: " +
           decisionText(shadow.decisions.at(*shadow.racedRead).where);
  if (shadow.controlDecision)
    return "the run's control flow depends on a decision: " +
           decisionText(shadow.decisions.at(*shadow.controlDecision).where);
  const auto it = shadow.openAllocations.find(static_cast<const uint8_t*>(base));
  if (it != shadow.openAllocations.end())
    return "the kernel wrote into this memory object at an address that depends on a decision: " +
           decisionText(shadow.decisions.at(it->second).where);
  return "";
}

// Why the n bytes at p are open: two plain writes raced on them (another device may hold either value).
std::string racedAt(const interpreter::ShadowRun& shadow, const uint8_t* p, size_t n) {
  if (shadow.racedWrites.empty()) return "";
  auto it = shadow.racedWrites.upper_bound(p + n - 1);
  while (it != shadow.racedWrites.begin()) {
    --it;
    if (it->second.first > p)
      return "two writes raced on it, so another device may hold the other: " +
             decisionText(shadow.decisions.at(it->second.second).where);
    if (it->first + 128 < p) break;  // a raced range is one access: at most 128 bytes (a double16)
  }
  return "";
}

BufferVerdict judgeBuffer(const Kernel& kernel, const ObservedBuffer& o, const interpreter::ShadowRun& shadow,
                          const CheckOptions& options, const std::vector<std::pair<uint64_t, uint64_t>>* ranges) {
  auto buffer = kernel.bufferArg(o.arg);
  BufferVerdict bv;
  bv.arg = o.arg;
  bv.name = kernel.argInfo(o.arg).name;
  bv.type = o.type;
  const auto* ref = reinterpret_cast<const uint8_t*>(buffer->data());
  const std::string whole = opennessOf(shadow, ref);
  AnyValueTally anyValues;
  // One scalar: number `i` of the buffer, at byte offset `at`, of type `type`.
  uint64_t judged = 0;
  auto judge = [&](uint64_t i, uint64_t at, numerics::ScalarType type) {
    const size_t eb = sizeOf(type);
    const uint8_t* r = ref + at;
    ++judged;
    const uint8_t* v = o.bytes.data() + at;
    ElementVerdict ev;
    ev.index = i;
    interpreter::ShadowEntry scratch;
    const interpreter::ShadowEntry* e = shadow.lane(r, uint32_t(eb), scratch);
    const bool same = std::memcmp(r, v, eb) == 0;
    const std::string open = same || !whole.empty() ? whole : racedAt(shadow, r, eb);
    if (isFloat(type)) {
      const double rv = readFloat(r, type), ov = readFloat(v, type);
      if (same || (std::isnan(rv) && std::isnan(ov) && !(e && e->undetermined))) {
        ++bv.identical;
        return;
      }
      ev.observed = printFloat(ov);
      ev.reference = printFloat(rv);
      if (e && e->undetermined) {
        ev.cls = ElementClass::Undetermined;
        ev.reason = "depends on a decision: " + decisionText(shadow.decisions.at(e->decision).where);
        ev.instruction = decisionInstruction(shadow.decisions.at(e->decision).where);
      } else {
        ev.allowed = e ? e->set : numerics::ValueSet::point(rv);
        std::string anyWhy = "its rule allows any value here (the result is undefined or unbounded for these operands)";
        if (e && e->format != floatFormat(type)) {
          ev.allowed = numerics::ValueSet::all();
          anyWhy = "the element holds the bytes of a value of another floating-point format";
        }
        // -cl-no-signed-zeros: a zero of either sign stands for the other.
        const bool zeroSignFree =
            options.noSignedZeros && ov == 0 && ev.allowed.contains(std::signbit(ov) ? 0.0 : -0.0);
        if (ev.allowed.contains(ov) || zeroSignFree) {
          ev.cls = ElementClass::Allowed;
          const double u = numerics::ulpOf(std::isfinite(rv) ? rv : 0.0, floatFormat(type));
          char buf[160];
          std::snprintf(buf, sizeof buf, "%.4g ulp from clref's value, inside the allowed set %s",
                        std::isfinite(ov) && std::isfinite(rv) ? std::fabs(ov - rv) / u : 0.0,
                        numerics::toString(ev.allowed).c_str());
          ev.reason = buf + culprit(shadow, e, r, ev);
          if (vacuous(ev.allowed)) anyValues.add(ev, anyValueSource(shadow, e, r, anyWhy), options.strict);
        } else if (!open.empty()) {
          ev.cls = ElementClass::Undetermined;
          ev.reason = "outside the allowed set " + numerics::toString(ev.allowed) + ", but " + open;
        } else {
          ev.cls = ElementClass::Violation;
          ev.reason = distanceOutside(ev.allowed, ov, floatFormat(type)) + " " + numerics::toString(ev.allowed) +
                      culprit(shadow, e, r, ev);
        }
      }
    } else {
      if (same) {
        ++bv.identical;
        return;
      }
      ev.observed = printInt(v, type);
      ev.reference = printInt(r, type);
      if (e && e->undetermined) {
        ev.cls = ElementClass::Undetermined;
        ev.reason = "depends on a decision: " + decisionText(shadow.decisions.at(e->decision).where);
        ev.instruction = decisionInstruction(shadow.decisions.at(e->decision).where);
      } else if (e && e->set.isAll() && e->size == eb) {
        ev.cls = ElementClass::Allowed;
        ev.allowedText = "any value";
        ev.reason =
            "any value: the result is implementation-defined or undefined here (e.g. an out-of-range "
            "conversion without _sat, OpenCL C 3.0 §6.4.3.3 [[out-of-range-behavior]])" +
            culprit(shadow, e, r, ev);
        anyValues.add(ev,
                      anyValueSource(shadow, e, r, "the integer result is implementation-defined or undefined here"),
                      options.strict);
      } else if (e) {
        ev.cls = ElementClass::Undetermined;
        ev.reason = "holds the bits of a floating-point value with an allowed set";
      } else if (!open.empty()) {
        ev.cls = ElementClass::Undetermined;
        ev.reason = "differs, and " + open;
      } else {
        ev.cls = ElementClass::Violation;
        ev.allowedText = ev.reference;
        ev.reason = "an integer result has no freedom here" + culprit(shadow, e, r, ev);
      }
    }
    if (o.layout && !ev.reason.empty())
      ev.reason = "element " + std::to_string(at / o.layout->stride) + " at byte offset " +
                  std::to_string(at % o.layout->stride) + ": " + ev.reason;
    tally(bv, std::move(ev));
  };
  const bool fields = o.layout && o.layout->stride && !o.layout->fields.empty();
  bv.elements = fields ? buffer->size() / o.layout->stride * o.layout->fields.size() : buffer->size() / sizeOf(o.type);
  if (!ranges) {
    forEachScalar(o.layout, o.type, buffer->size(), judge);
    anyValues.into(bv);
    return bv;
  }
  // A sample of work-groups: only the scalars the ranges (the bytes they wrote) meet, each once (a scalar can meet two
  // ranges).
  uint64_t next = 0;  // the first scalar not judged yet
  for (const auto& [lo, hi] : *ranges)
    forEachScalar(
        o.layout, o.type, buffer->size(),
        [&](uint64_t i, uint64_t at, numerics::ScalarType type) {
          if (i < next) return;
          judge(i, at, type);
          next = i + 1;
        },
        lo, hi);
  bv.notJudged = bv.elements - judged;
  anyValues.into(bv);
  return bv;
}

// An image's elements: each one the kernel wrote by the write rules for the colour it wrote (and the allowed sets of
// its components), each one it did not write as it was. Under CheckOptions::sampleGroups only the elements the
// sampled work-groups wrote are judged.
BufferVerdict judgeImage(const Kernel& kernel, const ObservedImage& o, const interpreter::ShadowRun& shadow,
                         bool sampled, const CheckOptions& options) {
  AnyValueTally anyValues;
  const auto image = kernel.imageArg(o.arg);
  const images::ImageView& view = image->view();
  const images::ImageFormat format = view.desc.format;
  const size_t es = images::elementSize(format);
  BufferVerdict bv;
  bv.arg = o.arg;
  bv.name = kernel.argInfo(o.arg).name;
  bv.image = true;
  const std::string whole = opennessOf(shadow, view.data);
  images::VerdictOptions vo;
  vo.access.choices = &kernel.choices();
  image->forEachElement([&](uint64_t index, const std::array<uint64_t, 3>& pos, uint32_t level, const uint8_t* r) {
    const uint8_t* v = o.bytes.data() + index * es;
    const auto w = shadow.imageWrites.find(r);
    ++bv.elements;
    if (sampled && w == shadow.imageWrites.end()) {
      ++bv.notJudged;
      return;
    }
    if (std::memcmp(r, v, es) == 0) {
      ++bv.identical;
      return;
    }
    const std::string open = whole.empty() ? racedAt(shadow, r, es) : whole;
    ElementVerdict ev;
    ev.index = index;
    ev.observed = images::describeElement(format, v);
    ev.reference = images::describeElement(format, r);
    const auto extent = image->extent(level);
    std::string at = "(" + std::to_string(pos[0]);
    if (extent[1] > 1 || extent[2] > 1) at += ", " + std::to_string(pos[1]);
    if (extent[2] > 1) at += ", " + std::to_string(pos[2]);
    at += ")";
    if (view.desc.numMipLevels > 1) at += " of mip level " + std::to_string(level);
    if (w == shadow.imageWrites.end()) {
      ev.allowedText = ev.reference;
      if (!open.empty()) {
        ev.cls = ElementClass::Undetermined;
        ev.reason = "the element at " + at + " differs, and " + open;
      } else {
        ev.cls = ElementClass::Violation;
        ev.reason = "the element at " + at + " changed, but the kernel wrote no element there on clref";
      }
      tally(bv, std::move(ev));
      return;
    }
    const interpreter::ShadowImageWrite& write = w->second;
    const interpreter::ShadowImageFreedom* freedom =
        write.freedom == UINT32_MAX ? nullptr : &shadow.imageWriteFreedom.at(write.freedom);
    if (freedom && freedom->decision) {
      ev.cls = ElementClass::Undetermined;
      ev.reason = "the colour written at " + at +
                  " depends on a decision: " + decisionText(shadow.decisions.at(*freedom->decision).where);
      tally(bv, std::move(ev));
      return;
    }
    const images::ImageVerdict verdict = freedom
                                             ? images::judgeWrite(format, write.color, write.kind, freedom->sets, v, vo)
                                             : images::judgeWrite(format, write.color, write.kind, v, vo);
    ev.allowedText = images::describeAllowed(format, verdict);
    const std::string rule = verdict.rule + " (" + verdict.clause + ")";
    ev.rule = rule;
    if (shadow.module && write.instruction < shadow.module->instructions.size())
      ev.instruction = instructionText(*shadow.module, write.instruction);
    if (verdict.allowed) {
      ev.cls = ElementClass::Allowed;
      ev.reason = "the element at " + at + " is inside the allowed codes " + ev.allowedText + ": " + rule;
      // Vacuous: an undefined write, or a colour component that could be any value.
      std::string anyWhy = verdict.bounded ? "" : verdict.rule + " (" + verdict.clause + ")";
      for (size_t i = 0; freedom && anyWhy.empty() && i < freedom->sets.size(); ++i)
        if (freedom->sets[i] && std::isinf(freedom->sets[i]->lo) && std::isinf(freedom->sets[i]->hi))
          anyWhy = "colour component " + std::to_string(i) + " written could be any value";
      if (!anyWhy.empty()) {
        AnyValueSource src;
        if (shadow.module && write.instruction < shadow.module->instructions.size())
          src.instruction = instructionText(*shadow.module, write.instruction);
        src.why = anyWhy;
        anyValues.add(ev, std::move(src), options.strict);
      }
    } else if (!open.empty()) {
      ev.cls = ElementClass::Undetermined;
      ev.reason = "the element at " + at + " is outside the allowed codes " + ev.allowedText + ", but " + open;
    } else {
      ev.cls = ElementClass::Violation;
      ev.reason = "the element at " + at + " is outside the allowed codes " + ev.allowedText + ": " + rule +
                  (shadow.module && write.instruction < shadow.module->instructions.size()
                       ? "; written by " + instructionText(*shadow.module, write.instruction)
                       : std::string());
    }
    tally(bv, std::move(ev));
  });
  anyValues.into(bv);
  return bv;
}

// What check() and GroupCheck refuse alike: a kernel that enqueues kernels, and observed buffers that are not the
// kernel's buffer arguments or not of their size.
void refuseUnjudgeable(const Kernel& kernel, const std::vector<ObservedBuffer>& observed) {
  // The allowed-set propagation follows one launch; the children a kernel enqueues run without it, so what they
  // write would be judged against the parent's sets.
  if (kernel.enqueuesKernels())
    throw Error(kernel.name() +
                " enqueues kernels on the device (device-side enqueue): clref cannot judge its outputs, "
                "since the allowed sets are not propagated through the kernels it enqueues");
  for (const auto& o : observed) {
    auto buffer = kernel.bufferArg(o.arg);
    if (!buffer)
      throw Error("argument " + std::to_string(o.arg) + " of " + kernel.name() + " is not a buffer argument");
    if (o.bytes.size() != buffer->size())
      throw Error("the observed contents of argument " + std::to_string(o.arg) + " (" + kernel.argInfo(o.arg).name +
                  ") are " + std::to_string(o.bytes.size()) + " bytes; the buffer has " +
                  std::to_string(buffer->size()));
  }
}

// The decisions the shadow run left open, as the report holds them.
void recordDecisions(CheckReport& report, const interpreter::ShadowRun& shadow) {
  for (const auto& d : shadow.decisions) report.decisions.push_back(d.where);
  report.decisionCount = shadow.decisionCount;
  if (shadow.controlDecision) report.controlDecision = *shadow.controlDecision;
}

}  // namespace

CheckReport check(Kernel& kernel, const NDRange& range, const std::vector<ObservedBuffer>& observed,
                  const CheckOptions& options) {
  return check(kernel, range, observed, {}, options);
}

CheckReport check(Kernel& kernel, const NDRange& range, const std::vector<ObservedBuffer>& observed,
                  const std::vector<ObservedImage>& observedImages, const CheckOptions& options) {
  refuseUnjudgeable(kernel, observed);
  for (const auto& o : observedImages) {
    auto image = kernel.imageArg(o.arg);
    if (!image) throw Error("argument " + std::to_string(o.arg) + " of " + kernel.name() + " is not an image argument");
    const uint64_t packed = image->packedSize();
    if (o.bytes.size() != packed)
      throw Error("the observed contents of image argument " + std::to_string(o.arg) + " (" +
                  kernel.argInfo(o.arg).name + ") are " + std::to_string(o.bytes.size()) +
                  " bytes; its elements packed are " + std::to_string(packed));
  }
  interpreter::ShadowRun shadow;
  configure(shadow, options);
  CheckReport report;
  report.sampledGroups = sampleOf(kernel, range, options.sampleGroups);
  WriteRecorder written;
  const bool sampled = !report.sampledGroups.empty();
  report.run =
      sampled ? kernel.runShadow(range, shadow, &written, report.sampledGroups) : kernel.runShadow(range, shadow);
  recordDecisions(report, shadow);
  for (const auto& o : observed) {
    const auto* ref = reinterpret_cast<const uint8_t*>(kernel.bufferArg(o.arg)->data());
    const auto ranges = sampled ? written.within(ref, ref + o.bytes.size()) : std::vector<std::pair<uint64_t, uint64_t>>{};
    report.buffers.push_back(judgeBuffer(kernel, o, shadow, options, sampled ? &ranges : nullptr));
  }
  for (const auto& o : observedImages) report.buffers.push_back(judgeImage(kernel, o, shadow, sampled, options));
  return report;
}

struct GroupCheck::State {
  Kernel& kernel;
  std::vector<ObservedBuffer> observed;
  CheckOptions options;
  interpreter::ShadowRun shadow;
  WriteRecorder written;
  RunResult run;
};

GroupCheck::GroupCheck(Kernel& kernel, const NDRange& range, std::vector<ObservedBuffer> observed,
                       const CheckOptions& options, const std::vector<uint64_t>& groups)
    : state_(new State{kernel, std::move(observed), options, {}, {}, {}}) {
  State& s = *state_;
  refuseUnjudgeable(kernel, s.observed);
  configure(s.shadow, options);
  s.run = kernel.runShadow(range, s.shadow, &s.written, groups);
}

GroupCheck::~GroupCheck() = default;

const RunResult& GroupCheck::run() const { return state_->run; }

bool GroupCheck::selfContained() const {
  const auto& sh = state_->shadow;
  return sh.decisionCount == 0 && sh.decisions.empty() && !sh.controlDecision && !sh.racedRead &&
         sh.racedWrites.empty() && sh.openAllocations.empty();
}

std::vector<std::pair<uint64_t, uint64_t>> GroupCheck::written(size_t k) const {
  const auto& o = state_->observed.at(k);
  const auto* ref = reinterpret_cast<const uint8_t*>(state_->kernel.bufferArg(o.arg)->data());
  return state_->written.within(ref, ref + o.bytes.size());
}

CheckReport GroupCheck::judge(const std::vector<std::vector<std::pair<uint64_t, uint64_t>>>& ranges) const {
  const State& s = *state_;
  CheckReport report;
  report.run = s.run;
  recordDecisions(report, s.shadow);
  for (size_t k = 0; k < s.observed.size(); ++k)
    report.buffers.push_back(judgeBuffer(s.kernel, s.observed[k], s.shadow, s.options, &ranges.at(k)));
  return report;
}

}  // namespace clref::host
