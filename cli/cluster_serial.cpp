// The job of one process (cluster.hpp), in a build without MPI.
#include "cli/cluster.hpp"

namespace clref::cli::cluster {

int rank() { return 0; }
int size() { return 1; }
int localSize() { return 1; }

std::vector<std::string> distribute(const std::vector<uint64_t>& cost, const std::function<std::string(size_t)>& work) {
  std::vector<std::string> results(cost.size());
  for (size_t i = 0; i < cost.size(); ++i) results[i] = work(i);
  return results;
}

int fromRankZero(int value) { return value; }

}  // namespace clref::cli::cluster
