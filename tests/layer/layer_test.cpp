// The check layer in front of real platforms, through the unmodified golden-corpus C host program (see
// CMakeLists.txt). Each test runs the program as a child process with the loader's and the layer's environment and
// reads the layer's JSON report.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Outcome {
  int status = 0;
  std::string output;                  // stdout and stderr
  std::vector<nlohmann::json> report;  // CLREF_CHECK_REPORT, one object per enqueue
};

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Runs `program` (with `args`) on the platform of `vendors` (an ICD file or folder), with the layer unless `layer` is
// false, and `env` besides.
Outcome runProgram(const std::string& program, const std::string& vendors, bool layer, const std::string& env,
                   const std::string& args) {
  const fs::path dir = fs::temp_directory_path() / ("clref-layer-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path report = dir / "report.jsonl", out = dir / "output.txt";
  fs::remove(report);
  std::string command = "env OCL_ICD_VENDORS='" + vendors + "' ";
  if (layer) command += "OPENCL_LAYERS='" CLREF_LAYER "' CLREF_CHECK_REPORT='" + report.string() + "' ";
  // PoCL (not instrumented) leaks a few bytes at exit; LeakSanitizer would fail the child for it.
  if (CLREF_SANITIZED) command += "ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 ";
  command += env + " '" + program + "' " + args + " > '" + out.string() + "' 2>&1";
  Outcome o;
  const int raw = std::system(command.c_str());
  o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  o.output = readAll(out);
  std::istringstream lines(readAll(report));
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) o.report.push_back(nlohmann::json::parse(line));
  fs::remove_all(dir);
  return o;
}

// The golden C host program over the bundle.
Outcome runGolden(const std::string& vendors, bool layer, const std::string& env, const std::string& args) {
  return runProgram(CLREF_HOST_GOLDEN, vendors, layer, env, std::string("'" CLREF_BUNDLE "' ") + args);
}

// The runs the host program made, from its summary lines ("SPIR-V: 161 run, ...", "source: 159 run, ...").
size_t runsOf(const std::string& output) {
  size_t n = 0;
  static const std::regex re(R"((SPIR-V|source): (\d+) run)");
  for (std::sregex_iterator it(output.begin(), output.end(), re), end; it != end; ++it) n += std::stoul((*it)[2]);
  return n;
}

bool havePocl() { return std::string(CLREF_POCL_ICD) != ""; }

}  // namespace

TEST_CASE("in front of clref, every enqueue of the golden corpus is checked and identical", "[layer]") {
  const Outcome o = runGolden(CLREF_ICD_DIR, true, "", "");
  INFO(o.output.substr(0, 4000));
  REQUIRE(o.status == 0);
  // One report per enqueue the program made.
  CHECK(o.report.size() == runsOf(o.output));
  size_t checked = 0, enqueuing = 0;
  for (const auto& j : o.report) {
    INFO(j.dump().substr(0, 600));
    // The layer does not judge a kernel that enqueues kernels (check/check.hpp) and says so; the corpus's device-side
    // enqueue kernels (golden/kernels/device_enqueue.cl: enqueue_*) are the only ones.
    if (j["kernel"].get<std::string>().rfind("enqueue_", 0) == 0) {
      CHECK_FALSE(j["checked"].get<bool>());
      CHECK(j["reason"] == "the kernel enqueues kernels on the device (device-side enqueue)");
      ++enqueuing;
      continue;
    }
    REQUIRE(j["checked"].get<bool>());
    ++checked;
    CHECK(j["violations"] == 0);
    CHECK(j["undetermined"] == 0);
    CHECK(j["allowed"] == 0);
    CHECK(j["identical"].get<uint64_t>() > 0);
    CHECK(j["details"].empty());
    CHECK(j.contains("global"));
  }
  CHECK(checked > 300);
  CHECK(enqueuing == 20);  // 10 cases, from SPIR-V and from source
  // The stderr line of each checked enqueue.
  CHECK(o.output.find("clref check: vadd global (1024) local (64): ") != std::string::npos);
}

TEST_CASE("planted wrong results are violations at exactly the planted elements", "[layer]") {
  // The device (clref) changes every 7th element of every buffer a kernel may write beyond any allowed bound.
  const Outcome o =
      runGolden(CLREF_ICD_DIR, true, "CLREF_PLANT_ERRORS=7 CLREF_CHECK_KERNELS=arith_int,arith_float,vadd,matmul_tiled",
                "--smoke --only arith_int,arith_float,arith_float_O0,vadd,vadd_O0,matmul_tiled");
  INFO(o.output.substr(0, 4000));
  REQUIRE(o.report.size() >= 4);
  for (const auto& j : o.report) {
    INFO(j.dump().substr(0, 600));
    REQUIRE(j["checked"].get<bool>());
    const std::set<std::string> kernels{"arith_int", "arith_float", "vadd", "matmul_tiled"};
    CHECK(kernels.count(j["kernel"].get<std::string>()));
    uint64_t planted = 0;
    std::map<uint64_t, std::set<uint64_t>> violating;  // arg → indices
    for (const auto& b : j["buffers"]) planted += (b["elements"].get<uint64_t>() + 6) / 7;
    for (const auto& d : j["details"]) {
      CHECK(d["class"] == "violation");
      violating[d["arg"].get<uint64_t>()].insert(d["index"].get<uint64_t>());
    }
    CHECK(j["violations"].get<uint64_t>() == planted);
    for (const auto& [arg, indices] : violating)
      for (uint64_t i : indices) CHECK(i % 7 == 0);
    CHECK(j["allowed"] == 0);
    CHECK(j["undetermined"] == 0);
  }
}

