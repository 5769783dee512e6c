// AmberScript's compute subset: a line tokenizer and a recursive-descent parser over its lines (amber_script.hpp).
#include "cli/amber_script.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "host/host.hpp"
#include "numerics/format.hpp"

namespace clref::cli::amber {

namespace {

// ---- element types and layouts ----

std::optional<NumberType> parseNumberType(std::string_view t) {
  static const std::pair<std::string_view, NumberType> kTypes[] = {
      {"int8", {NumberKind::Int, 8}},     {"int16", {NumberKind::Int, 16}},   {"int32", {NumberKind::Int, 32}},
      {"int64", {NumberKind::Int, 64}},   {"uint8", {NumberKind::Uint, 8}},   {"uint16", {NumberKind::Uint, 16}},
      {"uint32", {NumberKind::Uint, 32}}, {"uint64", {NumberKind::Uint, 64}}, {"float16", {NumberKind::Float, 16}},
      {"float", {NumberKind::Float, 32}}, {"double", {NumberKind::Float, 64}}};
  for (const auto& [name, type] : kTypes)
    if (t == name) return type;
  return std::nullopt;
}

}  // namespace

// ---- values ----

// An integer (decimal with an optional sign, or 0x hex) or a real; none for anything else.
std::optional<Value> parseValue(const std::string& t) {
  if (t.empty()) return std::nullopt;
  Value v;
  v.text = t;
  const char* s = t.c_str();
  char* end = nullptr;
  errno = 0;
  const bool negative = s[0] == '-';
  const bool hex = t.size() > 2 && t[negative || s[0] == '+'] == '0' &&
                   (t[(negative || s[0] == '+') + 1] == 'x' || t[(negative || s[0] == '+') + 1] == 'X');
  if (negative) {
    const long long x = std::strtoll(s, &end, hex ? 16 : 10);
    if (*end == '\0' && errno == 0) {
      v.integer = uint64_t(x);
      v.real = double(x);
      return v;
    }
  } else {
    const unsigned long long x = std::strtoull(s, &end, hex ? 16 : 10);
    if (*end == '\0' && errno == 0) {
      v.integer = x;
      v.real = double(x);
      return v;
    }
  }
  if (hex) return std::nullopt;
  errno = 0;
  const double d = std::strtod(s, &end);
  if (*end != '\0' || end == s) return std::nullopt;
  v.isInteger = false;
  v.real = d;
  return v;
}

// Stores `v` as a component of type `n` at `p` (little-endian, as the device reads it).
void storeValue(std::byte* p, NumberType n, const Value& v) {
  if (n.kind != NumberKind::Float) {
    std::memcpy(p, &v.integer, n.bytes());  // the low bytes: the value modulo 2^bits
    return;
  }
  if (n.bits == 16) {
    const uint16_t h = numerics::toHalf(v.real).bits;
    std::memcpy(p, &h, 2);
  } else if (n.bits == 32) {
    const float f = float(v.real);
    std::memcpy(p, &f, 4);
  } else {
    std::memcpy(p, &v.real, 8);
  }
}

// ---- the tokenizer ----

// One line's tokens: whitespace (and commas) separate them; `#` starts a comment.
std::vector<std::string> tokenize(const std::string& line) {
  std::vector<std::string> tokens;
  std::string cur;
  for (char c : line) {
    if (c == '#') break;
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      if (!cur.empty()) tokens.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) tokens.push_back(std::move(cur));
  return tokens;
}

namespace {

// The largest buffer a script may declare: 1 GiB, beyond any storage buffer range a device reports in practice and
// well within the memory of the machines clref runs on.
constexpr uint64_t kMaxBufferBytes = uint64_t(1) << 30;

// The tokens of one line, read left to right.
class Cursor {
 public:
  Cursor(std::vector<std::string> tokens, int line) : tokens_(std::move(tokens)), line_(line) {}
  int line() const { return line_; }
  bool atEnd() const { return i_ >= tokens_.size(); }
  const std::string* peek() const { return atEnd() ? nullptr : &tokens_[i_]; }
  bool accept(std::string_view t) {
    if (atEnd() || tokens_[i_] != t) return false;
    ++i_;
    return true;
  }
  std::string next(const std::string& what) {
    if (atEnd()) throw ScriptError(line_, "expected " + what + " at the end of the line");
    return tokens_[i_++];
  }
  void expect(std::string_view t, const std::string& after) {
    if (atEnd()) throw ScriptError(line_, "expected " + std::string(t) + " after " + after);
    if (tokens_[i_] != t)
      throw ScriptError(line_, "expected " + std::string(t) + " after " + after + ", found '" + tokens_[i_] + "'");
    ++i_;
  }
  uint64_t integer(const std::string& what) {
    const std::string t = next(what);
    const auto v = parseValue(t);
    if (!v || !v->isInteger || (t[0] == '-' && v->integer != 0))
      throw ScriptError(line_, "expected " + what + " (a non-negative integer), found '" + t + "'");
    return v->integer;
  }
  uint32_t uint32(const std::string& what) {
    const uint64_t v = integer(what);
    if (v > UINT32_MAX) throw ScriptError(line_, what + " " + std::to_string(v) + " does not fit in 32 bits");
    return uint32_t(v);
  }
  double real(const std::string& what) {
    const std::string t = next(what);
    const auto v = parseValue(t);
    if (!v) throw ScriptError(line_, "expected " + what + " (a number), found '" + t + "'");
    return v->real;
  }
  void end(const std::string& command) {
    if (!atEnd()) throw ScriptError(line_, "unexpected '" + tokens_[i_] + "' at the end of " + command);
  }
  // The rest of the line as written (for the report).
  std::string text() const {
    std::string s;
    for (const auto& t : tokens_) s += (s.empty() ? "" : " ") + t;
    return s;
  }

 private:
  std::vector<std::string> tokens_;
  size_t i_ = 0;
  int line_;
};

// ---- the parser ----

class Parser {
 public:
  Parser(const std::string& text, std::string name, std::string directory) : directory_(std::move(directory)) {
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
      if (!l.empty() && l.back() == '\r') l.pop_back();
      lines_.push_back(std::move(l));
    }
    script_.name = std::move(name);
  }

