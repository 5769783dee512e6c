// A diagnostic as JSON and back (cli/diagnostic_json.hpp).
#include "cli/diagnostic_json.hpp"

namespace clref::cli {

nlohmann::json diagnosticToJson(const interpreter::Diagnostic& d) {
  return {{"kind", int(d.kind)},      {"message", d.message},       {"instruction", d.instruction},
          {"source", d.source},       {"sourceLine", d.sourceLine}, {"globalId", d.globalId},
          {"localId", d.localId},     {"groupId", d.groupId}};
}

interpreter::Diagnostic diagnosticFromJson(const nlohmann::json& j) {
  interpreter::Diagnostic d;
  d.kind = interpreter::FaultKind(j.at("kind").get<int>());
  d.message = j.at("message").get<std::string>();
  d.instruction = j.at("instruction").get<std::string>();
  d.source = j.at("source").get<std::string>();
  d.sourceLine = j.at("sourceLine").get<std::string>();
  d.globalId = j.at("globalId").get<std::array<uint64_t, 3>>();
  d.localId = j.at("localId").get<std::array<uint64_t, 3>>();
  d.groupId = j.at("groupId").get<std::array<uint64_t, 3>>();
  return d;
}

}  // namespace clref::cli
