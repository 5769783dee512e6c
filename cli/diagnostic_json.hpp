// An interpreter::Diagnostic as JSON and back: the one encoding of a diagnostic in the messages MPI ranks send rank 0
// (a split run's choice uses, cli/shard_command.cpp; an explored alternative's fault, cli/explore.cpp).
#pragma once
#include <nlohmann/json.hpp>

#include "interpreter/diagnostic.hpp"

namespace clref::cli {

// Every field, under its member's name ("kind" as its number).
nlohmann::json diagnosticToJson(const interpreter::Diagnostic& d);
// The diagnostic diagnosticToJson wrote. Throws nlohmann::json::exception on a member missing or of another type.
interpreter::Diagnostic diagnosticFromJson(const nlohmann::json& j);

}  // namespace clref::cli
