// Parsing `clref debug`'s commands (debug_commands.hpp) with CLI11: the command is a subcommand of one parser that
// is kept for the whole session and cleared before each line.
#include "cli/debug_commands.hpp"

#include <sstream>

#include <CLI/CLI.hpp>

namespace clref::cli::debug {

struct CommandParser::Impl {
  CLI::App app{"clref debug commands"};
  std::vector<std::pair<Command::Kind, CLI::App*>> commands;
  Command cmd;
  std::vector<std::string> workItem;  // "5", "5,0,0", "5 0 0" or "any"
  uint64_t number = 0;
  CLI::Option* numberOption = nullptr;  // delete's
  CLI::Option* lineOption = nullptr;    // list's

  CLI::App* add(Command::Kind kind, const std::string& name, std::initializer_list<const char*> aliases,
                const std::string& description) {
    CLI::App* sub = app.add_subcommand(name, description);
    for (const char* a : aliases) sub->alias(a);
    sub->set_help_flag();  // "help" is a command of its own
    commands.emplace_back(kind, sub);
    return sub;
  }

  Impl() {
    using K = Command::Kind;
    app.set_help_flag();
    app.require_subcommand(1, 1);
    add(K::Break, "break", {"b"},
        "stop where a work-item reaches a source line (LINE, FILE:LINE) or an instruction (%ID: the instruction "
        "defining ID; @WORD: the instruction at that word offset, as `clref dis` shows)")
        ->add_option("location", cmd.text, "LINE, FILE:LINE, %ID or @WORD")
        ->required();
    add(K::Step, "step", {"s", "stepi", "si"}, "run the current work-item's next instruction (N times)")
        ->add_option("count", cmd.count, "repetitions");
    add(K::Next, "next", {"n"}, "run the current work-item to its next source line, stepping over calls (N times)")
        ->add_option("count", cmd.count, "repetitions");
    add(K::Continue, "continue", {"c", "run", "r"},
        "run until a breakpoint (of the work-item chosen with `workitem`, or any), a watchpoint, a fault or the end");
    auto* print = add(K::Print, "print", {"p"},
                      "show a source variable or a SPIR-V value %ID of the current work-item, or with --all of every "
                      "work-item of its work-group that is running");
    print->add_flag("-a,--all", cmd.all, "every running work-item of the work-group");
    print->add_option("expression", cmd.text, "a variable name or %ID")->required();
    add(K::WorkItem, "workitem", {"wi", "thread"},
        "make work-item X[,Y,Z] (global id) the current one: step and next run it, continue stops only at its "
        "breakpoints; `workitem any` stops at every work-item's breakpoints again")
        ->add_option("id", workItem, "X[,Y,Z] or any")
        ->required();
    add(K::Backtrace, "backtrace", {"bt", "where"}, "the current work-item's calls: function and source line");
    auto* memory = add(K::Memory, "memory", {"x", "mem"},
                       "show COUNT elements of TYPE from element OFFSET of a buffer argument (by name or index), a "
                       "variable in memory, or what a pointer variable points at");
    memory->add_option("target", cmd.text, "argument name or index, or variable")->required();
    memory->add_option("offset", cmd.offset, "first element (default 0)");
    memory->add_option("count", cmd.count, "elements (default 1)");
    memory->add_option("type", cmd.type, "char uchar short ushort int uint long ulong half float double");
    auto* watch = add(K::Watch, "watch", {"w"},
                      "stop after any work-item writes to COUNT elements of TYPE from element OFFSET of a buffer "
                      "argument or a variable in memory, showing the old and new bytes");
    watch->add_option("target", cmd.text, "argument name or index, or variable")->required();
    watch->add_option("offset", cmd.offset, "first element (default 0)");
    watch->add_option("count", cmd.count, "elements (default 1)");
    watch->add_option("type", cmd.type, "char uchar short ushort int uint long ulong half float double");
    add(K::Info, "info", {"i"}, "breakpoints (and watchpoints), or locals: the variables with a value here")
        ->add_option("topic", cmd.text, "breakpoints or locals")
        ->required()
        ->check(CLI::IsMember({"breakpoints", "break", "b", "watchpoints", "locals"}));
    numberOption = add(K::Delete, "delete", {"d"}, "delete breakpoint or watchpoint N (all without N)")
                       ->add_option("number", number, "as `info breakpoints` shows it");
    lineOption = add(K::List, "list", {"l"}, "source lines around the current line (or LINE)")
                     ->add_option("line", number, "a line of the current file");
    add(K::Quit, "quit", {"q", "exit"}, "stop the kernel and end the session (no output is written)");
    add(K::Help, "help", {"h"}, "this list");
  }
};

CommandParser::CommandParser() : impl_(std::make_unique<Impl>()) {}
CommandParser::~CommandParser() = default;

std::optional<Command> CommandParser::parse(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string w; in >> w;) {
    if (w[0] == '#') break;
    words.push_back(w == "-all" ? "--all" : w);  // gdb-like "print -all x" as well as --all
  }
  if (words.empty()) return std::nullopt;
  Impl& s = *impl_;
  s.cmd = Command{};
  s.workItem.clear();
  s.number = 0;
  s.app.clear();
  std::vector<std::string> reversed(words.rbegin(), words.rend());
  try {
    s.app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    std::string m = e.what();
    if (m.find("subcommand") != std::string::npos && m.find("required") != std::string::npos)
      m = "unknown command '" + words[0] + "' (help lists the commands)";
    throw CommandError(m);
  }
  Command cmd = s.cmd;
  for (const auto& [kind, sub] : s.commands)
    if (sub->parsed()) cmd.kind = kind;
  if (cmd.kind == Command::Kind::WorkItem) {
    std::string joined;
    for (const auto& w : s.workItem) joined += (joined.empty() ? "" : ",") + w;
    if (joined != "any" && joined != "all") {
      std::istringstream ids(joined);
      for (std::string part; std::getline(ids, part, ',');) {
        if (part.empty()) continue;
        try {
          size_t used = 0;
          cmd.ids.push_back(std::stoull(part, &used));
          if (used != part.size()) throw std::invalid_argument(part);
        } catch (const std::exception&) {
          throw CommandError("workitem: '" + part + "' is not a work-item id (X[,Y,Z] or any)");
        }
      }
      if (cmd.ids.empty() || cmd.ids.size() > 3) throw CommandError("workitem: expected X[,Y,Z] or any");
    }
  }
  if (cmd.kind == Command::Kind::Delete && s.numberOption->count()) cmd.number = s.number;
  if (cmd.kind == Command::Kind::List && s.lineOption->count()) cmd.number = s.number;
  if ((cmd.kind == Command::Kind::Memory || cmd.kind == Command::Kind::Watch || cmd.kind == Command::Kind::Step ||
       cmd.kind == Command::Kind::Next) &&
      cmd.count == 0)
    throw CommandError(words[0] + ": the count must be at least 1");
  return cmd;
}

std::string CommandParser::help() const {
  std::string s;
  for (const auto& [kind, sub] : impl_->commands) {
    std::string names = sub->get_name();
    for (const auto& a : sub->get_aliases()) names += ", " + a;
    s += "  " + names + "\n      " + sub->get_description() + "\n";
  }
  return s;
}

}  // namespace clref::cli::debug
