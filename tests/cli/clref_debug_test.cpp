// `clref debug` end to end: scripted sessions (--commands, and stdin) over small kernels built with -g, their
// transcripts checked against values computed here by hand from the kernels' source and the cases' inputs.
#include <catch2/catch.hpp>

#include <regex>

#include "host/host.hpp"
#include "clref_run.hpp"

using clref::cli::test::has;
using clref::cli::test::runClref;
using clref::cli::test::TempDir;

namespace {

const std::string kGolden = CLREF_GOLDEN_DIR;

// Each part in turn, each after the one before it: a session's answers come in the order of its commands.
bool inOrder(const std::string& text, std::initializer_list<std::string> parts) {
  size_t at = 0;
  for (const auto& p : parts) {
    at = text.find(p, at);
    if (at == std::string::npos) {
      UNSCOPED_INFO("not found (in order): " << p);
      return false;
    }
    at += p.size();
  }
  return true;
}

// The session's output with the case's folder left out of the file names (the case names its .cl relative to itself,
// and clref names it by the resolved path).
std::string session(const clref::cli::test::CliResult& r, const TempDir& dir) {
  std::string out = r.out;
  const std::string prefix = dir.path().string() + "/";
  for (size_t at; (at = out.find(prefix)) != std::string::npos;) out.erase(at, prefix.size());
  return out;
}

bool compilerAvailable() {
  if (clref::host::Program::openCLCCompilerAvailable()) return true;
  WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
  return false;
}

// in[i] = 10 + 3i, so v = 2 in[i] + 1 = 21 + 6i; work-groups of 8; out[i] = v(i) + v(next work-item of the group).
const char* kTwice =
    "kernel void twice(global const int* in, global int* out, local int* tmp) {\n"  // 1
    "  size_t i = get_global_id(0);\n"                                               // 2
    "  int v = in[i] * 2 + 1;\n"                                                     // 3
    "  tmp[get_local_id(0)] = v;\n"                                                  // 4
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"                                              // 5
    "  out[i] = v + tmp[(get_local_id(0) + 1) % 8];\n"                               // 6
    "}\n";                                                                           // 7

std::string twiceCase(const std::string& options) {
  return R"({ "module": "twice.cl", "build_options": ")" + options + R"(", "kernel": "twice",
    "ndrange": { "global": [16], "local": [8] },
    "args": [ { "buffer": { "type": "int", "count": 16, "init": { "iota": { "start": 10, "step": 3 } } } },
              { "buffer": { "type": "int", "count": 16, "output": true } },
              { "local": 32 } ] })";
}

}  // namespace

