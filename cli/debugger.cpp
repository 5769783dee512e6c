// `clref debug` (debugger.hpp): the observer that decides where to stop, the command loop it runs while stopped, and
// what each command shows.
#include "cli/debugger.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <unordered_map>

#include "interpreter/observer.hpp"
#include "cli/debug_commands.hpp"
#include "cli/debug_values.hpp"

namespace clref::cli {

namespace {

using debug::Binding;
using debug::Command;
using debug::Place;
using debug::Reader;
using debug::TypedBytes;
using debug::executes;
using interpreter::Instruction;
using interpreter::Module;
using interpreter::WorkItem;
using Item = interpreter::ObservedWorkItem;  // what the debugger reads of a work-item
using Id = std::array<uint64_t, 3>;

constexpr uint32_t kNoInst = ~uint32_t(0);
constexpr size_t kListedAround = 5;  // `list` shows this many lines before and after

std::string idText(const Id& id) {
  return "(" + std::to_string(id[0]) + "," + std::to_string(id[1]) + "," + std::to_string(id[2]) + ")";
}

std::string plural(uint64_t n, const std::string& word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

bool isNumber(const std::string& s) {
  return !s.empty() && s.size() < 20 && std::all_of(s.begin(), s.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
}

class Debugger : public interpreter::ExecutionObserver {
 public:
  Debugger(const Case& c, const Module& module, std::istream& in, std::ostream& out, bool echo)
      : case_(c), module_(module), info_(module), in_(in), out_(out), echo_(echo) {
    indexLines();
  }

  // The commands before the kernel starts; false when the session ends without running it.
  bool beforeRun() {
    out_ << "clref debug: kernel " << case_.kernel << " of " << case_.module.string() << ", "
         << plural(totalWorkItems(), "work-item") << " (help lists the commands)\n";
    commandLoop();
    return !quit_;
  }

  // After the launch: what happened, and the exit status.
  int finish(const host::RunResult& result) {
    if (!result.printfOutput.empty()) out_ << "printf output of the kernel:\n" << result.printfOutput;
    if (quit_) {
      out_ << "the kernel did not finish (quit); no output written\n";
      return 0;
    }
    if (result.fault) {
      if (!faultShown_) out_ << result.fault->format() << "\n";
      out_ << "the kernel faulted; no output written\n";
      return 1;
    }
    out_ << "the kernel finished: " << plural(result.workItems, "work-item")
         << " ran; the case's outputs are not written (clref run writes them)\n";
    return 0;
  }

  void groupStart(uint64_t groupLinear, WorkItem* const* items, uint64_t count) override {
    group_.assign(items, items + count);
    groupLinear_ = groupLinear;
    tracks_.clear();
    returned_.clear();
    running_ = true;
    // Watchpoints set on arguments before the run find their allocation now that the kernel is lowered.
    if (count)
      for (auto& bp : breakpoints_)
        if (bp.kind == Breakpoint::Kind::Watch && bp.param) bp.tag = Item(*items[0]).kernel().parameter(*bp.param).tag;
  }

  void access(WorkItem& wi, uint32_t inst, uint32_t tag, uint64_t off, uint64_t bytes, bool write) override {
    if (!write || quit_ || pendingWatch_) return;
    for (const auto& bp : breakpoints_) {
      if (bp.kind != Breakpoint::Kind::Watch || bp.tag != tag || off >= bp.offset + bp.size || bp.offset >= off + bytes)
        continue;
      const Item item(wi);
      if ((bp.ownerItem && *bp.ownerItem != item.globalId()) || (bp.ownerGroup && *bp.ownerGroup != item.groupId()))
        continue;
      const auto a = item.memory(tag);
      if (!a || bp.offset + bp.size > a->size) continue;
      // The bytes are written after this call: the old ones now, the new ones at the next instruction.
      pendingWatch_ = WatchHit{
          bp.number, item.globalId(), inst, {a->base + bp.offset, a->base + bp.offset + bp.size}, a->base + bp.offset};
      return;
    }
  }

  void instruction(WorkItem& wi, uint32_t inst) override {
    if (quit_) return;
    Track& t = track(wi);
    const size_t depth = Item(wi).callDepth();
    // A call starts the function afresh: the values its variables had in an earlier call are gone.
    if (info_.startsFunction(inst)) std::erase_if(t.vars, [&](const Live& l) { return l.depth >= depth; });
    for (const Binding& b : info_.bindingsBefore(inst)) {
      auto same = std::find_if(t.vars.begin(), t.vars.end(),
                               [&](const Live& l) { return l.binding.variable == b.variable && l.depth == depth; });
      if (same != t.vars.end()) t.vars.erase(same);
      t.vars.push_back({b, depth, ++sequence_});
    }
    // Lines and `next` count calls at the source level: a call the optimiser inlined is a call too. A work-item
    // enters a line when it was on another line at this depth: coming back from a call is not entering the line of
    // the call again.
    const uint32_t key = lineKey_[inst];
    const size_t sourceDepth = depth + info_.inlineDepth(inst);
    if (info_.startsFunction(inst) && t.lineAtDepth.size() > sourceDepth) t.lineAtDepth.resize(sourceDepth);
    bool entersLine = false;
    if (key) {
      t.lineAtDepth.resize(sourceDepth + 1, 0);  // deeper entries belong to calls that returned
      entersLine = t.lineAtDepth[sourceDepth] != key;
      t.lineAtDepth[sourceDepth] = key;
    }
    t.lastInst = inst;

    std::string why;
    if (pendingWatch_) {
      why = watchReport();
    } else if (focusReturned_ && mode_ != Mode::Continue) {
      why = "work-item " + idText(*focus_) + " returned from the kernel";
      if (filter_ && *filter_ == *focus_) {
        filter_.reset();
        why += " (breakpoints stop every work-item again)";
      }
      why += "; now";
    } else {
      for (auto& bp : breakpoints_) {
        if (bp.kind == Breakpoint::Kind::Watch || (filter_ && *filter_ != Item(wi).globalId())) continue;
        const bool hit = bp.kind == Breakpoint::Kind::Line
                             ? entersLine && std::find(bp.lineKeys.begin(), bp.lineKeys.end(), key) != bp.lineKeys.end()
                             : bp.inst == inst;
        if (hit) {
          ++bp.hits;
          why = "breakpoint " + std::to_string(bp.number);
          break;
        }
      }
      if (why.empty() && isFocus(wi)) {
        if (mode_ == Mode::Step && --remaining_ == 0) why = "step";
        // next: another line in this function, or any line once the function has returned.
        if (mode_ == Mode::Next && key &&
            (sourceDepth < nextDepth_ || (sourceDepth == nextDepth_ && entersLine && key != nextLine_))) {
          if (--remaining_ == 0)
            why = "next";
          else
            nextLine_ = key, nextDepth_ = sourceDepth;
        }
      }
    }
    focusReturned_ = false;
    if (!why.empty()) stop(why, wi, inst);
    if (quit_) {
      endLaunch(wi, inst);
      return;
    }
    // The kernel's own return ends the work-item.
    const auto op = module_.instructions[inst].opcode;
    if (depth == 0 && (op == spv::Op::OpReturn || op == spv::Op::OpReturnValue)) {
      returned_.insert(Item(wi).globalId());
      if (focus_ && *focus_ == Item(wi).globalId() && mode_ != Mode::Continue) focusReturned_ = true;
    }
  }

  void fault(WorkItem& wi, uint32_t inst, const interpreter::Diagnostic& d) override {
    if (quit_) return;
    faultShown_ = true;
    faulted_ = true;
    out_ << d.format() << "\n";
    if (inst < module_.instructions.size()) {
      track(wi).lastInst = inst;
      out_ << "stopped at the fault: ";
      stopped(wi, inst);
    }
    commandLoop();
    current_ = stoppedWi_ = nullptr;
  }

 private:
  enum class Mode : uint8_t { Continue, Step, Next };

  struct Breakpoint {
    enum class Kind : uint8_t { Line, Instruction, Watch } kind = Kind::Line;
    unsigned number = 0;
    std::string where;               // as `info breakpoints` shows it
    std::vector<uint32_t> lineKeys;  // Line: the (file, line) keys it stops at
    uint32_t inst = 0;               // Instruction
    uint64_t hits = 0;
    // Watch: bytes [offset, offset + size) of allocation `tag` (of kernel argument `param` when set before the run),
    // shown as elements of `type`; private memory only of `ownerItem`, local memory only of `ownerGroup`.
    std::optional<size_t> param;
    uint32_t tag = 0;
    uint64_t offset = 0, size = 0;
    ScalarType type = ScalarType::UChar;
    std::optional<Id> ownerItem, ownerGroup;
  };
  // A variable's binding as a work-item passed it, at the call depth it was in.
  struct Live {
    Binding binding;
    size_t depth = 0;
    uint64_t sequence = 0;
  };
  // What the debugger knows of a running work-item (its slot is reused by later work-items of the group).
  struct Track {
    Id id{};
    uint32_t lastInst = kNoInst;          // the last instruction it started
    std::vector<uint32_t> lineAtDepth;  // the source line it was last on at each source-level call depth
    std::vector<Live> vars;
  };
  struct WatchHit {
    unsigned number;
    Id writer;
    uint32_t inst;
    std::vector<uint8_t> old;
    const uint8_t* at;
  };

  // ---- where things are -------------------------------------------------------------------------------------------

  // Interns every (file, line) executed instructions carry; 0 is "no line" (none, or line 0).
  void indexLines() {
    lineKey_.assign(module_.instructions.size(), 0);
    std::map<std::pair<std::string, uint32_t>, uint32_t> keys;
    for (uint32_t i = 0; i < module_.instructions.size(); ++i) {
      auto it = module_.lineOf.find(i);
      if (it == module_.lineOf.end() || it->second.line == 0 || !executes(module_, module_.instructions[i])) continue;
      auto [k, added] = keys.emplace(std::pair(fileOf(i), it->second.line), uint32_t(lines_.size() + 1));
      if (added) lines_.push_back({k->first.first, it->second.line, it->second.file, i});
      lineKey_[i] = k->second;
    }
  }

  // The file of an instruction as diagnostics name it.
  std::string fileOf(uint32_t inst) const {
    const std::string s = module_.sourceOf(inst);
    if (s.rfind("program source line ", 0) == 0) return "program source";
    const auto colon = s.rfind(':');
    return colon == std::string::npos ? s : s.substr(0, colon);
  }

  struct LineEntry {
    std::string file;  // as diagnostics name it
    uint32_t line = 0;
    std::string rawFile;  // as OpLine names it
    uint32_t firstInst = 0;
  };
  const LineEntry* lineOf(uint32_t inst) const {
    return inst < lineKey_.size() && lineKey_[inst] ? &lines_[lineKey_[inst] - 1] : nullptr;
  }

  // The text of the file an instruction's line is in: the program's source the module was named with, else the file
  // OpLine names when it can be read.
  const std::vector<std::string>* sourceLines(uint32_t inst) {
    if (auto* lines = module_.sourceLines(inst)) return lines;
    const LineEntry* e = lineOf(inst);
    if (!e) return nullptr;
    auto [it, added] = diskSources_.try_emplace(e->rawFile);
    if (added) {
      std::ifstream f(e->rawFile);
      for (std::string l; std::getline(f, l);) it->second.push_back(l);
    }
    return it->second.empty() ? nullptr : &it->second;
  }

  // The source function of an instruction: its debug scope's, else its SPIR-V function's name.
  std::string functionName(uint32_t inst) const {
    if (std::string f = info_.functionAt(inst); !f.empty()) return f;
    const uint32_t f = info_.functionOf(inst);
    return f ? module_.nameOf(f) : "?";
  }

  // A source file as diagnostics name it, from the path the module's debug information gives.
  std::string displayFile(const std::string& raw) const {
    for (const auto& e : lines_)
      if (e.rawFile == raw) return e.file;
    return raw;
  }

  uint64_t totalWorkItems() const {
    uint64_t n = 1;
    for (unsigned d = 0; d < case_.range.dims; ++d) n *= case_.range.global[d];
    return n;
  }

  Track& track(const WorkItem& wi) {
    Track& t = tracks_[&wi];
    if (t.lastInst == kNoInst || t.id != Item(wi).globalId()) {
      t = Track{};
      t.id = Item(wi).globalId();
    }
    return t;
  }
  const Track* findTrack(const WorkItem& wi) const {
    auto it = tracks_.find(&wi);
    return it == tracks_.end() || it->second.id != Item(wi).globalId() || it->second.lastInst == kNoInst ? nullptr
                                                                                                 : &it->second;
  }

  // The instruction a live work-item is at: the one it stopped before, or where it will resume.
  uint32_t positionOf(const WorkItem& wi) const {
    if (&wi == stoppedWi_) return stoppedInst_;
    if (const auto at = Item(wi).resumesAt()) return *at;
    const Track* t = findTrack(wi);
    return t ? t->lastInst : kNoInst;
  }

  WorkItem* liveSlot(const Id& id) const {
    for (WorkItem* wi : group_)
      if (Item(*wi).globalId() == id && !Item(*wi).returned() && !returned_.count(id)) return wi;
    return nullptr;
  }

  bool isFocus(const WorkItem& wi) const { return !focus_ || *focus_ == Item(wi).globalId(); }

  // ---- stopping --------------------------------------------------------------------------------------------------

  void stop(const std::string& why, WorkItem& wi, uint32_t inst) {
    out_ << why << ": ";
    stopped(wi, inst);
    commandLoop();
    current_ = stoppedWi_ = nullptr;
  }

  void stopped(WorkItem& wi, uint32_t inst) {
    current_ = stoppedWi_ = &wi;
    stoppedInst_ = inst;
    focus_ = Item(wi).globalId();
    out_ << "work-item " << idText(Item(wi).globalId()) << ", local " << idText(Item(wi).localId()) << ", group "
         << idText(Item(wi).groupId()) << "\n";
    showPosition(inst);
  }

  void showPosition(uint32_t inst) {
    const LineEntry* e = lineOf(inst);
    out_ << "  in " << functionName(inst);
    if (const auto calls = info_.inlinedCalls(inst); !calls.empty())
      out_ << " (inlined into " << calls.front().function << ")";
    if (e) {
      out_ << " at " << e->file << ":" << e->line << "\n";
      if (auto* lines = sourceLines(inst); lines && e->line <= lines->size())
        out_ << "  " << e->line << " | " << (*lines)[e->line - 1] << "\n";
    } else {
      out_ << " (no source line)\n";
    }
    out_ << "  word " << module_.instructions[inst].wordOffset << ": "
         << module_.disassemble(module_.instructions[inst]) << "\n";
  }

  std::string watchReport() {
    const WatchHit hit = *pendingWatch_;
    pendingWatch_.reset();
    auto bp = std::find_if(breakpoints_.begin(), breakpoints_.end(),
                           [&](const Breakpoint& b) { return b.number == hit.number; });
    if (bp == breakpoints_.end()) return "";
    ++bp->hits;
    const std::vector<uint8_t> now(hit.at, hit.at + hit.old.size());
    auto values = [&](const std::vector<uint8_t>& bytes) {
      std::string s;
      const size_t size = sizeOf(bp->type);
      for (size_t k = 0; k + size <= bytes.size(); k += size)
        s += (s.empty() ? "" : ", ") + debug::formatElement(bp->type, bytes.data() + k);
      return s;
    };
    std::string r = "watchpoint " + std::to_string(bp->number) + ": " + bp->where + " written by work-item " +
                    idText(hit.writer) + " at ";
    const LineEntry* e = lineOf(hit.inst);
    r += (e ? e->file + ":" + std::to_string(e->line) + ", " : "") + "word " +
         std::to_string(module_.instructions[hit.inst].wordOffset) + ": " +
         module_.disassemble(module_.instructions[hit.inst]) + "\n";
    r += "  old: " + debug::hexBytes(hit.old.data(), hit.old.size()) + " = " + values(hit.old) + "\n";
    r += "  new: " + debug::hexBytes(now.data(), now.size()) + " = " + values(now) + "\n";
    r += "then";
    return r;
  }

  // Quit while the kernel runs: the work-item stops as a faulting one would, which ends the launch.
  void endLaunch(WorkItem& wi, uint32_t inst) { interpreter::stopLaunch(wi, inst, "quit in clref debug"); }

  // ---- commands --------------------------------------------------------------------------------------------------

  void commandLoop() {
    for (;;) {
      out_ << "(clref) " << std::flush;
      std::string line;
      if (!std::getline(in_, line)) {
        out_ << "\nend of the commands: quit\n";
        quit_ = true;
        return;
      }
      if (echo_) out_ << line << "\n";
      std::optional<Command> cmd;
      try {
        cmd = parser_.parse(line);
      } catch (const debug::CommandError& e) {
        out_ << "error: " << e.what() << "\n";
        continue;
      }
      if (cmd && execute(*cmd)) return;
    }
  }

  // Runs one command; true when it resumes the kernel.
  bool execute(const Command& cmd) {
    using K = Command::Kind;
    switch (cmd.kind) {
      case K::Break: addBreakpoint(cmd.text); return false;
      case K::Step:
      case K::Next:
      case K::Continue: return resume(cmd);
      case K::Print: print(cmd); return false;
      case K::WorkItem: selectWorkItem(cmd.ids); return false;
      case K::Backtrace: backtrace(); return false;
      case K::Memory: memory(cmd); return false;
      case K::Watch: addWatch(cmd); return false;
      case K::Info: info(cmd.text); return false;
      case K::Delete: remove(cmd.number); return false;
      case K::List: list(cmd.number); return false;
      case K::Quit: quit_ = true; return true;
      case K::Help: out_ << "commands:\n" << parser_.help(); return false;
    }
    return false;
  }

  bool resume(const Command& cmd) {
    if (faulted_) {
      out_ << "the work-item faulted: the kernel cannot go on\n";
      return true;
    }
    mode_ = cmd.kind == Command::Kind::Step   ? Mode::Step
            : cmd.kind == Command::Kind::Next ? Mode::Next
                                              : Mode::Continue;
    remaining_ = cmd.count;
    nextLine_ = 0;
    nextDepth_ = ~size_t(0);
    if (mode_ == Mode::Next && focus_)
      if (WorkItem* wi = liveSlot(*focus_)) {
        const uint32_t at = positionOf(*wi);
        nextLine_ = at == kNoInst ? 0 : lineKey_[at];
        nextDepth_ = Item(*wi).callDepth() + (at == kNoInst ? 0 : info_.inlineDepth(at));
      }
    return true;
  }

  // The work-item commands look at: the stopped one, or the live one `workitem` chose; nullptr (and a message).
  WorkItem* subject() {
    if (!running_ || (!current_ && !focus_)) {
      out_ << "the kernel is not running (step, next or continue starts it)\n";
      return nullptr;
    }
    if (current_) return current_;
    if (WorkItem* wi = liveSlot(*focus_)) return wi;
    out_ << "work-item " << idText(*focus_) << " is not running now\n";
    return nullptr;
  }

  // ---- breakpoints and watchpoints ------------------------------------------------------------------------------

  void addBreakpoint(const std::string& spec) {
    Breakpoint bp;
    if (spec[0] == '%' || spec[0] == '@') {
      const std::string digits = spec.substr(1);
      if (!isNumber(digits)) {
        out_ << "error: break " << spec << ": expected " << spec[0] << " and a number\n";
        return;
      }
      const uint64_t n = std::stoull(digits);
      std::optional<uint32_t> inst;
      if (spec[0] == '%') {
        if (auto it = module_.definitionOf.find(uint32_t(n)); n <= UINT32_MAX && it != module_.definitionOf.end())
          inst = it->second;
      } else {
        for (uint32_t i = 0; i < module_.instructions.size() && !inst; ++i)
          if (module_.instructions[i].wordOffset == n) inst = i;
      }
      if (!inst) {
        out_ << "error: break " << spec << ": no instruction " << (spec[0] == '%' ? "defines " : "starts at word ")
             << digits << "\n";
        return;
      }
      if (!executes(module_, module_.instructions[*inst]) || !info_.functionOf(*inst)) {
        out_ << "error: break " << spec << ": " << module_.disassemble(module_.instructions[*inst])
             << " is not an instruction a work-item executes\n";
        return;
      }
      bp.kind = Breakpoint::Kind::Instruction;
      bp.inst = *inst;
      bp.where = "word " + std::to_string(module_.instructions[*inst].wordOffset) + ": " +
                 module_.disassemble(module_.instructions[*inst]);
      if (const LineEntry* e = lineOf(*inst)) bp.where += " (" + e->file + ":" + std::to_string(e->line) + ")";
    } else {
      const auto colon = spec.rfind(':');
      const std::string file = colon == std::string::npos ? "" : spec.substr(0, colon);
      const std::string lineText = colon == std::string::npos ? spec : spec.substr(colon + 1);
      if (!isNumber(lineText)) {
        out_ << "error: break " << spec << ": expected LINE, FILE:LINE, %ID or @WORD\n";
        return;
      }
      const uint64_t line = std::stoull(lineText);
      auto fileMatches = [&](const LineEntry& e) {
        if (file.empty()) return true;
        auto endsWith = [](const std::string& s, const std::string& tail) {
          return s == tail || (s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0 &&
                               s[s.size() - tail.size() - 1] == '/');
        };
        return endsWith(e.file, file) || endsWith(e.rawFile, file) ||
               std::filesystem::path(e.file).filename() == std::filesystem::path(file).filename();
      };
      // A line without code moves to the next line that has some, as a source-level debugger does.
      uint64_t chosen = ~uint64_t(0);
      for (const auto& e : lines_)
        if (fileMatches(e) && e.line >= line) chosen = std::min<uint64_t>(chosen, e.line);
      if (chosen == ~uint64_t(0)) {
        out_ << "error: break " << spec << ": no code at or after line " << line << (file.empty() ? "" : " of " + file)
             << "\n";
        return;
      }
      std::string where;
      for (uint32_t k = 0; k < lines_.size(); ++k)
        if (fileMatches(lines_[k]) && lines_[k].line == chosen) {
          bp.lineKeys.push_back(k + 1);
          if (where.find(lines_[k].file + ":") == std::string::npos)
            where += (where.empty() ? "" : ", ") + lines_[k].file + ":" + std::to_string(chosen);
        }
      bp.where = where;
      if (chosen != line) out_ << "no code at line " << line << "; ";
    }
    bp.number = nextNumber_++;
    out_ << "breakpoint " << bp.number << " at " << bp.where << "\n";
    breakpoints_.push_back(std::move(bp));
  }

  // The memory `target` names in `wi` (nullptr before the run: only arguments); nullopt after saying why not.
  std::optional<Place> placeOf(const WorkItem* wi, const std::string& target, std::optional<size_t>* param) {
    std::optional<size_t> index;
    if (isNumber(target)) index = std::stoull(target);
    if (!index && wi) {
      const interpreter::ObservedKernel kernel = Item(*wi).kernel();
      for (size_t i = 0; i < kernel.parameterCount(); ++i)
        if (kernel.parameter(i).name == target) index = i;
    }
    std::string error;
    if (!wi) {
      // Before the run the kernel is not lowered yet: arguments only, by the names the program declares.
      if (!index)
        if (auto ep = module_.entryPoint(case_.kernel))
          if (auto f = module_.functions.find(ep->function); f != module_.functions.end())
            for (size_t i = 0; i < f->second.parameters.size(); ++i)
              if (module_.nameOf(f->second.parameters[i]) == target) index = i;
      if (!index || *index >= case_.args.size() || case_.args[*index].kind != ArgSpec::Kind::Buffer) {
        out_ << "error: before the kernel runs only buffer arguments can be named (by name or index)\n";
        return std::nullopt;
      }
      if (param) *param = *index;
      Place p;
      p.element = case_.args[*index].buffer.type;
      // As the lowering names the argument's allocation (interpreter/lower_allocations.cpp).
      p.name = "argument " + std::to_string(*index);
      if (auto ep = module_.entryPoint(case_.kernel))
        if (auto f = module_.functions.find(ep->function);
            f != module_.functions.end() && *index < f->second.parameters.size())
          if (auto n = module_.names.find(f->second.parameters[*index]); n != module_.names.end() && !n->second.empty())
            p.name += " (" + n->second + ")";
      return p;
    }
    Reader reader(*wi, info_);
    std::optional<Place> place;
    if (index) {
      place = reader.argumentPlace(*index, case_, error);
    } else if (const Live* live = variable(*wi, target)) {
      // A pointer variable names what it points at; any other variable its own memory.
      auto value = reader.bindingValue(live->binding, error);
      if (value && module_.type(value->type).kind == interpreter::TypeKind::Pointer)
        place = reader.pointerPlace(*value, error);
      else if (value || live->binding.declare)
        place = reader.bindingPlace(live->binding, error);
    } else if (target[0] == '%' && isNumber(target.substr(1))) {
      if (auto value = reader.registerValue(uint32_t(std::stoul(target.substr(1))), error))
        place = reader.pointerPlace(*value, error);
    } else {
      error = "no argument or variable '" + target + "' here";
    }
    if (!place) out_ << "error: " << target << ": " << error << "\n";
    return place;
  }

  // How `memory` and `watch` call their target's elements: argN[k] for an argument given by index.
  static std::string label(const std::string& target) { return isNumber(target) ? "arg" + target : target; }

  std::optional<ScalarType> elementType(const Place& place, const std::string& name) {
    if (!name.empty()) {
      auto t = parseElementType(name);
      if (!t)
        out_ << "error: unknown type '" << name
             << "' (char uchar short ushort int uint long ulong half float double)\n";
      return t;
    }
    if (place.element) return place.element;
    if (auto t = debug::elementTypeOf(module_, place.pointee, info_.encodingOf(place.debugPointee))) return t;
    return ScalarType::UChar;
  }

  void addWatch(const Command& cmd) {
    WorkItem* wi = running_ ? subject() : nullptr;
    if (running_ && !wi) return;
    Breakpoint bp;
    bp.kind = Breakpoint::Kind::Watch;
    auto place = placeOf(wi, cmd.text, &bp.param);
    if (!place) return;
    auto type = elementType(*place, cmd.type);
    if (!type) return;
    bp.type = *type;
    bp.tag = place->tag;
    bp.size = cmd.count * sizeOf(*type);
    bp.offset = place->offset + cmd.offset * sizeOf(*type);
    if (wi) {
      const uint64_t size = Reader(*wi, info_).allocationSize(bp.tag);
      if (bp.offset + bp.size > size) {
        out_ << "error: " << cmd.text << ": bytes [" << bp.offset << ", " << bp.offset + bp.size << ") are outside "
             << place->name << " (" << size << " bytes)\n";
        return;
      }
      const auto storage = Item(*wi).memory(bp.tag)->storage;  // the place's allocation, which has its bytes
      if (storage == spv::StorageClass::Function || storage == spv::StorageClass::Private)
        bp.ownerItem = Item(*wi).globalId();
      if (storage == spv::StorageClass::Workgroup) bp.ownerGroup = Item(*wi).groupId();
    } else if (const auto& spec = case_.args[*bp.param].buffer; bp.offset + bp.size > spec.count * sizeOf(spec.type)) {
      out_ << "error: " << cmd.text << ": bytes [" << bp.offset << ", " << bp.offset + bp.size
           << ") are outside the buffer (" << spec.count * sizeOf(spec.type) << " bytes)\n";
      return;
    }
    bp.number = nextNumber_++;
    bp.where = label(cmd.text) + "[" + std::to_string(cmd.offset) +
               (cmd.count > 1 ? ".." + std::to_string(cmd.offset + cmd.count - 1) : "") + "] (" + place->name +
               ", bytes " + std::to_string(bp.offset) + ".." + std::to_string(bp.offset + bp.size - 1) + ", " +
               std::string(toString(bp.type)) + ")";
    if (bp.ownerItem) bp.where += " of work-item " + idText(*bp.ownerItem);
    if (bp.ownerGroup) bp.where += " of work-group " + idText(*bp.ownerGroup);
    out_ << "watchpoint " << bp.number << ": " << bp.where << "\n";
    breakpoints_.push_back(std::move(bp));
  }

  void remove(std::optional<uint64_t> number) {
    if (!number) {
      out_ << "deleted " << plural(breakpoints_.size(), "breakpoint") << "\n";
      breakpoints_.clear();
      return;
    }
    auto it = std::find_if(breakpoints_.begin(), breakpoints_.end(),
                           [&](const Breakpoint& b) { return b.number == *number; });
    if (it == breakpoints_.end()) {
      out_ << "error: no breakpoint " << *number << "\n";
      return;
    }
    breakpoints_.erase(it);
    out_ << "deleted " << *number << "\n";
  }

  void info(const std::string& topic) {
    if (topic == "locals") return locals();
    if (breakpoints_.empty()) {
      out_ << "no breakpoints or watchpoints\n";
      return;
    }
    for (const auto& bp : breakpoints_)
      out_ << bp.number << "  " << (bp.kind == Breakpoint::Kind::Watch ? "watchpoint " : "breakpoint ") << bp.where
           << " (hit " << plural(bp.hits, "time") << ")\n";
    if (filter_) out_ << "breakpoints stop only work-item " << idText(*filter_) << "\n";
  }

  // ---- work-items --------------------------------------------------------------------------------------------------

  void selectWorkItem(const std::vector<uint64_t>& ids) {
    if (ids.empty()) {
      filter_.reset();
      out_ << "breakpoints stop every work-item\n";
      return;
    }
    Id id{case_.range.offset[0], case_.range.offset[1], case_.range.offset[2]};
    for (size_t d = 0; d < ids.size(); ++d) id[d] = ids[d];
    for (unsigned d = 0; d < 3; ++d) {
      const uint64_t global = d < case_.range.dims ? case_.range.global[d] : 1;
      if (id[d] < case_.range.offset[d] || id[d] - case_.range.offset[d] >= global) {
        out_ << "error: work-item " << idText(id) << " is outside the NDRange\n";
        return;
      }
    }
    focus_ = id;
    filter_ = id;
    current_ = nullptr;
    if (running_)
      if (WorkItem* wi = liveSlot(id)) {
        current_ = wi;
        out_ << "work-item " << idText(id) << ", local " << idText(Item(*wi).localId()) << ", group "
             << idText(Item(*wi).groupId()) << "\n";
        if (const uint32_t at = positionOf(*wi); at != kNoInst) showPosition(at);
        return;
      }
    std::string state = "has not started";
    if (running_ && (returned_.count(id) || groupOf(id) < groupLinear_)) state = "has finished";
    out_ << "work-item " << idText(id) << " " << state
         << "; step and next run to it, continue stops at its breakpoints\n";
  }

  // The work-group (linear id) a global id is in, with the launch's local size.
  uint64_t groupOf(const Id& id) const {
    if (group_.empty()) return 0;
    const Item l(*group_[0]);
    uint64_t g = 0;
    for (int d = 2; d >= 0; --d)
      g = g * l.numGroups()[d] + (id[d] - l.globalOffset()[d]) / l.enqueuedLocalSize()[d];
    return g;
  }

  // ---- values
  // --------------------------------------------------------------------------------------------------------

  // The innermost live binding of source variable `name` in `wi`'s current function, nullptr when none.
  const Live* variable(const WorkItem& wi, const std::string& name) const {
    const Track* t = findTrack(wi);
    if (!t) return nullptr;
    const Live* best = nullptr;
    for (const Live& l : t->vars) {
      const debug::SourceVariable* v = info_.variable(l.binding.variable);
      if (v && v->name == name && l.depth == Item(wi).callDepth() && (!best || l.sequence > best->sequence)) best = &l;
    }
    return best;
  }

  // The text of `expr` in `wi`: a source variable, a kernel argument or a named value, or %ID.
  std::string valueText(const WorkItem& wi, const std::string& expr) const {
    Reader reader(wi, info_);
    std::string error;
    std::optional<TypedBytes> value;
    if (expr[0] == '%') {
      if (!isNumber(expr.substr(1)) || std::stoull(expr.substr(1)) > UINT32_MAX)
        return "error: '" + expr + "' is not an id";
      value = reader.registerValue(uint32_t(std::stoull(expr.substr(1))), error);
    } else if (const Live* live = variable(wi, expr)) {
      value = reader.bindingValue(live->binding, error);
    } else {
      // Without debug information: the kernel's arguments, then values the module names (OpName) in this function.
      const interpreter::ObservedKernel kernel = Item(wi).kernel();
      const uint32_t function = info_.functionOf(positionOf(wi));
      for (const uint32_t id : kernel.valueIds()) {
        const Instruction* def = module_.findDef(id);
        if (!def || module_.nameOf(id) != expr) continue;
        const bool param = kernel.isParameterValue(id);
        const auto index = uint32_t(def - module_.instructions.data());
        if (param || (function && info_.functionOf(index) == function)) {
          value = reader.registerValue(id, error);
          break;
        }
      }
      if (!value && error.empty())
        error = info_.hasVariable(expr) ? "no value here (not set yet, out of scope, or optimised out)"
                                        : "no variable '" + expr + "' here";
    }
    return value ? reader.format(*value) : "<" + error + ">";
  }

  void print(const Command& cmd) {
    WorkItem* wi = subject();
    if (!wi) return;
    if (!cmd.all) {
      out_ << cmd.text << " = " << valueText(*wi, cmd.text) << "\n";
      return;
    }
    for (WorkItem* other : group_) {
      if (Item(*other).returned() || returned_.count(Item(*other).globalId())) continue;
      out_ << idText(Item(*other).globalId()) << " " << cmd.text << " = "
           << (findTrack(*other) ? valueText(*other, cmd.text) : std::string("<not started>")) << "\n";
    }
  }

  void locals() {
    WorkItem* wi = subject();
    if (!wi) return;
    const Track* t = findTrack(*wi);
    std::map<std::string, const Live*> latest;
    if (t)
      for (const Live& l : t->vars)
        if (l.depth == Item(*wi).callDepth())
          if (const debug::SourceVariable* v = info_.variable(l.binding.variable);
              v && (!latest.count(v->name) || latest[v->name]->sequence < l.sequence))
            latest[v->name] = &l;
    if (latest.empty()) out_ << "no variables here (the module has no debug information, or none is set yet)\n";
    for (const auto& [name, live] : latest) out_ << name << " = " << valueText(*wi, name) << "\n";
  }

  void backtrace() {
    WorkItem* wi = subject();
    if (!wi) return;
    // A frame, and the frames of the calls the optimiser inlined it through.
    size_t n = 0;
    auto frame = [&](uint32_t inst) {
      out_ << "#" << n++ << "  " << functionName(inst);
      if (const LineEntry* e = lineOf(inst)) out_ << " at " << e->file << ":" << e->line;
      out_ << " (word " << module_.instructions[inst].wordOffset << ")\n";
      for (const auto& call : info_.inlinedCalls(inst))
        out_ << "#" << n++ << "  " << call.function << " at " << displayFile(call.file) << ":" << call.line
             << " (inlined call)\n";
    };
    const uint32_t at = positionOf(*wi);
    if (at == kNoInst) {
      out_ << "work-item " << idText(Item(*wi).globalId()) << " has not started\n";
      return;
    }
    frame(at);
    for (size_t k = Item(*wi).callDepth(); k-- > 0;) frame(Item(*wi).callSite(k));
  }

  void memory(const Command& cmd) {
    WorkItem* wi = subject();
    if (!wi) return;
    auto place = placeOf(wi, cmd.text, nullptr);
    if (!place) return;
    auto type = elementType(*place, cmd.type);
    if (!type) return;
    Reader reader(*wi, info_);
    const size_t size = sizeOf(*type);
    const uint64_t start = place->offset + cmd.offset * size, total = reader.allocationSize(place->tag);
    out_ << place->name << " (" << total << " bytes), " << plural(cmd.count, std::string(toString(*type)))
         << " from byte " << start << ":\n";
    for (uint64_t k = 0; k < cmd.count; ++k) {
      const uint8_t* at = reader.memory(place->tag, start + k * size, size);
      if (!at) {
        out_ << "  (the allocation ends at byte " << total << ")\n";
        break;
      }
      out_ << "  " << label(cmd.text) << "[" << cmd.offset + k << "] = " << debug::formatElement(*type, at) << "\n";
    }
  }

  void list(std::optional<uint64_t> around) {
    uint32_t inst = kNoInst;
    if (running_ && (current_ || focus_))
      if (WorkItem* wi = current_ ? current_ : liveSlot(*focus_)) inst = positionOf(*wi);
    if (inst == kNoInst || !lineOf(inst)) inst = firstLineOfKernel();
    const LineEntry* e = inst == kNoInst ? nullptr : lineOf(inst);
    const auto* lines = e ? sourceLines(inst) : nullptr;
    if (!lines) {
      out_ << "no source text (build the case's .cl with -g)\n";
      return;
    }
    // A file ending in a line break has no last line after it.
    const size_t count = !lines->empty() && lines->back().empty() ? lines->size() - 1 : lines->size();
    const uint64_t center = around ? *around : e->line;
    const uint64_t from = center > kListedAround ? center - kListedAround : 1;
    for (uint64_t n = from; n <= center + kListedAround && n <= count; ++n)
      out_ << (n == e->line && running_ && current_ ? "=>" : "  ") << std::setw(5) << n << " | " << (*lines)[n - 1]
           << "\n";
  }

  // The first instruction with a source line of the kernel's function (or of the function its entry point calls:
  // llvm-spirv's entry points are wrappers).
  uint32_t firstLineOfKernel() const {
    const auto* ep = module_.entryPoint(case_.kernel);
    if (!ep) return kNoInst;
    uint32_t function = ep->function;
    for (int hop = 0; hop < 2; ++hop) {
      auto f = module_.functions.find(function);
      if (f == module_.functions.end()) return kNoInst;
      uint32_t callee = 0;
      for (const auto& b : f->second.blocks)
        for (uint32_t idx : b.instructions) {
          if (lineKey_[idx]) return idx;
          if (!callee && module_.instructions[idx].opcode == spv::Op::OpFunctionCall)
            callee = module_.instructions[idx].operand(0);
        }
      function = callee;
    }
    return kNoInst;
  }

  const Case& case_;
  const Module& module_;
  debug::DebugInfo info_;
  debug::CommandParser parser_;
  std::istream& in_;
  std::ostream& out_;
  bool echo_;

  std::vector<uint32_t> lineKey_;  // per instruction
  std::vector<LineEntry> lines_;   // by line key - 1
  std::unordered_map<std::string, std::vector<std::string>> diskSources_;

  std::vector<Breakpoint> breakpoints_;
  unsigned nextNumber_ = 1;

  bool running_ = false;
  std::vector<WorkItem*> group_;  // the work-group's slots (groupStart)
  uint64_t groupLinear_ = 0;
  std::unordered_map<const WorkItem*, Track> tracks_;
  std::set<Id> returned_;  // work-items of this group that returned from the kernel
  uint64_t sequence_ = 0;

  Mode mode_ = Mode::Continue;
  uint64_t remaining_ = 1;
  uint32_t nextLine_ = 0;  // next: the line key and call depth it started from
  size_t nextDepth_ = 0;
  std::optional<Id> focus_;   // the current work-item: step and next run it
  std::optional<Id> filter_;  // `workitem`: breakpoints stop only this work-item
  bool focusReturned_ = false;
  WorkItem* current_ = nullptr;  // the one commands look at: stopped, or chosen with `workitem`, and live
  // The work-item the debugger stopped in (inside its instruction() or fault()) and the instruction it stopped
  // before: its pc is not kept up to date while it runs.
  WorkItem* stoppedWi_ = nullptr;
  uint32_t stoppedInst_ = kNoInst;
  std::optional<WatchHit> pendingWatch_;
  bool quit_ = false, faulted_ = false, faultShown_ = false;
};

}  // namespace

int debugCase(const Case& c, const host::Device& device, std::istream& commands, std::ostream& out, bool echo) {
  PreparedCase prepared = prepareCase(c, device);
  Case launched = c;
  launched.range = prepared.range;  // a shader's dispatch as an NDRange
  Debugger debugger(launched, prepared.program->module(), commands, out, echo);
  if (!debugger.beforeRun()) {
    out << "the kernel did not run (quit); no output written\n";
    return 0;
  }
  return debugger.finish(prepared.kernel->runObserved(prepared.range, debugger));
}

}  // namespace clref::cli
