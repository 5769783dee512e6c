// Kernel argument and attribute metadata from clang's LLVM IR (see kernel_arg_metadata.hpp).
#include "icd/kernel_arg_metadata.hpp"

#include <cctype>
#include <sstream>

namespace clref::cl {
namespace {

// The elements of an LLVM IR metadata tuple "!{i32 1, !"uchar*", ...}": strings unescaped
// (\XX hex escapes), other elements as written ("i32 1").
std::vector<std::string> metadataTuple(const std::string& text) {
  std::vector<std::string> out;
  size_t i = text.find("!{");
  if (i == std::string::npos) return out;
  i += 2;
  while (i < text.size() && text[i] != '}') {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',')) ++i;
    if (i >= text.size() || text[i] == '}') break;
    if (text.compare(i, 2, "!\"") == 0) {
      std::string v;
      for (i += 2; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 2 < text.size()) {
          v += char(std::stoi(text.substr(i + 1, 2), nullptr, 16));
          i += 2;
        } else {
          v += text[i];
        }
      }
      ++i;
      out.push_back(v);
    } else {
      const size_t end = text.find_first_of(",}", i);
      std::string tok = text.substr(i, end - i);
      while (!tok.empty() && tok.back() == ' ') tok.pop_back();
      out.push_back(tok);  // e.g. "i32 1", "<2 x i8> undef"
      i = end;
    }
  }
  return out;
}

// The integer of a metadata element "i32 1".
unsigned long metadataInt(const std::string& e) {
  const size_t sp = e.rfind(' ');
  try {
    return std::stoul(sp == std::string::npos ? e : e.substr(sp + 1));
  } catch (const std::exception&) { return 0; }
}

// vec_type_hint metadata "!{<2 x i8> undef, i32 0}" as OpenCL C names it ("uchar2"): the type
// and whether an integer type is signed (1) or unsigned (0).
std::string vecTypeHintName(const std::vector<std::string>& e) {
  if (e.size() < 2) return "";
  std::string t = e[0].substr(0, e[0].rfind(" undef"));
  std::string n;
  if (!t.empty() && t[0] == '<') {
    n = t.substr(1, t.find(' ') - 1);
    t = t.substr(t.find(" x ") + 3);
    t.pop_back();  // '>'
  }
  const bool isSigned = metadataInt(e[1]) != 0;
  std::string base;
  if (t == "i8")
    base = "char";
  else if (t == "i16")
    base = "short";
  else if (t == "i32")
    base = "int";
  else if (t == "i64")
    base = "long";
  else if (t == "half" || t == "float" || t == "double")
    return t + n;
  else
    return "";
  return (isSigned ? "" : "u") + base + n;
}

}  // namespace

KernelMetadata kernelMetadata(const std::string& llvmText) {
  KernelMetadata result;
  std::istringstream in(llvmText);
  std::map<std::string, std::string> nodes;                  // "!5" -> its text
  std::vector<std::pair<std::string, std::string>> kernels;  // name, define line
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("define ", 0) == 0 && line.find("spir_kernel") != std::string::npos) {
      const size_t at = line.find('@');
      if (at == std::string::npos) continue;
      std::string name;
      if (line[at + 1] == '"')
        name = line.substr(at + 2, line.find('"', at + 2) - at - 2);
      else
        name = line.substr(at + 1, line.find('(', at) - at - 1);
      kernels.emplace_back(name, line);
    } else if (line.size() > 1 && line[0] == '!' && std::isdigit(static_cast<unsigned char>(line[1]))) {
      const size_t eq = line.find(" = ");
      if (eq != std::string::npos) nodes[line.substr(0, eq)] = line.substr(eq + 3);
    }
  }
  for (const auto& kernel : kernels) {
    // Plain references, not a structured binding: the lambdas below capture them, which C++20 allows
    // (P1091/P1381) but clang 15 rejects for structured bindings.
    const std::string& name = kernel.first;
    const std::string& def = kernel.second;
    const auto field = [&](const char* key) {
      const std::string k = std::string("!") + key + " ";
      const size_t pos = def.find(k);
      if (pos == std::string::npos) return std::vector<std::string>{};
      const size_t ref = pos + k.size();
      const std::string id = def.substr(ref, def.find_first_of(" {,", ref) - ref);
      const auto it = nodes.find(id);
      return it == nodes.end() ? std::vector<std::string>{} : metadataTuple(it->second);
    };
    const auto as = field("kernel_arg_addr_space"), acc = field("kernel_arg_access_qual"),
               ty = field("kernel_arg_type"), tq = field("kernel_arg_type_qual"), nm = field("kernel_arg_name");
    std::vector<KernelArgMeta> v(ty.size());
    for (size_t i = 0; i < v.size(); ++i) {
      v[i].type = ty[i];
      if (i < as.size()) v[i].addressSpace = cl_uint(metadataInt(as[i]));
      if (i < acc.size()) v[i].access = acc[i];
      if (i < tq.size()) v[i].qualifiers = tq[i];
      if (i < nm.size()) v[i].name = nm[i];
    }
    result.args[name] = std::move(v);
    // OpenCL 3.0 API §5.9.4 [[_kernel_object_queries]] CL_KERNEL_ATTRIBUTES: the kernel's __attribute__ qualifiers as
    // in the source.
    std::string attrs;
    const auto add = [&](const std::string& a) { attrs += (attrs.empty() ? "" : " ") + a; };
    if (const auto vh = field("vec_type_hint"); !vh.empty()) {
      const std::string t = vecTypeHintName(vh);
      if (!t.empty()) add("vec_type_hint(" + t + ")");
    }
    for (const char* key : {"work_group_size_hint", "reqd_work_group_size"}) {
      const auto d = field(key);
      if (d.size() == 3)
        add(std::string(key) + "(" + std::to_string(metadataInt(d[0])) + "," + std::to_string(metadataInt(d[1])) + "," +
            std::to_string(metadataInt(d[2])) + ")");
    }
    result.attributes[name] = attrs;
  }
  return result;
}

}  // namespace clref::cl
