// `clref math`: evaluate an OpenCL.std math function exactly, and judge another
// implementation's result against the spec's accuracy requirements (numerics/verdict.hpp).
//   clref math FUNC ARG... --type half|float|double [--rounding rte|rtz|rtp|rtn]
//              [--check VALUE [--profile full|embedded|relaxed|relaxed-embedded]]
//   clref math --list
#pragma once
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace clref::reference {

struct MathCommandOptions {
  std::string function;
  std::vector<std::string> args;
  std::string type = "float";
  std::string rounding = "rte";
  std::string check;  // empty: no verdict
  std::string profile = "full";
  bool ftz = false, noFtz = false;
  bool list = false;
  std::vector<std::string> choices;  // name=option (clref choices)
};

// Registers the `math` subcommand on `app`, parsing into `options`.
CLI::App* addMathCommand(CLI::App& app, MathCommandOptions& options);

// Runs it: prints to stdout (errors to stderr). Returns 0 (done, or the checked value is
// allowed), 1 (the checked value is not allowed), or 2 (rejected input).
int mathCommand(const MathCommandOptions& options);

}  // namespace clref::reference
