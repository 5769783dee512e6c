// OpenCL.std printf (OpenCL C 3.0 §6.15.14 [[printf]]): the format string is read from (constant) memory
// at run time, every conversion is applied to the argument registers, and the text goes to
// the work-item's work-group buffer; the executor joins the buffers in work-group order, so the
// output is the same for every thread count. prefetch (§6.15.11 [[async-copies]]) is a hint: no effect.
#include <cstdio>
#include <string>

#include "interpreter/ops_common.hpp"
#include "numerics/opencl_std.hpp"

namespace clref::interpreter {
namespace {

struct PrintfArg {
  uint32_t reg;
  ScalarType kind;
  uint32_t lanes;
  bool pointer;
};
struct PrintfSpec {
  uint32_t format;  // register of the format pointer
  std::vector<PrintfArg> args;
};

// A NUL-terminated string from kernel memory, each byte checked like a load.
bool readString(WorkItem& wi, const Op* op, uint64_t ptr, std::string& out) {
  for (size_t n = 0; n < (1u << 20); ++n) {
    const uint8_t* p = access(wi, op, ptr + n, 1, 1, false);
    if (!p) return false;
    if (*p == 0) return true;
    out.push_back(char(*p));
  }
  return true;
}

// One lane of an argument as the conversion wants it.
uint64_t laneBits(const WorkItem& wi, const PrintfArg& a, uint32_t lane) {
  uint64_t v = 0;
  std::memcpy(&v, wi.regs + a.reg + lane * sizeOf(a.kind), sizeOf(a.kind));
  return v;
}
double laneDouble(const WorkItem& wi, const PrintfArg& a, uint32_t lane) {
  const uint64_t v = laneBits(wi, a, lane);
  switch (a.kind) {
    case ScalarType::Half: return numerics::toDouble(Half{uint16_t(v)});
    case ScalarType::Float: return double(std::bit_cast<float>(uint32_t(v)));
    case ScalarType::Double: return std::bit_cast<double>(v);
    default: return double(int64_t(v));
  }
}

const Op* printfOp(WorkItem& wi, const Op* op) {
  const auto& spec = *static_cast<const PrintfSpec*>(op->aux);
  const uint64_t fmtPtr =
      wi.launch->kernel->addressBits == 64 ? rd<uint64_t>(wi, spec.format) : rd<uint32_t>(wi, spec.format);
  std::string fmt, out;
  if (!readString(wi, op, fmtPtr, fmt)) return nullptr;
  size_t next = 0;
  int32_t status = 0;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out.push_back(fmt[i]);
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      out.push_back('%');
      ++i;
      continue;
    }
    // %[flags][width][.precision][vN][length]conversion (OpenCL C 3.0 §6.15.14.2 [[printf-format-string]]).
    size_t j = i + 1;
    std::string flags;
    while (j < fmt.size() && std::string_view("-+ #0").find(fmt[j]) != std::string_view::npos)
      flags.push_back(fmt[j++]);
    std::string width, precision;
    while (j < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[j]))) width.push_back(fmt[j++]);
    if (j < fmt.size() && fmt[j] == '.') {
      precision = ".";
      ++j;
      while (j < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[j]))) precision.push_back(fmt[j++]);
    }
    uint32_t vectorLanes = 0;
    if (j < fmt.size() && fmt[j] == 'v') {
      ++j;
      std::string n;
      while (j < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[j]))) n.push_back(fmt[j++]);
      vectorLanes = n.empty() ? 0 : uint32_t(std::stoul(n));
    }
    std::string length;
    while (j < fmt.size() && std::string_view("hlLzjt").find(fmt[j]) != std::string_view::npos)
      length.push_back(fmt[j++]);
    // C99's z, j and t (size_t, intmax_t, ptrdiff_t), which clang accepts, are as wide as l here.
    if (length == "z" || length == "j" || length == "t") length = "l";
    if (j >= fmt.size() || next >= spec.args.size()) {
      status = -1;  // malformed format or too few arguments: an error return, nothing printed for it
      break;
    }
    const char conv = fmt[j];
    const PrintfArg& arg = spec.args[next++];
    const uint32_t lanes = vectorLanes ? vectorLanes : 1;
    for (uint32_t lane = 0; lane < lanes; ++lane) {
      // vector components are separated by commas (OpenCL C 3.0 §6.15.14.2 [[printf-format-string]])
      if (lane) out.push_back(',');
      char buf[512];
      const std::string base = "%" + flags + width + precision;
      switch (conv) {
        case 'd':
        case 'i': {
          int64_t v = int64_t(laneBits(wi, arg, lane));
          const uint32_t b = sizeOf(arg.kind);
          if (b < 8) v = int64_t(v << (64 - 8 * b)) >> (64 - 8 * b);
          if (length == "hh")
            v = int8_t(v);
          else if (length == "h")
            v = int16_t(v);
          else if (length != "l" && length != "hl")
            v = int32_t(v);
          std::snprintf(buf, sizeof buf, (base + "lld").c_str(), static_cast<long long>(v));
          break;
        }
        case 'o':
        case 'u':
        case 'x':
        case 'X': {
          uint64_t v = laneBits(wi, arg, lane);
          if (length == "hh")
            v = uint8_t(v);
          else if (length == "h")
            v = uint16_t(v);
          else if (length != "l" && length != "hl")
            v = uint32_t(v);
          std::snprintf(buf, sizeof buf, (base + "ll" + conv).c_str(), static_cast<unsigned long long>(v));
          break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': std::snprintf(buf, sizeof buf, (base + conv).c_str(), laneDouble(wi, arg, lane)); break;
        case 'c': std::snprintf(buf, sizeof buf, (base + "c").c_str(), int(uint8_t(laneBits(wi, arg, lane)))); break;
        case 's': {
          std::string s;
          if (!readString(wi, op, laneBits(wi, arg, lane), s)) return nullptr;
          std::snprintf(buf, sizeof buf, (base + "s").c_str(), s.c_str());
          break;
        }
        case 'p':
          std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(laneBits(wi, arg, lane)));
          break;
        default:
          status = -1;
          buf[0] = 0;
          break;
      }
      out += buf;
    }
    i = j;
  }
  if (wi.printfOut) *wi.printfOut += out;
  wr<int32_t>(wi, op->r, status);
  return op + 1;
}

}  // namespace

bool lowerPrintf(Lowerer& L, const Instruction& inst) {
  constexpr auto kPrintf = uint32_t(numerics::OpenClStd::printf), kPrefetch = uint32_t(numerics::OpenClStd::prefetch);
  if (inst.opcode != spv::Op::OpExtInst) return false;
  if (inst.operand(1) == kPrefetch) return true;
  if (inst.operand(1) != kPrintf) return false;
  auto spec = std::make_shared<PrintfSpec>();
  spec->format = L.reg(inst.operand(2));
  for (size_t k = 3; k < inst.operandCount(); ++k) {
    const uint32_t id = inst.operand(k);
    const uint32_t ty = L.typeIdOfValue(id);
    const bool pointer = L.type(ty).kind == TypeKind::Pointer;
    spec->args.push_back({L.reg(id),
                          pointer ? (L.ptrBytes() == 8 ? ScalarType::ULong : ScalarType::UInt) : L.scalarOf(ty),
                          pointer ? 1 : L.lanes(ty), pointer});
  }
  Op& op = L.emit(&printfOp, inst);
  op.r = L.reg(inst.resultId);
  op.aux = spec.get();
  L.k.auxObjects.push_back(std::move(spec));
  return true;
}

}  // namespace clref::interpreter