TEST_CASE("a sample of work-groups is judged on exactly the elements they wrote", "[layer]") {
  // vadd's cases: groups of 64 work-items, each writing c[i] for its global id i; the sample is the first and the
  // last group.
  const Outcome o = runGolden(CLREF_ICD_DIR, true, "CLREF_CHECK_GROUPS=2 CLREF_PLANT_ERRORS=7 CLREF_CHECK_KERNELS=vadd",
                              "--smoke --only vadd,vadd_O0,arith_int");
  INFO(o.output.substr(0, 4000));
  REQUIRE(o.report.size() >= 2);  // from SPIR-V and from source
  for (const auto& j : o.report) {
    INFO(j.dump().substr(0, 800));
    REQUIRE(j["checked"].get<bool>());
    REQUIRE(j["local"][0] == 64);
    const uint64_t groups = j["global"][0].get<uint64_t>() / 64;
    CHECK(j["groups"] == nlohmann::json::array({0, groups - 1}));
    // Every buffer the kernel may write is observed (a SPIR-V parameter does not say const), but only c is written.
    uint64_t all = 0, elements = 0;
    for (const auto& b : j["buffers"]) {
      all += b["elements"].get<uint64_t>();
      if (b["arg"] == 2) elements = b["elements"].get<uint64_t>();
    }
    CHECK(j["not_judged"] == all - 128);
    std::set<uint64_t> expected, found;
    for (uint64_t i = 0; i < elements; ++i)
      if (i % 7 == 0 && (i < 64 || (i >= (groups - 1) * 64 && i < groups * 64))) expected.insert(i);
    for (const auto& d : j["details"]) {
      CHECK(d["arg"] == 2);
      found.insert(d["index"].get<uint64_t>());
    }
    CHECK(found == expected);
    CHECK(j["violations"] == expected.size());
    CHECK(j["identical"] == 128 - expected.size());
  }
  CHECK(o.output.find("2 work-groups sampled;") != std::string::npos);
}

namespace {

// layer_host.c: scale three times, copy_shift between sub-buffers, last_writer (a data race), dims_beyond (work-item
// functions beyond the launch's dimensions), to_image (writes an image), add_offset from a linked program, and
// add_offset again (another kernel object) behind a user event.
void checkLayerHost(const std::string& vendors) {
  const Outcome o = runProgram(CLREF_LAYER_HOST, vendors, true, "CLREF_CHECK_EVERY=2", "");
  INFO(o.output);
  REQUIRE(o.status == 0);
  std::map<std::string, int> checked;
  for (const auto& j : o.report) {
    INFO(j.dump().substr(0, 800));
    const std::string kernel = j["kernel"];
    if (!j["checked"].get<bool>()) {
      // The second add_offset waits for a user event the program completes after the enqueue.
      CHECK(kernel == "add_offset");
      CHECK(j["reason"] == "the kernel waits for a user event that has not completed");
      continue;
    }
    ++checked[kernel];
    if (kernel == "dims_beyond" && j["violations"] != 0) {
      // A device that returns 0 for get_global_size, get_local_size and get_num_groups of dimension 3 (PoCL 3.1 does;
      // OpenCL C 3.0 §6.15.1 [[work-item-functions]] says 1 for every dimindx from get_work_dim() on, which the
      // conformance suite's work_item_functions_out_of_range tests): exactly those values are violations.
      CHECK(j["violations"] == 3 * 256);
      for (const auto& d : j["details"]) {
        CHECK(d["index"].get<uint64_t>() % 4 != 3);
        CHECK(d["reference"] == "1");
      }
      WARN("the device returns " << j["details"][0]["observed"] << " for get_global_size beyond the launch's dimensions");
      continue;
    }
    CHECK(j["violations"] == 0);
    if (kernel == "last_writer") {
      // clref's race checker finds the race; the device's out[0] is any work-item's value.
      REQUIRE(j["findings"].size() == 1);
      CHECK_THAT(j["findings"][0].get<std::string>(), Catch::Contains("data race"));
      continue;
    }
    CHECK(j["undetermined"] == 0);
    CHECK(j["findings"].empty());
    if (kernel == "to_image") {
      // The image's 256 elements are judged (the angles buffer is observed too: a SPIR-V parameter has no const).
      bool image = false;
      for (const auto& b : j["buffers"])
        if (b.value("image", false)) {
          image = true;
          CHECK(b["elements"] == 256);
          CHECK(b["identical"].get<uint64_t>() + b["allowed"].get<uint64_t>() == 256);
        }
      CHECK(image);
    }
  }
  // Every second enqueue of each kernel object: scale's first and third; copy_shift's; last_writer's; to_image's;
  // add_offset's first.
  CHECK(checked["scale"] == 2);
  CHECK(checked["copy_shift"] == 1);
  CHECK(checked["last_writer"] == 1);
  CHECK(checked["to_image"] == 1);
  CHECK(checked["dims_beyond"] == 1);
  CHECK(checked["add_offset"] == 1);
  CHECK(o.report.size() == 8);
}

}  // namespace

