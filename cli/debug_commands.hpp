// The command language of `clref debug` (debugger.hpp): one command per line, parsed with CLI11 (each command a
// subcommand with its positionals and flags, so that errors and the help text come from the parser).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace clref::cli::debug {

struct Command {
  enum class Kind : uint8_t {
    Break,      // break LOCATION: LINE, FILE:LINE, %ID or @WORDOFFSET
    Step,       // step [N]: the current work-item's next instruction
    Next,       // next [N]: its next source line, stepping over calls
    Continue,   // continue: to the next breakpoint, watchpoint, fault or the end
    Print,      // print [--all] EXPR: a source variable or %ID
    WorkItem,   // workitem X[,Y,Z] | any
    Backtrace,  // backtrace
    Memory,     // memory ARG|NAME [OFFSET [COUNT [TYPE]]]
    Watch,      // watch ARG|NAME [OFFSET [COUNT [TYPE]]]
    Info,       // info breakpoints|locals
    Delete,     // delete [N]
    List,       // list [LINE]
    Quit,       // quit
    Help        // help
  };
  Kind kind = Kind::Help;
  std::string text;           // Break: the location; Print: the expression; Memory, Watch: the target; Info: the topic
  bool all = false;           // Print: every live work-item of the work-group
  uint64_t offset = 0;        // Memory, Watch: in elements of `type`
  uint64_t count = 1;         // Memory, Watch: elements; Step, Next: repetitions
  std::string type;           // Memory, Watch: an element type name (case-file names), "" for the target's own
  std::vector<uint64_t> ids;  // WorkItem: the global id's components; empty for "any"
  std::optional<uint64_t> number;  // Delete: the breakpoint; List: the line
};

// A line that is not a command; the message says why.
class CommandError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CommandParser {
 public:
  CommandParser();
  ~CommandParser();
  // The command on `line`; nullopt for a blank line or a comment (#). Throws CommandError.
  std::optional<Command> parse(const std::string& line);
  // Every command with its aliases and what it does.
  std::string help() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace clref::cli::debug
