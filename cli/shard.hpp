// One launch split over the ranks of an MPI job by work-groups (`mpirun -n N clref run|check CASE.json`, issue 38):
// each rank runs a contiguous share of the launch's work-groups (the executor's ExecConfig::onlyGroups, as the check
// layer's CLREF_CHECK_GROUPS samples them), rank 0 gathers what the shares wrote and writes the outputs or the report,
// the same bytes as one process's. A launch whose work-groups may see each other's writes runs on one rank instead,
// with a note saying why (splitRefusal).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "cli/case_file.hpp"

namespace clref::cli {

// The launch's work-groups: the product over its dimensions of ceil(global / local).
uint64_t workGroupCount(const host::Kernel& kernel, const host::NDRange& range);

// The work-groups of rank `rank` of `ranks`: linear ids [total·rank/ranks, total·(rank+1)/ranks), ascending. Contiguous
// shares keep "first in work-group order" (a choice's first use) the first of the lowest rank that has one.
std::vector<uint64_t> groupShare(uint64_t total, int rank, int ranks);

// Why the prepared launch cannot be split over `ranks` ranks, "" when it can. The rule, decided from the module (every
// function of it, whether the kernel calls it or not: conservative):
//  - atomics on memory other than private and local (global, generic, image, storage buffers): the one way work-groups
//    of one launch may pass values to each other, since a plain read of what another work-group wrote in the same
//    launch is a data race (OpenCL 3.0 API §3.3.9 [[memory-ordering-rules]]: "Any such data race results in undefined
//    behavior"), which a split run need not reproduce;
//  - printf (its output is ordered over all work-groups), pipes, device-side enqueue, a program-scope variable in
//    global memory (it outlives the work-group that writes it);
//  - fewer work-groups than ranks.
// After the shares ran, the split is also given up (and the launch rerun on one rank) when two ranks wrote the same
// bytes, a share faulted or warned, or (check) a share's run left a decision open.
std::string splitRefusal(const PreparedCase& p, int ranks);

// `clref run` under mpirun: on rank 0 the whole launch's run (merged from the shares, or run here alone with a note in
// `notes` why); nullopt on the other ranks, which print and write nothing. Every rank calls it. `threads`: the worker
// threads of each rank's share (0: this host's cores over its ranks).
std::optional<CaseRun> runSharded(const Case& c, const host::Device& device, std::vector<std::string>& notes);

// `clref check` under mpirun: the report on rank 0 (merged, or judged here alone with a note in `notes`); nullopt on
// the other ranks. `p` is the prepared case (it may be run); `device` prepares it again where rank 0 judges alone.
std::optional<host::CheckReport> checkSharded(const Case& c, PreparedCase& p, const host::Device& device,
                                              const std::vector<host::ObservedBuffer>& observed,
                                              const std::vector<host::ObservedImage>& observedImages,
                                              const host::CheckOptions& options, std::vector<std::string>& notes);

}  // namespace clref::cli
