// The job of one process (cluster.hpp), in a build without MPI.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cli/cluster.hpp"

namespace clref::cli::cluster {

int rank() { return 0; }
int size() { return 1; }
int localSize() { return 1; }

std::vector<std::string> distribute(const std::vector<uint64_t>& cost, const std::function<std::string(size_t)>& work) {
  // Started by mpirun as one of several ranks: every rank does the whole work, which is likely not what was meant.
  if (const char* ranks = std::getenv("OMPI_COMM_WORLD_SIZE"); ranks && std::string(ranks) != "1")
    std::fprintf(stderr, "clref: built without MPI (-DCLREF_MPI=ON): each of the %s processes does all the work\n",
                 ranks);
  std::vector<std::string> results(cost.size());
  for (size_t i = 0; i < cost.size(); ++i) results[i] = work(i);
  return results;
}

int fromRankZero(int value) { return value; }

std::vector<std::string> gather(const std::string& mine) { return {mine}; }

std::string broadcast(const std::string& value) { return value; }

}  // namespace clref::cli::cluster
