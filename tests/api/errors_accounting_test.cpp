// Runs every area's error table and accounts for the specification's error conditions: each
// condition listed for a core entry point (and applying with the extensions clref reports) is
// either provoked by a case or named as not provoked with a reason, exactly once.
#include <catch2/catch.hpp>

#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "error_table.hpp"
#include "spec_error_conditions.hpp"

namespace clref_test {
namespace {

struct Spec {
  std::vector<SpecCondition> all;
  std::map<std::string, const SpecCondition*> inScope;  // id → condition
  std::set<std::string> outOfScope;                     // listed, but for another extension or version
  Registry registry;
};

std::set<std::string> reportedExtensions() {
  std::set<std::string> out;
  char text[4096];
  auto add = [&](const char* s) {
    std::istringstream in(s);
    for (std::string e; in >> e;) out.insert(e);
  };
  if (clGetPlatformInfo(fx().platform, CL_PLATFORM_EXTENSIONS, sizeof text, text, nullptr) == CL_SUCCESS) add(text);
  if (clGetDeviceInfo(fx().device, CL_DEVICE_EXTENSIONS, sizeof text, text, nullptr) == CL_SUCCESS) add(text);
  return out;
}

const Spec& spec() {
  static Spec s = [] {
    Spec s;
    s.all = extractErrorConditions(CLREF_SPEC_DIR "/opencl-3.0-api-latest");
    s.registry = readRegistry(CLREF_SPEC_DIR "/cl.xml");
    std::set<std::string> reported = reportedExtensions();
    for (const SpecCondition& c : s.all) {
      // clSVMAlloc's "will fail if" list (it returns NULL, no code) holds a flag, not an error
      // code: its conditions are checked by "clSVMAlloc fails without SVM".
      if (!s.registry.errorCodes.count(c.code)) continue;
      if (s.registry.coreCommands.count(c.entry) && c.appliesWith(reported))
        s.inScope[c.id] = &c;
      else
        s.outOfScope.insert(c.id);
    }
    return s;
  }();
  return s;
}

std::string codeOf(const std::string& id) {
  size_t a = id.find(':'), b = id.rfind(':');
  return id.substr(a + 1, b - a - 1);
}

const char* whyName(Why w) {
  switch (w) {
    case Why::HostMemory: return "host memory";
    case Why::DeviceResources: return "device resources";
    case Why::Unsupported: return "unsupported feature";
    case Why::Unreachable: return "unreachable";
  }
  return "?";
}

}  // namespace

TEST_CASE("the specification's error lists are read", "[opencl][errors][accounting]") {
  const Spec& s = spec();
  // Sanity of the extraction itself: known bullets, known counts (OpenCL 3.0 API, §4.1, §5.2.1).
  std::map<std::string, const SpecCondition*> byId;
  for (const SpecCondition& c : s.all) byId[c.id] = &c;
  REQUIRE(byId.count("clGetPlatformIDs:CL_INVALID_VALUE:2"));
  CHECK(byId["clGetPlatformIDs:CL_INVALID_VALUE:2"]->text == "if both _num_platforms_ and _platforms_ are `NULL`");
  REQUIRE(byId.count("clCreateSubBuffer:CL_INVALID_MEM_OBJECT:2"));
  CHECK(byId["clCreateSubBuffer:CL_INVALID_MEM_OBJECT:2"]->text == "if _buffer_ is a sub-buffer object");
  CHECK(byId.count("clCreateSubBuffer:CL_INVALID_MEM_OBJECT:3") == 0);
  CHECK(s.registry.coreCommands.size() == 114);
  CHECK(s.registry.coreCommands.count("clGetKernelSuggestedLocalWorkSize") == 0);  // OpenCL 3.1
  CHECK(s.registry.errorCodes.at("CL_INVALID_VALUE") == CL_INVALID_VALUE);
  CHECK(s.inScope.size() > 800);
  for (const SpecCondition& c : s.all)  // every bullet names an error code but clSVMAlloc's flag
    if (!s.registry.errorCodes.count(c.code)) CHECK(c.id == "clSVMAlloc:CL_MEM_SVM_FINE_GRAIN_BUFFER:1");
}

TEST_CASE("every listed error condition returns the spec's code", "[opencl][errors]") {
  const Spec& s = spec();
  for (const ErrorTable& table : errorTables()) {
    for (const ErrorCase& c : table.cases()) {
      auto found = s.inScope.find(c.id);
      INFO(table.area << ": " << c.id);
      REQUIRE(found != s.inScope.end());  // a case must name a listed, applicable condition
      INFO(found->second->text << " (" << found->second->where << ")");
      CHECK(c.provoke() == s.registry.errorCodes.at(codeOf(c.id)));
    }
  }
}

TEST_CASE("every listed error condition is accounted for", "[opencl][errors][accounting]") {
  const Spec& s = spec();
  std::map<std::string, std::string> accounted;  // id → "tested" or the reason
  std::map<std::string, int> byWhy;
  auto account = [&](const std::string& id, const std::string& how, const char* area) {
    INFO(area << ": " << id);
    CHECK(s.inScope.count(id) == 1);  // listed in the spec and applying to clref
    auto [it, fresh] = accounted.emplace(id, how);
    if (!fresh) CHECK(it->second == how);  // tested twice is fine; tested and excused is not
  };
  for (const ErrorTable& table : errorTables()) {
    std::set<std::string> ids;
    for (const ErrorCase& c : table.cases()) ids.insert(c.id);
    for (const std::string& id : ids) account(id, "tested", table.area);
    for (const NotTested& n : table.notTested) {
      CHECK(!n.detail.empty());
      account(n.id, whyName(n.why), table.area);
    }
  }
  std::map<std::string, std::array<int, 2>> perEntry;  // entry → {listed, tested}
  int missing = 0;
  for (const auto& [id, c] : s.inScope) {
    auto& counts = perEntry[c->entry];
    ++counts[0];
    auto a = accounted.find(id);
    if (a == accounted.end()) {
      ++missing;
      UNSCOPED_INFO("not accounted for: " << id << "  " << c->text << " (" << c->where << ")");
      continue;
    }
    if (a->second == "tested") ++counts[1];
    ++byWhy[a->second];
  }
  CHECK(missing == 0);

  int listed = 0, tested = 0;
  std::ostringstream report;
  for (const auto& [entry, counts] : perEntry) {
    report << "  " << std::left << std::setw(40) << entry << std::right << std::setw(4) << counts[1] << " / " << counts[0] << "\n";
    listed += counts[0];
    tested += counts[1];
  }
  std::cout << "OpenCL 3.0 error conditions (provoked / listed) per entry point:\n"
            << report.str() << "total: " << listed << " listed for " << perEntry.size() << " entry points, "
            << tested << " provoked";
  for (const auto& [why, n] : byWhy)
    if (why != "tested") std::cout << ", " << n << " " << why;
  std::cout << "; " << s.outOfScope.size() << " more listed for extensions clref does not report or later versions\n";
}

}  // namespace clref_test
