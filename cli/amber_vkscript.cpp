// VkScript, amber's older script format (google/amber docs/vk_script.md), its compute subset: [require],
// [compute shader], [compute shader spirv], [compute shader spirv hex] and [test] with ssbo, uniform ubo, push-constant
// uniform, compute, compute entrypoint, tolerance and probe ssbo. It is read into AmberScript's model
// (amber_script.hpp): each binding becomes a buffer, `compute` a RUN of a pipeline binding them all, `probe ssbo` an
// EXPECT in the probe's type, subdata a SetData command.
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "cli/amber_script.hpp"

namespace clref::cli::amber {

namespace {

// int, uint, int8_t … uint64_t, float16_t, float, double; vecN (float), dvecN, ivecN, uvecN, i8vecN … u64vecN, f16vecN;
// matN, matCxR, dmatN, dmatCxR.
std::optional<DataType> vkScriptType(std::string_view t) {
  static const std::pair<std::string_view, NumberType> kScalars[] = {
      {"int", {NumberKind::Int, 32}},     {"uint", {NumberKind::Uint, 32}},     {"int8_t", {NumberKind::Int, 8}},
      {"uint8_t", {NumberKind::Uint, 8}}, {"int16_t", {NumberKind::Int, 16}},   {"uint16_t", {NumberKind::Uint, 16}},
      {"int64_t", {NumberKind::Int, 64}}, {"uint64_t", {NumberKind::Uint, 64}}, {"float16_t", {NumberKind::Float, 16}},
      {"float", {NumberKind::Float, 32}}, {"double", {NumberKind::Float, 64}}};
  for (const auto& [name, n] : kScalars)
    if (t == name) return DataType{n, 1, 1, false};
  static const std::pair<std::string_view, NumberType> kVectorPrefixes[] = {
      {"", {NumberKind::Float, 32}},  {"d", {NumberKind::Float, 64}}, {"f16", {NumberKind::Float, 16}},
      {"i", {NumberKind::Int, 32}},   {"u", {NumberKind::Uint, 32}},  {"i8", {NumberKind::Int, 8}},
      {"u8", {NumberKind::Uint, 8}},  {"i16", {NumberKind::Int, 16}}, {"u16", {NumberKind::Uint, 16}},
      {"i64", {NumberKind::Int, 64}}, {"u64", {NumberKind::Uint, 64}}};
  const auto count = [](char c) -> uint32_t { return c >= '2' && c <= '4' ? uint32_t(c - '0') : 0; };
  for (const auto& [prefix, n] : kVectorPrefixes) {
    if (t.size() == prefix.size() + 4 && t.substr(0, prefix.size()) == prefix && t.substr(prefix.size(), 3) == "vec" &&
        count(t.back()))
      return DataType{n, count(t.back()), 1, false};
  }
  for (const auto& [prefix, n] : {std::pair<std::string_view, NumberType>{"mat", {NumberKind::Float, 32}},
                                  std::pair<std::string_view, NumberType>{"dmat", {NumberKind::Float, 64}}}) {
    if (t.substr(0, prefix.size()) != prefix) continue;
    const std::string_view dims = t.substr(prefix.size());
    if (dims.size() == 1 && count(dims[0])) return DataType{n, count(dims[0]), count(dims[0]), false};
    if (dims.size() == 3 && dims[1] == 'x' && count(dims[0]) && count(dims[2]))
      return DataType{n, count(dims[2]), count(dims[0]), false};  // matCxR: C columns of R rows
  }
  return std::nullopt;
}

class VkScriptParser {
 public:
  VkScriptParser(const std::string& text, std::string name) {
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
      if (!l.empty() && l.back() == '\r') l.pop_back();
      lines_.push_back(std::move(l));
    }
    script_.name = std::move(name);
  }

