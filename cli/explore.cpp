// The choices explorer (explore.hpp).
#include "cli/explore.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <nlohmann/json.hpp>

#include "cli/diagnostic_json.hpp"

namespace clref::cli {

namespace {

std::string withoutTrailingNewlines(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

// The lines of `text` (formatImage writes one element per line).
std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    out.push_back(text.substr(start, nl - start));
  return out;
}

// Compares `elements` elements of `bytes` bytes; `show(i, data)` formats element i of a run.
template <class Show>
std::optional<OutputChange> compare(size_t arg, const std::byte* base, const std::byte* alt, size_t elements,
                                    size_t bytes, size_t shown, Show show) {
  OutputChange ch;
  ch.arg = arg;
  ch.elements = elements;
  for (size_t i = 0; i < elements; ++i) {
    if (std::memcmp(base + i * bytes, alt + i * bytes, bytes) == 0) continue;
    if (ch.changed++ < shown) ch.first.push_back({i, show(i, base), show(i, alt)});
  }
  if (!ch.changed) return std::nullopt;
  return ch;
}

std::vector<OutputChange> differences(const Case& c, const CaseRun& base, const CaseRun& alt, size_t shown) {
  std::vector<OutputChange> out;
  for (size_t k = 0; k < base.outputs.size(); ++k) {
    const auto& [arg, buffer] = base.outputs[k];
    const auto& spec = c.args[arg].buffer;
    const size_t bytes = sizeOf(spec.type);
    auto show = [&](size_t i, const std::byte* data) {
      return withoutTrailingNewlines(formatElements(spec.type, data + i * bytes, 1));
    };
    if (auto ch = compare(arg, buffer->data(), alt.outputs[k].second->data(), spec.count, bytes, shown, show))
      out.push_back(std::move(*ch));
  }
  for (size_t k = 0; k < base.imageOutputs.size(); ++k) {
    const auto& [arg, image] = base.imageOutputs[k];
    const auto& desc = c.args[arg].image.desc;
    const auto before = imageContents(*image), after = imageContents(*alt.imageOutputs[k].second);
    const auto beforeLines = lines(formatImage(desc, before.data())), afterLines = lines(formatImage(desc, after.data()));
    auto show = [&](size_t i, const std::byte* data) {
      const auto& l = data == before.data() ? beforeLines : afterLines;
      return i < l.size() ? l[i] : std::string("?");
    };
    if (auto ch = compare(arg, before.data(), after.data(), imageElementCount(desc), images::elementSize(desc.format),
                          shown, show))
      out.push_back(std::move(*ch));
  }
  return out;
}

}  // namespace

namespace {

// The run under one other option of a consulted choice, compared with the base run.
Alternative runAlternative(const Case& c, const host::Device& device, const CaseRun& base, numerics::Choice choice,
                           uint8_t option, size_t shown) {
  Case alt = c;
  // The case's choices apply in order, so the one added last wins.
  alt.choices.push_back(std::string(numerics::infoOf(choice).name) + "=" +
                        std::string(numerics::infoOf(choice).options[option]));
  const CaseRun run = runCase(alt, device);
  Alternative a;
  a.choice = choice;
  a.option = option;
  if (run.result.fault || !run.result.ok)
    a.fault = run.result.fault ? *run.result.fault : interpreter::Diagnostic{};
  else
    a.changes = differences(c, base, run, shown);
  return a;
}

}  // namespace

Exploration explore(const Case& c, const host::Device& device, size_t shown,
                    const std::function<void(uint64_t done, uint64_t total)>& onRun, const Spread& spread) {
  Exploration e;
  e.base = runCase(c, device);
  e.runs = 1;
  if (e.base.result.fault || !e.base.result.ok) return e;
  // Every other option of every consulted choice, in registry order, then option order: the report's order.
  std::vector<std::pair<numerics::Choice, uint8_t>> others;
  for (const auto& use : e.base.result.choicesUsed) {
    const numerics::ChoiceInfo& info = numerics::infoOf(use.choice);
    const uint8_t current = e.base.choices.get(use.choice);
    for (uint8_t option = 0; option < info.options.size() && !info.options[option].empty(); ++option)
      if (option != current) others.emplace_back(use.choice, option);
  }
  const uint64_t total = 1 + others.size();
  if (onRun) onRun(1, total);
  if (!spread) {
    for (const auto& [choice, option] : others) {
      e.alternatives.push_back(runAlternative(c, device, e.base, choice, option, shown));
      ++e.runs;
      if (onRun) onRun(e.runs, total);
    }
    return e;
  }
  std::atomic<uint64_t> runs{1};
  const auto results = spread(others.size(), [&](size_t i) {
    std::string text = encodeAlternative(runAlternative(c, device, e.base, others[i].first, others[i].second, shown));
    const uint64_t done = ++runs;
    if (onRun) onRun(done, total);
    return text;
  });
  if (results.size() != others.size()) return e;  // not the process that reports
  for (const std::string& r : results) e.alternatives.push_back(decodeAlternative(r));
  e.runs = total;
  return e;
}

std::string encodeAlternative(const Alternative& a) {
  nlohmann::json j{{"choice", size_t(a.choice)}, {"option", a.option}, {"changes", nlohmann::json::array()}};
  if (a.fault) j["fault"] = diagnosticToJson(*a.fault);
  for (const OutputChange& ch : a.changes) {
    nlohmann::json first = nlohmann::json::array();
    for (const ElementChange& el : ch.first) first.push_back({el.index, el.before, el.after});
    j["changes"].push_back({{"arg", ch.arg}, {"elements", ch.elements}, {"changed", ch.changed}, {"first", first}});
  }
  return j.dump();
}

Alternative decodeAlternative(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text);
  Alternative a;
  a.choice = numerics::Choice(j["choice"].get<size_t>());
  a.option = j["option"].get<uint8_t>();
  if (j.contains("fault")) a.fault = diagnosticFromJson(j["fault"]);
  for (const nlohmann::json& c : j["changes"]) {
    OutputChange ch;
    ch.arg = c["arg"].get<size_t>();
    ch.elements = c["elements"].get<size_t>();
    ch.changed = c["changed"].get<size_t>();
    for (const nlohmann::json& el : c["first"])
      ch.first.push_back({el[0].get<size_t>(), el[1].get<std::string>(), el[2].get<std::string>()});
    a.changes.push_back(std::move(ch));
  }
  return a;
}

