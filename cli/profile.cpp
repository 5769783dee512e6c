// `clref run --profile` (profile.hpp): the counting observer and its tables.
#include "cli/profile.hpp"

#include <algorithm>
#include <sstream>
#include <tuple>

#include "interpreter/module.hpp"

namespace clref::cli {

namespace {

constexpr int64_t kNotLookedUp = -2;
constexpr int64_t kNoLine = -1;      // the pseudo-line of instructions without OpLine
constexpr int64_t kNoneYet = -3;     // a slot's work-item has executed nothing yet

// A table with a header row: columns padded to their widest cell (numbers right-aligned), the last one not padded.
std::string table(const std::vector<std::string>& header, const std::vector<bool>& right,
                  const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& r : rows) width[c] = std::max(width[c], r[c].size());
  }
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    std::string l = " ";
    for (size_t c = 0; c < cells.size(); ++c) {
      const size_t pad = width[c] - cells[c].size();
      l += "  ";
      if (right[c]) l += std::string(pad, ' ') + cells[c];
      else l += c + 1 < cells.size() ? cells[c] + std::string(pad, ' ') : cells[c];
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += l + "\n";
  };
  line(header);
  for (const auto& r : rows) line(r);
  return out;
}

// The opcode an instruction counts under: its name as the disassembler writes it, and for OpExtInst the extended
// instruction's name too ("OpExtInst sin"), since those are the kernel's calls of built-in functions.
std::string opcodeName(const interpreter::Module& m, const interpreter::Instruction& inst) {
  std::istringstream words(m.disassemble(inst));
  std::string w;
  while (words >> w && w.rfind("Op", 0) != 0) {}
  if (w.rfind("Op", 0) != 0) return "Op" + std::to_string(uint32_t(inst.opcode));
  if (inst.opcode == spv::Op::OpExtInst) {
    std::string type, set, name;
    if (words >> type >> set >> name) w += " " + name;
  }
  return w;
}

const char* memoryOf(spv::StorageClass s) {
  switch (s) {
    case spv::StorageClass::CrossWorkgroup: return "global";
    case spv::StorageClass::UniformConstant: return "constant";
    case spv::StorageClass::Workgroup: return "local";
    case spv::StorageClass::Function:
    case spv::StorageClass::Private: return "private";
    case spv::StorageClass::Input: return "built-in";
    default: return "other";
  }
}

std::string withoutIndent(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t");
  return first == std::string::npos ? "" : s.substr(first);
}

}  // namespace

int64_t ProfileObserver::lineOf(uint32_t inst) {
  int64_t& index = lineIndex_[inst];
  if (index != kNotLookedUp) return index;
  const auto found = module_->lineOf.find(inst);
  if (found == module_->lineOf.end()) return index = kNoLine;
  const auto key = std::make_pair(found->second.file, found->second.line);
  auto [it, added] = lineKeys_.emplace(key, int64_t(lines_.size()));
  if (added) lines_.push_back({key.first, key.second, inst, 0, 0});
  return index = it->second;
}

void ProfileObserver::instruction(interpreter::WorkItem& wi, uint32_t inst) {
  const interpreter::ObservedWorkItem item(wi);
  if (!module_) {
    kernel_ = item.kernel();
    module_ = &kernel_->module();
    counts_.assign(module_->instructions.size(), 0);
    lineIndex_.assign(module_->instructions.size(), kNotLookedUp);
    traffic_.resize(kernel_->allocationCount());
  }
  ++executed_;
  ++counts_[inst];
  Slot& slot = slots_[&wi];
  if (!slot.started || slot.globalId != item.globalId()) {
    // A work-item's first instruction: slots are reused by later work-items.
    slot.started = true;
    slot.globalId = item.globalId();
    slot.line = kNoneYet;
    ++workItems_;
  }
  const int64_t line = lineOf(inst);
  Line& l = line == kNoLine ? unlined_ : lines_[size_t(line)];
  ++l.instructions;
  if (slot.line != line) ++l.reached;
  slot.line = line;
}