  Script parse() {
    size_t i = 0;
    while (i < lines_.size()) {
      const std::string header = trimmed(lines_[i]);
      const int line = int(i) + 1;
      ++i;
      if (header.empty() || header[0] == '#') continue;
      if (header[0] != '[') throw ScriptError(line, "expected a section ([require], [compute shader], [test])");
      const size_t end = sectionEnd(i);
      if (header == "[require]")
        require(i, end);
      else if (header == "[compute shader]")
        shader(ShaderFormat::Glsl, line, i, end);
      else if (header == "[compute shader spirv]")
        shader(ShaderFormat::SpirvAsm, line, i, end);
      else if (header == "[compute shader spirv hex]")
        shader(ShaderFormat::SpirvHex, line, i, end);
      else if (header == "[test]")
        test(i, end);
      else if (header.rfind("[compute shader", 0) == 0)
        throw ScriptError(line, "unknown section " + header);
      else
        throw Unsupported(line, "VkScript section " + header + " (graphics)");
      i = end;
    }
    // One pipeline per entry point `compute` ran, binding every buffer the test names.
    for (auto& p : pipelines_) {
      p.bindings = bindings_;
      script_.pipelines.push_back(p);
    }
    return std::move(script_);
  }

 private:
  static std::string trimmed(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t") + 1 - b);
  }
  size_t sectionEnd(size_t from) const {
    while (from < lines_.size() && trimmed(lines_[from]).rfind("[", 0) != 0) ++from;
    return from;
  }

  void require(size_t from, size_t end) {
    for (size_t i = from; i < end; ++i) {
      const auto t = tokenize(lines_[i]);
      if (t.empty()) continue;
      const int line = int(i) + 1;
      // Graphics settings mean nothing to a compute test; fence_timeout bounds a wait clref does not have.
      if (t[0] == "framebuffer" || t[0] == "depthstencil" || t[0] == "fbsize" || t[0] == "fence_timeout") continue;
      if (t.size() != 1) throw ScriptError(line, "expected one feature or extension name, found '" + lines_[i] + "'");
      if (t[0].rfind("VK_", 0) == 0) {
        if (!deviceHasExtension(t[0]) && !instanceHasExtension(t[0])) throw Unsupported(line, "extension " + t[0]);
        if (deviceHasExtension(t[0])) script_.deviceExtensions.push_back(t[0]);
        // CTS runs the scripts that need VK_KHR_spirv_1_4 with SPIR-V 1.4 shaders.
        if (t[0] == "VK_KHR_spirv_1_4") script_.defaultTargetEnv = "spv1.4";
      } else if (!deviceHasFeature(t[0])) {
        throw Unsupported(line, "feature " + t[0]);
      } else {
        script_.deviceFeatures.push_back(t[0]);
      }
    }
  }

  void shader(ShaderFormat format, int line, size_t from, size_t end) {
    if (!script_.shaders.empty()) throw ScriptError(line, "a second compute shader section");
    Shader s;
    s.name = "compute";
    s.format = format;
    s.line = line;
    s.sourceName = script_.name;
    s.sourceLine = int(from) + 1;
    for (size_t i = from; i < end; ++i) s.source += lines_[i] + "\n";
    script_.shaders.push_back(std::move(s));
  }

  // "S:B" or "B" (set 0).
  static std::pair<uint32_t, uint32_t> binding(const std::string& t, int line) {
    const size_t colon = t.find(':');
    const auto number = [&](const std::string& s) {
      const auto v = parseValue(s);
      if (!v || !v->isInteger || s[0] == '-' || v->integer > UINT32_MAX)
        throw ScriptError(line, "expected a binding (SET:BINDING or BINDING), found '" + t + "'");
      return uint32_t(v->integer);
    };
    if (colon == std::string::npos) return {0, number(t)};
    return {number(t.substr(0, colon)), number(t.substr(colon + 1))};
  }

