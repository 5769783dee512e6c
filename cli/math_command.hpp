// `clref math`: evaluate an OpenCL.std math function exactly, and judge another
// implementation's result against the spec's accuracy requirements (numerics/verdict.hpp).
//   clref math FUNC ARG... --type half|float|double [--rounding rte|rtz|rtp|rtn]
//              [--check VALUE [--check-second VALUE] [--profile full|embedded|relaxed|relaxed-embedded]
//               [--options "BUILD OPTIONS"]]
//   clref math add|sub|mul|div|recip|frem|fmod_spirv|convert|dot|cross|length|... (math_operations.hpp)
//   clref math --list
#pragma once
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace clref::cli {

struct MathCommandOptions {
  std::string function;
  std::vector<std::string> args;
  std::string type = "float";
  std::string rounding;  // empty: rte (convert: rtz to integers, rte to floating point)
  std::string check;     // empty: no verdict
  std::string checkSecond;  // the second result (frexp's exponent, modf's integral part, sincos's cosine, ...)
  std::string profile = "full";
  std::string options;  // the other device's build options (-cl-fast-relaxed-math, -cl-denorms-are-zero, ...)
  std::string to;       // convert: the destination type
  bool saturate = false;  // convert: _sat
  bool ftz = false, noFtz = false;
  bool list = false;
  std::vector<std::string> choices;  // name=option (clref choices)
};

// Registers the `math` subcommand on `app`, parsing into `options`.
CLI::App* addMathCommand(CLI::App& app, MathCommandOptions& options);

// Runs it: prints to stdout (errors to stderr). Returns 0 (done, or the checked value is
// allowed), 1 (the checked value is not allowed), or 2 (rejected input).
int mathCommand(const MathCommandOptions& options);

}  // namespace clref::cli
