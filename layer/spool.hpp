// The spool (CLREF_CHECK_SPOOL=DIR, settings.hpp): instead of judging an enqueue in the application's process, the
// layer writes it as a self-contained case, and `clref check-spool DIR` judges it later, anywhere. Each enqueue the
// layer would check is a folder DIR/NNNNNNNN, numbered in enqueue order (from the first number not yet in DIR):
//   case.json        a case file (golden/README.md): the module, the kernel, the NDRange, every argument, the spec
//                    constants; `clref run` and `clref check` read it as they read any case
//   module.cl        the OpenCL C source with the application's build options in case.json (a program from source),
//   module.spv       or the SPIR-V (a program from IL, or clref's build of a linked program or one with headers)
//   input<N>.bin     argument N's contents before the kernel (a buffer, or an image packed as case files hold them)
//   case.arg<N>.bin  argument N's contents after the kernel on the device: the observed outputs, as
//                    `clref check case.json --observed FOLDER` reads them
//   enqueue.json     what a case file does not say: the device's facts clref judges with, the profile, the build
//                    options the check weighs, CLREF_CHECK_GROUPS and CLREF_CHECK_STRICT, the kernel's name
// The layer spools an enqueue without building its program on clref (spool_args.hpp): each argument's kind is learnt
// from its bytes and the handles the application created, so a buffer is spooled as bytes ("type": "uchar", "count"
// its size, "output": true, read back after the kernel whether it writes it or not) and an image as one the kernel may
// write. check-spool builds the program and judges each buffer by its parameter's type and writability, as the layer
// does at once; a case alone judged with `clref check` compares such a buffer's bytes. An enqueue whose kinds are not
// certain, or whose case needs clref's build (a linked program, one compiled with headers), is prepared with the build
// as before, its buffers then of their parameter's element type and only those the kernel may write read back.
// An enqueue the layer passes over (and one a case file cannot express, judged in the process) is a folder with only
// enqueue.json, {"line": the report's object, "summary": the layer's stderr line}. A folder is written under a
// temporary name and renamed into place, so a crashed application leaves only complete cases.
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace clref::layer {

struct SpoolFile {
  std::string name;
  const void* data = nullptr;
  size_t size = 0;
};

// Writes one case folder: case.json, enqueue.json and `files`. False (said on stderr) when the spool cannot be written.
bool spoolCase(const nlohmann::json& caseJson, const nlohmann::json& enqueue, const std::vector<SpoolFile>& files);
// Writes a folder holding only a report line (a not-checked enqueue, or one judged in the process).
bool spoolLine(const nlohmann::json& line, const std::string& summary);

}  // namespace clref::layer
