// The Vulkan check layer VK_LAYER_CLREF_check in front of lavapipe (Mesa's CPU Vulkan driver): tests/layer/
// vulkan_app.cpp, an application that knows nothing of clref, runs unmodified without and with the layer (found by the
// loader through VK_ADD_LAYER_PATH and VK_INSTANCE_LAYERS). Its results must be the same, they must be what the
// shader computes (sqrt(x) * scale + bias, worked out here on the host), each of its two dispatches must be checked
// with no violation, and with CLREF_PLANT_ERRORS=K the violations must be exactly at the elements planted. Without a
// lavapipe ICD the process exits 77 (skipped).
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

constexpr unsigned kCount = 1000;  // vulkan_app.cpp's elements per buffer

struct Outcome {
  int status = -1;
  std::string out, err;
  std::vector<nlohmann::json> report;  // CLREF_CHECK_REPORT, one object per dispatch
};

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void requireLavapipe() {
  static const bool have = std::string(CLREF_LVP_ICD) != "" && fs::exists(CLREF_LVP_ICD);
  if (have) return;
  std::cout << "SKIPPED: no lavapipe ICD (/usr/share/vulkan/icd.d/lvp_icd*.json): install mesa-vulkan-drivers "
               "(scripts/install-deps.sh does)"
            << std::endl;
  std::fflush(nullptr);
  std::_Exit(77);
}

// vulkan_app (with `args`) on lavapipe, with the layer when `layer`, and `env` besides.
Outcome runApp(bool layer, const std::string& env = "", const std::string& args = "") {
  requireLavapipe();
  const fs::path dir = fs::temp_directory_path() / ("clref-vk-layer-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path report = dir / "report.jsonl", out = dir / "out.txt", err = dir / "err.txt";
  std::string command = "env VK_ICD_FILENAMES='" CLREF_LVP_ICD "' VK_DRIVER_FILES='" CLREF_LVP_ICD "' ";
  if (layer)
    command += "VK_ADD_LAYER_PATH='" CLREF_VK_LAYER_DIR "' VK_INSTANCE_LAYERS=VK_LAYER_CLREF_check CLREF_CHECK_REPORT='" +
               report.string() + "' ";
  // The driver (not instrumented) keeps allocations at exit; LeakSanitizer would fail the child for them.
  if (CLREF_SANITIZED) command += "ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 ";
  command += env + " '" CLREF_VULKAN_APP "' " + args + " > '" + out.string() + "' 2> '" + err.string() + "'";
  Outcome o;
  const int raw = std::system(command.c_str());
  o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  o.out = readAll(out);
  o.err = readAll(err);
  std::istringstream lines(readAll(report));
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) o.report.push_back(nlohmann::json::parse(line));
  fs::remove_all(dir);
  return o;
}

// The app's printed buffers: "A[i] = <hex float>" lines, A then B.
std::vector<double> values(const std::string& out, char buffer) {
  std::vector<double> v;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] == buffer) v.push_back(std::strtod(line.substr(line.find('=') + 2).c_str(), nullptr));
  return v;
}

// The kernel argument the report binds at (set 0, `binding`).
size_t argAt(const nlohmann::json& j, unsigned binding) {
  for (const auto& b : j.at("bindings"))
    if (b.at("set") == 0 && b.at("binding") == binding) return b.at("arg").get<size_t>();
  FAIL("binding " << binding << " is not in the report: " << j.dump());
  return 0;
}

}  // namespace

TEST_CASE("the application's results are the same with the layer, and every dispatch is checked", "[vulkan_layer]") {
  const Outcome plain = runApp(false);
  REQUIRE(plain.status == 0);
  const Outcome checked = runApp(true);
  INFO(checked.err);
  REQUIRE(checked.status == 0);
  CHECK(checked.out == plain.out);

  // What the shader computes, from the host's own arithmetic: B = sqrt(A) * 2 + 1, then A = sqrt(B) * 0.5 - 3.
  const std::vector<double> a = values(checked.out, 'A'), b = values(checked.out, 'B');
  REQUIRE(a.size() == kCount);
  REQUIRE(b.size() == kCount);
  for (unsigned i = 0; i < kCount; ++i) {
    const double b0 = std::sqrt(double(0.5f + 0.37f * float(i))) * 2 + 1;
    CHECK(b[i] == Approx(b0).epsilon(1e-6).margin(1e-5));
    CHECK(a[i] == Approx(std::sqrt(b0) * 0.5 - 3).epsilon(1e-5).margin(1e-5));
  }

  // Both dispatches checked: every element of both storage buffers identical or allowed.
  REQUIRE(checked.report.size() == 2);
  for (const auto& j : checked.report) {
    INFO(j.dump());
    CHECK(j.at("checked") == true);
    CHECK(j.at("kernel") == "main");
    CHECK(j.at("command") == "vkCmdDispatch");
    CHECK(j.at("groups_dispatched") == nlohmann::json::array({16, 1, 1}));
    CHECK(j.at("violations") == 0);
    CHECK(j.at("undetermined") == 0);
    CHECK(j.at("identical").get<uint64_t>() + j.at("allowed").get<uint64_t>() == 2 * kCount);
  }
  size_t lines = 0;
  for (size_t at = 0; (at = checked.err.find("clref check: main vkCmdDispatch(16,1,1) local (64,1,1): ", at)) !=
                      std::string::npos;
       ++at)
    ++lines;
  CHECK(lines == 2);
  CHECK(checked.err.find("0 violations, 0 undetermined") != std::string::npos);
}