  Script parse() {
    next_ = 1;
    while (auto c = nextLine()) topLevel(*c);
    return std::move(script_);
  }

 private:
  // The next line with tokens; none at the end of the script.
  std::optional<Cursor> nextLine() {
    while (next_ < lines_.size()) {
      auto tokens = tokenize(lines_[next_]);
      ++next_;
      if (!tokens.empty()) return Cursor(std::move(tokens), int(next_));
    }
    return std::nullopt;
  }
  // The next line, which a block started on line `start` needs.
  Cursor blockLine(int start, const std::string& block) {
    auto c = nextLine();
    if (!c) throw ScriptError(start, "missing END of " + block);
    return std::move(*c);
  }
  // The lines up to one whose only token is END, as written (shader sources, virtual files).
  std::string rawBlock(int start, const std::string& block) {
    std::string text;
    while (next_ < lines_.size()) {
      const auto tokens = tokenize(lines_[next_]);
      ++next_;
      if (!tokens.empty() && tokens[0] == "END") return text;
      text += lines_[next_ - 1] + "\n";
    }
    throw ScriptError(start, "missing END of " + block);
  }

  void topLevel(Cursor& c) {
    const std::string cmd = c.next("a command");
    if (cmd == "SHADER") return shader(c);
    if (cmd == "BUFFER") return buffer(c);
    if (cmd == "PIPELINE") return pipeline(c, false);
    if (cmd == "DERIVE_PIPELINE") return pipeline(c, true);
    if (cmd == "VIRTUAL_FILE") return virtualFile(c);
    if (cmd == "DEVICE_FEATURE") return deviceFeature(c);
    if (cmd == "DEVICE_EXTENSION" || cmd == "INSTANCE_EXTENSION") return extension(c, cmd == "DEVICE_EXTENSION");
    if (cmd == "SET") return set(c);
    if (cmd == "IMAGE") throw Unsupported(c.line(), "IMAGE (images)");
    if (cmd == "SAMPLER") throw Unsupported(c.line(), "SAMPLER (samplers)");
    if (cmd == "STRUCT") throw Unsupported(c.line(), "STRUCT (buffers of structures)");
    if (cmd == "ACCELERATION_STRUCTURE" || cmd == "SHADER_BINDING_TABLE")
      throw Unsupported(c.line(), cmd + " (ray tracing)");
    if (cmd == "DEVICE_PROPERTY") throw Unsupported(c.line(), "DEVICE_PROPERTY");
    if (cmd == "DEBUG") throw Unsupported(c.line(), "DEBUG (shader debugging commands)");
    script_.commands.push_back(command(c, cmd));
  }

  // SHADER compute NAME FORMAT [TARGET_ENV env] [(VIRTUAL_FILE | FILE) path] — amber_script.md "Shaders".
  void shader(Cursor& c) {
    Shader s;
    s.line = c.line();
    const std::string type = c.next("a shader type");
    static const char* kOtherTypes[] = {"vertex",
                                        "fragment",
                                        "geometry",
                                        "tessellation_evaluation",
                                        "tessellation_control",
                                        "ray_generation",
                                        "any_hit",
                                        "closest_hit",
                                        "miss",
                                        "intersection",
                                        "callable",
                                        "multi"};
    if (type != "compute") {
      for (const char* t : kOtherTypes)
        if (type == t) throw Unsupported(c.line(), "a " + type + " shader (clref runs compute shaders only)");
      throw ScriptError(c.line(), "unknown shader type '" + type + "'");
    }
    s.name = c.next("a shader name");
    if (script_.shader(s.name)) throw ScriptError(c.line(), "duplicate shader name '" + s.name + "'");
    const std::string format = c.next("a shader format");
    if (format == "GLSL")
      s.format = ShaderFormat::Glsl;
    else if (format == "HLSL")
      s.format = ShaderFormat::Hlsl;
    else if (format == "SPIRV-ASM")
      s.format = ShaderFormat::SpirvAsm;
    else if (format == "SPIRV-HEX")
      s.format = ShaderFormat::SpirvHex;
    else if (format == "PASSTHROUGH")
      throw Unsupported(c.line(), "PASSTHROUGH shaders (graphics)");
    else if (format == "OPENCL-C")
      throw Unsupported(c.line(), "OPENCL-C shaders (clspv's Vulkan kernels)");
    else if (format == "SPIRV-BIN")
      throw Unsupported(c.line(), "SPIRV-BIN shaders");
    else
      throw ScriptError(c.line(), "unknown shader format '" + format + "'");
    if (c.accept("TARGET_ENV")) s.targetEnv = c.next("a target environment");
    if (c.accept("VIRTUAL_FILE")) {
      const std::string path = c.next("a virtual file path");
      const auto it = virtualFiles_.find(path);
      if (it == virtualFiles_.end()) throw ScriptError(c.line(), "no VIRTUAL_FILE '" + path + "'");
      s.source = it->second.first;
      s.sourceName = path;
      s.sourceLine = it->second.second;
    } else if (c.accept("FILE")) {
      const std::string path = c.next("a file path");
      const auto full = std::filesystem::path(directory_) / path;
      std::ifstream in(full, std::ios::binary);
      if (!in) throw ScriptError(c.line(), "cannot read shader file '" + full.string() + "'");
      std::ostringstream text;
      text << in.rdbuf();
      s.source = text.str();
      s.sourceName = full.string();
    } else {
      c.end("SHADER");
      s.sourceName = script_.name;
      s.sourceLine = int(next_) + 1;
      s.source = rawBlock(s.line, "SHADER " + s.name);
    }
    c.end("SHADER");
    script_.shaders.push_back(std::move(s));
  }

