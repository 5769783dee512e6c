// Build-time generator: reads the SPIR-V OpenCL.std grammar (extinst.opencl.std.100.grammar.json
// from SPIRV-Headers) and writes numerics/opencl_std.hpp, the one table of the extended
// instruction set's opcodes, names and operand counts that numerics and the interpreter use.
//   gen_opencl_std <grammar.json> <output.hpp>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: gen_opencl_std <extinst.opencl.std.100.grammar.json> <output.hpp>\n";
    return 2;
  }
  nlohmann::json grammar;
  try {
    std::ifstream in(argv[1]);
    if (!in) throw std::runtime_error("cannot open");
    grammar = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    std::cerr << "gen_opencl_std: " << argv[1] << ": " << e.what() << "\n";
    return 1;
  }
  struct Instruction {
    std::string name;
    int operands;
  };
  std::map<int, Instruction> byOpcode;  // the grammar lists them out of opcode order
  for (const auto& inst : grammar.at("instructions")) {
    const int opcode = inst.at("opcode").get<int>();
    const std::string name = inst.at("opname").get<std::string>();
    const int operands = inst.contains("operands") ? int(inst.at("operands").size()) : 0;
    if (opcode < 0 || opcode > 0xffff || !byOpcode.emplace(opcode, Instruction{name, operands}).second) {
      std::cerr << "gen_opencl_std: bad or repeated opcode " << opcode << " (" << name << ")\n";
      return 1;
    }
  }
  if (byOpcode.empty()) {
    std::cerr << "gen_opencl_std: no instructions in " << argv[1] << "\n";
    return 1;
  }
  const int end = byOpcode.rbegin()->first + 1;

  std::ostringstream out;
  out << "// Generated at build time by numerics/gen/gen_opencl_std.cpp from\n"
      << "// extinst.opencl.std.100.grammar.json (version " << grammar.value("version", 0) << ", revision "
      << grammar.value("revision", 0) << "). Do not edit.\n"
      << "#pragma once\n#include <array>\n#include <cstdint>\n#include <string_view>\n\n"
      << "namespace clref::numerics {\n\n"
      << "// The OpenCL.std extended instructions (OpenCL Extended Instruction Set Specification),\n"
      << "// named as in the grammar; value = opcode.\n"
      << "enum class OpenClStd : uint16_t {\n";
  for (const auto& [opcode, inst] : byOpcode) out << "  " << inst.name << " = " << opcode << ",\n";
  out << "};\n\n"
      << "// One past the largest opcode.\n"
      << "inline constexpr int kOpenClStdEnd = " << end << ";\n\n"
      << "// The grammar's name and number of operands (the instruction's own, after the set and the\n"
      << "// instruction number; a variadic operand counts once) of each opcode; opcodes the grammar\n"
      << "// does not use have an empty name.\n"
      << "struct OpenClStdInfo {\n  std::string_view name;\n  int8_t operands;\n};\n"
      << "inline constexpr std::array<OpenClStdInfo, kOpenClStdEnd> kOpenClStdInfo = {{\n";
  for (int op = 0; op < end; ++op) {
    const auto it = byOpcode.find(op);
    if (it == byOpcode.end())
      out << "    {\"\", 0},\n";
    else
      out << "    {\"" << it->second.name << "\", " << it->second.operands << "},\n";
  }
  out << "}};\n\n}  // namespace clref::numerics\n";

  const std::string text = out.str();
  std::ofstream file(argv[2]);
  file << text;
  if (!file) {
    std::cerr << "gen_opencl_std: cannot write " << argv[2] << "\n";
    return 1;
  }
  return 0;
}
