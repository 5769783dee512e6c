// A judged kernel enqueue as the check layer reports it (CLREF_CHECK_REPORT) and `clref check-spool` writes it: one
// JSON object per enqueue (one line in the report) and one summary line. Both tools build them here, so that a spool
// judged later gives the report the layer would have written at once.
#pragma once
#include <array>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "check/check.hpp"
#include "check/html_report.hpp"

namespace clref::host {

struct EnqueueVerdict {
  std::string kernel;
  NDRange range;
  bool deviceChoseLocal = false;  // the application gave no local size: clref used its own choice
  std::string optionsNote;        // build options clref could not weigh
  CheckReport report;
  bool strict = false;  // CLREF_CHECK_STRICT: "any value" sets were judged undetermined
  // For the HTML report (CLREF_CHECK_HTML): the profile and build options judged by, the choices of clref's run, and
  // clref's contents of the image outputs.
  std::string profile, buildOptions;
  numerics::Choices choices;
  std::vector<HtmlImage> images;
};

// The parts every judged launch shares, an OpenCL enqueue's or a Vulkan dispatch's (layer/report.cpp):
// the JSON object named `name` with the counts per class (check_json.hpp toJson without the per-buffer details),
// "checked", the sampled groups, every violating or undetermined element (at most 1000, the rest counted in
// "details_omitted"), clref's fault and findings;
nlohmann::json verdictJson(const CheckReport& r, const std::string& name);
// and the text after "clref check: ...: " — "N identical, M allowed, ..." with the first violation named by
// `bufferName`, a fault and the findings on further lines (`strict`: "any value" sets were judged undetermined).
std::string verdictText(const CheckReport& r, const nlohmann::json& j, bool strict,
                        const std::function<std::string(const BufferVerdict&)>& bufferName);
// "(a,b,c)" and [a,b,c] of the first `dims` sizes.
std::string sizesText(const std::array<size_t, 3>& s, unsigned dims);
nlohmann::json sizesJson(const std::array<size_t, 3>& s, unsigned dims);

// The JSON object of a checked enqueue: the counts per class (check_json.hpp toJson without the per-buffer details),
// "checked", the NDRange, the sampled groups, every violating or undetermined element (at most 1000, the rest counted
// in "details_omitted"), clref's fault and findings.
nlohmann::json enqueueJson(const EnqueueVerdict& e);
// "clref check: KERNEL global (..) local (..): N identical, ..." with the first violation, a fault and the findings on
// further lines; `j` is enqueueJson(e).
std::string enqueueLine(const EnqueueVerdict& e, const nlohmann::json& j);
// An enqueue passed through without a check, and why: {"kernel", "checked": false, "reason"}.
nlohmann::json notCheckedJson(const std::string& kernel, const std::string& reason);
// A report line as the layer appends it: the object on one line.
std::string reportLine(const nlohmann::json& j);

}  // namespace clref::host