  void virtualFile(Cursor& c) {
    const std::string path = c.next("a virtual file path");
    c.end("VIRTUAL_FILE");
    if (virtualFiles_.count(path)) throw ScriptError(c.line(), "duplicate VIRTUAL_FILE '" + path + "'");
    const int start = int(next_) + 1;
    virtualFiles_[path] = {rawBlock(c.line(), "VIRTUAL_FILE " + path), start};
  }

  // BUFFER NAME (DATA_TYPE type [STD140|STD430] | FORMAT fmt) [SIZE n | WIDTH w HEIGHT h] initializer —
  // amber_script.md "Buffers" and "Buffer Initializers".
  void buffer(Cursor& c) {
    Buffer b;
    b.line = c.line();
    b.name = c.next("a buffer name");
    if (script_.buffer(b.name)) throw ScriptError(c.line(), "duplicate buffer name '" + b.name + "'");
    const std::string kind = c.next("DATA_TYPE or FORMAT");
    if (kind == "DATA_TYPE") {
      const std::string t = c.next("a data type");
      const auto type = parseDataType(t);
      if (!type) {
        if (parseFormat(t))
          b.type = *parseFormat(t);
        else
          throw ScriptError(c.line(), "unknown data type '" + t + "'");
      } else {
        b.type = *type;
      }
      if (c.accept("STD140"))
        b.layout = Layout::Std140;
      else if (c.accept("STD430"))
        b.layout = Layout::Std430;
    } else if (kind == "FORMAT") {
      const std::string f = c.next("a format");
      const auto type = parseFormat(f);
      if (!type) throw Unsupported(c.line(), "format " + f + " (clref runs buffers of UINT, SINT and SFLOAT formats)");
      b.type = *type;
      if (c.atEnd()) throw Unsupported(c.line(), "a FORMAT buffer without a size (an image attachment: graphics)");
      if (c.accept("MIP_LEVELS") || c.accept("SAMPLES")) throw Unsupported(c.line(), "image buffers");
    } else {
      throw ScriptError(c.line(), "expected DATA_TYPE or FORMAT after BUFFER " + b.name + ", found '" + kind + "'");
    }
    const ElementLayout layout = elementLayout(b.type, b.layout);
    const size_t perElement = layout.offsets.size();
    std::optional<uint64_t> size;
    if (c.accept("SIZE")) {
      size = c.integer("the buffer size in elements");
    } else if (c.accept("WIDTH")) {
      const uint64_t w = c.integer("the width");
      c.expect("HEIGHT", "WIDTH");
      size = w * c.integer("the height");
    }
    if (size && *size > kMaxBufferBytes / layout.size)
      throw ScriptError(c.line(), "buffer " + b.name + " of " + std::to_string(*size) + " elements is too large");
    std::vector<Value> values;                 // DATA's (or FILE TEXT's) values
    std::function<Value(uint64_t)> generator;  // FILL's and SERIES_FROM's, value by value in order
    if (c.atEnd()) {
      if (!size) throw ScriptError(c.line(), "expected SIZE or DATA after BUFFER " + b.name);
    } else {
      const std::string init = c.next("an initializer");
      if (init == "DATA") {
        values = dataValues(c, b);
      } else if (init == "FILL") {
        if (!size) throw ScriptError(c.line(), "FILL needs SIZE");
        generator = [v = wholeValue(c, b.type.number, "the fill value")](uint64_t) { return v; };
      } else if (init == "SERIES_FROM") {
        if (!size) throw ScriptError(c.line(), "SERIES_FROM needs SIZE");
        const Value start = wholeValue(c, b.type.number, "the series start");
        c.expect("INC_BY", "SERIES_FROM");
        const Value inc = wholeValue(c, b.type.number, "the series increment");
        // "Floating point data uses floating point addition … integer data uses integer addition." (value i is the
        // sum of i increments, added one at a time as amber does)
        generator = [v = start, inc](uint64_t) mutable {
          const Value r = v;
          v.integer += inc.integer;
          v.real += inc.real;
          return r;
        };
      } else if (init == "FILE") {
        fileValues(c, b, values, size);
      } else {
        throw ScriptError(c.line(),
                          "expected DATA, FILL, SERIES_FROM or SIZE after BUFFER " + b.name + ", found '" + init + "'");
      }
      c.end("BUFFER");
    }
    b.elements = size ? *size : (values.size() + perElement - 1) / perElement;
    if (values.size() > b.elements * perElement)
      throw ScriptError(
          b.line, "buffer " + b.name + " has " + std::to_string(values.size()) + " values, more than its SIZE holds");
    if (binaryContents_) {
      binaryContents_ = false;
      script_.buffers.push_back(std::move(b));
      return;
    }
    b.initial.assign(b.elements * layout.size, std::byte{0});
    const uint64_t count = generator ? b.elements * perElement : values.size();
    for (uint64_t i = 0; i < count; ++i)
      storeValue(b.initial.data() + (i / perElement) * layout.size + layout.offsets[i % perElement], b.type.number,
                 generator ? generator(i) : values[i]);
    script_.buffers.push_back(std::move(b));
  }

  // A value for a component of type `n`: integers only for integer types (amber rejects a real there).
  Value value(Cursor& c, NumberType n, const std::string& what) {
    const int line = c.line();
    const std::string t = c.next(what);
    return valueOf(t, n, line);
  }
  // FILL and SERIES_FROM: amber also takes a real with an integral value (FILL 0.0) for an integer type.
  Value wholeValue(Cursor& c, NumberType n, const std::string& what) {
    const int line = c.line();
    const std::string t = c.next(what);
    auto v = parseValue(t);
    if (v && !v->isInteger && n.kind != NumberKind::Float && std::trunc(v->real) == v->real &&
        std::fabs(v->real) < 0x1p63) {
      v->isInteger = true;
      v->integer = uint64_t(int64_t(v->real));
      return *v;
    }
    return valueOf(t, n, line);
  }
  static Value valueOf(const std::string& t, NumberType n, int line) {
    const auto v = parseValue(t);
    if (!v) throw ScriptError(line, "expected a number, found '" + t + "'");
    if (n.kind != NumberKind::Float && !v->isInteger)
      throw ScriptError(line, "expected an integer for an integer type, found '" + t + "'");
    return *v;
  }