std::string formatExploration(const Exploration& e) {
  std::string s;
  if (e.base.result.choicesUsed.empty()) return "no named choice decided a value in this run: nothing to explore\n";
  for (const auto& use : e.base.result.choicesUsed) {
    const auto& info = numerics::infoOf(use.choice);
    const bool hasAlternative = [&] {
      for (const auto& a : e.alternatives)
        if (a.choice == use.choice) return true;
      return false;
    }();
    if (!hasAlternative)
      s += "choice " + std::string(info.name) + ": the registry has no other option (" +
           std::string(info.options[e.base.choices.get(use.choice)]) + " only)\n";
  }
  for (const Alternative& a : e.alternatives) {
    const auto& info = numerics::infoOf(a.choice);
    s += "choice " + std::string(info.name) + "=" + std::string(info.options[a.option]) + " (instead of " +
         std::string(info.options[e.base.choices.get(a.choice)]) + "): ";
    if (a.fault) {
      s += "the run faults\n  " + a.fault->format() + "\n";
      continue;
    }
    if (a.changes.empty()) {
      s += "no output changes\n";
      continue;
    }
    s += "outputs change\n";
    for (const OutputChange& ch : a.changes) {
      s += "  arg " + std::to_string(ch.arg) + ": " + std::to_string(ch.changed) + " of " +
           std::to_string(ch.elements) + " elements change";
      for (const auto& el : ch.first) s += "\n    [" + std::to_string(el.index) + "] " + el.before + " -> " + el.after;
      if (ch.changed > ch.first.size()) s += "\n    ...";
      s += "\n";
    }
  }
  s += std::to_string(e.runs) + " runs\n";
  return s;
}

}  // namespace clref::cli
