// Programs built from OpenCL C with -g: the build never fails because of debug information (llvm-spirv-15 refuses
// DWARF operations OpenCL.DebugInfo.100 does not list, which clang-15 -O2 emits for ordinary kernels), faults name
// the source line, and -cl-opt-disable / -O0 are honoured (clang-15 ignores -cl-opt-disable after -O2).
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compiler/debug_expressions.hpp"
#include "compiler/freeze_removal.hpp"
#include "host/host.hpp"
#include "interpreter/module.hpp"

using namespace clref;
using Catch::Matchers::Contains;

namespace {

// A tree reduction: clang-15 -O2 -g describes `s` after `s >>= 1` and `n / 2` with DW_OP_shr and DW_OP_div.
const char* kReduction = R"(kernel void red(global const float* in, global float* out, local float* tmp) {
  int l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = n / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0) + 100] = tmp[0];
}
)";

// Whether the module declares a function-scope variable: clang's -O0 code keeps its allocas, -O2 promotes them.
bool hasFunctionVariables(const host::Program& p) {
  for (const auto& inst : p.module().instructions)
    if (inst.opcode == spv::Op::OpVariable && inst.words.size() > 3 &&
        inst.words[3] == uint32_t(spv::StorageClass::Function))
      return true;
  return false;
}

}  // namespace

TEST_CASE("debug locations with unlisted DWARF operations become unavailable, the rest is unchanged", "[debug]") {
  const std::string ir =
      "  %7 = sdiv i32 %6, 2\n"
      "  call void @llvm.dbg.value(metadata i32 %7, metadata !23, metadata !DIExpression(DW_OP_constu, 2, DW_OP_div, "
      "DW_OP_constu, 0, DW_OP_swap, DW_OP_xderef, DW_OP_stack_value)), !dbg !41\n"
      "  call void @llvm.dbg.value(metadata i32 %l, metadata !24, metadata !DIExpression(DW_OP_constu, 0, DW_OP_swap, "
      "DW_OP_xderef)), !dbg !42\n"
      "  call void @llvm.dbg.value(metadata !DIArgList(i64 %a, i64 %b), metadata !25, metadata "
      "!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value)), !dbg !43\n"
      "  call void @llvm.dbg.declare(metadata ptr %p, metadata !26, metadata !DIExpression(DW_OP_LLVM_convert, 64, "
      "DW_ATE_unsigned)), !dbg !44\n"
      "  call void @llvm.dbg.declare(metadata ptr %q, metadata !27, metadata !DIExpression()), !dbg !45\n"
      "!50 = !DIExpression(DW_OP_LLVM_fragment, 0, 32)\n";
  size_t n = 0;
  const std::string out = compiler::withTranslatableDebugLocations(ir, &n);
  CHECK(n == 3);
  const std::string expected =
      "  %7 = sdiv i32 %6, 2\n"
      "  call void @llvm.dbg.value(metadata i32 undef, metadata !23, metadata !DIExpression()), !dbg !41\n"
      "  call void @llvm.dbg.value(metadata i32 %l, metadata !24, metadata !DIExpression(DW_OP_constu, 0, DW_OP_swap, "
      "DW_OP_xderef)), !dbg !42\n"
      "  call void @llvm.dbg.value(metadata i64 undef, metadata !25, metadata !DIExpression()), !dbg !43\n"
      "  call void @llvm.dbg.declare(metadata ptr %q, metadata !27, metadata !DIExpression()), !dbg !45\n"
      "!50 = !DIExpression(DW_OP_LLVM_fragment, 0, 32)\n";
  CHECK(out == expected);
}

TEST_CASE("a -g build at every optimisation level builds, runs, and faults name the program's line", "[debug]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  const host::Device device;
  for (const char* options : {"-cl-std=CL1.2 -g", "-cl-std=CL1.2 -g -cl-opt-disable", "-cl-std=CL3.0 -g -O0"}) {
    INFO(options);
    std::shared_ptr<host::Program> program;
    REQUIRE_NOTHROW(program = host::Program::fromOpenCLC(device, kReduction, options));
    CHECK(hasFunctionVariables(*program) == (std::strstr(options, "-O2") == nullptr &&
                                             (std::strstr(options, "opt-disable") || std::strstr(options, "-O0"))));
    host::Kernel k(program, "red");
    std::vector<float> in(16);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i + 1);
    auto inBuf = std::make_shared<host::Buffer>(in.data(), in.size() * sizeof(float));
    auto outBuf = std::make_shared<host::Buffer>(101 * sizeof(float));  // out[100] is in bounds, out[101] is not
    k.setArg(0, inBuf);
    k.setArg(1, outBuf);
    k.setArgLocal(2, 8 * sizeof(float));
    host::NDRange r;
    r.global = {16, 1, 1};
    r.local = std::array<size_t, 3>{8, 1, 1};
    const auto res = k.run(r);
    // Group 0 writes out[100] = 1 + ... + 8; group 1 writes out[101], past the buffer, on line 9.
    float first = 0;
    std::memcpy(&first, outBuf->data() + 100 * sizeof(float), sizeof first);
    CHECK(first == 36.0f);
    REQUIRE(res.fault);
    // The program came from a string: its own lines, not the temporary copy clang compiled.
    CHECK(res.fault->source == "program source line 9");
    CHECK(res.fault->sourceLine == "  if (l == 0) out[get_group_id(0) + 100] = tmp[0];");
    CHECK_THAT(res.fault->format(),
               Contains("program source line 9") && Contains("| " + res.fault->sourceLine) && !Contains("/tmp/"));
  }
}

