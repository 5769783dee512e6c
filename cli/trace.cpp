// `clref run --trace` (trace.hpp): the work-item syntax and the observer that prints the trace.
#include "cli/trace.hpp"

#include <charconv>
#include <stdexcept>

#include "interpreter/module.hpp"

namespace clref::cli {

namespace {

// A memory access is named on its instruction's line; an instruction touching more (OpCopyMemory of a large
// struct) keeps the line readable with the first few and a count.
constexpr unsigned kAccessesShown = 4;

uint64_t coordinate(std::string_view text, std::string_view item) {
  uint64_t v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
    throw std::invalid_argument("'" + std::string(item) + "' is not a global id x, x:y or x:y:z");
  return v;
}

std::string trimmed(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t");
  return first == std::string::npos ? "" : s.substr(first);
}

}  // namespace

std::vector<GlobalId> parseWorkItems(const std::string& text) {
  std::vector<GlobalId> ids;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    const std::string_view item =
        std::string_view(text).substr(start, comma == std::string::npos ? comma : comma - start);
    GlobalId id{0, 0, 0};
    size_t from = 0, d = 0;
    for (;; ++d) {
      if (d == 3) throw std::invalid_argument("'" + std::string(item) + "' has more than three coordinates");
      const size_t colon = item.find(':', from);
      id[d] = coordinate(item.substr(from, colon == std::string::npos ? colon : colon - from), item);
      if (colon == std::string::npos) break;
      from = colon + 1;
    }
    ids.push_back(id);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return ids;
}

std::string checkWorkItems(const std::vector<GlobalId>& ids, const host::NDRange& range) {
  for (const GlobalId& id : ids)
    for (unsigned d = 0; d < 3; ++d) {
      const uint64_t first = d < range.dims ? range.offset[d] : 0;
      const uint64_t count = d < range.dims ? range.global[d] : 1;
      if (id[d] < first || id[d] - first >= count)
        return "work-item " + std::to_string(id[0]) + ":" + std::to_string(id[1]) + ":" + std::to_string(id[2]) +
               " is outside the NDRange: global id " + std::to_string(d) + " runs from " + std::to_string(first) +
               " to " + std::to_string(first + count - 1);
    }
  return "";
}

TraceObserver::TraceObserver(std::vector<GlobalId> workItems, std::ostream& out, uint64_t limit)
    : workItems_(std::move(workItems)), out_(out), limit_(limit) {}

bool TraceObserver::selected(const interpreter::WorkItem& wi) const {
  const GlobalId& globalId = interpreter::ObservedWorkItem(wi).globalId();
  for (const GlobalId& id : workItems_)
    if (id == globalId) return true;
  return false;
}

std::string TraceObserver::head(const interpreter::WorkItem& wi, uint32_t inst) {
  // The work-item as --trace names it, with the NDRange's dimensions only.
  const interpreter::ObservedWorkItem item(wi);
  std::string label = "[" + std::to_string(item.globalId()[0]);
  for (uint32_t d = 1; d < item.dims(); ++d) label += ":" + std::to_string(item.globalId()[d]);
  label += "] ";
  auto it = heads_.find(inst);
  if (it == heads_.end()) {
    const interpreter::Module& m = item.module();
    const auto& i = m.instructions.at(inst);
    it = heads_.emplace(inst, "word " + std::to_string(i.wordOffset) + ": " + m.disassemble(i)).first;
  }
  return label + it->second;
}

std::string TraceObserver::source(const interpreter::Module& module, uint32_t inst) {
  auto it = sources_.find(inst);
  if (it == sources_.end()) {
    std::string s = module.sourceOf(inst);
    if (!s.empty()) {
      const std::string text = trimmed(module.sourceText(inst));
      s = "  ; " + s + (text.empty() ? "" : ": " + text);
    }
    it = sources_.emplace(inst, std::move(s)).first;
  }
  return it->second;
}

// The value an OpStore or OpAtomicStore writes, read from its operand's register before it runs.
std::optional<std::string> TraceObserver::storedValue(const interpreter::WorkItem& wi, uint32_t inst) {
  const interpreter::ObservedWorkItem item(wi);
  const interpreter::Module& m = item.module();
  const auto& i = m.instructions.at(inst);
  size_t operand;
  if (i.opcode == spv::Op::OpStore) operand = 1;            // Pointer, Object
  else if (i.opcode == spv::Op::OpAtomicStore) operand = 3;  // Pointer, Memory, Semantics, Value
  else return std::nullopt;
  if (i.operandCount() <= operand) return std::nullopt;
  const uint32_t id = i.operand(operand);
  const uint8_t* bytes = item.value(id);
  const auto* def = m.findDef(id);
  if (!bytes || !def || !def->resultType) return std::nullopt;
  const uint64_t size = m.type(def->resultType).size;
  return formatValue({m, item.kernel(), item.kernel().tagShift()}, def->resultType, bytes, size);
}

void TraceObserver::emit(const std::string& line) {
  if (lines_ >= limit_) {
    ++dropped_;
    return;
  }
  ++lines_;
  out_ << line << '\n';
}

void TraceObserver::flush() {
  if (!open_) return;
  emit(open_->head + open_->value + open_->accesses + open_->source);
  open_.reset();
}

void TraceObserver::instruction(interpreter::WorkItem& wi, uint32_t inst) {
  flush();
  if (!selected(wi)) return;
  Open o;
  o.wi = &wi;
  o.inst = inst;
  o.head = head(wi, inst);
  o.source = source(interpreter::ObservedWorkItem(wi).module(), inst);
  if (auto stored = storedValue(wi, inst)) o.value = " stores " + *stored;
  open_ = std::move(o);
}

void TraceObserver::result(interpreter::WorkItem& wi, uint32_t inst, const uint8_t* bytes, uint32_t size) {
  if (!selected(wi)) return;
  const interpreter::ObservedKernel kernel = interpreter::ObservedWorkItem(wi).kernel();
  const interpreter::Module& m = kernel.module();
  const std::string value =
      " -> " + formatValue({m, kernel, kernel.tagShift()}, m.instructions.at(inst).resultType, bytes, size);
  if (open_ && open_->wi == &wi && open_->inst == inst) {
    open_->value = value;
    flush();
    return;
  }
  // The result of a call or collective, which arrives after other instructions ran: a line of its own.
  flush();
  emit(head(wi, inst) + value + source(m, inst));
}

void TraceObserver::access(interpreter::WorkItem& wi, uint32_t inst, uint32_t tag, uint64_t off, uint64_t bytes,
                           bool write) {
  if (!open_ || open_->wi != &wi || open_->inst != inst) return;
  if (++open_->accessCount > kAccessesShown) {
    if (open_->accessCount == kAccessesShown + 1) open_->accesses += " [...]";
    return;
  }
  const interpreter::ObservedKernel kernel = interpreter::ObservedWorkItem(wi).kernel();
  const std::string name =
      tag < kernel.allocationCount() ? kernel.allocation(tag).name : "allocation " + std::to_string(tag);
  open_->accesses += std::string(write ? " [write " : " [read ") + std::to_string(bytes) + " bytes at " + name + " + " +
                 std::to_string(off) + "]";
}

void TraceObserver::finish() {
  flush();
  if (dropped_)
    out_ << "... trace truncated at " << limit_ << " lines (--trace-limit): " << dropped_ << " more line"
         << (dropped_ == 1 ? "" : "s") << " not shown\n";
  out_.flush();
}

}  // namespace clref::cli