  // FILE TEXT path (values as DATA writes them) or FILE BINARY path (the bytes), relative to the script's folder.
  void fileValues(Cursor& c, Buffer& b, std::vector<Value>& values, std::optional<uint64_t>& size) {
    const std::string kind = c.next("TEXT or BINARY");
    if (kind != "TEXT" && kind != "BINARY")
      throw ScriptError(c.line(), "expected TEXT or BINARY after FILE, found '" + kind + "'");
    const std::string path = c.next("a file path");
    const auto full = std::filesystem::path(directory_) / path;
    std::ifstream in(full, std::ios::binary);
    if (!in) throw ScriptError(c.line(), "cannot read buffer file '" + full.string() + "'");
    std::ostringstream text;
    text << in.rdbuf();
    const std::string data = text.str();
    if (kind == "TEXT") {
      std::istringstream lines(data);
      for (std::string line; std::getline(lines, line);)
        for (const auto& t : tokenize(line)) values.push_back(valueOf(t, b.type.number, c.line()));
      // SIZE takes the first values of a longer file (as amber reads CTS's shared input files).
      const size_t perElement = elementLayout(b.type, b.layout).offsets.size();
      if (size && values.size() > *size * perElement) values.resize(*size * perElement);
      return;
    }
    // BINARY: the bytes as they are; SIZE (when given) is in elements.
    const uint32_t elementSize = elementLayout(b.type, b.layout).size;
    if (!size) size = (data.size() + elementSize - 1) / elementSize;
    b.initial.assign(*size * elementSize, std::byte{0});
    std::memcpy(b.initial.data(), data.data(), std::min<size_t>(data.size(), b.initial.size()));
    binaryContents_ = true;
  }

  // DATA's values, up to END (on this line or a later one).
  std::vector<Value> dataValues(Cursor& c, const Buffer& b) {
    std::vector<Value> values;
    const int start = c.line();
    Cursor* cur = &c;
    std::optional<Cursor> more;
    for (;;) {
      while (!cur->atEnd()) {
        const int line = cur->line();
        const std::string t = cur->next("a value");
        if (t == "END") {
          if (cur != &c) cur->end("DATA");
          return values;
        }
        values.push_back(valueOf(t, b.type.number, line));
      }
      more.emplace(blockLine(start, "BUFFER " + b.name + " DATA"));
      cur = &*more;
    }
  }

  // PIPELINE compute NAME … END, DERIVE_PIPELINE NAME FROM PARENT … END — amber_script.md "Pipelines".
  void pipeline(Cursor& c, bool derived) {
    Pipeline p;
    p.line = c.line();
    if (derived) {
      p.name = c.next("a pipeline name");
      c.expect("FROM", "DERIVE_PIPELINE " + p.name);
      const std::string parent = c.next("the parent pipeline");
      const Pipeline* from = script_.pipeline(parent);
      if (!from) throw ScriptError(c.line(), "unknown pipeline '" + parent + "'");
      const std::string name = p.name;
      p = *from;
      p.name = name;
      p.line = c.line();
    } else {
      const std::string type = c.next("a pipeline type");
      if (type == "graphics" || type == "ray_tracing")
        throw Unsupported(c.line(), "a " + type + " pipeline (clref runs compute pipelines only)");
      if (type != "compute") throw ScriptError(c.line(), "unknown pipeline type '" + type + "'");
      p.name = c.next("a pipeline name");
    }
    c.end(derived ? "DERIVE_PIPELINE" : "PIPELINE");
    if (script_.pipeline(p.name)) throw ScriptError(c.line(), "duplicate pipeline name '" + p.name + "'");
    for (;;) {
      Cursor l = blockLine(p.line, "PIPELINE " + p.name);
      const std::string cmd = l.next("a pipeline command");
      if (cmd == "END") {
        l.end("PIPELINE");
        break;
      }
      if (cmd == "ATTACH")
        attach(l, p);
      else if (cmd == "BIND")
        bind(l, p);
      else if (cmd == "SHADER_OPTIMIZATION") {
        const std::string shader = l.next("a shader name");
        l.end("SHADER_OPTIMIZATION");
        rawBlock(l.line(), "SHADER_OPTIMIZATION");
        script_.notes.push_back(script_.name + ":" + std::to_string(l.line()) + ": SHADER_OPTIMIZATION " + shader +
                                " ignored: clref runs the shader as compiled (optimizations keep its meaning)");
      } else if (cmd == "COMPILE_OPTIONS") {
        throw Unsupported(l.line(), "COMPILE_OPTIONS (OPENCL-C shaders)");
      } else if (cmd == "FRAMEBUFFER_SIZE" || cmd == "VERTEX_DATA" || cmd == "INDEX_DATA" || cmd == "POLYGON_MODE" ||
                 cmd == "DEPTH" || cmd == "STENCIL" || cmd == "BLEND" || cmd == "VIEWPORT" ||
                 cmd == "PATCH_CONTROL_POINTS" || cmd == "TOPOLOGY") {
        throw Unsupported(l.line(), cmd + " (graphics pipeline state)");
      } else if (cmd == "SET") {
        throw Unsupported(l.line(), "SET KERNEL (OpenCL-C kernel arguments)");
      } else if (cmd == "SUBGROUP") {
        subgroup(l, p);
      } else {
        throw ScriptError(l.line(), "unknown pipeline command '" + cmd + "'");
      }
    }
    if (p.shader.empty()) throw ScriptError(p.line, "pipeline " + p.name + " has no ATTACHed shader");
    script_.pipelines.push_back(std::move(p));
  }

