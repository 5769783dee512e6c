// What the ranks of an MPI job print (`mpirun -n N clref run|explore|check ...`): rank 0 prints what one process
// prints; every other rank drops its standard output and holds its standard error back, and prints it, each line
// prefixed "rank N: ", only where its command failed otherwise than rank 0's (an error only it saw). Outside an MPI
// job, and on rank 0, nothing changes.
#pragma once
#include <memory>
#include <string>

namespace clref::cli {

class RankOutput {
 public:
  // From here on (until finish() or the end of the object), on a rank other than 0: std::cout dropped, std::cerr held.
  RankOutput();
  // An unfinished command (an exception passing through) prints what it held, as an error only it saw.
  ~RankOutput();  // (not copyable: it owns what it held)

  // Every rank calls it once with its command's exit status; returns rank 0's (cluster::fromRankZero), the status
  // every process exits with. A rank other than 0 whose `status` is an error and not rank 0's prints what it held.
  int finish(int status);

 private:
  struct Held;
  std::unique_ptr<Held> held_;  // null on rank 0 and outside an MPI job
};

}  // namespace clref::cli