TEST_CASE("clref debug: breakpoints, steps, work-items, DebugValue variables, memory and a watchpoint (-O2 -g)",
          "[reference][cli][debug]") {
  if (!compilerAvailable()) return;
  TempDir dir;
  dir.write("twice.cl", kTwice);
  const auto caseFile = dir.write("twice.json", twiceCase("-g"));
  const auto commands = dir.write("session.txt", R"(# a scripted session
break 3
continue
print i
step
workitem 5
continue
print i
next
print v
backtrace
workitem any
delete 1
break 6
continue
print -all v
memory tmp 0 8 int
memory out 0 4 int
delete 2
watch out 7
continue
memory out 0 8
info breakpoints
continue
)");
  const auto r = runClref(dir, "debug '" + caseFile.string() + "' --commands '" + commands.string() + "'");
  const std::string out = session(r, dir);
  INFO(out << r.err);
  CHECK(r.status == 0);
  CHECK(inOrder(out, {"(clref) break 3\nbreakpoint 1 at twice.cl:3\n",
                        // Work-item 0 reaches line 3 first.
                        "(clref) continue\nbreakpoint 1: work-item (0,0,0), local (0,0,0), group (0,0,0)\n  in twice at "
                        "twice.cl:3\n  3 |   int v = in[i] * 2 + 1;\n",
                        // i only exists as a DebugValue of the builtin's load (-O2: no memory).
                        "(clref) print i\ni = 0\n", "(clref) step\nstep: work-item (0,0,0)",
                        // Work-item 5 of the same group has not run yet; continue then stops only at its breakpoints.
                        "(clref) workitem 5\nwork-item (5,0,0), local (5,0,0), group (0,0,0)\n",
                        "(clref) continue\nbreakpoint 1: work-item (5,0,0), local (5,0,0), group (0,0,0)\n",
                        "(clref) print i\ni = 5\n", "(clref) next\nnext: work-item (5,0,0)",
                        "  4 |   tmp[get_local_id(0)] = v;\n",
                        // v = 2 (10 + 3·5) + 1.
                        "(clref) print v\nv = 51\n", "(clref) backtrace\n#0  twice at twice.cl:4 (word ",
                        "(clref) workitem any\nbreakpoints stop every work-item\n", "(clref) delete 1\ndeleted 1\n",
                        "(clref) break 6\nbreakpoint 2 at twice.cl:6\n",
                        // After the barrier work-item 0 runs first; every work-item of the group has its v.
                        "(clref) continue\nbreakpoint 2: work-item (0,0,0)",
                        "(clref) print -all v\n(0,0,0) v = 21\n(1,0,0) v = 27\n(2,0,0) v = 33\n(3,0,0) v = 39\n"
                        "(4,0,0) v = 45\n(5,0,0) v = 51\n(6,0,0) v = 57\n(7,0,0) v = 63\n",
                        "(clref) memory tmp 0 8 int\nlocal argument 2 (tmp) (32 bytes), 8 ints from byte 0:\n"
                        "  tmp[0] = 21\n  tmp[1] = 27\n  tmp[2] = 33\n  tmp[3] = 39\n  tmp[4] = 45\n  tmp[5] = 51\n"
                        "  tmp[6] = 57\n  tmp[7] = 63\n",
                        // Nothing is written to out before line 6 runs.
                        "(clref) memory out 0 4 int\nargument 1 (out) (64 bytes), 4 ints from byte 0:\n  out[0] = 0\n"
                        "  out[1] = 0\n  out[2] = 0\n  out[3] = 0\n",
                        "(clref) watch out 7\nwatchpoint 3: out[7] (argument 1 (out), bytes 28..31, int)\n",
                        // out[7] = v(7) + v(0) = 63 + 21 = 84 = 0x54, written by work-item 7 at line 6.
                        "(clref) continue\nwatchpoint 3: out[7] (argument 1 (out), bytes 28..31, int) written by "
                        "work-item (7,0,0) at twice.cl:6, word ",
                        "  old: 00 00 00 00 = 0\n  new: 54 00 00 00 = 84\nthen: work-item (7,0,0)",
                        // The case's element type is the default: out[i] = v(i) + v(i + 1).
                        "(clref) memory out 0 8\nargument 1 (out) (64 bytes), 8 ints from byte 0:\n  out[0] = 48\n"
                        "  out[1] = 60\n  out[2] = 72\n  out[3] = 84\n  out[4] = 96\n  out[5] = 108\n  out[6] = 120\n"
                        "  out[7] = 84\n",
                        "(clref) info breakpoints\n3  watchpoint out[7] (argument 1 (out), bytes 28..31, int) (hit 1 "
                        "time)\n",
                        "(clref) continue\nthe kernel finished: 16 work-items ran; the case's outputs are not written"}));
  CHECK(r.err.empty());
}

TEST_CASE("clref debug: instruction breakpoints by word offset and by id, and values by id", "[reference][cli][debug]") {
  if (!compilerAvailable()) return;
  TempDir dir;
  dir.write("twice.cl", kTwice);
  const auto caseFile = dir.write("twice.json", twiceCase("-g"));
  // The store of line 6 (its word offset and the id of the value it stores) as a watchpoint reports it.
  const auto first = dir.write("first.txt", "watch out 0\ncontinue\nquit\n");
  const auto r1 = runClref(dir, "debug '" + caseFile.string() + "' --commands '" + first.string() + "'");
  const std::string out1 = session(r1, dir);
  INFO(out1);
  std::smatch m;
  REQUIRE(std::regex_search(out1, m, std::regex(R"(twice\.cl:6, word ([0-9]+): OpStore %([0-9]+) %([0-9]+))")));
  const std::string word = m[1], value = m[3];
  const auto second = dir.write("second.txt", "break @" + word + "\ncontinue\nprint %" + value +
                                                  "\nworkitem 3\ncontinue\nprint %" + value + "\ndelete\nbreak %" +
                                                  value + "\nworkitem any\ncontinue\nquit\n");
  const auto r2 = runClref(dir, "debug '" + caseFile.string() + "' --commands '" + second.string() + "'");
  const std::string out2 = session(r2, dir);
  INFO(out2);
  CHECK(r2.status == 0);
  CHECK(inOrder(out2, {"breakpoint 1 at word " + word + ": OpStore", "(twice.cl:6)\n",
                         "breakpoint 1: work-item (0,0,0)", "  word " + word + ": OpStore",
                         // The value out[0] receives: v(0) + v(1) = 21 + 27; for work-item 3 39 + 45.
                         "(clref) print %" + value + "\n%" + value + " = 48\n", "breakpoint 1: work-item (3,0,0)",
                         "(clref) print %" + value + "\n%" + value + " = 84\n",
                         // Work-item 4 computes the sum next: the instruction defining it.
                         "breakpoint 2: work-item (4,0,0)", "  word ", "%" + value + " = OpIAdd",
                         "the kernel did not finish (quit); no output written"}));
}

