// A CheckReport as JSON (check_json.hpp).
#include "check/check_json.hpp"

#include "check/version.hpp"

namespace clref::host {

nlohmann::json toJson(const host::CheckReport& r, const std::string& kernel) {
  nlohmann::json j;
  j["clref"] = {{"version", clrefVersion()}, {"commit", clrefCommit()}};
  j["kernel"] = kernel;
  j["identical"] = 0;
  j["allowed"] = 0;
  j["violations"] = 0;
  j["undetermined"] = 0;
  j["any_value"] = 0;
  for (const auto& b : r.buffers) {
    nlohmann::json jb;
    jb["arg"] = b.arg;
    jb["name"] = b.name;
    if (b.image) jb["image"] = true;
    jb["elements"] = b.elements;
    jb["identical"] = b.identical;
    jb["allowed"] = b.allowed;
    jb["violations"] = b.violations;
    jb["undetermined"] = b.undetermined;
    jb["not_judged"] = b.notJudged;
    // How much of the verdict is vacuous: the elements judged against the set "any value", and where those came from.
    jb["any_value"] = b.anyValue;
    jb["any_value_by"] = nlohmann::json::array();
    for (const auto& a : b.anyValueBy)
      jb["any_value_by"].push_back({{"instruction", a.instruction}, {"why", a.why}, {"elements", a.elements}});
    jb["details"] = nlohmann::json::array();
    for (const auto& d : b.details) {
      nlohmann::json jd;
      jd["arg"] = b.arg;
      jd["index"] = d.index;
      jd["class"] = host::toString(d.cls);
      jd["observed"] = d.observed;
      jd["reference"] = d.reference;
      jd["allowed"] = d.allowedString();
      jd["reason"] = d.reason;
      if (!d.rule.empty()) jd["rule"] = d.rule;
      if (!d.instruction.empty()) jd["instruction"] = d.instruction;
      if (d.anyValue) jd["any_value"] = true;
      jb["details"].push_back(std::move(jd));
    }
    j["identical"] = j["identical"].get<uint64_t>() + b.identical;
    j["allowed"] = j["allowed"].get<uint64_t>() + b.allowed;
    j["violations"] = j["violations"].get<uint64_t>() + b.violations;
    j["undetermined"] = j["undetermined"].get<uint64_t>() + b.undetermined;
    j["any_value"] = j["any_value"].get<uint64_t>() + b.anyValue;
    j["buffers"].push_back(std::move(jb));
  }
  j["decisions"] = nlohmann::json::array();
  for (const auto& d : r.decisions)
    j["decisions"].push_back({{"message", d.message}, {"instruction", d.instruction}, {"source", d.source}});
  j["decision_count"] = r.decisionCount;
  if (r.controlDecision) j["control_decision"] = *r.controlDecision;
  return j;
}

}  // namespace clref::host
