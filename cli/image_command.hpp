// `clref image`: one image read or write evaluated exactly, and judged against the spec's allowances
// (images/verdict.hpp), in the style of `clref math --check`.
//   clref image read  --format ORDER,TYPE --size W[xH[xD]] [--type 1d|1darray|2d|2darray|3d|1dbuffer]
//                     --texels HEX|ramp|random[:SEED] [--sampler NORM,ADDRESS,FILTER] --coord X[,Y[,Z]] [--int]
//                     --kind f|h|i|ui [--check V0[,V1,V2,V3]] [--no-ftz]
//                     [--levels N] [--lod L | --gradients DX0[,DX1[,DX2]];DY0[,DY1[,DY2]]]
//                     [--mip-filter nearest|linear] [--lod-min L] [--lod-max L]
//   clref image write --format ORDER,TYPE --kind f|h|i|ui --color V0[,V1,V2,V3] [--check HEX] [--no-ftz]
//                     [--size W[xH[xD]] [--type ...] [--levels N] --coord X[,Y[,Z]] [--level L]]
#pragma once
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace clref::cli {

struct ImageCommandOptions {
  std::string format;  // "CL_RGBA,CL_UNORM_INT8" (CL_ optional)
  std::string size;    // "4x4"
  std::string type;    // empty: from the number of sizes (1d, 2d, 3d)
  std::string texels = "ramp";
  std::string sampler;  // empty: a sampler-less read
  std::string coord;
  bool intCoord = false;  // integer coordinates with a sampler
  std::string kind = "f";
  std::string color;  // write
  std::string check;  // empty: no verdict
  bool noFtz = false;
  // cl_khr_mipmap_image: the image's mip levels (--texels fills every level), a read's explicit lod or gradients
  // ("dx;dy", each comma-separated), the sampler's mip filter and lod clamp; a write's level (--level).
  uint32_t levels = 1;
  std::string lod;        // empty: none (a float with a sampler, an integer level without one)
  std::string gradients;  // empty: none
  std::string mipFilter = "nearest";
  std::string lodMin, lodMax;  // empty: 0 and MAXFLOAT
  int64_t level = -1;          // write: -1 none (level 0)
};

// Registers `image` with its `read` and `write` subcommands; returns the two subcommands.
struct ImageCommands {
  CLI::App* read;
  CLI::App* write;
};
ImageCommands addImageCommand(CLI::App& app, ImageCommandOptions& options);

// Runs one: prints to stdout (errors to stderr). Returns 0 (done, or the checked value is allowed), 1 (not
// allowed), 2 (rejected input).
int imageReadCommand(const ImageCommandOptions& options);
int imageWriteCommand(const ImageCommandOptions& options);

}  // namespace clref::cli