void ProfileObserver::access(interpreter::WorkItem& wi, uint32_t inst, uint32_t tag, uint64_t off, uint64_t bytes,
                             bool write) {
  (void)inst, (void)off;
  if (traffic_.size() <= tag)
    traffic_.resize(std::max<size_t>(tag + 1, interpreter::ObservedWorkItem(wi).kernel().allocationCount()));
  Traffic& t = traffic_[tag];
  if (write) ++t.writes, t.bytesWritten += bytes;
  else ++t.reads, t.bytesRead += bytes;
}

std::string ProfileObserver::report() const {
  std::string out = "profile: " + std::to_string(workItems_) + " work-item" + (workItems_ == 1 ? "" : "s") + ", " +
                    std::to_string(executed_) + " instruction" + (executed_ == 1 ? "" : "s") + " executed\n";
  if (!module_) return out;
  const interpreter::Module& m = *module_;

  // Per source line, in file and line order.
  std::vector<const Line*> lines;
  for (const Line& l : lines_) lines.push_back(&l);
  std::sort(lines.begin(), lines.end(),
            [](const Line* a, const Line* b) { return std::tie(a->file, a->line) < std::tie(b->file, b->line); });
  std::vector<std::vector<std::string>> rows;
  for (const Line* l : lines)
    rows.push_back({std::to_string(l->reached), std::to_string(l->instructions), m.sourceOf(l->firstInst),
                    withoutIndent(m.sourceText(l->firstInst))});
  if (unlined_.instructions)
    rows.push_back({std::to_string(unlined_.reached), std::to_string(unlined_.instructions), "(no source line)", ""});
  out += "\nper source line (reached: times a work-item came to the line from another; instructions: executed on it)\n";
  out += table({"reached", "instructions", "line", "source"}, {true, true, false, false}, rows);
  if (lines_.empty()) out += "  (the module has no source lines: build it with -g)\n";

  // Per opcode, most executed first (ties by name, so that the table is the same on every run).
  std::map<std::string, uint64_t> byOpcode;
  for (size_t i = 0; i < counts_.size(); ++i)
    if (counts_[i]) byOpcode[opcodeName(m, m.instructions[i])] += counts_[i];
  std::vector<std::pair<std::string, uint64_t>> opcodes(byOpcode.begin(), byOpcode.end());
  std::stable_sort(opcodes.begin(), opcodes.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  rows.clear();
  for (const auto& [name, count] : opcodes) rows.push_back({std::to_string(count), name});
  out += "\nper opcode\n" + table({"count", "opcode"}, {true, false}, rows);

  // Per instruction, in module order.
  rows.clear();
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (!counts_[i]) continue;
    const auto& inst = m.instructions[i];
    const std::string where = m.sourceOf(uint32_t(i));
    rows.push_back({std::to_string(counts_[i]), "word " + std::to_string(inst.wordOffset) + ": " + m.disassemble(inst) +
                                                    (where.empty() ? "" : "  ; " + where)});
  }
  out += "\nper instruction\n" + table({"count", "instruction"}, {true, false}, rows);

  // Memory traffic per allocation, in tag order (arguments first, as the kernel declares them).
  rows.clear();
  Traffic total;
  for (size_t tag = 0; tag < traffic_.size(); ++tag) {
    const Traffic& t = traffic_[tag];
    if (!t.reads && !t.writes) continue;
    const bool known = tag < kernel_->allocationCount();
    rows.push_back({known ? kernel_->allocation(uint32_t(tag)).name : "allocation " + std::to_string(tag),
                    known ? memoryOf(kernel_->allocation(uint32_t(tag)).storage) : "?", std::to_string(t.reads),
                    std::to_string(t.bytesRead), std::to_string(t.writes), std::to_string(t.bytesWritten)});
    total.reads += t.reads, total.bytesRead += t.bytesRead;
    total.writes += t.writes, total.bytesWritten += t.bytesWritten;
  }
  rows.push_back({"total", "", std::to_string(total.reads), std::to_string(total.bytesRead),
                  std::to_string(total.writes), std::to_string(total.bytesWritten)});
  out += "\nmemory traffic per allocation\n" +
         table({"allocation", "memory", "reads", "bytes read", "writes", "bytes written"},
               {false, false, true, true, true, true}, rows);
  return out;
}

}  // namespace clref::cli