  // The buffer of a binding, declared (and bound) on first use.
  std::string buffer(const std::string& prefix, BindingKind kind, uint32_t set, uint32_t b, int line) {
    const std::string name = kind == BindingKind::PushConstant
                                 ? "push constants"
                                 : prefix + " " + std::to_string(set) + ":" + std::to_string(b);
    if (script_.buffer(name)) return name;
    for (const auto& o : bindings_)
      if (o.kind != BindingKind::PushConstant && kind != BindingKind::PushConstant && o.set == set && o.binding == b)
        throw ScriptError(line,
                          "binding " + std::to_string(set) + ":" + std::to_string(b) + " is both an ssbo and a ubo");
    Buffer buf;
    buf.name = name;
    buf.type = DataType{{NumberKind::Uint, 8}, 1, 1, false};
    buf.line = line;
    script_.buffers.push_back(std::move(buf));
    Binding binding;
    binding.buffer = name;
    binding.kind = kind;
    binding.set = set;
    binding.binding = b;
    binding.line = line;
    bindings_.push_back(std::move(binding));
    return name;
  }

  static Value value(const std::string& t, NumberType n, int line) {
    auto v = parseValue(t);
    if (!v) throw ScriptError(line, "expected a number, found '" + t + "'");
    if (n.kind != NumberKind::Float && !v->isInteger) {
      if (std::trunc(v->real) != v->real || std::fabs(v->real) >= 0x1p63)
        throw ScriptError(line, "expected an integer for an integer type, found '" + t + "'");
      v->isInteger = true;
      v->integer = uint64_t(int64_t(v->real));
    }
    return *v;
  }

  static DataType type(const std::string& t, int line) {
    const auto d = vkScriptType(t);
    if (!d) throw ScriptError(line, "unknown type '" + t + "'");
    return *d;
  }

  static uint64_t integer(const std::string& t, int line, const std::string& what) {
    const auto v = parseValue(t);
    if (!v || !v->isInteger || t[0] == '-') throw ScriptError(line, "expected " + what + ", found '" + t + "'");
    return v->integer;
  }

  // subdata and the uniforms: TYPE OFFSET VALUES… from t[at].
  Command setData(const std::vector<std::string>& t, size_t at, const std::string& buf, Layout layout, int line) {
    if (t.size() < at + 3) throw ScriptError(line, "expected a type, an offset and values");
    Command c;
    c.kind = Command::Kind::SetData;
    c.line = line;
    c.buffer = buf;
    c.type = type(t[at], line);
    c.layout = layout;
    c.offset = integer(t[at + 1], line, "a byte offset");
    for (size_t i = at + 2; i < t.size(); ++i) c.values.push_back(value(t[i], c.type->number, line));
    return c;
  }

