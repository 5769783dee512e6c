// The report of a judged enqueue (enqueue_report.hpp).
#include "check/enqueue_report.hpp"

#include "check/check_json.hpp"

namespace clref::host {
namespace {

// Elements listed per enqueue in the JSON details; the rest are counted in "details_omitted".
constexpr size_t kMaxDetails = 1000;

uint64_t notJudgedOf(const CheckReport& r) {
  uint64_t n = 0;
  for (const auto& b : r.buffers) n += b.notJudged;
  return n;
}

}  // namespace

std::string sizesText(const std::array<size_t, 3>& s, unsigned dims) {
  std::string out = "(";
  for (unsigned d = 0; d < dims; ++d) out += (d ? "," : "") + std::to_string(s[d]);
  return out + ")";
}

nlohmann::json sizesJson(const std::array<size_t, 3>& s, unsigned dims) {
  auto j = nlohmann::json::array();
  for (unsigned d = 0; d < dims; ++d) j.push_back(s[d]);
  return j;
}

nlohmann::json verdictJson(const CheckReport& r, const std::string& name) {
  nlohmann::json j = toJson(r, name);
  // The elements are listed once, in "details" below, violating and undetermined ones only and at most kMaxDetails:
  // an allowed difference in every element of a large launch would otherwise make a line of hundreds of megabytes.
  for (auto& b : j["buffers"]) b.erase("details");
  j["checked"] = true;
  if (!r.sampledGroups.empty()) {
    j["groups"] = r.sampledGroups;     // CLREF_CHECK_GROUPS: the work-groups clref ran
    j["not_judged"] = notJudgedOf(r);  // elements none of them wrote
  }
  // Every violating or undetermined element, across buffers.
  auto details = nlohmann::json::array();
  size_t omitted = 0;
  for (const auto& b : r.buffers)
    for (const auto& d : b.details) {
      if (d.cls != ElementClass::Violation && d.cls != ElementClass::Undetermined) continue;
      if (details.size() == kMaxDetails) {
        ++omitted;
        continue;
      }
      details.push_back({{"arg", b.arg},
                         {"name", b.name},
                         {"index", d.index},
                         {"class", toString(d.cls)},
                         {"observed", d.observed},
                         {"reference", d.reference},
                         {"allowed", d.allowedString()},
                         {"reason", d.reason}});
    }
  j["details"] = std::move(details);
  if (omitted) j["details_omitted"] = omitted;
  if (r.run.fault) j["fault"] = r.run.fault->format();
  j["findings"] = nlohmann::json::array();
  for (const auto& f : r.run.findings) j["findings"].push_back(f.format());
  return j;
}

std::string verdictText(const CheckReport& r, const nlohmann::json& j, bool strict,
                        const std::function<std::string(const BufferVerdict&)>& bufferName) {
  const ElementVerdict* firstViolation = nullptr;
  const BufferVerdict* firstBuffer = nullptr;
  for (const auto& b : r.buffers)
    for (const auto& d : b.details)
      if (d.cls == ElementClass::Violation && !firstViolation) {
        firstViolation = &d;
        firstBuffer = &b;
      }
  std::string line = std::to_string(j["identical"].get<uint64_t>()) + " identical, " +
                     std::to_string(j["allowed"].get<uint64_t>()) + " allowed, " +
                     std::to_string(j["violations"].get<uint64_t>()) + " violations, " +
                     std::to_string(j["undetermined"].get<uint64_t>()) + " undetermined";
  if (const uint64_t any = j["any_value"].get<uint64_t>())
    line += " (" + std::to_string(any) + " judged against the set any value" +
            (strict ? ", undetermined under CLREF_CHECK_STRICT" : "") + ")";
  if (!r.sampledGroups.empty())
    line += " (" + std::to_string(r.sampledGroups.size()) + " work-groups sampled; " + std::to_string(notJudgedOf(r)) +
            " elements they did not write not judged)";
  if (firstViolation)
    line += "; first violation: " + bufferName(*firstBuffer) + " [" + std::to_string(firstViolation->index) +
            "] observed " + firstViolation->observed + ", allowed " + firstViolation->allowedString() + " (" +
            firstViolation->reason + ")";
  if (r.run.fault) line += "\n  clref's run faulted, so the verdicts are incomplete: " + r.run.fault->format();
  for (const auto& f : r.run.findings) line += "\n  " + f.format();
  return line;
}

nlohmann::json enqueueJson(const EnqueueVerdict& e) {
  nlohmann::json j = verdictJson(e.report, e.kernel);
  j["global"] = sizesJson(e.range.global, e.range.dims);
  j["offset"] = sizesJson(e.range.offset, e.range.dims);
  j["local"] = sizesJson(e.report.run.localSize, e.range.dims);
  j["local_chosen_by"] = e.deviceChoseLocal ? "clref (the application gave none)" : "the application";
  if (!e.optionsNote.empty()) j["options_note"] = e.optionsNote;
  return j;
}

std::string enqueueLine(const EnqueueVerdict& e, const nlohmann::json& j) {
  std::string line = "clref check: " + e.kernel + " global " + sizesText(e.range.global, e.range.dims) + " local " +
                     sizesText(e.report.run.localSize, e.range.dims) + ": " +
                     verdictText(e.report, j, e.strict, [](const BufferVerdict& b) {
                       return "argument " + std::to_string(b.arg) + " (" + b.name + ")";
                     });
  if (e.deviceChoseLocal)
    line += "\n  the application gave no local size; clref used " + sizesText(e.report.run.localSize, e.range.dims);
  return line;
}

nlohmann::json notCheckedJson(const std::string& kernel, const std::string& reason) {
  return {{"kernel", kernel}, {"checked", false}, {"reason", reason}};
}

std::string reportLine(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace clref::host
