// The check layer's settings (settings.hpp).
#include "layer/settings.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace clref::layer {
namespace {

void ignored(const char* name, const char* value, const char* why) {
  std::fprintf(stderr, "clref check layer: %s=%s ignored: %s\n", name, value, why);
}

uint64_t positive(const char* name, uint64_t otherwise) {
  const char* v = std::getenv(name);
  if (!v || !*v) return otherwise;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  if (*end || n == 0 || *v == '-') {
    ignored(name, v, "expected a positive integer");
    return otherwise;
  }
  return n;
}

// A 0/1 switch: `otherwise` when unset or set to anything else.
bool flag(const char* name, bool otherwise) {
  const char* v = std::getenv(name);
  if (!v || !*v) return otherwise;
  const std::string r = v;
  if (r == "0" || r == "1") return r == "1";
  ignored(name, v, "expected 0 or 1");
  return otherwise;
}

Settings read() {
  Settings s;
  if (const char* v = std::getenv("CLREF_CHECK_REPORT")) s.reportPath = v;
  if (const char* v = std::getenv("CLREF_CHECK_HTML")) s.htmlPath = v;
  if (const char* v = std::getenv("CLREF_CHECK_KERNELS")) {
    std::stringstream names(v);
    for (std::string name; std::getline(names, name, ',');)
      if (!name.empty()) s.kernels.insert(name);
  }
  s.every = positive("CLREF_CHECK_EVERY", 1);
  s.groups = positive("CLREF_CHECK_GROUPS", 0);
  if (const char* v = std::getenv("CLREF_CHECK_PROFILE"); v && *v) {
    const std::string p = v;
    if (p == "full")
      s.profile = numerics::Profile::Full;
    else if (p == "embedded")
      s.profile = numerics::Profile::Embedded;
    else
      ignored("CLREF_CHECK_PROFILE", v, "expected full or embedded");
  }
  s.races = flag("CLREF_CHECK_RACES", s.races);
  s.strict = flag("CLREF_CHECK_STRICT", s.strict);
  s.plantErrors = positive("CLREF_PLANT_ERRORS", 0);
  if (const char* v = std::getenv("CLREF_CHECK_SPOOL")) s.spoolDir = v;
  return s;
}

}  // namespace

const Settings& settings() {
  static const Settings s = read();
  return s;
}

}  // namespace clref::layer
