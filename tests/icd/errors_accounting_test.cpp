// Runs every area's error table and accounts for the specification's error conditions: each
// condition listed for a core entry point (and applying with the extensions clref reports) is
// either provoked by a case or named as not provoked with a reason, exactly once.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "error_table.hpp"
#include "spec_dir.hpp"
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
    s.all = extractErrorConditions((specDir() / "opencl-3.0-api-latest").string());
    s.registry = readRegistry((specDir() / "cl.xml").string());
    std::set<std::string> reported = reportedExtensions();
    for (const SpecCondition& c : s.all) {
      // clSVMAlloc's "will fail if" list (it returns NULL, no code) holds a flag, not an error
      // code: its conditions are checked by "clSVMAlloc fails as its list says".
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

TEST_CASE("the specification's error lists are read", "[opencl][errors][accounting][spec]") {
  const Spec& s = spec();
  // Sanity of the extraction itself: known bullets, known counts (OpenCL 3.0 API, OpenCL 3.0 API
  // §4.1 [[_querying_platform_info]], §5.2.1 [[_creating_buffer_objects]]).
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

TEST_CASE("every listed error condition returns the spec's code", "[opencl][errors][spec]") {
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

// The report of every condition and how it is accounted for, kept in the repository so that a
// reader can audit it (tests/icd/error_conditions.md); the test fails when it is out of date.
std::string markdownReport(const Spec& s, const std::map<std::string, std::pair<std::string, std::string>>& accounted) {
  struct Entry {
    int listed = 0, tested = 0;
    std::ostringstream lines;
  };
  std::map<std::string, Entry> entries;
  std::map<std::string, int> byHow;
  // In spec order: inScope is keyed by id, so walk the extraction instead.
  for (const SpecCondition& c : s.all) {
    if (!s.inScope.count(c.id)) continue;
    Entry& e = entries[c.entry];
    ++e.listed;
    auto a = accounted.find(c.id);
    const std::string how = a == accounted.end() ? "not accounted for" : a->second.first;
    ++byHow[how];
    if (how == "tested") ++e.tested;
    e.lines << "- " << (how == "tested" ? "provoked" : "**" + how + "**") << ": `" << c.id.substr(c.entry.size() + 1)
            << "` " << c.text << " (" << c.where << ")";
    if (a != accounted.end() && how != "tested") e.lines << " — " << a->second.second;
    e.lines << "\n";
  }
  int listed = 0, tested = 0;
  std::ostringstream table, details;
  for (const auto& [name, e] : entries) {
    table << "| " << name << " | " << e.listed << " | " << e.tested << " |\n";
    details << "\n### " << name << "\n\n" << e.lines.str();
    listed += e.listed;
    tested += e.tested;
  }
  std::ostringstream out;
  out << "# OpenCL 3.0 error conditions and clref's tests\n\n"
      << "Generated by `tests/icd/errors_accounting_test.cpp` from the error lists of the OpenCL 3.0 API\n"
      << "specification (`opencl-3.0-api-latest` in the spec folder) and clref's error tables\n"
      << "(`tests/icd/errors_*_test.cpp`); do not edit. Regenerate with\n"
      << "`CLREF_WRITE_ERROR_REPORT=1 build/tests/icd/opencl_errors_test \"[accounting]\"`.\n\n"
      << "A condition is one bullet of an entry point's error list; its rank among the bullets of\n"
      << "that code gives its id in the tables (`entry:CODE:n`). Conditions of extensions clref does\n"
      << "not report and of later versions (" << s.outOfScope.size() << ") are not listed.\n\n"
      << "**" << listed << " conditions listed for " << entries.size() << " entry points: " << tested << " provoked";
  for (const auto& [how, n] : byHow)
    if (how != "tested") out << ", " << n << " " << how;
  out << ".**\n\n"
      << "- *host memory*: CL_OUT_OF_HOST_MEMORY, a failed host allocation;\n"
      << "- *device resources*: CL_OUT_OF_RESOURCES or an allocation failure that only a failed allocation causes;\n"
      << "- *unsupported feature*: needs a feature the device does not report; the spec's error for the missing "
         "feature is provoked instead;\n"
      << "- *unreachable*: cannot arise with one platform and one device, or is excluded by an earlier check (the "
         "reason follows).\n\n"
      << "| entry point | listed | provoked |\n|---|---|---|\n"
      << table.str() << details.str();
  return out.str();
}

TEST_CASE("every listed error condition is accounted for", "[opencl][errors][accounting][spec]") {
  const Spec& s = spec();
  std::map<std::string, std::pair<std::string, std::string>> accounted;  // id → ("tested" or the reason, detail)
  auto account = [&](const std::string& id, const std::string& how, const std::string& detail, const char* area) {
    INFO(area << ": " << id);
    CHECK(s.inScope.count(id) == 1);  // listed in the spec and applying to clref
    auto [it, fresh] = accounted.emplace(id, std::pair{how, detail});
    if (!fresh) CHECK(it->second.first == how);  // tested twice is fine; tested and excused is not
  };
  for (const ErrorTable& table : errorTables()) {
    std::set<std::string> ids;
    for (const ErrorCase& c : table.cases()) ids.insert(c.id);
    for (const std::string& id : ids) account(id, "tested", "", table.area);
    std::vector<NotTested> notTested = table.notTested;
    if (table.notTestedHere)
      for (NotTested& n : table.notTestedHere()) notTested.push_back(std::move(n));
    for (const NotTested& n : notTested) {
      CHECK(!n.detail.empty());
      account(n.id, whyName(n.why), n.detail, table.area);
    }
  }
  int missing = 0;
  for (const auto& [id, c] : s.inScope)
    if (!accounted.count(id)) {
      ++missing;
      UNSCOPED_INFO("not accounted for: " << id << "  " << c->text << " (" << c->where << ")");
    }
  CHECK(missing == 0);

  const std::string report = markdownReport(s, accounted);
  const std::string path = CLREF_SOURCE_DIR "/tests/icd/error_conditions.md";
  if (std::getenv("CLREF_WRITE_ERROR_REPORT")) std::ofstream(path) << report;
  std::ifstream in(path);
  const std::string committed{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (committed != report) {  // name the first differing line rather than print both texts
    std::istringstream a(committed), b(report);
    std::string la, lb;
    int line = 1;
    while (std::getline(a, la) && std::getline(b, lb) && la == lb) ++line;
    FAIL_CHECK("tests/icd/error_conditions.md is out of date (line "
               << line << ": '" << la << "' should be '" << lb
               << "'); regenerate it with CLREF_WRITE_ERROR_REPORT=1 opencl_errors_test \"[accounting]\"");
  }
  std::cout << report.substr(0, report.find("\n\n- *host memory*")) << "\n";  // the summary line
}

}  // namespace clref_test