  // SUBGROUP shader … END: FULLY_POPULATED on|off, VARYING_SIZE on|off, REQUIRED_SIZE n|MIN|MAX (amber_script.md
  // "Pipelines"; Vulkan's VK_EXT_subgroup_size_control). clref's subgroup sizes are the powers of two from 4 to 128
  // (interpreter: Vulkan's range), one size for the whole dispatch; VARYING_SIZE only changes which width
  // FULLY_POPULATED needs (amber_run.cpp).
  void subgroup(Cursor& c, Pipeline& p) {
    const std::string shader = c.next("a shader name");
    c.end("SUBGROUP");
    if (shader != p.shader)
      throw ScriptError(c.line(),
                        "SUBGROUP names shader '" + shader + "', which pipeline " + p.name + " does not ATTACH");
    const auto onOff = [](Cursor& l, const std::string& what) {
      const std::string v = l.next("on or off");
      if (v != "on" && v != "off") throw ScriptError(l.line(), what + ": expected on or off, got '" + v + "'");
      l.end(what);
      return v == "on";
    };
    for (;;) {
      Cursor l = blockLine(c.line(), "SUBGROUP " + shader);
      const std::string cmd = l.next("a SUBGROUP setting");
      if (cmd == "END") {
        l.end("SUBGROUP");
        return;
      }
      if (cmd == "FULLY_POPULATED") {
        p.fullSubgroups = onOff(l, cmd);
      } else if (cmd == "VARYING_SIZE") {
        p.varyingSubgroupSize = onOff(l, cmd);
      } else if (cmd == "REQUIRED_SIZE") {
        const std::string v = l.next("a subgroup size, MIN or MAX");
        uint32_t size = 0;
        if (v == "MIN")
          size = host::kMinShaderSubgroupSize;
        else if (v == "MAX")
          size = host::kMaxShaderSubgroupSize;
        else
          size = uint32_t(valueOf(v, NumberType{NumberKind::Uint, 32}, l.line()).integer);
        constexpr uint32_t kMin = host::kMinShaderSubgroupSize, kMax = host::kMaxShaderSubgroupSize;
        if (size < kMin || size > kMax || (size & (size - 1)) != 0)
          throw ScriptError(l.line(), "REQUIRED_SIZE " + v + " is not a power of two from " + std::to_string(kMin) +
                                          " to " + std::to_string(kMax));
        l.end(cmd);
        p.requiredSubgroupSize = size;
        p.requiredSizeBound = v == "MIN" ? SizeBound::Min : v == "MAX" ? SizeBound::Max : SizeBound::None;
      } else {
        throw ScriptError(l.line(), "unknown SUBGROUP setting '" + cmd + "'");
      }
    }
  }

  // ATTACH shader [TYPE compute] [ENTRY_POINT name] [SPECIALIZE id AS type value]…
  void attach(Cursor& c, Pipeline& p) {
    const std::string name = c.next("a shader name");
    if (!script_.shader(name)) throw ScriptError(c.line(), "unknown shader '" + name + "'");
    if (!p.shader.empty() && p.shader != name)
      throw ScriptError(c.line(), "compute pipeline " + p.name + " already has shader " + p.shader);
    p.shader = name;
    while (!c.atEnd()) {
      const std::string key = c.next("an ATTACH option");
      if (key == "ENTRY_POINT") {
        p.entryPoint = c.next("an entry point name");
      } else if (key == "TYPE") {
        const std::string t = c.next("a shader type");
        if (t != "compute") throw Unsupported(c.line(), "a " + t + " shader (clref runs compute shaders only)");
      } else if (key == "SPECIALIZE") {
        Specialization s;
        s.id = c.uint32("the specialization constant id");
        c.expect("AS", "SPECIALIZE");
        const std::string type = c.next("the specialization type");
        const int line = c.line();
        const std::string v = c.next("the specialization value");
        // amber_script.md: "Specialization values must be a 32-bit type."
        NumberType n;
        if (type == "uint32")
          n = {NumberKind::Uint, 32};
        else if (type == "int32")
          n = {NumberKind::Int, 32};
        else if (type == "float")
          n = {NumberKind::Float, 32};
        else
          throw ScriptError(line, "SPECIALIZE type must be uint32, int32 or float, found '" + type + "'");
        s.bytes.resize(4);
        storeValue(s.bytes.data(), n, valueOf(v, n, line));
        p.specializations.push_back(std::move(s));
      } else {
        throw ScriptError(c.line(), "expected ENTRY_POINT or SPECIALIZE in ATTACH, found '" + key + "'");
      }
    }
  }