TEST_CASE("clref debug: calls, DebugDeclare variables in memory and a watchpoint on one (-O0 -g)",
          "[reference][cli][debug]") {
  if (!compilerAvailable()) return;
  TempDir dir;
  dir.write("scale.cl",
            "int scale(int x) {\n"                                            // 1
            "  int r = x * 2;\n"                                              // 2
            "  return r + 1;\n"                                               // 3
            "}\n"                                                             // 4
            "\n"                                                              // 5
            "kernel void twice(global const int* in, global int* out) {\n"  // 6
            "  size_t i = get_global_id(0);\n"                                // 7
            "  int v = scale(in[i]);\n"                                       // 8
            "  out[i] = v;\n"                                                 // 9
            "}\n");                                                           // 10
  const auto caseFile = dir.write("scale.json", R"({ "module": "scale.cl", "build_options": "-g -O0",
    "kernel": "twice", "ndrange": { "global": [8] },
    "args": [ { "buffer": { "type": "int", "count": 8, "init": { "iota": { "start": 10, "step": 3 } } } },
              { "buffer": { "type": "int", "count": 8, "output": true } } ] })");
  const auto commands = dir.write("session.txt",
                                  "break 3\nworkitem 2\ncontinue\nprint x\nprint r\nbacktrace\nmemory r 0 1\n"
                                  "next\nprint v\nwatch v\ncontinue\nprint v\ninfo locals\nlist\n"
                                  "memory out 2 1\nnext\nmemory out 2 1\ncontinue\n");
  const auto r = runClref(dir, "debug '" + caseFile.string() + "' --commands '" + commands.string() + "'");
  const std::string out = session(r, dir);
  INFO(out << r.err);
  CHECK(r.status == 0);
  // Work-item 2: in = 10 + 3·2 = 16, r = 32, v = 33.
  CHECK(inOrder(out, {"(clref) break 3\nbreakpoint 1 at scale.cl:3\n",
                        "(clref) continue\nbreakpoint 1: work-item (2,0,0), local (2,0,0), group (0,0,0)\n"
                        "  in scale at scale.cl:3\n  3 |   return r + 1;\n",
                        "(clref) print x\nx = 16\n", "(clref) print r\nr = 32\n",
                        // A real call (-O0 does not inline): two frames.
                        "(clref) backtrace\n#0  scale at scale.cl:3 (word ", "#1  twice at scale.cl:8 (word ",
                        // r lives in private memory (DebugDeclare of its OpVariable).
                        "(clref) memory r 0 1\nr (4 bytes), 1 int from byte 0:\n  r[0] = 32\n",
                        // Back in the caller at the call's line: v is not stored yet.
                        "(clref) next\nnext: work-item (2,0,0)", "  in twice at scale.cl:8\n",
                        "(clref) watch v\nwatchpoint 2: v[0] (v, bytes 0..3, int) of work-item (2,0,0)\n",
                        "(clref) continue\nwatchpoint 2: v[0] (v, bytes 0..3, int) of work-item (2,0,0) written by "
                        "work-item (2,0,0) at scale.cl:8, word ",
                        "  new: 21 00 00 00 = 33\nthen: work-item (2,0,0)", "(clref) print v\nv = 33\n",
                        "(clref) info locals\ni = 2\nin = argument 0 (in) + 0\nout = argument 1 (out) + 0\nv = 33\n",
                        "(clref) list\n", "      8 |   int v = scale(in[i]);\n", "=>    9 |   out[i] = v;\n",
                        // Line 9 has not run: out[2] is still 0; after it, v.
                        "     10 | }\n(clref) memory out 2 1\nargument 1 (out) (32 bytes), 1 int from byte 8:\n"
                        "  out[2] = 0\n",
                        "(clref) next\nnext: work-item (2,0,0)", "  in twice at scale.cl:10\n", "(clref) memory out 2 1\nargument 1 (out) (32 bytes), 1 int from byte 8:\n"
                        "  out[2] = 33\n",
                        "(clref) continue\nthe kernel finished: 8 work-items ran"}));
}