TEST_CASE("USE_HOST_PTR, structs, NULL and local arguments, sub-buffers, linked programs and settings", "[layer]") {
  checkLayerHost(CLREF_ICD_DIR);
  if (havePocl()) checkLayerHost(CLREF_POCL_ICD);
  const Outcome bad =
      runProgram(CLREF_LAYER_HOST, CLREF_ICD_DIR, true, "CLREF_CHECK_EVERY=x CLREF_CHECK_KERNELS=scale", "");
  CHECK(bad.status == 0);
  CHECK(bad.output.find("CLREF_CHECK_EVERY=x ignored: expected a positive integer") != std::string::npos);
  CHECK(bad.report.size() == 3);  // scale's three enqueues, every one
}

TEST_CASE("planted wrong image elements are violations, and planted values in a racing buffer are undetermined",
          "[layer]") {
  const Outcome o =
      runProgram(CLREF_LAYER_HOST, CLREF_ICD_DIR, true, "CLREF_PLANT_ERRORS=5 CLREF_CHECK_KERNELS=to_image,last_writer", "");
  INFO(o.output);
  REQUIRE(o.report.size() == 2);
  for (const auto& j : o.report) {
    INFO(j.dump().substr(0, 800));
    REQUIRE(j["checked"].get<bool>());
    if (j["kernel"] == "last_writer") {
      // out[0] (element 0, a multiple of 5) planted: with the race, not a violation.
      CHECK(j["violations"] == 0);
      CHECK(j["undetermined"] == 1);
      continue;
    }
    // Every 5th of the 256 image elements planted: 52 violations, at indices 0, 5, 10, ...
    uint64_t imageViolations = 0;
    for (const auto& b : j["buffers"])
      if (b.value("image", false)) imageViolations = b["violations"].get<uint64_t>();
    CHECK(imageViolations == 52);
    for (const auto& d : j["details"])
      if (d["name"] == "img") {
        CHECK(d["class"] == "violation");
        CHECK(d["index"].get<uint64_t>() % 5 == 0);
        CHECK_THAT(d["reason"].get<std::string>(), Catch::Contains("outside the allowed codes"));
      }
  }
}

