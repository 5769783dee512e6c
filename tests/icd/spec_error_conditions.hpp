// The error conditions the OpenCL 3.0 API specification lists per entry point, read from the
// asciidoc sources in the specification folder (CLREF_SPEC_DIR), and the core entry points and
// error codes read from the API registry (cl.xml). The error-table accounting test compares
// clref's tables with them.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace clref_test {

struct SpecCondition {
  std::string id;     // "entry:CODE:n" (see error_table.hpp)
  std::string entry;  // the reference page (entry point) listing it
  std::string code;   // e.g. "CL_INVALID_VALUE"
  std::string text;   // the bullet's text
  std::string where;  // "file:line"
  // The asciidoc conditionals around the bullet: "+ext" (ifdef) or "-ext" (ifndef); an entry of
  // the form "+a,b" holds when either is reported.
  std::vector<std::string> conditionals;
  bool appliesWith(const std::set<std::string>& reportedExtensions) const;
};

// Every bullet of every error list of the platform and runtime chapters.
std::vector<SpecCondition> extractErrorConditions(const std::string& specApiDir);

struct Registry {
  std::set<std::string> coreCommands;     // entry points of CL_VERSION_1_0 … CL_VERSION_3_0
  std::map<std::string, int> errorCodes;  // name → value of every CL_* error enum
};
Registry readRegistry(const std::string& clXmlPath);

}  // namespace clref_test