TEST_CASE("diagnostics name the source file a program says it came from, and its headers", "[debug]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  const host::Device device;
  host::OpenCLCSource src;
  src.name = "kernels/outside.cl";
  src.text = "#include \"store.h\"\nkernel void k(global int* p) {\n  store(p, 5);\n}\n";
  src.headers = {{"store.h", "void store(global int* p, int i) {\n  p[i] = 1;\n}\n"}};
  src.options = {"-g", "-cl-opt-disable"};
  auto program = host::Program::fromOpenCLC(device, src);
  host::Kernel k(program, "k");
  k.setArg(0, std::make_shared<host::Buffer>(4 * sizeof(int)));
  host::NDRange r;
  r.global = {1, 1, 1};
  const auto res = k.run(r);
  REQUIRE(res.fault);
  CHECK(res.fault->source == "store.h:2");
  CHECK(res.fault->sourceLine == "  p[i] = 1;");
}

TEST_CASE("without line information a diagnostic says how to get it", "[debug]") {
  const host::Device device;
  auto program = host::Program::fromSpirvFile(device, CLREF_GOLDEN_DIR "/spv/vadd.O2.spv");
  host::Kernel k(program, "vadd");
  k.setArg(0, std::make_shared<host::Buffer>(16));
  k.setArg(1, std::make_shared<host::Buffer>(16));
  k.setArg(2, std::make_shared<host::Buffer>(16));
  host::NDRange r;
  r.global = {8, 1, 1};
  const auto res = k.run(r);
  REQUIRE(res.fault);
  CHECK(res.fault->source.empty());
  CHECK_THAT(res.fault->format(), Contains("no line information (build the program with -g for source lines)"));
}

TEST_CASE("the options -cl-opt-disable and -O0 compile without optimisation, the default with it", "[debug]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  const host::Device device;
  CHECK_FALSE(hasFunctionVariables(*host::Program::fromOpenCLC(device, kReduction, "-cl-std=CL1.2")));
  CHECK(hasFunctionVariables(*host::Program::fromOpenCLC(device, kReduction, "-cl-std=CL1.2 -cl-opt-disable")));
  CHECK(hasFunctionVariables(*host::Program::fromOpenCLC(device, kReduction, "-O0")));
}

TEST_CASE("compiler messages name the program's own source, not the temporary copy", "[debug]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  host::Device device;
  host::OpenCLCSource s;
  s.text = "kernel void k(global int* out) {\n  out[0] = undeclared;\n}\n";
  s.name = "mine.cl";
  for (const char* shown : {"mine.cl:2:", "<program source>:2:"}) {
    try {
      host::Program::fromOpenCLC(device, s);
      FAIL("an undeclared identifier compiled");
    } catch (const host::Error& e) {
      CHECK_THAT(e.what(), Contains(shown));
      CHECK_THAT(e.what(), !Contains("clref-build"));
    }
    s.name.clear();
  }
}

// OpenCL C 3.0 §6.12 [[preprocessor-directives-and-macros]]: __OPENCL_VERSION__ and the others are always defined.
TEST_CASE("the predefined macros are defined", "[debug]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  host::Device device;
  for (const char* std : {"-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    auto program = host::Program::fromOpenCLC(device,
                                              "kernel void k(global int* r) {\n"
                                              "#ifdef __OPENCL_VERSION__\n"
                                              "  r[0] = __OPENCL_VERSION__;\n"
                                              "#else\n"
                                              "  r[0] = -1;\n"
                                              "#endif\n"
                                              "  r[1] = __OPENCL_C_VERSION__;\n"
                                              "  r[2] = __ENDIAN_LITTLE__;\n"
                                              "}",
                                              std);
    host::Kernel k(program, "k");
    auto out = std::make_shared<host::Buffer>(3 * sizeof(int));
    k.setArg(0, out);
    host::NDRange r;
    REQUIRE(k.run(r).ok);
    CHECK(out->as<int>()[0] == 300);
    CHECK(out->as<int>()[1] == (std::string(std) == "-cl-std=CL1.2" ? 120 : 300));
    CHECK(out->as<int>()[2] == 1);
  }
}

TEST_CASE("LLVM's freeze becomes a select that llvm-spirv-15 translates", "[compiler]") {
  size_t n = 0;
  const std::string text =
      "  %5 = freeze i32 %4\n"
      "  %v = freeze <4 x i32> %x, !dbg !12\n"
      "  %f = fadd float %a, %b\n";
  CHECK(compiler::withoutFreeze(text, &n) ==
        "  %5 = select i1 true, i32 %4, i32 %4\n"
        "  %v = select i1 true, <4 x i32> %x, <4 x i32> %x, !dbg !12\n"
        "  %f = fadd float %a, %b\n");
  CHECK(n == 2);
  // clang-15 -O2 pairs i / 16 with i % 16 through a freeze: the kernel builds, with -g too, and computes what the host
  // does.
  for (const char* options : {"", "-g"}) {
    INFO(options);
    host::Device device;
    auto program = host::Program::fromOpenCLC(
        device,
        "kernel void k(global int* out) { int i = get_global_id(0) - 40; out[get_global_id(0)] = (i / 16) * 100 + "
        "i % 16; }",
        options);
    host::Kernel kernel(program, "k");
    std::vector<int> zeros(100, 0);
    auto out = std::make_shared<host::Buffer>(zeros.data(), zeros.size() * 4);
    kernel.setArg(0, out);
    host::NDRange r;
    r.global = {100, 1, 1};
    REQUIRE(kernel.run(r).ok);
    for (int g = 0; g < 100; ++g) {
      const int i = g - 40;
      CHECK(out->as<int>()[g] == (i / 16) * 100 + i % 16);
    }
  }
}