// One run without and one with the layer: the layer changes nothing the program sees, and PoCL's differences from
// clref are allowed ones.
TEST_CASE("in front of PoCL, outputs, return codes and event statuses are the same and the differences are allowed",
          "[layer][pocl]") {
  if (!havePocl()) {
    WARN("skipped: PoCL is not installed (pocl-opencl-icd)");
    return;
  }
  const fs::path base = fs::temp_directory_path() / ("clref-layer-pocl-" + std::to_string(::getpid()));
  fs::remove_all(base);
  for (const char* d : {"plain/spirv", "plain/source", "layered/spirv", "layered/source"})
    fs::create_directories(base / d);
  const Outcome plain = runGolden(CLREF_POCL_ICD, false, "", "--smoke --out " + (base / "plain").string());
  const Outcome layered = runGolden(CLREF_POCL_ICD, true, "", "--smoke --out " + (base / "layered").string());
  INFO(layered.output.substr(0, 4000));
  CHECK(plain.status == layered.status);
  // The summary lines: runs, matches, mismatches, API errors (return codes and event statuses), skips.
  auto summary = [](const std::string& out) {
    std::string s;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
      if (line.rfind("SPIR-V: ", 0) == 0 || line.rfind("source: ", 0) == 0) s += line + "\n";
    return s;
  };
  CHECK(!summary(plain.output).empty());
  CHECK(summary(plain.output) == summary(layered.output));
  size_t files = 0;
  for (const auto& f : fs::recursive_directory_iterator(base / "plain")) {
    if (!f.is_regular_file()) continue;
    const fs::path other = base / "layered" / fs::relative(f.path(), base / "plain");
    INFO(f.path().string());
    REQUIRE(fs::exists(other));
    CHECK(readAll(f.path()) == readAll(other));
    ++files;
  }
  CHECK(files > 100);
  fs::remove_all(base);

  // PoCL is not correctly rounded: its math functions and conversions differ from clref where the spec allows.
  REQUIRE(layered.report.size() == runsOf(layered.output));
  uint64_t allowed = 0;
  std::set<std::string> differing;
  for (const auto& j : layered.report) {
    INFO(j.dump().substr(0, 800));
    REQUIRE(j["checked"].get<bool>());
    CHECK(j["undetermined"] == 0);
    if (j["kernel"] == "array1d_lerp") {
      // PoCL reads layer 2 for the layer coordinate 1.0 (OpenCL C 3.0 §8.4 [[selecting-an-image-from-an-image-array]]:
      // clamp(rint(1.0), 0, 2) = 1): its layer-1 results are clref's layer-2 ones, violations of the linear filter's
      // allowed set (a weighted average of layer 1's footprint) unless one happens to lie within that set. Layer 1
      // is work-items 9 .. 17, float4 elements 36 .. 71; only their x lanes (CL_R) differ.
      CHECK(j["violations"].get<uint64_t>() >= 1);
      for (const auto& d : j["details"])
        if (d["class"] == "violation") {
          CHECK(d["index"].get<uint64_t>() >= 36);
          CHECK(d["index"].get<uint64_t>() < 72);
          CHECK(d["index"].get<uint64_t>() % 4 == 0);
        }
    } else {
      CHECK(j["violations"] == 0);
    }
    allowed += j["allowed"].get<uint64_t>();
    if (j["allowed"].get<uint64_t>()) differing.insert(j["kernel"].get<std::string>());
  }
  CHECK(allowed > 100);
  CHECK(differing.count("math_functions"));
  CHECK(differing.count("convert_rounding"));

  // How much of the verdict rests on the set "any value": PoCL's out-of-range conversions without _sat
  // (convert_rounding; OpenCL C 3.0 §6.4.3.3 [[out-of-range-behavior]]: implementation-defined) are counted, and with
  // CLREF_CHECK_STRICT=1 they are undetermined instead of allowed.
  uint64_t anyValue = 0, convertAny = 0;
  for (const auto& j : layered.report) {
    REQUIRE(j.contains("any_value"));
    anyValue += j["any_value"].get<uint64_t>();
    if (j["kernel"] == "convert_rounding") convertAny += j["any_value"].get<uint64_t>();
  }
  CHECK(convertAny > 0);
  CHECK(anyValue >= convertAny);
  const Outcome strict =
      runGolden(CLREF_POCL_ICD, true, "CLREF_CHECK_STRICT=1", "--smoke --only convert_rounding,convert_rounding_O0");
  INFO(strict.output.substr(0, 2000));
  uint64_t strictUndetermined = 0, strictAny = 0;
  for (const auto& j : strict.report) {
    CHECK(j["violations"] == 0);
    strictUndetermined += j["undetermined"].get<uint64_t>();
    strictAny += j["any_value"].get<uint64_t>();
  }
  CHECK(strictAny == convertAny);
  CHECK(strictUndetermined == convertAny);
  CHECK_THAT(strict.output, Catch::Matchers::Contains("undetermined under CLREF_CHECK_STRICT"));
}

