// Work spread over the ranks of an MPI job (`mpirun -n N clref ...`, `srun clref ...`): the one place clref talks to
// MPI (cluster_mpi.cpp, built with -DCLREF_MPI=ON). Without MPI, or in a process not started by mpirun or srun, the
// job is this one process (cluster_serial.cpp) and the same calls run everything here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace clref::cli::cluster {

// This process's rank and the job's size (0 and 1 outside an MPI job); the ranks on this host (for dividing its cores).
int rank();
int size();
int localSize();

// Runs work(i) for every item i of [0, cost.size()) once somewhere in the job: rank 0 hands the items out one at a time
// as ranks become free, the costliest first (dynamic assignment: a rank that drew cheap items takes more), and works
// on them itself too. Every rank must call it with the same costs. Returns, on rank 0, every item's result in item
// order; on the other ranks, nothing.
std::vector<std::string> distribute(const std::vector<uint64_t>& cost, const std::function<std::string(size_t)>& work);

// Rank 0's value on every rank (an exit status every process returns, so that mpirun reports it).
int fromRankZero(int value);

// Every rank's `mine`, gathered on rank 0 in rank order (rank 0's own first); nothing on the other ranks. Every rank
// must call it. Any size (sent in pieces below MPI's int counts).
std::vector<std::string> gather(const std::string& mine);

// Rank 0's `value` on every rank. Every rank must call it.
std::string broadcast(const std::string& value);

}  // namespace clref::cli::cluster
