// `clref sweep FUNCTION --type half|float|double (--observed FILE | --out FILE)`: an OpenCL.std math function, or a
// GLSL.std.450 instruction with an accuracy row of its own (GLSL.std.450:Exp2), over every input of a range (default:
// all 2^16 half or 2^32 float bit patterns; double: a seeded sample of bit patterns, or a --range of them; a function
// of two or three operands over a seeded sample of operand tuples, or the tuples of --inputs FILE):
//   --observed FILE  another device's results, raw little-endian values of the type in input order (as a kernel
//                    writing out[i] = f(x[i]) leaves them), judged against the function's allowed set
//                    (numerics/verdict.hpp: the profile's ulp bound, its edge cases; a GLSL.std.450 instruction: the
//                    set `clref check` allows in a shader, Vulkan's row): the violations (the first --show of them,
//                    with the input, the observed and the correctly rounded result and the error in ulp) and a
//                    histogram of the ulp errors of every input;
//   --out FILE       clref's correctly rounded results in the same layout (--rounding rte, rtz, rtp or rtn).
// Under `mpirun -n N` the range is cut into blocks spread over the ranks (cli/cluster.hpp) and the report is the one
// process's. Exit status: 0 no violation (or --out written), 1 a violation, 2 bad input.
#pragma once
#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace clref::cli {

struct SweepOptions {
  std::string function;
  std::string type = "float";
  std::string rounding = "rte";
  std::string range;  // LO:HI (input indices: bit patterns of a unary function, sample numbers of others)
  std::string profile = "full";
  std::string options;  // the other device's build options (clref math --options)
  std::string observed, out;
  std::string inputs;          // raw operand tuples (values of the type; an int operand a signed int of that width)
  uint64_t samples = 1 << 20;  // several operands without --inputs, or double without --range: this many
  uint64_t seed = 1;
  uint64_t show = 20;
};

CLI::App* addSweepCommand(CLI::App& app, SweepOptions& options);
int sweepCommand(const SweepOptions& options);

}  // namespace clref::cli