  void test(size_t from, size_t end) {
    std::vector<Tolerance> tolerances;
    std::string entry = "main";
    for (size_t i = from; i < end; ++i) {
      const auto t = tokenize(lines_[i]);
      if (t.empty()) continue;
      const int line = int(i) + 1;
      const auto need = [&](size_t n) {
        if (t.size() < n) throw ScriptError(line, "expected more after '" + trimmed(lines_[i]) + "'");
      };
      if (t[0] == "ssbo") {
        need(3);
        const auto [set, b] = binding(t[1], line);
        const std::string buf = buffer("ssbo", BindingKind::Storage, set, b, line);
        if (t[2] == "subdata") {
          script_.commands.push_back(setData(t, 3, buf, Layout::Std430, line));
        } else {
          if (t.size() != 3) throw ScriptError(line, "expected ssbo BINDING SIZE or ssbo BINDING subdata …");
          Command c;  // a size: the buffer grows to it
          c.kind = Command::Kind::SetData;
          c.line = line;
          c.buffer = buf;
          c.type = DataType{{NumberKind::Uint, 8}, 1, 1, false};
          c.offset = integer(t[2], line, "the size in bytes");
          script_.commands.push_back(std::move(c));
        }
      } else if (t[0] == "uniform") {
        need(2);
        if (t[1] == "ubo") {
          need(3);
          const auto [set, b] = binding(t[2], line);
          // amber's VkScript: "uniform is always std140".
          script_.commands.push_back(
              setData(t, 3, buffer("ubo", BindingKind::Uniform, set, b, line), Layout::Std140, line));
        } else {
          script_.commands.push_back(
              setData(t, 1, buffer("", BindingKind::PushConstant, 0, 0, line), Layout::Std430, line));
        }
      } else if (t[0] == "compute") {
        need(2);
        if (t[1] == "entrypoint") {
          need(3);
          entry = t[2];
          continue;
        }
        need(4);
        Command c;
        c.kind = Command::Kind::Run;
        c.line = line;
        c.pipeline = "compute " + entry;
        for (int k = 0; k < 3; ++k) {
          const uint64_t g = integer(t[1 + k], line, "a work-group count");
          if (g > UINT32_MAX) throw ScriptError(line, "work-group count " + t[1 + k] + " does not fit in 32 bits");
          c.groups[k] = uint32_t(g);
        }
        if (t.size() != 4) throw ScriptError(line, "unexpected '" + t[4] + "' after compute X Y Z");
        bool known = false;
        for (const auto& p : pipelines_) known = known || p.name == c.pipeline;
        if (!known) {
          if (script_.shaders.empty()) throw ScriptError(line, "compute without a [compute shader] section");
          Pipeline p;
          p.name = c.pipeline;
          p.shader = "compute";
          p.entryPoint = entry;
          p.line = line;
          pipelines_.push_back(std::move(p));
        }
        script_.commands.push_back(std::move(c));
      } else if (t[0] == "tolerance") {
        need(2);
        tolerances.clear();
        for (size_t k = 1; k < t.size(); ++k) {
          std::string v = t[k];
          Tolerance tol;
          if (v.back() == '%') {
            tol.percent = true;
            v.pop_back();
          }
          const auto x = parseValue(v);
          if (!x) throw ScriptError(line, "expected a tolerance, found '" + t[k] + "'");
          tol.value = x->real;
          tolerances.push_back(tol);
        }
        if (tolerances.size() > 4) throw ScriptError(line, "tolerance takes 1 to 4 values");
      } else if (t[0] == "probe" && t.size() > 1 && t[1] == "ssbo") {
        need(7);
        Command c;
        c.kind = Command::Kind::ExpectValues;
        c.line = line;
        c.type = type(t[2], line);
        const auto [set, b] = binding(t[3], line);
        c.buffer = "ssbo " + std::to_string(set) + ":" + std::to_string(b);
        if (!script_.buffer(c.buffer)) throw ScriptError(line, "probe of ssbo " + t[3] + ", which the test never sets");
        c.offset = integer(t[4], line, "a byte offset");
        const std::string& cmp = t[5];
        if (cmp == "==")
          c.comparator = Comparator::Eq;
        else if (cmp == "!=")
          c.comparator = Comparator::Ne;
        else if (cmp == "<")
          c.comparator = Comparator::Lt;
        else if (cmp == "<=")
          c.comparator = Comparator::Le;
        else if (cmp == ">")
          c.comparator = Comparator::Gt;
        else if (cmp == ">=")
          c.comparator = Comparator::Ge;
        else if (cmp == "~=") {
          c.comparator = Comparator::Eq;
          c.tolerances = tolerances;
        } else {
          throw ScriptError(line, "expected a comparator (== != < <= > >= ~=), found '" + cmp + "'");
        }
        for (size_t k = 6; k < t.size(); ++k) c.values.push_back(value(t[k], c.type->number, line));
        script_.commands.push_back(std::move(c));
      } else if (t[0] == "probe" || t[0] == "relative" || t[0] == "draw" || t[0] == "clear" || t[0] == "patch" ||
                 t[0] == "entrypoint" || t[0] == "vertex" || t[0] == "fragment" || t[0] == "geometry" ||
                 t[0] == "tessellation") {
        throw Unsupported(line, "VkScript '" + t[0] + (t.size() > 1 ? " " + t[1] : "") + "' (graphics)");
      } else if (t[0] == "ubo" || t[0] == "image" || t[0] == "sampler") {
        throw Unsupported(line, "VkScript '" + t[0] + "'");
      } else {
        throw ScriptError(line, "unknown VkScript test command '" + t[0] + "'");
      }
    }
  }

  std::vector<std::string> lines_;
  Script script_;
  std::vector<Binding> bindings_;
  std::vector<Pipeline> pipelines_;
};

}  // namespace

Script parseVkScript(const std::string& text, const std::string& name) { return VkScriptParser(text, name).parse(); }

}  // namespace clref::cli::amber
