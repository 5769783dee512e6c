// The choices explorer (explore.hpp).
#include "cli/explore.hpp"

#include <algorithm>
#include <cstring>

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

Exploration explore(const Case& c, const host::Device& device, size_t shown,
                    const std::function<void(uint64_t done, uint64_t total)>& onRun) {
  Exploration e;
  e.base = runCase(c, device);
  e.runs = 1;
  if (e.base.result.fault || !e.base.result.ok) return e;
  uint64_t total = 1;
  for (const auto& use : e.base.result.choicesUsed) {
    const auto& options = numerics::infoOf(use.choice).options;
    total += uint64_t(std::count_if(options.begin(), options.end(), [](auto o) { return !o.empty(); })) - 1;
  }
  if (onRun) onRun(1, total);
  for (const auto& use : e.base.result.choicesUsed) {
    const numerics::ChoiceInfo& info = numerics::infoOf(use.choice);
    const uint8_t current = e.base.choices.get(use.choice);
    for (uint8_t option = 0; option < info.options.size() && !info.options[option].empty(); ++option) {
      if (option == current) continue;
      Case alt = c;
      // The case's choices apply in order, so the one added last wins.
      alt.choices.push_back(std::string(info.name) + "=" + std::string(info.options[option]));
      const CaseRun run = runCase(alt, device);
      ++e.runs;
      if (onRun) onRun(e.runs, total);
      Alternative a;
      a.choice = use.choice;
      a.option = option;
      if (run.result.fault || !run.result.ok)
        a.fault = run.result.fault ? *run.result.fault : interpreter::Diagnostic{};
      else
        a.changes = differences(c, e.base, run, shown);
      e.alternatives.push_back(std::move(a));
    }
  }
  return e;
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
