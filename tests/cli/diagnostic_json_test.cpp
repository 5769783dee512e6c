// cli/diagnostic_json.hpp: a diagnostic through JSON and back keeps every field (the one encoding the MPI ranks' messages
// use for a split run's choice uses and an explored alternative's fault). Expected values: the fields as set here.
#include <catch2/catch.hpp>

#include "cli/diagnostic_json.hpp"
#include "cli/explore.hpp"

using namespace clref;

namespace {

interpreter::Diagnostic everyFieldSet() {
  interpreter::Diagnostic d;
  d.kind = interpreter::FaultKind::Misaligned;  // not the default (Warning)
  d.message = "load of 4 bytes at offset 2 of \"in\" (arg 0): not aligned to 4";
  d.instruction = "%42 = OpLoad %uint %41 Aligned 4 (word 117)";
  d.source = "kernel.cl:7";
  d.sourceLine = "  out[i] = *(global int*)(p + 2);";
  d.globalId = {5, 1ull << 40, 3};  // beyond 2^32: a JSON number must keep it
  d.localId = {1, 2, 0};
  d.groupId = {7, 0, UINT64_MAX};
  return d;
}

void requireSame(const interpreter::Diagnostic& back, const interpreter::Diagnostic& d) {
  CHECK(back.kind == d.kind);
  CHECK(back.message == d.message);
  CHECK(back.instruction == d.instruction);
  CHECK(back.source == d.source);
  CHECK(back.sourceLine == d.sourceLine);
  CHECK(back.globalId == d.globalId);
  CHECK(back.localId == d.localId);
  CHECK(back.groupId == d.groupId);
  CHECK(back.format() == d.format());
}

}  // namespace

TEST_CASE("diagnostic JSON: every field survives the round trip", "[cli][diagnostic_json]") {
  const interpreter::Diagnostic d = everyFieldSet();
  const nlohmann::json j = cli::diagnosticToJson(d);
  // Through text, as the ranks send it.
  const interpreter::Diagnostic back = cli::diagnosticFromJson(nlohmann::json::parse(j.dump()));
  requireSame(back, d);
  // Each field under its member's name: eight members, no more.
  CHECK(j.size() == 8);
  CHECK(j.at("kind").get<int>() == int(interpreter::FaultKind::Misaligned));
  CHECK(j.at("groupId").at(2).get<uint64_t>() == UINT64_MAX);

  // Every fault kind, through the number that stands for it.
  for (int k = 0; k <= int(interpreter::FaultKind::Warning); ++k) {
    interpreter::Diagnostic one;
    one.kind = interpreter::FaultKind(k);
    CHECK(int(cli::diagnosticFromJson(cli::diagnosticToJson(one)).kind) == k);
  }
  // A member missing is an error, not a default.
  nlohmann::json partial = j;
  partial.erase("sourceLine");
  CHECK_THROWS_AS(cli::diagnosticFromJson(partial), nlohmann::json::exception);
}

TEST_CASE("diagnostic JSON: an explored alternative's fault survives encodeAlternative", "[cli][diagnostic_json]") {
  cli::Alternative a;
  a.choice = numerics::Choice(0);
  a.option = 1;
  a.fault = everyFieldSet();
  const cli::Alternative back = cli::decodeAlternative(cli::encodeAlternative(a));
  REQUIRE(back.fault);
  requireSame(*back.fault, *a.fault);
  CHECK(!cli::decodeAlternative(cli::encodeAlternative(cli::Alternative{})).fault);
}
