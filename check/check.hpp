// Judging another implementation's output of a whole kernel (`clref check`, issue "clref check"): clref runs the
// kernel with allowed-set propagation (interpreter/shadow.hpp) and classifies every element of every observed buffer:
//  - identical: the same bits as clref's result (a NaN with any payload for a NaN result counts as identical);
//  - allowed: inside the allowed set a conforming implementation could have produced for that element;
//  - violation: outside it, with the set, the distance and what decided the set;
//  - undetermined: the element depends on a decision the allowed sets leave open (a comparison feeding a branch, a
//    float→int conversion, an address), or the run made such a decision in its control flow and the element differs
//    (another device may have written memory this run did not), named with the decision's instruction and line; or
//    the element differs and clref's race checker (DeviceConfig::checks with races) found a data race in the run.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/elements.hpp"
#include "host/host.hpp"
#include "numerics/accuracy.hpp"
#include "numerics/enclosure.hpp"
#include "numerics/scalar_type.hpp"
#include "numerics/verdict.hpp"

namespace clref::host {

struct ObservedBuffer {
  size_t arg = 0;  // the kernel argument (a buffer) whose contents after the kernel these are
  numerics::ScalarType type = numerics::ScalarType::UChar;
  std::vector<uint8_t> bytes;  // as long as the buffer
  // When set: the buffer holds elements of this layout, judged scalar by scalar (`type` is then not used); an
  // element verdict's index counts the scalars (element k's field j is k × fields + j), and bytes no field covers
  // (padding) are not judged.
  std::optional<ElementLayout> layout = std::nullopt;
};

// An image argument's contents after another implementation's run: every element tightly packed, x fastest, then y
// (the layer of a 1D array), then z (the slice of a 3D image, the layer of a 2D array), mip level 0 first and each
// further level after it: what clEnqueueReadImage gives level by level with zero pitches.
struct ObservedImage {
  size_t arg = 0;
  std::vector<uint8_t> bytes;
};

enum class ElementClass : uint8_t { Identical, Allowed, Violation, Undetermined };
const char* toString(ElementClass c);

struct ElementVerdict {
  size_t index = 0;  // element (scalar lane) index in the buffer
  ElementClass cls = ElementClass::Identical;
  std::string observed, reference;  // as printed values (hex float for floating point)
  numerics::ValueSet allowed;        // floating point: the allowed set
  std::string allowedText;           // images: the allowed codes per channel ("R=127..128 G=0 B=0 A=255")
  // The allowed set as text: allowedText, else the set's; "" for an undetermined element.
  std::string allowedString() const;
  std::string reason;                // the margin, the distance, or the decision
  // What `reason` names, apart: the rule that gave the set with its clause ("<= 4 ulp (sin; OpenCL SPIR-V Environment:
  // ...)", an image write's conversion rule), and the instruction behind the element ("<instruction> (source line):
  // source text": the one whose rule gave the set, else the store that wrote it, or the decision it depends on); ""
  // when not known.
  std::string rule, instruction;
  // Allowed (or, with CheckOptions::strict, undetermined) only because its allowed set was every value of its type:
  // the verdict says nothing about this element (BufferVerdict::anyValue counts them).
  bool anyValue = false;
};

// Where the "any value" sets of a buffer's elements came from: the instruction whose rule gave the set (or the store
// that wrote the element, or what reinterpreted its bytes) and the rule's reason, with the number of elements.
struct AnyValueSource {
  std::string instruction;  // "<instruction> (source line): source text", "" when no instruction is known
  std::string why;
  uint64_t elements = 0;
};

// The verdicts of one buffer, or of one image (elements are then image elements, indexed as in ObservedImage).
struct BufferVerdict {
  size_t arg = 0;
  std::string name;  // the parameter's name
  numerics::ScalarType type = numerics::ScalarType::UChar;  // buffers
  bool image = false;
  uint64_t elements = 0, identical = 0, allowed = 0, violations = 0, undetermined = 0;
  uint64_t notJudged = 0;  // CheckOptions::sampleGroups: elements none of the sampled work-groups wrote
  // Elements whose allowed set was "any value" (counted in `allowed`, or with CheckOptions::strict in `undetermined`),
  // and where those sets came from, most elements first.
  uint64_t anyValue = 0;
  std::vector<AnyValueSource> anyValueBy;
  std::vector<ElementVerdict> details;  // every element that is not identical
};

struct CheckOptions {
  numerics::Profile profile = numerics::Profile::Full;  // Relaxed with -cl-unsafe-math-optimizations
  numerics::VerdictOptions verdict;  // flushing (-cl-denorms-are-zero), -cl-fp32-correctly-rounded-divide-sqrt
  // SPIR-V 1.0 §3.20 [external] NoContraction: an OpFMul without it may be "combined with an addition to yield a
  // fused multiply-add operation" (an OpFAdd or OpFSub it feeds). llvm-spirv-15 marks nothing, also for
  // `#pragma OPENCL FP_CONTRACT OFF` (OpenCL C 3.0 [[floating-point-macros-and-pragmas]]); false judges such modules
  // as the pragma says.
  bool contraction = true;
  // -cl-mad-enable (OpenCL 3.0 API §5.8.6.3 [[optimization-options]]): a * b + c may be a mad, "with reduced accuracy".
  bool madEnable = false;
  // -cl-finite-math-only: results are undefined where an operand or the result is a NaN or an infinity.
  bool finiteMathOnly = false;
  // -cl-no-signed-zeros: the sign of a zero result is not significant.
  bool noSignedZeros = false;
  // When nonzero and fewer than the launch's work-groups: clref runs only this many work-groups, spread evenly over
  // the NDRange (the first and the last among them), and judges only the elements they wrote; the others are left
  // out of the counts. For kernels whose work-groups write independently (a group that reads what another wrote, or
  // global atomics across groups, computes something else alone).
  uint64_t sampleGroups = 0;
  // An element whose allowed set is every value of its type is judged undetermined instead of allowed: a verdict then
  // shows how much of it rests on sets that say nothing (`clref check --strict`, CLREF_CHECK_STRICT=1).
  bool strict = false;
};
// The options of a build: the profile (full or embedded) with the build options another device compiled the kernel
// with. Throws Error for an option that is not an OpenCL build option clref knows.
CheckOptions checkOptionsFor(numerics::Profile profile, const std::string& buildOptions);

struct CheckReport {
  RunResult run;  // clref's own run (a fault makes the report incomplete)
  std::vector<BufferVerdict> buffers;
  std::vector<interpreter::Diagnostic> decisions;  // the open decisions, first occurrence per instruction
  uint64_t decisionCount = 0;
  std::optional<size_t> controlDecision;  // index into decisions: a decision that changed control flow or an address
  std::vector<uint64_t> sampledGroups;     // CheckOptions::sampleGroups: the linear ids of the groups run (else empty)
  bool anyViolation() const;
};

// Runs the kernel (its arguments set as for run()) with allowed-set propagation and judges each observed buffer
// against it. The buffers' contents before the run are the kernel's inputs as set; `observed` holds another
// implementation's contents after its run of the same NDRange. Throws Error for an observed buffer of the wrong size
// or an argument that is not a buffer.
CheckReport check(Kernel& kernel, const NDRange& range, const std::vector<ObservedBuffer>& observed,
                  const CheckOptions& options = {});
// The same with observed images too: each element the kernel wrote is judged by the write conversion rules
// (images/verdict.hpp judgeWrite, with the allowed sets of the colour it wrote); an element it did not write must be
// as it was. Throws Error for an observed image of the wrong size or an argument that is not an image.
CheckReport check(Kernel& kernel, const NDRange& range, const std::vector<ObservedBuffer>& observed,
                  const std::vector<ObservedImage>& observedImages, const CheckOptions& options = {});

// One share of a check split over processes by work-groups (`clref check` under mpirun, cli/shard.hpp): the
// constructor runs only the work-groups `groups` (linear ids, ascending) with allowed-set propagation; judge() judges
// the elements of the given byte ranges of each observed buffer. A process judges the ranges its groups wrote (and one
// of them also the ranges no group wrote, which hold what they held before the launch); the reports' counts and
// details add up to check()'s when every share is selfContained() and no two shares wrote the same bytes. Observed
// images are not judged here. Throws Error as check() does.
class GroupCheck {
 public:
  GroupCheck(Kernel& kernel, const NDRange& range, std::vector<ObservedBuffer> observed, const CheckOptions& options,
             const std::vector<uint64_t>& groups);
  ~GroupCheck();
  const RunResult& run() const;
  // No decision was left open (the run made none, found no race): each element's verdict then depends on that
  // element's value and allowed set alone, not on what other work-groups did.
  bool selfContained() const;
  // The byte ranges [begin, end) of observed buffer k (in the order given) that the groups wrote, ascending.
  std::vector<std::pair<uint64_t, uint64_t>> written(size_t k) const;
  // The verdicts on the scalars that ranges[k] (ascending byte ranges) meet of each observed buffer k; the others are
  // counted not judged.
  CheckReport judge(const std::vector<std::vector<std::pair<uint64_t, uint64_t>>>& ranges) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Any conforming device: runs the kernel so that every value with freedom (within an ulp bound, fused or not,
// flushed or not, ...) takes a member of its allowed set drawn from a stream seeded with `seed`, instead of clref's
// correctly rounded value. The buffers then hold one output another conforming implementation could produce (check()
// classifies it allowed, or undetermined where a decision went the other way). `perturbed` counts the values changed.
RunResult runPerturbed(Kernel& kernel, const NDRange& range, uint64_t seed, const CheckOptions& options = {},
                       uint64_t* perturbed = nullptr);

}  // namespace clref::host