TEST_CASE("with CLREF_PLANT_ERRORS the violations are exactly at the planted elements", "[vulkan_layer]") {
  const Outcome plain = runApp(false);
  const Outcome planted = runApp(true, "CLREF_PLANT_ERRORS=7");
  INFO(planted.err);
  REQUIRE(planted.status == 0);
  CHECK(planted.out == plain.out);  // planted in the layer's copy, never in the application's buffers
  std::set<uint64_t> expected;
  for (uint64_t i = 0; i < kCount; i += 7) expected.insert(i);
  REQUIRE(planted.report.size() == 2);
  for (const auto& j : planted.report) {
    INFO(j.dump());
    // Binding 1 is written (planted); binding 0 is readonly, so not planted and identical.
    const size_t dst = argAt(j, 1);
    std::set<uint64_t> found;
    for (const auto& d : j.at("details")) {
      CHECK(d.at("class") == "violation");
      CHECK(d.at("arg") == dst);
      found.insert(d.at("index").get<uint64_t>());
    }
    CHECK(found == expected);
    CHECK(j.at("violations") == expected.size());
  }
  CHECK(planted.err.find("first violation: set 0 binding 1 (") != std::string::npos);
}

TEST_CASE("with CLREF_CHECK_GROUPS the layer judges what the sampled work-groups wrote", "[vulkan_layer]") {
  const Outcome o = runApp(true, "CLREF_CHECK_GROUPS=2");
  INFO(o.err);
  REQUIRE(o.status == 0);
  REQUIRE(o.report.size() == 2);
  for (const auto& j : o.report) {
    INFO(j.dump());
    // The first and the last of the 16 work-groups: 64 elements and the last group's 1000 - 15 * 64 = 40 written.
    CHECK(j.at("groups") == nlohmann::json::array({0, 15}));
    CHECK(j.at("violations") == 0);
    CHECK(j.at("not_judged").get<uint64_t>() > 0);
  }
}

TEST_CASE("an indirect dispatch is checked with the work-group counts read from its buffer", "[vulkan_layer]") {
  const Outcome plain = runApp(false);
  const Outcome o = runApp(true, "", "--indirect");
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(o.out == plain.out);
  REQUIRE(o.report.size() == 2);
  CHECK(o.report[0].at("command") == "vkCmdDispatch");
  CHECK(o.report[1].at("command") == "vkCmdDispatchIndirect");
  for (const auto& j : o.report) {
    INFO(j.dump());
    CHECK(j.at("checked") == true);
    CHECK(j.at("groups_dispatched") == nlohmann::json::array({16, 1, 1}));
    CHECK(j.at("violations") == 0);
    CHECK(j.at("identical").get<uint64_t>() + j.at("allowed").get<uint64_t>() == 2 * kCount);
  }
}

TEST_CASE("a dispatch the layer cannot check is passed through and reported with the reason", "[vulkan_layer]") {
  // Both bindings of the first dispatch in one buffer: clref would give each its own, so the layer does not judge it.
  const Outcome plain = runApp(false, "", "--alias");
  REQUIRE(plain.status == 0);
  const Outcome o = runApp(true, "", "--alias");
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(o.out == plain.out);
  REQUIRE(o.report.size() == 2);
  CHECK(o.report[0].at("checked") == false);
  CHECK(o.report[0].at("reason") ==
        "vkCmdDispatch: set 0 binding 0 and set 0 binding 1 overlap in one buffer (clref gives each binding its own)");
  CHECK(o.report[1].at("checked") == true);
  CHECK(o.report[1].at("violations") == 0);
  CHECK(o.err.find("clref check: main not checked: vkCmdDispatch: set 0 binding 0 and set 0 binding 1 overlap") !=
        std::string::npos);
}

TEST_CASE("dynamic storage buffers: the dynamic offsets choose the ranges the layer copies and judges",
          "[vulkan_layer]") {
  const Outcome plain = runApp(false);
  const Outcome o = runApp(true, "CLREF_PLANT_ERRORS=100", "--dynamic");
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(o.out == plain.out);  // the same arithmetic on the halves of one buffer
  REQUIRE(o.report.size() == 2);
  for (const auto& j : o.report) {
    INFO(j.dump());
    CHECK(j.at("checked") == true);
    // Each binding is one half (1000 floats), not the buffer: planted every 100th element of the destination.
    for (const auto& b : j.at("buffers")) CHECK(b.at("elements") == kCount);
    CHECK(j.at("violations") == 10);
    CHECK(j.at("identical").get<uint64_t>() + j.at("allowed").get<uint64_t>() == 2 * kCount - 10);
  }
}

TEST_CASE("vkQueueSubmit2: the dispatches are checked as with vkQueueSubmit", "[vulkan_layer]") {
  const Outcome plain = runApp(false);
  const Outcome o = runApp(true, "CLREF_PLANT_ERRORS=7", "--submit2");
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(o.out == plain.out);
  REQUIRE(o.report.size() == 2);
  for (const auto& j : o.report) {
    INFO(j.dump());
    CHECK(j.at("checked") == true);
    CHECK(j.at("violations") == (kCount + 6) / 7);  // elements 0, 7, ..., 994 of the destination
  }
}

TEST_CASE("a secondary command buffer's dispatches are checked when a primary one that executes it is submitted",
          "[vulkan_layer]") {
  const Outcome plain = runApp(false);
  const Outcome o = runApp(true, "", "--secondary");
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(o.out == plain.out);
  REQUIRE(o.report.size() == 2);
  for (const auto& j : o.report) {
    INFO(j.dump());
    CHECK(j.at("checked") == true);
    CHECK(j.at("violations") == 0);
    CHECK(j.at("identical").get<uint64_t>() + j.at("allowed").get<uint64_t>() == 2 * kCount);
  }
}