  // BIND BUFFER name AS storage|uniform [DESCRIPTOR_SET s] BINDING b, BIND BUFFER name AS push_constant; BIND
  // BUFFER_ARRAY name1 name2 … AS storage|uniform … binds an array of descriptors, one buffer per element, and takes
  // one OFFSET, DESCRIPTOR_OFFSET and DESCRIPTOR_RANGE value per buffer.
  void bind(Cursor& c, Pipeline& p) {
    const std::string what = c.next("BUFFER");
    if (what == "SAMPLER" || what == "SAMPLER_ARRAY") throw Unsupported(c.line(), "BIND " + what + " (samplers)");
    if (what == "ACCELERATION_STRUCTURE") throw Unsupported(c.line(), "BIND ACCELERATION_STRUCTURE (ray tracing)");
    if (what != "BUFFER" && what != "BUFFER_ARRAY")
      throw ScriptError(c.line(), "expected BUFFER or BUFFER_ARRAY after BIND, found '" + what + "'");
    const bool array = what == "BUFFER_ARRAY";
    std::vector<std::string> names;
    do {
      names.push_back(c.next("a buffer name"));
      if (!script_.buffer(names.back())) throw ScriptError(c.line(), "unknown buffer '" + names.back() + "'");
    } while (array && c.peek() && *c.peek() != "AS" && *c.peek() != "KERNEL");
    const std::string bound = what + " " + names[0] + (names.size() > 1 ? " …" : "");
    if (!c.accept("AS")) {
      if (c.peek() && *c.peek() == "KERNEL") throw Unsupported(c.line(), "BIND … KERNEL (OpenCL-C kernel arguments)");
      throw ScriptError(c.line(), "expected AS after BIND " + bound);
    }
    Binding b;
    b.line = c.line();
    const std::string kind = c.next("a buffer type");
    if (kind == "storage")
      b.kind = BindingKind::Storage;
    else if (kind == "uniform")
      b.kind = BindingKind::Uniform;
    else if (kind == "push_constant")
      b.kind = BindingKind::PushConstant;
    else if (kind == "color" || kind == "depth_stencil" || kind == "resolve")
      throw Unsupported(c.line(), "a " + kind + " attachment (graphics)");
    else if (kind == "storage_image" || kind == "sampled_image" || kind == "combined_image_sampler")
      throw Unsupported(c.line(), "a " + kind + " (images)");
    else if (kind == "uniform_texel_buffer" || kind == "storage_texel_buffer")
      throw Unsupported(c.line(), "a " + kind + " (texel buffers)");
    else if (kind == "uniform_dynamic")
      b.kind = BindingKind::Uniform;
    else if (kind == "storage_dynamic")
      b.kind = BindingKind::Storage;
    else
      throw ScriptError(c.line(), "unknown buffer type '" + kind + "'");
    std::vector<Binding> bindings(names.size(), b);
    for (size_t i = 0; i < names.size(); ++i) {
      bindings[i].buffer = names[i];
      bindings[i].arrayElement = uint32_t(i);
    }
    if (b.kind == BindingKind::PushConstant) {
      if (array)
        throw ScriptError(c.line(), "BIND BUFFER_ARRAY of push constants: a pipeline has one push-constant block");
      c.end("BIND");
      for (const auto& o : p.bindings)  // a derived pipeline replaces its parent's (bound before its own line)
        if (o.kind == BindingKind::PushConstant && o.line > p.line)
          throw ScriptError(c.line(), "pipeline " + p.name + " already has a push constant buffer");
    } else {
      if (c.accept("DESCRIPTOR_SET")) b.set = c.uint32("the descriptor set");
      c.expect("BINDING", "BIND " + bound + " AS " + kind);
      b.binding = c.uint32("the binding");
      for (auto& e : bindings) {
        e.set = b.set;
        e.binding = b.binding;
      }
      // A dynamic buffer's OFFSET is added to its DESCRIPTOR_OFFSET, as vkCmdBindDescriptorSets adds the dynamic
      // offset to the descriptor's (the shader sees the same kind of block either way).
      if (kind.ends_with("_dynamic")) {
        c.expect("OFFSET", "BINDING of a " + kind + " buffer");
        for (auto& e : bindings) e.offset = c.integer("the dynamic offset");
      }
      if (c.accept("DESCRIPTOR_OFFSET"))
        for (auto& e : bindings) e.offset += c.integer("the descriptor offset");
      if (c.accept("DESCRIPTOR_RANGE"))
        for (auto& e : bindings) {
          const std::string r = c.next("the descriptor range");
          const auto v = parseValue(r);
          if (!v || !v->isInteger) throw ScriptError(c.line(), "expected the descriptor range, found '" + r + "'");
          if (r != "-1") e.range = v->integer;  // -1: VK_WHOLE_SIZE
        }
      c.end("BIND");
    }
    // A binding replaces the parent's at the same place (DERIVE_PIPELINE).
    std::erase_if(p.bindings, [&](const Binding& o) {
      const bool push = o.kind == BindingKind::PushConstant;
      if (push != (b.kind == BindingKind::PushConstant)) return false;
      return push || (o.set == b.set && o.binding == b.binding);
    });
    for (auto& e : bindings) p.bindings.push_back(std::move(e));
  }

  void deviceFeature(Cursor& c) {
    const std::string f = c.next("a feature name");
    c.end("DEVICE_FEATURE");
    if (!deviceHasFeature(f)) throw Unsupported(c.line(), "DEVICE_FEATURE " + f);
    script_.deviceFeatures.push_back(f);
  }

  void extension(Cursor& c, bool device) {
    const std::string e = c.next("an extension name");
    c.end(device ? "DEVICE_EXTENSION" : "INSTANCE_EXTENSION");
    if (device ? !deviceHasExtension(e) : !instanceHasExtension(e))
      throw Unsupported(c.line(), std::string(device ? "DEVICE_EXTENSION " : "INSTANCE_EXTENSION ") + e);
    if (device) script_.deviceExtensions.push_back(e);
    // CTS runs the scripts that need VK_KHR_spirv_1_4 with SPIR-V 1.4 shaders.
    if (device && e == "VK_KHR_spirv_1_4") script_.defaultTargetEnv = "spv1.4";
  }

  // SET ENGINE_DATA fence_timeout_ms value — amber_script.md "Setting Engine Configuration".
  void set(Cursor& c) {
    c.expect("ENGINE_DATA", "SET");
    const std::string var = c.next("an engine data variable");
    if (var != "fence_timeout_ms") throw ScriptError(c.line(), "unknown engine data variable '" + var + "'");
    script_.fenceTimeoutMs = c.uint32("the timeout in milliseconds");
    c.end("SET ENGINE_DATA");
  }

