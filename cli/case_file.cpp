// Reading case files (golden/README.md "Case file format"). Every error names the file and
// the JSON path of the field, so a wrong case is fixed without guessing.
#include "cli/case_file.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "cli/buffer_init.hpp"
#include "cli/image_args.hpp"
#include "cli/value_syntax.hpp"

namespace clref::cli {

namespace {

using detail::element;
using detail::fail;
using detail::member;
using detail::onlyKeys;
using detail::required;
using detail::shortText;
using nlohmann::json;

// Deeper nesting is no case file (golden/README.md: an argument's init value is 6 levels down). The limit also keeps
// every recursive walk over a value (comparison, serialisation) far from the stack's end.
constexpr size_t kMaxNesting = 32;

std::string stringField(const json& v, const std::string& path) {
  if (!v.is_string()) fail(path, "expected a string");
  return v.get<std::string>();
}

uint64_t unsignedField(const json& v, const std::string& path) {
  if (!v.is_number_unsigned()) fail(path, "expected a non-negative integer");
  return v.get<uint64_t>();
}

uint64_t positiveField(const json& v, const std::string& path) {
  if (!v.is_number_unsigned() || v.get<uint64_t>() == 0) fail(path, "expected a positive integer");
  return v.get<uint64_t>();
}

ScalarType typeField(const json& v, const std::string& path) {
  const auto name = stringField(v, path);
  if (auto t = parseElementType(name)) return *t;
  fail(path, "unknown type " + shortText(name) +
                 " (expected char, uchar, short, ushort, int, uint, long, ulong, half, "
                 "float or double)");
}

// A list of 1 to 3 sizes, one per dimension.
std::vector<size_t> sizesField(const json& v, const std::string& path, bool positive) {
  if (!v.is_array() || v.empty() || v.size() > 3) fail(path, "expected an array of 1 to 3 integers");
  std::vector<size_t> sizes;
  for (size_t i = 0; i < v.size(); ++i)
    sizes.push_back(positive ? positiveField(v[i], element(path, i)) : unsignedField(v[i], element(path, i)));
  return sizes;
}

host::NDRange ndrangeField(const json& v, const std::string& path) {
  onlyKeys(v, path, {"global", "local", "offset"});
  host::NDRange range;
  const auto global = sizesField(required(v, "global", path), member(path, "global"), false);
  range.dims = unsigned(global.size());
  std::copy(global.begin(), global.end(), range.global.begin());
  if (v.contains("local")) {
    const auto p = member(path, "local");
    const auto local = sizesField(v["local"], p, true);
    if (local.size() != global.size()) fail(p, "expected " + std::to_string(global.size()) + " sizes, as in global");
    range.local = std::array<size_t, 3>{1, 1, 1};
    std::copy(local.begin(), local.end(), range.local->begin());
  }
  if (v.contains("offset")) {
    const auto p = member(path, "offset");
    const auto offset = sizesField(v["offset"], p, false);
    if (offset.size() != global.size()) fail(p, "expected " + std::to_string(global.size()) + " offsets, as in global");
    std::copy(offset.begin(), offset.end(), range.offset.begin());
  }
  return range;
}

// A scalar or vector by value. OpenCL C 3.0 §6.3.5 [[alignment-of-types]]: a 3-component vector has the size of the
// 4-component one, so 3 values are padded with a zero element.
std::vector<uint8_t> valueBytes(ScalarType type, const json& v, const std::string& path) {
  std::vector<uint64_t> elements;
  if (v.is_array()) {
    const size_t n = v.size();
    if (n != 1 && n != 2 && n != 3 && n != 4 && n != 8 && n != 16)
      fail(path, "a vector has 2, 3, 4, 8 or 16 components, got " + std::to_string(n));
    for (size_t i = 0; i < n; ++i) elements.push_back(detail::elementBits(type, v[i], element(path, i)));
    if (n == 3) elements.push_back(0);
  } else {
    elements.push_back(detail::elementBits(type, v, path));
  }
  std::vector<uint8_t> bytes(elements.size() * sizeOf(type));
  for (size_t i = 0; i < elements.size(); ++i)
    detail::storeBits(type, elements[i], reinterpret_cast<std::byte*>(bytes.data()) + i * sizeOf(type));
  return bytes;
}

std::vector<uint8_t> hexBytes(const json& v, const std::string& path) {
  const auto text = stringField(v, path);
  std::string digits;
  for (char ch : text)
    if (ch != ' ' && ch != '_') digits.push_back(ch);  // separators for readability
  if (digits.empty() || digits.size() % 2 != 0) fail(path, "expected an even, non-zero number of hex digits");
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < digits.size(); i += 2) {
    const std::string pair = digits.substr(i, 2);
    if (pair.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
      fail(path, shortText(pair) + " is not a hex byte");
    bytes.push_back(uint8_t(std::stoul(pair, nullptr, 16)));
  }
  return bytes;
}

ArgSpec argField(const json& v, const std::string& path) {
  constexpr std::string_view kinds = "buffer, scalar, local, null, bytes, image, sampler";
  // A shader's argument also names its resource: "set" and "binding" (and "element" of an array of blocks), or
  // "push_constant".
  ArgSpec arg;
  json rest = v;
  if (v.is_object() &&
      (v.contains("binding") || v.contains("set") || v.contains("element") || v.contains("push_constant"))) {
    if (v.contains("push_constant")) {
      if (v["push_constant"] != json(true)) fail(member(path, "push_constant"), "expected true");
      if (v.contains("binding") || v.contains("set") || v.contains("element"))
        fail(path, "a push-constant block has no descriptor set or binding");
      arg.pushConstant = true;
    } else {
      if (!v.contains("binding"))
        fail(path, std::string(v.contains("set") ? "\"set\"" : "\"element\"") + " needs a \"binding\"");
      const uint64_t set = v.contains("set") ? unsignedField(v["set"], member(path, "set")) : 0;
      const uint64_t binding = unsignedField(v["binding"], member(path, "binding"));
      const uint64_t element = v.contains("element") ? unsignedField(v["element"], member(path, "element")) : 0;
      if (set > UINT32_MAX || binding > UINT32_MAX || element > UINT32_MAX)
        fail(path, "a set, binding or element beyond 32 bits");
      arg.binding = std::array<uint32_t, 3>{uint32_t(set), uint32_t(binding), uint32_t(element)};
    }
    rest.erase("set");
    rest.erase("binding");
    rest.erase("element");
    rest.erase("push_constant");
  }
  if (!rest.is_object() || rest.size() != 1) fail(path, "expected an object with exactly one of " + std::string(kinds));
  const std::string kind = rest.begin().key();
  const json& spec = rest.begin().value();
  const auto p = member(path, kind);
  if (kind == "buffer") {
    onlyKeys(spec, p, {"type", "count", "init", "output", "judge_as_parameter"});
    arg.kind = ArgSpec::Kind::Buffer;
    auto& b = arg.buffer;
    b.type = typeField(required(spec, "type", p), member(p, "type"));
    b.count = unsignedField(required(spec, "count", p), member(p, "count"));
    // The device's limit (DeviceConfig::maxMemAllocSize) is checked by runCase; here only that the size is a number.
    if (b.count > SIZE_MAX / sizeOf(b.type))
      fail(member(p, "count"), std::to_string(b.count) + " elements of " + std::string(toString(b.type)) +
                                   " are more bytes than a size_t holds");
    if (spec.contains("output")) {
      if (!spec["output"].is_boolean()) fail(member(p, "output"), "expected true or false");
      b.output = spec["output"].get<bool>();
    }
    if (spec.contains("judge_as_parameter")) {
      if (!spec["judge_as_parameter"].is_boolean()) fail(member(p, "judge_as_parameter"), "expected true or false");
      b.judgeAsParameter = spec["judge_as_parameter"].get<bool>();
    }
    if (spec.contains("init")) {
      detail::applyInit(b.type, b.count, spec["init"], member(p, "init"), {}, nullptr);  // check only
      b.initJson = spec["init"].dump();
    }
  } else if (kind == "scalar") {
    onlyKeys(spec, p, {"type", "value"});
    arg.kind = ArgSpec::Kind::Value;
    arg.value = valueBytes(typeField(required(spec, "type", p), member(p, "type")), required(spec, "value", p),
                           member(p, "value"));
  } else if (kind == "local") {
    arg.kind = ArgSpec::Kind::Local;
    arg.localBytes = positiveField(spec, p);
  } else if (kind == "null") {
    if (spec != json(true)) fail(p, "expected true");
    arg.kind = ArgSpec::Kind::Null;
  } else if (kind == "bytes") {
    arg.kind = ArgSpec::Kind::Value;
    arg.value = hexBytes(spec, p);
  } else if (kind == "image") {
    arg.kind = ArgSpec::Kind::Image;
    arg.image = detail::imageField(spec, p);
  } else if (kind == "sampler") {
    arg.kind = ArgSpec::Kind::Sampler;
    arg.sampler = detail::samplerField(spec, p);
  } else {
    fail(p, "unknown argument kind (expected one of " + std::string(kinds) + ")");
  }
  return arg;
}

// "spec_constants": {"<SpecId>": {"type": T, "value": V}}; T may also be "bool" for
// OpSpecConstantTrue/False (OpenCL 3.0 API §5.8.3 [[_setting_spir_v_specialization_constants]]: a bool specialization
// constant is 1 byte).
std::vector<std::pair<uint32_t, std::vector<uint8_t>>> specConstantsField(const json& v, const std::string& path) {
  if (!v.is_object()) fail(path, "expected an object keyed by SpecId");
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> out;
  for (const auto& item : v.items()) {
    const auto p = member(path, item.key());
    uint32_t id = 0;
    try {
      size_t used = 0;
      const unsigned long parsed = std::stoul(item.key(), &used, 10);
      if (used != item.key().size() || parsed > UINT32_MAX || item.key()[0] == '-') throw std::invalid_argument("");
      id = uint32_t(parsed);
    } catch (const std::exception&) { fail(p, "a SpecId is a non-negative decimal integer"); }
    const json& spec = item.value();
    onlyKeys(spec, p, {"type", "value"});
    const json& typeJson = required(spec, "type", p);
    const json& value = required(spec, "value", p);
    if (typeJson == "bool") {
      if (!value.is_boolean()) fail(member(p, "value"), "expected true or false");
      out.emplace_back(id, std::vector<uint8_t>{uint8_t(value.get<bool>() ? 1 : 0)});
      continue;
    }
    const ScalarType type = typeField(typeJson, member(p, "type"));
    if (value.is_array()) fail(member(p, "value"), "a specialization constant is a scalar");
    out.emplace_back(id, valueBytes(type, value, member(p, "value")));
  }
  return out;
}

// OpenCL 3.0 API §5.8.6 [[compiler-options]]: only the options clBuildProgram accepts (the OpenCL API's own parser),
// and -O0 for unoptimised SPIR-V; anything else would reach clang as it is (-Xclang -load, -o, ...).
std::vector<std::string> buildOptionsField(const std::string& text, const std::string& path) {
  host::BuildOptions options;
  if (!host::parseBuildOptions(text.c_str(), host::BuildStep::Build, options, {"-O0"}))
    fail(path, shortText(options.rejected) +
                   " is not an OpenCL build option (OpenCL 3.0 API §5.8.6 [[compiler-options]]; also accepted: -O0)");
  return options.compiler;
}

std::vector<std::string> choicesField(const json& v, const std::string& path) {
  if (!v.is_array()) fail(path, "expected an array of \"name=option\" strings");
  std::vector<std::string> out;
  numerics::Choices check;
  for (size_t i = 0; i < v.size(); ++i) {
    const auto p = element(path, i);
    out.push_back(stringField(v[i], p));
    try {
      check.set(out.back());
    } catch (const std::invalid_argument& e) { fail(p, e.what()); }
  }
  return out;
}

// "device_queue": {"size": BYTES} (size optional: CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE).
uint64_t deviceQueueField(const json& v, const std::string& path) {
  if (!v.is_object()) fail(path, "expected an object, e.g. {\"size\": 16384}");
  onlyKeys(v, path, {"size"});
  if (!v.contains("size")) return host::kDeviceQueuePreferredSize;
  // Its upper bound is host::DeviceQueue's to check (prepareCase names this field in its error).
  return positiveField(v["size"], path + ".size");
}

}  // namespace

std::string resourceLabel(const ArgSpec& arg) {
  if (arg.pushConstant) return ": push constants";
  if (!arg.binding) return "";
  return ": set " + std::to_string((*arg.binding)[0]) + " binding " + std::to_string((*arg.binding)[1]) +
         ((*arg.binding)[2] ? " element " + std::to_string((*arg.binding)[2]) : "");
}

namespace {

Case caseFromJson(const json& root, const std::filesystem::path& file) {
  onlyKeys(root, "",
           {"module", "build_options", "kernel", "ndrange", "dispatch", "args", "spec_constants", "choices",
            "instruction_budget", "device_queue"});
  Case c;
  c.file = file;
  const auto module = stringField(required(root, "module", ""), "module");
  if (module.empty()) fail("module", "expected a file name");
  c.module = file.parent_path() / module;
  if (root.contains("build_options")) {
    c.buildOptions = stringField(root["build_options"], "build_options");
    buildOptionsField(c.buildOptions, "build_options");
  }
  // A compute shader's case gives "dispatch" (work-groups) where a kernel's gives "ndrange", and its entry point is
  // "main" unless "kernel" names another.
  if (root.contains("dispatch") == root.contains("ndrange"))
    fail(root.contains("dispatch") ? "dispatch" : "ndrange",
         "expected exactly one of ndrange (an OpenCL kernel's) and dispatch (a compute shader's work-groups)");
  if (root.contains("dispatch")) {
    const auto groups = sizesField(root["dispatch"], "dispatch", true);
    c.dispatch = std::array<uint32_t, 3>{1, 1, 1};
    for (size_t d = 0; d < groups.size(); ++d) {
      if (groups[d] > UINT32_MAX) fail(element("dispatch", d), "a work-group count beyond 32 bits");
      (*c.dispatch)[d] = uint32_t(groups[d]);
    }
    c.kernel = root.contains("kernel") ? stringField(root["kernel"], "kernel") : "main";
  } else {
    c.kernel = stringField(required(root, "kernel", ""), "kernel");
    c.range = ndrangeField(root["ndrange"], "ndrange");
  }
  const json& args = required(root, "args", "");
  if (!args.is_array()) fail("args", "expected an array");
  for (size_t i = 0; i < args.size(); ++i) c.args.push_back(argField(args[i], element("args", i)));
  // A shader's arguments are its resources in descriptor set and binding order, the push constants last (the host
  // API's order, host::KernelArgInfo::resource): the case may list them in any order.
  size_t named = 0;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const bool hasResource = c.args[i].binding || c.args[i].pushConstant;
    named += hasResource;
    if (hasResource && !c.dispatch)
      fail(element("args", i), "set, binding and push_constant are for a compute shader's case (with dispatch)");
    if (!hasResource && c.dispatch)
      fail(element("args", i), "a compute shader's argument names its \"binding\" (and \"set\") or is "
                               "\"push_constant\": true");
  }
  if (named) {
    const auto key = [](const ArgSpec& a) {
      return a.pushConstant ? std::array<uint64_t, 3>{uint64_t(1) << 32, 0, 0}
                            : std::array<uint64_t, 3>{(*a.binding)[0], (*a.binding)[1], (*a.binding)[2]};
    };
    std::stable_sort(c.args.begin(), c.args.end(), [&](const ArgSpec& a, const ArgSpec& b) { return key(a) < key(b); });
    for (size_t i = 1; i < c.args.size(); ++i)
      if (key(c.args[i]) == key(c.args[i - 1]))
        fail("args", c.args[i].pushConstant ? "two push-constant blocks"
                                            : "two arguments bind set " + std::to_string((*c.args[i].binding)[0]) +
                                                  " binding " + std::to_string((*c.args[i].binding)[1]) + " element " +
                                                  std::to_string((*c.args[i].binding)[2]));
  }
  if (root.contains("spec_constants")) c.specConstants = specConstantsField(root["spec_constants"], "spec_constants");
  if (root.contains("choices")) c.choices = choicesField(root["choices"], "choices");
  if (root.contains("instruction_budget"))
    c.instructionBudget = positiveField(root["instruction_budget"], "instruction_budget");
  if (root.contains("device_queue")) c.deviceQueueSize = deviceQueueField(root["device_queue"], "device_queue");
  return c;
}

CaseError caseError(const std::filesystem::path& file, const detail::FieldError& e) {
  return CaseError(file.string() + ": " + e.path + ": " + e.message);
}

// Parses `text`, tracking the JSON path of the value being read: nlohmann's own errors name no field (a number
// beyond double, out_of_range.406, names only the number), and nesting beyond kMaxNesting is refused before it can
// exhaust the stack.
json parseCaseJson(std::string_view text) {
  struct Frame {
    bool array = false;
    size_t index = 0;  // array: the element being read
    std::string key;   // object: the member being read
  };
  std::vector<Frame> stack;
  const auto here = [&stack] {
    std::string path;
    for (const auto& f : stack) path = f.array ? element(path, f.index) : member(path, f.key);
    return path.empty() ? std::string("(top level)") : path;
  };
  using Event = json::parse_event_t;
  const json::parser_callback_t track = [&](int, Event event, json& parsed) {
    switch (event) {
      case Event::object_start:
      case Event::array_start:
        if (stack.size() >= kMaxNesting)
          fail(here(), "nested more than " + std::to_string(kMaxNesting) + " levels deep");
        stack.push_back({event == Event::array_start, 0, ""});
        break;
      case Event::key: stack.back().key = parsed.get<std::string>(); break;
      case Event::object_end:
      case Event::array_end:
        stack.pop_back();
        if (!stack.empty() && stack.back().array) ++stack.back().index;
        break;
      case Event::value:
        if (!stack.empty() && stack.back().array) ++stack.back().index;
        break;
    }
    return true;
  };
  try {
    return json::parse(text, track, /*allow_exceptions=*/true, /*ignore_comments=*/true);
  } catch (const json::out_of_range& e) {
    // 406: a number whose magnitude is beyond double ("1e400").
    if (e.id == 406) fail(here(), "a number beyond the range of double (write \"inf\" for infinity)");
    throw;
  }
}

}  // namespace

