// A loop-aware topological order of a function's blocks (convergence_order.hpp). Loops are the natural loops of the
// back edges a depth-first search finds (an edge to a block still on the search's stack); each region (the function,
// or a loop's body) orders its blocks and its outermost inner loops, taken as one node each, topologically along the
// edges that stay inside it and are not back edges to its own header, then expands each inner loop in place.
#include "interpreter/convergence_order.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <vector>

namespace clref::interpreter {
namespace {

struct Cfg {
  std::vector<uint32_t> labels;             // node → block label; node 0 is the entry block
  std::vector<std::vector<uint32_t>> succ;  // node → successor nodes
  std::vector<std::vector<uint32_t>> pred;
};

// The blocks of the function around block `label`, with the edges of their terminators (SPIR-V 1.0 §3.32.17
// [external] OpBranch, OpBranchConditional, OpSwitch).
Cfg cfgAround(const Module& m, uint32_t label) {
  size_t at = 0;
  while (at < m.instructions.size() &&
         !(m.instructions[at].opcode == spv::Op::OpLabel && m.instructions[at].resultId == label))
    ++at;
  size_t begin = at, end = at;
  while (begin > 0 && m.instructions[begin].opcode != spv::Op::OpFunction) --begin;
  while (end < m.instructions.size() && m.instructions[end].opcode != spv::Op::OpFunctionEnd) ++end;
  Cfg g;
  std::unordered_map<uint32_t, uint32_t> node;
  for (size_t i = begin; i < end; ++i)
    if (m.instructions[i].opcode == spv::Op::OpLabel) {
      node[m.instructions[i].resultId] = uint32_t(g.labels.size());
      g.labels.push_back(m.instructions[i].resultId);
    }
  g.succ.resize(g.labels.size());
  g.pred.resize(g.labels.size());
  int64_t current = -1;
  auto edge = [&](uint32_t target) {
    const auto it = node.find(target);
    if (current < 0 || it == node.end()) return;
    g.succ[size_t(current)].push_back(it->second);
    g.pred[it->second].push_back(uint32_t(current));
  };
  for (size_t i = begin; i < end; ++i) {
    const Instruction& inst = m.instructions[i];
    switch (inst.opcode) {
      case spv::Op::OpLabel: current = node[inst.resultId]; break;
      case spv::Op::OpBranch: edge(inst.operand(0)); break;
      case spv::Op::OpBranchConditional:
        edge(inst.operand(1));
        edge(inst.operand(2));
        break;
      case spv::Op::OpSwitch:
        edge(inst.operand(1));
        for (size_t k = 3; k < inst.operandCount(); k += 2) edge(inst.operand(k));
        break;
      default: break;
    }
  }
  return g;
}

}  // namespace

std::unordered_map<uint32_t, uint32_t> convergenceOrder(const Module& m, uint32_t label) {
  const Cfg g = cfgAround(m, label);
  const size_t n = g.labels.size();
  std::unordered_map<uint32_t, uint32_t> rank;
  if (n == 0) return rank;
  // Depth-first search from the entry: preorder numbers, and the back edges (to a node on the stack).
  std::vector<int64_t> pre(n, -1);
  std::vector<bool> onStack(n, false);
  std::set<std::pair<uint32_t, uint32_t>> back;
  {
    int64_t counter = 0;
    std::vector<std::pair<uint32_t, size_t>> stack{{0, 0}};
    pre[0] = counter++;
    onStack[0] = true;
    while (!stack.empty()) {
      auto& [v, k] = stack.back();
      if (k < g.succ[v].size()) {
        const uint32_t w = g.succ[v][k++];
        if (pre[w] < 0) {
          pre[w] = counter++;
          onStack[w] = true;
          stack.emplace_back(w, 0);
        } else if (onStack[w]) {
          back.emplace(v, w);
        }
      } else {
        onStack[v] = false;
        stack.pop_back();
      }
    }
  }
  // Natural loops: the header and every block that reaches one of its latches without passing the header.
  std::unordered_map<uint32_t, std::set<uint32_t>> body;
  for (const auto& [latch, header] : back) {
    auto& b = body[header];
    b.insert(header);
    std::vector<uint32_t> work{latch};
    while (!work.empty()) {
      const uint32_t v = work.back();
      work.pop_back();
      if (!b.insert(v).second && v != latch) continue;
      if (v == header) continue;
      for (uint32_t p : g.pred[v])
        if (pre[p] >= 0 && !b.count(p)) work.push_back(p);
    }
  }
  // Each block's innermost loop (the smallest body containing it, the block's own loop for a header), and each loop's
  // enclosing loop; -1 for the function. An enclosing loop's body is strictly larger than the loop's: a properly
  // nested loop's always is, and in an irreducible graph two overlapping loops could otherwise each be the other's
  // parent, and walking the chain of parents would never end (a fuzzed module did that).
  auto innermostContaining = [&](uint32_t v, int64_t except, size_t largerThan) {
    int64_t best = -1;
    for (const auto& [h, b] : body)
      if (int64_t(h) != except && b.count(v) && b.size() > largerThan &&
          (best < 0 || b.size() < body.at(uint32_t(best)).size()))
        best = h;
    return best;
  };
  std::vector<int64_t> loopOf(n, -1), parentLoop(n, -1);
  for (uint32_t v = 0; v < n; ++v) loopOf[v] = pre[v] < 0 ? -1 : innermostContaining(v, -1, 0);
  // A header's loop is its own even where an overlapping loop's body is smaller: then each region recurses only into
  // loops with smaller bodies, and the recursion ends.
  for (const auto& [h, b] : body) {
    loopOf[h] = h;
    parentLoop[h] = innermostContaining(h, h, b.size());
  }
  uint32_t next = 0;
  // Orders region `header` (-1: the whole function).
  std::function<void(int64_t)> order = [&](int64_t header) {
    // The region's members: its own blocks and its outermost inner loops (by their headers).
    std::vector<uint32_t> members;
    std::unordered_map<uint32_t, uint32_t> rep;  // block in the region → its member
    for (uint32_t v = 0; v < n; ++v) {
      if (pre[v] < 0) continue;
      // The chain of loops from v's innermost outwards; v belongs to the region if it reaches `header`.
      int64_t l = loopOf[v], below = v;
      bool own = int64_t(v) == header || l == header;
      while (!own && l >= 0) {
        below = l;
        l = parentLoop[l];
        own = l == header;
      }
      if (!own) continue;
      // The member: the block itself if its innermost loop is the region's (or it is the header), else the outermost
      // loop inside the region that holds it.
      const uint32_t member = (loopOf[v] == header || int64_t(v) == header) ? v : uint32_t(below);
      rep[v] = member;
      if (!std::count(members.begin(), members.end(), member)) members.push_back(member);
    }
    // Edges between members that stay in the region and are not back edges to its header.
    std::unordered_map<uint32_t, std::set<uint32_t>> out;
    std::unordered_map<uint32_t, uint32_t> indegree;
    for (uint32_t m2 : members) indegree[m2] = 0;
    for (const auto& [v, mv] : rep)
      for (uint32_t w : g.succ[v]) {
        const auto it = rep.find(w);
        if (it == rep.end() || int64_t(w) == header || it->second == mv) continue;
        if (out[mv].insert(it->second).second) ++indegree[it->second];
      }
    // Kahn's algorithm, the lowest preorder first; a cycle (an irreducible loop) is broken at its lowest preorder.
    std::set<std::pair<int64_t, uint32_t>> ready, rest;
    for (uint32_t m2 : members) (indegree[m2] == 0 ? ready : rest).emplace(pre[m2], m2);
    while (!ready.empty() || !rest.empty()) {
      if (ready.empty()) {
        ready.insert(*rest.begin());
        rest.erase(rest.begin());
      }
      const uint32_t v = ready.begin()->second;
      ready.erase(ready.begin());
      if (int64_t(v) == header || body.count(v) == 0)
        rank[g.labels[v]] = next++;
      else
        order(v);
      for (uint32_t w : out[v])
        if (--indegree[w] == 0 && rest.erase({pre[w], w})) ready.emplace(pre[w], w);
    }
  };
  order(-1);
  return rank;
}

}  // namespace clref::interpreter