  // RUN, REPEAT, COPY, EXPECT, CLEAR* — a command that runs in order.
  Command command(Cursor& c, const std::string& cmd) {
    Command k;
    k.line = c.line();
    k.text = c.text();
    if (cmd == "RUN") {
      k.kind = Command::Kind::Run;
      k.pipeline = c.next("a pipeline name");
      if (!script_.pipeline(k.pipeline)) throw ScriptError(c.line(), "unknown pipeline '" + k.pipeline + "'");
      if (c.peek() && (*c.peek() == "DRAW_RECT" || *c.peek() == "DRAW_GRID" || *c.peek() == "DRAW_ARRAY"))
        throw Unsupported(c.line(), "RUN … " + *c.peek() + " (graphics)");
      for (auto& g : k.groups) g = c.uint32("the work-group count");
      c.end("RUN");
    } else if (cmd == "REPEAT") {
      k.kind = Command::Kind::Repeat;
      k.count = c.uint32("the repeat count");
      c.end("REPEAT");
      for (;;) {
        Cursor l = blockLine(k.line, "REPEAT");
        const std::string inner = l.next("a command");
        if (inner == "END") {
          l.end("REPEAT");
          break;
        }
        k.body.push_back(command(l, inner));
      }
    } else if (cmd == "COPY") {
      k.kind = Command::Kind::Copy;
      k.buffer = c.next("the source buffer");
      c.expect("TO", "COPY " + k.buffer);
      k.other = c.next("the destination buffer");
      c.end("COPY");
      const Buffer* from = knownBuffer(c, k.buffer);
      const Buffer* to = knownBuffer(c, k.other);
      // amber_script.md "Buffer Copy": "Both buffers must be declared, and of the same data type."
      if (elementLayout(from->type, from->layout).size != elementLayout(to->type, to->layout).size ||
          from->type.number.kind != to->type.number.kind || from->type.number.bits != to->type.number.bits)
        throw ScriptError(c.line(), "COPY between buffers of different data types");
    } else if (cmd == "EXPECT") {
      expect(c, k);
    } else if (cmd == "CLEAR" || cmd == "CLEAR_COLOR" || cmd == "CLEAR_DEPTH" || cmd == "CLEAR_STENCIL") {
      throw Unsupported(c.line(), cmd + " (graphics)");
    } else if (cmd == "END") {
      throw ScriptError(c.line(), "END without a block to end");
    } else {
      throw ScriptError(c.line(), "unknown command '" + cmd + "'");
    }
    return k;
  }

  const Buffer* knownBuffer(const Cursor& c, const std::string& name) {
    const Buffer* b = script_.buffer(name);
    if (!b) throw ScriptError(c.line(), "unknown buffer '" + name + "'");
    return b;
  }

  // EXPECT buf IDX x [TOLERANCE t…] CMP values…, EXPECT buf EQ_BUFFER other, EXPECT buf RMSE_BUFFER other TOLERANCE t
  // — amber_script.md "Expectations".
  void expect(Cursor& c, Command& k) {
    k.buffer = c.next("a buffer name");
    const Buffer* b = knownBuffer(c, k.buffer);
    const std::string form = c.next("IDX, EQ_BUFFER or RMSE_BUFFER");
    if (form == "EQ_BUFFER" || form == "RMSE_BUFFER") {
      k.kind = form == "EQ_BUFFER" ? Command::Kind::ExpectEqBuffer : Command::Kind::ExpectRmseBuffer;
      k.other = c.next("the buffer to compare with");
      knownBuffer(c, k.other);
      if (k.kind == Command::Kind::ExpectRmseBuffer) {
        c.expect("TOLERANCE", "RMSE_BUFFER " + k.other);
        k.tolerance = c.real("the tolerance");
      }
      c.end("EXPECT");
      return;
    }
    if (form == "EQ_HISTOGRAM_EMD_BUFFER") throw Unsupported(c.line(), "EXPECT … EQ_HISTOGRAM_EMD_BUFFER");
    if (form != "IDX") throw ScriptError(c.line(), "expected IDX, EQ_BUFFER or RMSE_BUFFER, found '" + form + "'");
    k.kind = Command::Kind::ExpectValues;
    k.offset = c.integer("the byte offset after IDX");
    const std::string* p = c.peek();
    if (p && parseValue(*p)) {  // IDX x y: a pixel of an image
      throw Unsupported(c.line(), "EXPECT … IDX x y (image probes)");
    }
    if (c.accept("TOLERANCE")) {
      while (c.peek() && *c.peek() != "EQ") {
        std::string t = c.next("a tolerance");
        Tolerance tol;
        if (!t.empty() && t.back() == '%') {
          tol.percent = true;
          t.pop_back();
        }
        const auto v = parseValue(t);
        if (!v) throw ScriptError(c.line(), "expected a tolerance, found '" + t + "'");
        tol.value = v->real;
        k.tolerances.push_back(tol);
      }
      if (k.tolerances.empty() || k.tolerances.size() > 4) throw ScriptError(c.line(), "TOLERANCE takes 1 to 4 values");
      c.expect("EQ", "TOLERANCE");
      k.comparator = Comparator::Eq;
    } else {
      const std::string cmp = c.next("a comparator");
      if (cmp == "EQ")
        k.comparator = Comparator::Eq;
      else if (cmp == "NE")
        k.comparator = Comparator::Ne;
      else if (cmp == "LT")
        k.comparator = Comparator::Lt;
      else if (cmp == "LE")
        k.comparator = Comparator::Le;
      else if (cmp == "GT")
        k.comparator = Comparator::Gt;
      else if (cmp == "GE")
        k.comparator = Comparator::Ge;
      else if (cmp == "EQ_RGB" || cmp == "EQ_RGBA")
        throw Unsupported(c.line(), "EXPECT … " + cmp + " (images)");
      else
        throw ScriptError(c.line(), "expected a comparator (EQ, NE, LT, LE, GT, GE), found '" + cmp + "'");
    }
    while (!c.atEnd()) k.values.push_back(value(c, b->type.number, "a value"));
    if (k.values.empty()) throw ScriptError(c.line(), "EXPECT needs at least one value");
  }

  std::vector<std::string> lines_;
  size_t next_ = 0;
  std::string directory_;
  std::map<std::string, std::pair<std::string, int>> virtualFiles_;  // path → (text, first line)
  bool binaryContents_ = false;  // the buffer being parsed was filled by FILE BINARY
  Script script_;
};

}  // namespace

