// Fuzz target: SPIR-V modules mutated one operand at a time, so that inputs keep their structure and get past the
// validator into lowering and execution. The mutator parses the module with SPIRV-Tools and changes an id operand
// to another id of the module, a literal to an interesting number, an enumerant to another value, or removes or
// repeats one instruction; a module it cannot parse is left to libFuzzer's byte mutations.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <spirv-tools/libspirv.h>

#include "run_module.hpp"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t maxSize);

namespace {

struct Operand {
  size_t word;  // index in the module
  spv_operand_type_t type;
};
struct Instruction {
  size_t start, count;
};
struct Parsed {
  std::vector<Instruction> instructions;
  std::vector<Operand> operands;
  std::vector<uint32_t> ids;  // result ids
};

spv_result_t onInstruction(void* user, const spv_parsed_instruction_t* inst) {
  auto& p = *static_cast<std::pair<Parsed*, const uint32_t*>*>(user);
  const size_t start = size_t(inst->words - p.second);
  p.first->instructions.push_back({start, inst->num_words});
  if (inst->result_id) p.first->ids.push_back(inst->result_id);
  for (uint16_t i = 0; i < inst->num_operands; ++i) {
    const auto& o = inst->operands[i];
    if (o.type == SPV_OPERAND_TYPE_RESULT_ID || o.num_words != 1) continue;  // keep definitions and strings whole
    p.first->operands.push_back({start + o.offset, o.type});
  }
  return SPV_SUCCESS;
}

bool parse(const std::vector<uint32_t>& words, Parsed& out) {
  static spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  std::pair<Parsed*, const uint32_t*> user{&out, words.data()};
  return spvBinaryParse(context, &user, words.data(), words.size(), nullptr, onInstruction, nullptr) == SPV_SUCCESS;
}

bool isId(spv_operand_type_t t) {
  return t == SPV_OPERAND_TYPE_ID || t == SPV_OPERAND_TYPE_TYPE_ID || t == SPV_OPERAND_TYPE_SCOPE_ID ||
         t == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID;
}
bool isLiteral(spv_operand_type_t t) {
  return t == SPV_OPERAND_TYPE_LITERAL_INTEGER || t == SPV_OPERAND_TYPE_TYPED_LITERAL_NUMBER ||
         t == SPV_OPERAND_TYPE_EXTENSION_INSTRUCTION_NUMBER || t == SPV_OPERAND_TYPE_SPEC_CONSTANT_OP_NUMBER;
}

// Sizes, counts, indices and bit patterns at the edges of what a module states.
constexpr uint32_t kInteresting[] = {0,    1,          2,          3,          4,          7,         8,
                                     16,   31,         32,         63,         64,         255,       256,
                                     4096, 0x10000,    0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0x3f800000,
                                     0x7f800000, 0x7fc00000, 0xff800000, 1u << 20, 1u << 30};

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize, unsigned seed) {
  std::minstd_rand rng(seed);
  std::vector<uint32_t> words = clref_fuzz::wordsOf(data, size);
  Parsed p;
  if (rng() % 8 == 0 || words.size() < 6 || !parse(words, p) || p.instructions.empty() || p.operands.empty())
    return LLVMFuzzerMutate(data, size, maxSize);
  switch (rng() % 5) {
    case 0:
    case 1: {  // an operand changes
      const Operand& o = p.operands[rng() % p.operands.size()];
      uint32_t& w = words[o.word];
      if (isId(o.type) && !p.ids.empty()) {
        w = p.ids[rng() % p.ids.size()];
      } else if (isLiteral(o.type)) {
        const uint32_t r = rng() % 4;
        w = r == 0 ? w + 1 : r == 1 ? w - 1 : r == 2 ? uint32_t(rng()) : kInteresting[rng() % std::size(kInteresting)];
      } else {
        // An enumerant or mask: another value of the same kind from the module, or a small number.
        std::vector<uint32_t> same;
        for (const auto& q : p.operands)
          if (q.type == o.type) same.push_back(words[q.word]);
        w = rng() % 2 ? same[rng() % same.size()] : uint32_t(rng() % 64);
      }
      break;
    }
    case 2: {  // an id operand gets a neighbouring id (often one not yet defined at that point)
      const Operand& o = p.operands[rng() % p.operands.size()];
      words[o.word] += rng() % 2 ? 1 : uint32_t(-1);
      break;
    }
    case 3: {  // an instruction disappears
      const Instruction& i = p.instructions[rng() % p.instructions.size()];
      words.erase(words.begin() + i.start, words.begin() + i.start + i.count);
      break;
    }
    case 4: {  // an instruction is repeated
      const Instruction& i = p.instructions[rng() % p.instructions.size()];
      std::vector<uint32_t> copy(words.begin() + i.start, words.begin() + i.start + i.count);
      words.insert(words.begin() + i.start + i.count, copy.begin(), copy.end());
      break;
    }
  }
  const size_t bytes = words.size() * 4;
  if (bytes > maxSize) return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, words.data(), bytes);
  return bytes;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  clref_fuzz::runModule(data, size);
  return 0;
}