namespace {

// The JSON lines of a report file, each as written.
std::vector<std::string> reportLines(const fs::path& file) {
  std::vector<std::string> lines;
  std::istringstream in(readAll(file));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

// Runs `program` (`args`) with `env` twice, the layer judging at once and the layer spooling (CLREF_CHECK_SPOOL), and
// judges the spool with `clref check-spool`: its report must be the in-process one, line by line and in the same
// order. Returns check-spool's exit status.
int spooledLikeDirect(const std::string& program, const std::string& envIn, const std::string& args) {
  // The device behind the layer is clref's ICD on one thread: layer_host.c's last_writer races across work-groups, and
  // with several threads the two runs of the application could leave different last values.
  const std::string env = envIn + " CLREF_THREADS=1";
  const Outcome direct = runProgram(program, CLREF_ICD_DIR, true, env, args);
  INFO(direct.output.substr(0, 3000));
  REQUIRE(!direct.report.empty());
  const fs::path dir = fs::temp_directory_path() / ("clref-spool-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const fs::path spool = dir / "spool", report = dir / "report.jsonl", out = dir / "out.txt";
  const Outcome spooled = runProgram(program, CLREF_ICD_DIR, true, env + " CLREF_CHECK_SPOOL='" + spool.string() + "'",
                                     args);
  INFO(spooled.output.substr(0, 3000));
  CHECK(spooled.status == direct.status);
  CHECK(spooled.report.empty());  // nothing went to CLREF_CHECK_REPORT: every line is in the spool
  // One folder per enqueue, numbered from 1, nothing left half written.
  size_t folders = 0;
  for (const auto& entry : fs::directory_iterator(spool)) {
    CHECK(entry.path().filename().string()[0] != '.');
    ++folders;
  }
  CHECK(folders == direct.report.size());
  CHECK(fs::exists(spool / "00000001" / "enqueue.json"));

  std::string command = "'" CLREF_CLI "' check-spool '" + spool.string() + "' --report '" + report.string() + "' > '" +
                        out.string() + "' 2>&1";
  if (CLREF_SANITIZED) command = "ASAN_OPTIONS=detect_leaks=0 " + command;
  const int raw = std::system(command.c_str());
  INFO(readAll(out).substr(0, 3000));
  const std::vector<std::string> lines = reportLines(report);
  REQUIRE(lines.size() == direct.report.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    INFO("enqueue " << i + 1 << ": " << lines[i].substr(0, 600));
    CHECK(nlohmann::json::parse(lines[i]) == direct.report[i]);
  }
  fs::remove_all(dir);
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

}  // namespace

TEST_CASE("a spooled run judged later by clref check-spool gives the layer's report", "[layer][spool]") {
  // Buffers, images (mipmapped, depth, 1D buffer), local and by-value struct arguments, spec constants, a kernel the
  // layer does not check (device-side enqueue), planted wrong results: violations with their details.
  CHECK(spooledLikeDirect(CLREF_HOST_GOLDEN, "CLREF_PLANT_ERRORS=7",
                          "'" CLREF_BUNDLE "' --smoke --only vadd,arith_float,matmul_tiled,image_brighten_O2,"
                          "image_mip_lod_O2,image_depth_read_O2,image_buffer_to_image_O2,local_arg_rotate,"
                          "struct_by_value,spec_constants_set,device_enqueue_once,global_offset_2d") == 1);
  // layer_host.c: sub-buffers of one buffer (judged in the process: a case gives each buffer its own memory), a linked
  // program, an enqueue behind a user event (not checked), NULL and local arguments, an image.
  CHECK(spooledLikeDirect(CLREF_LAYER_HOST, "CLREF_CHECK_EVERY=2", "") == 0);
}

#ifdef CLREF_MPIEXEC
TEST_CASE("check-spool over 1, 2 and 4 MPI ranks writes the report of one process", "[layer][spool][mpi]") {
  const fs::path dir = fs::temp_directory_path() / ("clref-spool-mpi-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const fs::path spool = dir / "spool";
  // A spool of a part of the golden corpus with planted wrong results: cases of different sizes, violations, a kernel
  // the layer does not check.
  const Outcome spooled =
      runGolden(CLREF_ICD_DIR, true, "CLREF_PLANT_ERRORS=5 CLREF_CHECK_SPOOL='" + spool.string() + "'",
                "--smoke --only vadd,vadd_O0,arith_float,arith_int,matmul_tiled,image_brighten_O2,image_gauss3_O2,"
                "local_arg_rotate,struct_by_value,device_enqueue_once,reduce_int_sum,math_functions,ndrange_3d");
  INFO(spooled.output.substr(0, 2000));
  REQUIRE(spooled.status == 0);
  // Open MPI's own allocations outlive the program: LeakSanitizer would fail the ranks for them.
  const std::string asan = CLREF_SANITIZED ? "ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 " : "";
  auto judged = [&](const std::string& launcher, const std::string& name) {
    const fs::path report = dir / (name + ".jsonl"), out = dir / (name + ".txt");
    const std::string command = asan + launcher + "'" CLREF_CLI "' check-spool '" + spool.string() + "' --report '" +
                                report.string() + "' > '" + out.string() + "' 2>&1";
    const int raw = std::system(command.c_str());
    INFO(command << "\n" << readAll(out).substr(0, 3000));
    CHECK((WIFEXITED(raw) ? WEXITSTATUS(raw) : -1) == 1);  // the planted violations
    return readAll(report);
  };
  const std::string one = judged("", "process");
  REQUIRE(std::count(one.begin(), one.end(), '\n') > 20);
  for (int ranks : {1, 2, 4}) {
    INFO(ranks << " ranks");
    const std::string launcher = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 '" CLREF_MPIEXEC
                                 "' --oversubscribe --allow-run-as-root -np " + std::to_string(ranks) + " ";
    CHECK(judged(launcher, "ranks" + std::to_string(ranks)) == one);
  }
  fs::remove_all(dir);
}
#endif

TEST_CASE("CLREF_CHECK_HTML: one HTML report of every checked enqueue, with the JSON report's counts", "[layer][html]") {
  const fs::path html = fs::temp_directory_path() / ("clref-layer-html-" + std::to_string(::getpid()) + ".html");
  fs::remove(html);
  const Outcome o = runGolden(CLREF_ICD_DIR, true,
                              "CLREF_PLANT_ERRORS=7 CLREF_CHECK_KERNELS=vadd,arith_int CLREF_CHECK_HTML='" +
                                  html.string() + "'",
                              "--smoke --only vadd,arith_int");
  INFO(o.output.substr(0, 4000));
  const std::string page = readAll(html);
  fs::remove(html);
  REQUIRE(o.report.size() >= 2);
  // Written anew after each enqueue, so the page holds them all: a section each, the planted violations in total.
  uint64_t violations = 0;
  size_t sections = 0;
  for (const auto& j : o.report) violations += j["violations"].get<uint64_t>();
  for (size_t at = page.find("<section id=\"s"); at != std::string::npos; at = page.find("<section id=\"s", at + 1))
    ++sections;
  CHECK(sections == o.report.size());
  CHECK(page.find("<span id=\"total-violations\">" + std::to_string(violations) + "</span>") != std::string::npos);
  CHECK(page.find("enqueue " + std::to_string(o.report.size()) + ": ") != std::string::npos);
  CHECK(page.rfind("</html>") != std::string::npos);
  CHECK_FALSE(fs::exists(html.string() + ".tmp"));
}

// The ICD's load test (tests/icd/icd_load_test.cpp) through the layer: threads enqueueing at once on shared and private
// queues, kernels behind user events that the enqueuing thread completes after the enqueue (on the shared queues too,
// so that other threads' commands queue up behind them), every launch judged, none a violation; with clref planting
// wrong results, the load test's own host checks and the layer both see them. The layer once deadlocked here (its
// snapshot reads blocked on the application's queue under its one lock): each run is killed after kLoadPatience, and
// the test then says so instead of hanging.
TEST_CASE("in front of clref, the ICD load test's threads: every launch checked, no violation", "[layer][load]") {
  constexpr int kLoadPatience = 120;  // seconds; a run takes a few (4 threads x 3 rounds)
  const std::string load =
      "CLREF_LOAD_THREADS=4 CLREF_LOAD_ROUNDS=3 timeout -k 5 " + std::to_string(kLoadPatience);
  const Outcome o = runProgram(CLREF_LOAD_TEST, CLREF_ICD_DIR, true, load, "'" CLREF_VADD_SPV "'");
  INFO(o.output.substr(0, 4000));
  if (o.status == 124 || o.status == 137)
    FAIL("the load test did not end within " << kLoadPatience << " s under the layer: a deadlock");
  REQUIRE(o.status == 0);
  std::smatch m;
  REQUIRE(std::regex_search(o.output, m, std::regex(R"((\d+) launches checked)")));
  const size_t launches = std::stoul(m[1]);
  CHECK(launches >= 16);  // 4 threads x 3 rounds, one or two launches each, and one on SVM per thread
  CHECK(o.report.size() == launches);
  std::set<std::string> kernels;
  for (const auto& j : o.report) {
    INFO(j.dump().substr(0, 600));
    kernels.insert(j["kernel"].get<std::string>());
    if (j["kernel"] == "svm_count") {  // SVM pointer arguments: the layer says it does not judge them
      CHECK_FALSE(j["checked"].get<bool>());
      continue;
    }
    REQUIRE(j["checked"].get<bool>());
    CHECK(j["violations"] == 0);
    CHECK(j["undetermined"] == 0);
    CHECK(j["identical"].get<uint64_t>() > 0);
  }
  CHECK(kernels == std::set<std::string>{"affine", "group_sum", "vadd", "svm_count"});

  const Outcome planted = runProgram(CLREF_LOAD_TEST, CLREF_ICD_DIR, true, "CLREF_PLANT_ERRORS=7 " + load,
                                     "'" CLREF_VADD_SPV "'");
  INFO(planted.output.substr(0, 4000));
  if (planted.status == 124 || planted.status == 137)
    FAIL("the load test with planted errors did not end within " << kLoadPatience << " s under the layer: a deadlock");
  CHECK(planted.status == 1);
  CHECK(planted.output.find("wrong values") != std::string::npos);
  REQUIRE(planted.report.size() == launches);
  for (const auto& j : planted.report)
    if (j["checked"].get<bool>()) CHECK(j["violations"].get<uint64_t>() > 0);
}

// The checking thread judges with clref's code, whose statics (the accuracy rules, among others) some check constructs
// first, perhaps not the first check. An application that returns from main while its last kernel is still being
// judged: that judgement must end and be reported before those statics are destroyed. Under AddressSanitizer the
// destroyed rules were a use after free (the load test's planted run lost reports to it); layer/exit_order.hpp.
TEST_CASE("a kernel still being judged when the application returns from main is reported", "[layer]") {
  const Outcome o = runProgram(CLREF_LAYER_EXIT_HOST, CLREF_ICD_DIR, true, "CLREF_PLANT_ERRORS=7", "");
  INFO(o.output.substr(0, 4000));
  REQUIRE(o.status == 0);
  REQUIRE(o.report.size() == 3);
  CHECK(o.report[0]["kernel"] == "svm_touch");
  CHECK_FALSE(o.report[0]["checked"].get<bool>());
  for (size_t i = 1; i < 3; ++i) {
    INFO(o.report[i].dump().substr(0, 600));
    CHECK(o.report[i]["kernel"] == "fadd");
    REQUIRE(o.report[i]["checked"].get<bool>());
    // Every seventh element planted wrong: 586 of the 4096.
    CHECK(o.report[i]["violations"] == 586);
    CHECK(o.report[i]["identical"] == 4096 - 586);
  }
}

namespace {
// The lines layer_cmdbuf_host prints itself (its results), without the layer's lines on stderr.
std::string cmdbufResults(const std::string& output) {
  std::string lines;
  static const std::regex re(R"(run \d: out\[\d+\] = \S+)");
  for (std::sregex_iterator it(output.begin(), output.end(), re), end; it != end; ++it) lines += it->str() + "\n";
  return lines;
}
}  // namespace

TEST_CASE("the kernels of a command buffer are judged at each enqueue, from copies around each kernel", "[layer]") {
  const Outcome plain = runProgram(CLREF_LAYER_CMDBUF_HOST, CLREF_ICD_DIR, false, "", "");
  INFO(plain.output.substr(0, 4000));
  REQUIRE(plain.status == 0);
  const Outcome o = runProgram(CLREF_LAYER_CMDBUF_HOST, CLREF_ICD_DIR, true, "", "");
  INFO(o.output.substr(0, 4000));
  REQUIRE(o.status == 0);
  // The application's results are those without the layer: 2 runs, 6 elements each.
  CHECK(cmdbufResults(o.output) == cmdbufResults(plain.output));
  CHECK(std::count(plain.output.begin(), plain.output.end(), '\n') == 12);
  // Each run: the two kernels judged in record order (cmdbuf_consume from what cmdbuf_produce wrote in the same run;
  // cmdbuf_produce with its input of record time, not the decoy set afterwards), and the kernel on two sub-buffers of
  // one buffer reported not checked.
  REQUIRE(o.report.size() == 6);
  for (size_t run = 0; run < 2; ++run) {
    for (size_t k = 0; k < 2; ++k) {
      const auto& j = o.report[3 * run + k];
      INFO(j.dump().substr(0, 600));
      CHECK(j["kernel"] == (k == 0 ? "cmdbuf_produce" : "cmdbuf_consume"));
      REQUIRE(j["checked"].get<bool>());
      CHECK(j["identical"] == 256);
      CHECK(j["violations"] == 0);
      CHECK(j["allowed"] == 0);
      CHECK(j["undetermined"] == 0);
      REQUIRE(j["buffers"].size() == 1);  // the buffer each may write
      CHECK(j["buffers"][0]["name"] == (k == 0 ? "x" : "out"));
    }
    const auto& shift = o.report[3 * run + 2];
    CHECK(shift["kernel"] == "cmdbuf_shift");
    CHECK_FALSE(shift["checked"].get<bool>());
    CHECK(shift["reason"] == "arguments 0 and 1 share memory (sub-buffers of one buffer) in a command buffer");
  }
  CHECK(o.output.find("clref check: cmdbuf_consume global (256) local (64): 256 identical") != std::string::npos);
}

TEST_CASE("a planted wrong result in a command buffer's kernel is a violation at each enqueue", "[layer]") {
  // clref's ICD changes every 7th element cmdbuf_produce writes; cmdbuf_consume, which reads them, is not judged.
  const Outcome o = runProgram(CLREF_LAYER_CMDBUF_HOST, CLREF_ICD_DIR, true,
                               "CLREF_PLANT_ERRORS=7 CLREF_CHECK_KERNELS=cmdbuf_produce", "");
  INFO(o.output.substr(0, 4000));
  CHECK(o.status == 1);  // the program sees the wrong results
  REQUIRE(o.report.size() == 2);
  for (const auto& j : o.report) {
    INFO(j.dump().substr(0, 600));
    CHECK(j["kernel"] == "cmdbuf_produce");
    REQUIRE(j["checked"].get<bool>());
    CHECK(j["violations"] == (256 + 6) / 7);
    CHECK(j["identical"] == 256 - (256 + 6) / 7);
    CHECK_FALSE(j["details"].empty());
    for (const auto& d : j["details"]) {
      CHECK(d["class"] == "violation");
      CHECK(d["arg"] == 1);
      CHECK(d["index"].get<uint64_t>() % 7 == 0);
    }
  }
}

TEST_CASE("a command buffer whose kernels the layer cannot check runs unjudged, each kernel reported", "[layer]") {
  const Outcome o = runProgram(CLREF_LAYER_CMDBUF_HOST, CLREF_ICD_DIR, true, "CLREF_CHECK_KERNELS=cmdbuf_shift", "");
  INFO(o.output.substr(0, 4000));
  CHECK(o.status == 0);
  REQUIRE(o.report.size() == 2);  // one per enqueue
  for (const auto& j : o.report) {
    CHECK(j["kernel"] == "cmdbuf_shift");
    CHECK_FALSE(j["checked"].get<bool>());
  }
}

// The spool learns each argument's kind from its bytes and the handles the application created, without building the
// program on clref (layer/spool_args.hpp): its buffers are bytes, every one read back after the kernel. An argument of
// uncertain kind (NULL of a pointer's size: a NULL buffer, or 8 bytes of local memory) has the enqueue prepared with
// clref's build as before, its buffers of their parameter's type and only those the kernel may write observed.
TEST_CASE("the spool learns argument kinds without building the program on clref", "[layer][spool]") {
  const fs::path dir = fs::temp_directory_path() / ("clref-spool-kinds-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  auto casesOf = [](const fs::path& spool) {
    std::map<std::string, nlohmann::json> cases;  // kernel → its first spooled case
    for (const auto& entry : fs::directory_iterator(spool)) {
      if (!fs::exists(entry.path() / "case.json")) continue;
      const auto c = nlohmann::json::parse(readAll(entry.path() / "case.json"));
      cases.emplace(c["kernel"].get<std::string>(), c);
    }
    return cases;
  };
  // golden/cases/vadd.json: vadd(a, b, c) on 1024 floats, a and b only read; from SPIR-V and from source.
  const Outcome golden =
      runGolden(CLREF_ICD_DIR, true, "CLREF_CHECK_SPOOL='" + (dir / "golden").string() + "'", "--smoke --only vadd");
  INFO(golden.output.substr(0, 2000));
  REQUIRE(golden.status == 0);
  const auto vadd = casesOf(dir / "golden");
  REQUIRE(vadd.count("vadd"));
  const nlohmann::json& args = vadd.at("vadd")["args"];
  REQUIRE(args.size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    INFO("arg " << i << ": " << args[i].dump());
    CHECK(args[i]["buffer"]["type"] == "uchar");
    CHECK(args[i]["buffer"]["count"] == 1024 * 4);
    CHECK(args[i]["buffer"]["output"] == true);
    CHECK(fs::file_size(dir / "golden" / "00000001" / ("case.arg" + std::to_string(i) + ".bin")) == 1024 * 4);
  }
  // layer_host.c's scale(global float* x, float f, pair_t p, global const int* maybe, local float* tmp): `maybe` is set
  // to NULL with a pointer's size.
  const Outcome host = runProgram(CLREF_LAYER_HOST, CLREF_ICD_DIR, true,
                                  "CLREF_CHECK_SPOOL='" + (dir / "host").string() + "' CLREF_CHECK_KERNELS=scale", "");
  INFO(host.output.substr(0, 2000));
  REQUIRE(host.status == 0);
  const auto scale = casesOf(dir / "host");
  REQUIRE(scale.count("scale"));
  const nlohmann::json& s = scale.at("scale")["args"];
  REQUIRE(s.size() == 5);
  CHECK(s[0]["buffer"]["type"] == "float");
  CHECK(s[0]["buffer"]["output"] == true);
  CHECK(s[3] == nlohmann::json{{"null", true}});
  CHECK(s[4] == nlohmann::json{{"local", 64 * 4}});
  fs::remove_all(dir);
}

// A program the layer spooled without building it on clref, and which does not build on clref: check-spool gives the
// reason the layer judging at once gives, from clref's build of the source as the layer makes it (unnamed: "<program
// source>"), not the case's error (which names the case file's module).
TEST_CASE("check-spool says why a program spooled without a build is not checked", "[layer][spool]") {
  const fs::path dir = fs::temp_directory_path() / ("clref-spool-reason-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const fs::path folder = dir / "spool" / "00000001";
  fs::create_directories(folder);
  std::ofstream(folder / "module.cl") << "kernel void k(global int* x) { x[0] = undefined_name; }\n";
  std::ofstream(folder / "case.json") << R"({"module": "module.cl", "build_options": "", "kernel": "k",
    "ndrange": {"global": [1]}, "args": [{"buffer": {"type": "uchar", "count": 4, "output": true}}]})";
  std::ofstream(folder / "enqueue.json") << R"({"kernel": "k", "build_options": "", "groups": 0, "profile": "full",
    "strict": false, "device": {"address_bits": 64, "fp16": false, "fp64": true, "local_mem_size": 65536,
    "max_mem_alloc_size": 268435456, "max_work_group_size": 1024, "races": false}})";
  const fs::path report = dir / "report.jsonl", out = dir / "out.txt";
  std::string command = "'" CLREF_CLI "' check-spool '" + (dir / "spool").string() + "' --report '" + report.string() +
                        "' > '" + out.string() + "' 2>&1";
  if (CLREF_SANITIZED) command = "ASAN_OPTIONS=detect_leaks=0 " + command;
  const int raw = std::system(command.c_str());
  INFO(readAll(out).substr(0, 3000));
  CHECK(WIFEXITED(raw));
  CHECK(WEXITSTATUS(raw) == 0);  // not checked is no violation
  const std::vector<std::string> lines = reportLines(report);
  REQUIRE(lines.size() == 1);
  const auto line = nlohmann::json::parse(lines[0]);
  CHECK(line["checked"] == false);
  CHECK(line["kernel"] == "k");
  const std::string reason = line["reason"].get<std::string>();
  // The undeclared name at column 39 of line 1 of the source.
  CHECK(reason.rfind("the program does not build on clref: OpenCL C compilation failed:\n<program source>:1:39: error: "
                     "use of undeclared identifier 'undefined_name'",
                     0) == 0);
  CHECK(reason.find("module.cl") == std::string::npos);
  fs::remove_all(dir);
}