std::optional<ScalarType> parseElementType(std::string_view name) {
  const auto t = numerics::parseScalarType(name);
  if (t == ScalarType::Bool) return std::nullopt;
  return t;
}

Case loadCase(const std::filesystem::path& file) {
  // A directory opens as a stream on Linux and fails only while reading (std::ios_base::failure).
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) throw CaseError(file.string() + ": a directory, not a case file");
  std::string text;
  try {
    text = detail::readFile(file, "");
  } catch (const detail::FieldError& e) { throw CaseError(file.string() + ": " + e.message); }
  return parseCase(text, file);
}

Case parseCase(std::string_view text, const std::filesystem::path& file) {
  json root;
  try {
    root = parseCaseJson(text);
  } catch (const detail::FieldError& e) { throw caseError(file, e); } catch (const json::exception& e) {
    // e.what() is "[json.exception.parse_error.101] parse error at line L, column C: ...; last read: '...'", where
    // the last read token may be long: the message is cut.
    std::string message = e.what();
    if (auto pos = message.find("] "); pos != std::string::npos) message.erase(0, pos + 2);
    if (message.size() > 200) message = message.substr(0, 200) + "...";
    throw CaseError(file.string() + ": " + message);
  }
  try {
    return caseFromJson(root, file);
  } catch (const detail::FieldError& e) { throw caseError(file, e); }
}

void materializeInto(const Case& c, size_t argIndex, std::byte* out) {
  const auto path = "args[" + std::to_string(argIndex) + "].buffer.init";
  if (argIndex >= c.args.size() || c.args[argIndex].kind != ArgSpec::Kind::Buffer)
    throw CaseError(c.file.string() + ": args[" + std::to_string(argIndex) + "]: not a buffer argument");
  const BufferSpec& b = c.args[argIndex].buffer;
  if (b.initJson.empty()) return;  // no init: the zeros already there
  try {
    detail::applyInit(b.type, b.count, json::parse(b.initJson), path, c.file.parent_path(), out);
  } catch (const detail::FieldError& e) { throw caseError(c.file, e); }
}

std::vector<std::byte> materialize(const Case& c, size_t argIndex) {
  if (argIndex >= c.args.size() || c.args[argIndex].kind != ArgSpec::Kind::Buffer)
    throw CaseError(c.file.string() + ": args[" + std::to_string(argIndex) + "]: not a buffer argument");
  const BufferSpec& b = c.args[argIndex].buffer;
  std::vector<std::byte> bytes(b.count * sizeOf(b.type));
  materializeInto(c, argIndex, bytes.data());
  return bytes;
}

}  // namespace clref::cli
