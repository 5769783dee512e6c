// SPIR-V linking for clLinkProgram (host.hpp linkModules).
#include "host/host.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <spirv-tools/linker.hpp>

namespace clref::host {
namespace {

// SPIRV-Tools' linker (2023.1) drops the Linkage capability from an executable but keeps the
// LinkageAttributes ... LinkOnceODR decorations (SPV_KHR_linkonce_odr) of the functions it
// merged, which the validator then rejects; in an executable they have no meaning left.
void dropLeftoverLinkOnceOdr(std::vector<uint32_t>& w) {
  constexpr uint32_t kOpCapability = 17, kOpDecorate = 71, kLinkage = 5, kLinkageAttributes = 41, kLinkOnceODR = 2;
  bool linkage = false;
  for (size_t i = 5; i < w.size() && (w[i] >> 16); i += w[i] >> 16)
    if ((w[i] & 0xffff) == kOpCapability && (w[i] >> 16) == 2 && w[i + 1] == kLinkage) linkage = true;
  if (linkage) return;
  std::vector<uint32_t> out(w.begin(), w.begin() + std::min<size_t>(5, w.size()));
  for (size_t i = 5; i < w.size();) {
    const uint32_t n = w[i] >> 16;
    if (n == 0 || i + n > w.size()) {  // malformed: leave the rest to the validator
      out.insert(out.end(), w.begin() + i, w.end());
      break;
    }
    const bool drop =
        (w[i] & 0xffff) == kOpDecorate && n >= 4 && w[i + 2] == kLinkageAttributes && w[i + n - 1] == kLinkOnceODR;
    if (!drop) out.insert(out.end(), w.begin() + i, w.begin() + i + n);
    i += n;
  }
  w = std::move(out);
}

// SPV_KHR_linkonce_odr: an Import may be satisfied by a LinkOnceODR definition, which
// SPIRV-Tools' linker (2023.1) does not do ("Unresolved external reference"). For each name
// imported somewhere and exported nowhere, the first LinkOnceODR definition becomes its Export
// (the others stay private copies, equal by the one-definition rule).
void exportLinkOnceOdrForImports(std::vector<std::vector<uint32_t>>& mods) {
  constexpr uint32_t kOpDecorate = 71, kLinkageAttributes = 41, kExport = 0, kImport = 1, kLinkOnceODR = 2;
  struct Site {
    size_t module, word;
  };
  std::map<std::string, std::vector<Site>> linkOnce;
  std::set<std::string> imported, exported;
  for (size_t m = 0; m < mods.size(); ++m) {
    const auto& w = mods[m];
    for (size_t i = 5; i < w.size() && (w[i] >> 16) && i + (w[i] >> 16) <= w.size(); i += w[i] >> 16) {
      const uint32_t n = w[i] >> 16;
      if ((w[i] & 0xffff) != kOpDecorate || n < 5 || w[i + 2] != kLinkageAttributes) continue;
      std::string name;
      for (size_t k = i + 3; k < i + n - 1; ++k)
        for (int b = 0; b < 4; ++b)
          if (const char c = char((w[k] >> (8 * b)) & 0xff)) name += c;
      const uint32_t type = w[i + n - 1];
      if (type == kImport)
        imported.insert(name);
      else if (type == kExport)
        exported.insert(name);
      else if (type == kLinkOnceODR)
        linkOnce[name].push_back({m, i + n - 1});
    }
  }
  for (const auto& [name, sites] : linkOnce)
    if (imported.count(name) && !exported.count(name)) mods[sites[0].module][sites[0].word] = kExport;
}

}  // namespace

std::optional<std::vector<uint32_t>> linkModules(std::vector<std::vector<uint32_t>> modules, bool createLibrary,
                                                 std::string& log) {
  exportLinkOnceOdrForImports(modules);
  spvtools::Context ctx(SPV_ENV_UNIVERSAL_1_5);
  std::string messages;
  ctx.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* m) {
    messages += std::string(m) + "\n";
  });
  spvtools::LinkerOptions lo;
  lo.SetCreateLibrary(createLibrary);
  std::vector<uint32_t> linked;
  if (spvtools::Link(ctx, modules, &linked, lo) != SPV_SUCCESS) {
    log = "SPIR-V link failed:\n" + messages;
    return std::nullopt;
  }
  if (!createLibrary) dropLeftoverLinkOnceOdr(linked);
  return linked;
}

}  // namespace clref::host
