#include "spec_error_conditions.hpp"

#include <pugixml.hpp>

#include <fstream>
#include <regex>
#include <stdexcept>

namespace clref_test {

bool SpecCondition::appliesWith(const std::set<std::string>& reported) const {
  for (const std::string& c : conditionals) {
    bool wantReported = c[0] == '+';
    bool any = false;  // "a,b": either of them (asciidoc's comma)
    std::string names = c.substr(1);
    for (size_t start = 0; start <= names.size();) {
      size_t comma = names.find(',', start);
      if (comma == std::string::npos) comma = names.size();
      any |= reported.count(names.substr(start, comma - start)) != 0;
      start = comma + 1;
    }
    if (any != wantReported) return false;
  }
  return true;
}

std::vector<SpecCondition> extractErrorConditions(const std::string& dir) {
  std::vector<SpecCondition> out;
  std::map<std::string, int> rank;  // "entry:CODE" → bullets seen
  static const std::regex refpage(R"(^\[open,refpage='(\w+)')");
  static const std::regex ifdefBlock(R"(^ifdef::(\S+)\[\]$)");
  static const std::regex ifndefBlock(R"(^ifndef::(\S+)\[\]$)");
  static const std::regex codeBullet(R"(^\s{0,3}\* \{(CL_\w+)\}\s*(.*)$)");
  static const std::regex subBullet(R"(^\s+\*\* (.*)$)");
  static const std::regex inlineConditional(R"(^ifn?def::\S+\[(.+)\]$)");  // "ifdef::ext[text]"
  for (const char* file : {"opencl_platform_layer.asciidoc", "opencl_runtime_layer.asciidoc"}) {
    std::ifstream in(dir + "/" + file);
    if (!in) throw std::runtime_error("cannot read " + dir + "/" + file);
    std::string line, page, code;
    std::vector<std::string> conds;
    bool inErrors = false, seenBullet = false;
    bool codeBulletHasText = false;  // "* {CODE} if …": its "**" items are part of its text
    SpecCondition* current = nullptr;
    auto add = [&](const std::string& text, int lineNo) {
      std::string key = page + ":" + code;
      SpecCondition c{key + ":" + std::to_string(++rank[key]),          page, code, text,
                      std::string(file) + ":" + std::to_string(lineNo), conds};
      out.push_back(std::move(c));
      current = &out.back();
    };
    std::smatch m;
    for (int lineNo = 1; std::getline(in, line); ++lineNo) {
      if (std::regex_search(line, m, refpage)) {
        page = m[1];
        inErrors = false;
        continue;
      }
      if (std::regex_match(line, m, ifdefBlock)) {
        conds.push_back("+" + m[1].str());
        continue;
      }
      if (std::regex_match(line, m, ifndefBlock)) {
        conds.push_back("-" + m[1].str());
        continue;
      }
      if (std::regex_match(line, m, inlineConditional)) {  // text inside a bullet, not a block
        if (current) current->text += " " + m[1].str();
        continue;
      }
      if (line.rfind("endif::", 0) == 0) {
        if (!conds.empty()) conds.pop_back();
        continue;
      }
      // An error list starts after "…returns one of the following errors…" (or the refError
      // marker) and ends with the reference page's block or the next unindented paragraph.
      if (!page.empty() && (line.find("following error") != std::string::npos || line == "// refError")) {
        inErrors = true;
        seenBullet = false;
        code.clear();
        current = nullptr;
        continue;
      }
      if (!inErrors) continue;
      if (line == "--") {
        inErrors = false;
        continue;
      }
      if (std::regex_match(line, m, codeBullet)) {
        code = m[1];
        seenBullet = true;
        current = nullptr;
        codeBulletHasText = !m[2].str().empty();
        if (codeBulletHasText) add(m[2], lineNo);  // "* {CODE} if …": one condition
        continue;
      }
      if (!code.empty() && std::regex_match(line, m, subBullet)) {
        if (!codeBulletHasText)
          add(m[1], lineNo);  // "* {CODE}" then "** if …": one condition per item
        else if (current)
          current->text += " " + m[1].str();  // an enumeration inside the condition
        continue;
      }
      if (current && !line.empty() && line[0] == ' ') {  // a bullet's continuation line
        current->text += " " + line.substr(line.find_first_not_of(' '));
        continue;
      }
      if (seenBullet && !line.empty() && line[0] != ' ' && line.rfind("//", 0) != 0) {
        inErrors = false;
        code.clear();
        current = nullptr;
      }
    }
  }
  return out;
}

Registry readRegistry(const std::string& path) {
  pugi::xml_document doc;
  if (!doc.load_file(path.c_str())) throw std::runtime_error("cannot parse " + path);
  Registry r;
  auto registry = doc.child("registry");
  for (auto feature : registry.children("feature")) {
    if (std::string(feature.attribute("api").value()) != "opencl" ||
        std::stod(feature.attribute("number").value()) > 3.0)
      continue;
    for (auto require : feature.children("require"))
      for (auto command : require.children("command")) r.coreCommands.insert(command.attribute("name").value());
  }
  for (auto enums : registry.children("enums"))
    if (std::string(enums.attribute("name").value()).rfind("ErrorCodes", 0) == 0)
      for (auto e : enums.children("enum")) {
        std::string value = e.attribute("value").value();
        if (!value.empty() && value[0] == '-') r.errorCodes[e.attribute("name").value()] = std::stoi(value);
      }
  return r;
}

}  // namespace clref_test