// The device features (VkPhysicalDeviceFeatures members, amber's Struct.member names) clref's shader execution has;
// every other is unsupported. Variable pointers are not among them: the interpreter refuses the VariablePointers
// capabilities.
bool deviceHasFeature(std::string_view f) {
  static const char* kHas[] = {"shaderInt64",
                               "shaderFloat64",
                               "shaderInt16",
                               "Float16Int8Features.shaderFloat16",
                               "Float16Int8Features.shaderInt8",
                               "Storage8BitFeatures.storageBuffer8BitAccess",
                               "Storage8BitFeatures.uniformAndStorageBuffer8BitAccess",
                               "Storage8BitFeatures.storagePushConstant8",
                               "Storage16BitFeatures.storageBuffer16BitAccess",
                               "Storage16BitFeatures.uniformAndStorageBuffer16BitAccess",
                               "Storage16BitFeatures.storagePushConstant16",
                               "VulkanMemoryModelFeatures.vulkanMemoryModel",
                               "VulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope",
                               "SubgroupSupportedStages.compute",
                               "SubgroupSupportedOperations.basic",
                               "SubgroupSupportedOperations.vote",
                               "SubgroupSupportedOperations.arithmetic",
                               "SubgroupSupportedOperations.ballot",
                               "SubgroupSupportedOperations.shuffle",
                               "SubgroupSupportedOperations.shuffleRelative",
                               "SubgroupSupportedOperations.clustered",
                               "ZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory",
                               "SubgroupSizeControl.subgroupSizeControl",
                               "SubgroupSizeControl.computeFullSubgroups",
                               "ScalarBlockLayoutFeatures.scalarBlockLayout"};
  for (const char* h : kHas)
    if (f == h) return true;
  return false;
}

bool deviceHasExtension(std::string_view e) {
  static const char* kDevice[] = {"VK_KHR_storage_buffer_storage_class",
                                  "VK_KHR_16bit_storage",
                                  "VK_KHR_8bit_storage",
                                  "VK_KHR_shader_float16_int8",
                                  "VK_KHR_vulkan_memory_model",
                                  "VK_KHR_spirv_1_4",
                                  "VK_KHR_shader_non_semantic_info",
                                  "VK_KHR_shader_terminate_invocation",
                                  "VK_KHR_shader_subgroup_extended_types",
                                  "VK_KHR_zero_initialize_workgroup_memory"};
  for (const char* h : kDevice)
    if (e == h) return true;
  return false;
}

bool instanceHasExtension(std::string_view e) { return e == "VK_KHR_get_physical_device_properties2"; }

ElementLayout elementLayout(const DataType& type, Layout layout) {
  ElementLayout l;
  const uint32_t bytes = type.number.bytes();
  const bool pad = type.rows == 3 || (layout == Layout::Std140 && (type.isMatrix() || type.isArray));
  const uint32_t rowsStored = pad ? 4 : type.rows;
  for (uint32_t col = 0; col < type.columns; ++col)
    for (uint32_t row = 0; row < type.rows; ++row) l.offsets.push_back((col * rowsStored + row) * bytes);
  l.size = type.columns * rowsStored * bytes;
  return l;
}

std::optional<DataType> parseDataType(std::string_view text) {
  DataType t;
  if (text.size() > 2 && text.substr(text.size() - 2) == "[]") {
    t.isArray = true;
    text.remove_suffix(2);
  }
  if (const auto n = parseNumberType(text)) {
    t.number = *n;
    return t;
  }
  const size_t open = text.find('<');
  if (open == std::string_view::npos || text.back() != '>') return std::nullopt;
  const auto n = parseNumberType(text.substr(open + 1, text.size() - open - 2));
  if (!n) return std::nullopt;
  t.number = *n;
  const std::string_view head = text.substr(0, open);
  const auto digit = [](char c) -> uint32_t { return c >= '2' && c <= '4' ? uint32_t(c - '0') : 0; };
  if (head.size() == 4 && head.substr(0, 3) == "vec" && digit(head[3])) {
    t.rows = digit(head[3]);
    return t;
  }
  if (head.size() == 6 && head.substr(0, 3) == "mat" && head[4] == 'x' && digit(head[3]) && digit(head[5])) {
    t.columns = digit(head[3]);  // mat<columns>x<rows>
    t.rows = digit(head[5]);
    return t;
  }
  return std::nullopt;
}

std::optional<DataType> parseFormat(std::string_view text) {
  // R32G32B32A32_SFLOAT: channels R, G, B, A in order, each with its bits, then one numeric format.
  const size_t us = text.rfind('_');
  if (us == std::string_view::npos) return std::nullopt;
  const std::string_view mode = text.substr(us + 1);
  std::string_view channels = text.substr(0, us);
  NumberKind kind;
  if (mode == "UINT")
    kind = NumberKind::Uint;
  else if (mode == "SINT")
    kind = NumberKind::Int;
  else if (mode == "SFLOAT")
    kind = NumberKind::Float;
  else
    return std::nullopt;
  static const char kOrder[] = "RGBA";
  uint32_t count = 0, bits = 0;
  while (!channels.empty()) {
    if (count >= 4 || channels[0] != kOrder[count]) return std::nullopt;
    size_t i = 1;
    uint32_t b = 0;
    while (i < channels.size() && std::isdigit(static_cast<unsigned char>(channels[i])))
      b = b * 10 + uint32_t(channels[i++] - '0');
    if (count > 0 && b != bits) return std::nullopt;
    bits = b;
    ++count;
    channels.remove_prefix(i);
  }
  if (count == 0 || !(bits == 8 || bits == 16 || bits == 32 || bits == 64)) return std::nullopt;
  if (kind == NumberKind::Float && bits == 8) return std::nullopt;
  DataType t;
  t.number = {kind, bits};
  t.rows = count;
  return t;
}

const Buffer* Script::buffer(const std::string& n) const {
  for (const auto& b : buffers)
    if (b.name == n) return &b;
  return nullptr;
}
const Shader* Script::shader(const std::string& n) const {
  for (const auto& s : shaders)
    if (s.name == n) return &s;
  return nullptr;
}
const Pipeline* Script::pipeline(const std::string& n) const {
  for (const auto& p : pipelines)
    if (p.name == n) return &p;
  return nullptr;
}

Script parseScript(const std::string& text, const std::string& name, const std::string& directory) {
  // amber_script.md: "All amber scripts must start with #!amber"; amber reads any other script as VkScript.
  if (text.rfind("#!amber", 0) != 0) return parseVkScript(text, name);
  return Parser(text, name, directory).parse();
}

}  // namespace clref::cli::amber