TEST_CASE("clref debug stops at a fault with the faulting work-item's state", "[reference][cli][debug]") {
  if (!compilerAvailable()) return;
  TempDir dir;
  dir.write("shift.cl",
            "kernel void shift(global const int* in, global int* out) {\n"
            "  size_t i = get_global_id(0);\n"
            "  int v = in[i] * 2 + 1;\n"
            "  out[i + 1] = v;\n"
            "}\n");
  const auto caseFile = dir.write("shift.json", R"({ "module": "shift.cl", "build_options": "-g", "kernel": "shift",
    "ndrange": { "global": [8] },
    "args": [ { "buffer": { "type": "int", "count": 8, "init": { "iota": { "start": 1, "step": 1 } } } },
              { "buffer": { "type": "int", "count": 8, "output": true } } ] })");
  // Commands on stdin, as a terminal session would give them.
  const auto commands = dir.write("session.txt", "continue\nprint i\nprint v\nbacktrace\nmemory out 6 2\ncontinue\n");
  const auto r = runClref(dir, "debug '" + caseFile.string() + "' < '" + commands.string() + "'");
  const std::string out = session(r, dir);
  INFO(out << r.err);
  CHECK(r.status == 1);
  // Work-item 7 writes out[8], one past the 8 ints; v = 2·8 + 1.
  CHECK(inOrder(out, {"(clref) continue\nfault: out-of-bounds access: out-of-bounds write of 4 bytes at offset 32 of "
                        "'argument 1 (out)' (global, 32 bytes)\n",
                        "stopped at the fault: work-item (7,0,0), local (7,0,0), group (0,0,0)\n  in shift at "
                        "shift.cl:4\n  4 |   out[i + 1] = v;\n",
                        "(clref) print i\ni = 7\n", "(clref) print v\nv = 17\n",
                        "(clref) backtrace\n#0  shift at shift.cl:4 (word ",
                        // Work-items 0 to 6 wrote out[1] to out[7]: out[6] = 2·6 + 1, out[7] = 2·7 + 1.
                        "(clref) memory out 6 2\nargument 1 (out) (32 bytes), 2 ints from byte 24:\n  out[6] = 13\n"
                        "  out[7] = 15\n",
                        "(clref) continue\nthe work-item faulted: the kernel cannot go on\n"
                        "the kernel faulted; no output written\n"}));
}

TEST_CASE("clref debug: bad commands are answered, not fatal, and the end of the commands quits",
          "[reference][cli][debug]") {
  TempDir dir;
  const std::string caseFile = kGolden + "/cases/vadd.json";
  const auto commands = dir.write("session.txt",
                                  "frobnicate\nprint x\nworkitem 5000\nbreak 3\nbreak %999999\nbreak @1\nstep 0\n"
                                  "memory c\nwatch 2 1024\nwatch 2 1023\nstep\nmemory 0 1 2 float\nbacktrace\n"
                                  "info locals\ncontinue\n");
  const auto r = runClref(dir, "debug '" + caseFile + "' --commands '" + commands.string() + "'");
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  // vadd.json: a = iota(0, 0.5) (golden/cases/vadd.json); the module has no debug information.
  CHECK(inOrder(r.out, {"1024 work-items", "(clref) frobnicate\nerror: unknown command 'frobnicate'",
                        "(clref) print x\nthe kernel is not running (step, next or continue starts it)\n",
                        "(clref) workitem 5000\nerror: work-item (5000,0,0) is outside the NDRange\n",
                        "(clref) break 3\nerror: break 3: no code at or after line 3\n",
                        "(clref) break %999999\nerror: break %999999: no instruction defines 999999\n",
                        "(clref) break @1\nerror: break @1: no instruction starts at word 1\n",
                        "(clref) step 0\nerror: step: the count must be at least 1\n",
                        "(clref) memory c\nthe kernel is not running",
                        // Before the run watchpoints take arguments by index or name (the module names none).
                        "(clref) watch 2 1024\nerror: 2: bytes [4096, 4100) are outside the buffer (4096 bytes)\n",
                        "(clref) watch 2 1023\nwatchpoint 1: arg2[1023] (argument 2, bytes 4092..4095, float)\n",
                        "(clref) step\nstep: work-item (0,0,0), local (0,0,0), group (0,0,0)\n  in vadd (no source line)\n",
                        "(clref) memory 0 1 2 float\nargument 0 (4096 bytes), 2 floats from byte 4:\n  arg0[1] = 0x1p-1 "
                        "0.5\n  arg0[2] = 0x1p+0 1\n",
                        "(clref) backtrace\n#0  vadd (word ", "(clref) info locals\nno variables here",
                        // The last work-item writes c[1023].
                        "(clref) continue\nwatchpoint 1: arg2[1023] (argument 2, bytes 4092..4095, float) written by "
                        "work-item (1023,0,0)",
                        "(clref) \nend of the commands: quit\nthe kernel did not finish (quit); no output written\n"}));
}
