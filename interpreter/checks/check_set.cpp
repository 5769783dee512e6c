// The names of the optional checkers (diagnostic.hpp CheckSet), as CLREF_CHECKS and `clref run --check` take them.
#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "interpreter/diagnostic.hpp"

namespace clref::interpreter {

CheckSet parseChecks(const std::string& text) {
  std::string all = text;
  std::replace(all.begin(), all.end(), ',', ' ');
  std::istringstream in(all);
  CheckSet set;
  for (std::string name; in >> name;) {
    if (name == "races")
      set.add(Check::Races);
    else if (name == "uninitialized" || name == "uninitialised")
      set.add(Check::Uninitialized);
    else if (name == "all")
      set.add(Check::Races).add(Check::Uninitialized);
    else if (name != "none")
      throw std::invalid_argument("unknown check '" + name + "' (known: races, uninitialized, all, none)");
  }
  return set;
}

std::string toString(CheckSet set) {
  std::string s;
  if (set.has(Check::Races)) s = "races";
  if (set.has(Check::Uninitialized)) s += std::string(s.empty() ? "" : ",") + "uninitialized";
  return s.empty() ? "none" : s;
}

}  // namespace clref::interpreter
