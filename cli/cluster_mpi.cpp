// The job's ranks through MPI (cluster.hpp), in a build with -DCLREF_MPI=ON.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <numeric>
#include <thread>

#include "cli/cluster.hpp"
#include "numerics/math.hpp"

namespace clref::cli::cluster {
namespace {

// Started by mpirun or srun (Open MPI's and PMI's variables): otherwise clref is one process and leaves MPI alone (a
// singleton MPI_Init would look for a runtime a plain run does not need).
bool launchedByMpi() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") || std::getenv("PMI_RANK");
}

struct Job {
  bool mpi = false;
  int rank = 0, size = 1, local = 1;
  Job() {
    if (!launchedByMpi()) return;
    // Only the main thread calls MPI; rank 0's own worker thread (distribute) does not.
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    mpi = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm host;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host);
    MPI_Comm_size(host, &local);
    MPI_Comm_free(&host);
  }
  ~Job() {
    if (mpi) MPI_Finalize();
  }
};

Job& job() {
  static Job j;
  return j;
}

// A worker's message to rank 0: the item it finished (-1 on its first request) and the result.
constexpr int kResult = 1, kAssign = 2;

}  // namespace

int rank() { return job().rank; }
int size() { return job().size; }
int localSize() { return job().local; }

std::vector<std::string> distribute(const std::vector<uint64_t>& cost, const std::function<std::string(size_t)>& work) {
  const Job& j = job();
  const size_t n = cost.size();
  std::vector<std::string> results(n);
  if (j.size == 1) {
    for (size_t i = 0; i < n; ++i) results[i] = work(i);
    return results;
  }
  if (j.rank != 0) {
    // Ask for an item (handing in the last result), work on it, until rank 0 answers -1.
    std::string message(sizeof(int64_t), '\0');
    int64_t done = -1;
    std::memcpy(message.data(), &done, sizeof done);
    for (;;) {
      MPI_Send(message.data(), int(message.size()), MPI_CHAR, 0, kResult, MPI_COMM_WORLD);
      int64_t item = -1;
      MPI_Recv(&item, 1, MPI_INT64_T, 0, kAssign, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (item < 0) return {};
      const std::string result = work(size_t(item));
      message.assign(sizeof item, '\0');
      std::memcpy(message.data(), &item, sizeof item);
      message += result;
    }
  }
  // Rank 0 hands out the items, costliest first, to whichever rank asks next, and a thread of its own takes them from
  // the same queue. Its main thread waits for requests without spinning (Open MPI's blocking receive polls a core).
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cost[a] > cost[b]; });
  std::mutex queue;
  size_t next = 0;
  auto take = [&]() -> int64_t {
    std::lock_guard lock(queue);
    return next < n ? int64_t(order[next++]) : -1;
  };
  std::exception_ptr failed;
  std::thread own([&] {
    try {
      for (int64_t i; (i = take()) >= 0;) results[size_t(i)] = work(size_t(i));
    } catch (...) { failed = std::current_exception(); }
    numerics::releaseThreadResources();  // MPFR's per-thread caches, before the thread ends
  });
  for (int working = j.size - 1; working > 0;) {
    int ready = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kResult, MPI_COMM_WORLD, &ready, &status);
    if (!ready) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      continue;
    }
    int count = 0;
    MPI_Get_count(&status, MPI_CHAR, &count);
    std::string message(size_t(count), '\0');
    MPI_Recv(message.data(), count, MPI_CHAR, status.MPI_SOURCE, kResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int64_t item = -1;
    std::memcpy(&item, message.data(), sizeof item);
    if (item >= 0) results[size_t(item)] = message.substr(sizeof item);
    const int64_t assigned = take();
    MPI_Send(&assigned, 1, MPI_INT64_T, status.MPI_SOURCE, kAssign, MPI_COMM_WORLD);
    if (assigned < 0) --working;
  }
  own.join();
  if (failed) std::rethrow_exception(failed);
  return results;
}

int fromRankZero(int value) {
  if (job().mpi) MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return value;
}

namespace {

// gather's messages, and the size of their pieces (MPI counts are ints).
constexpr int kGatherSize = 3, kGatherPiece = 4;
constexpr size_t kPiece = size_t(1) << 30;

void sendString(const std::string& s, int to, MPI_Comm comm) {
  const uint64_t n = s.size();
  MPI_Send(&n, 1, MPI_UINT64_T, to, kGatherSize, comm);
  for (size_t at = 0; at < n; at += kPiece)
    MPI_Send(s.data() + at, int(std::min(kPiece, n - at)), MPI_CHAR, to, kGatherPiece, comm);
}

std::string receiveString(int from, MPI_Comm comm) {
  uint64_t n = 0;
  MPI_Recv(&n, 1, MPI_UINT64_T, from, kGatherSize, comm, MPI_STATUS_IGNORE);
  std::string s(n, '\0');
  for (size_t at = 0; at < n; at += kPiece)
    MPI_Recv(s.data() + at, int(std::min(kPiece, n - at)), MPI_CHAR, from, kGatherPiece, comm, MPI_STATUS_IGNORE);
  return s;
}

}  // namespace

std::vector<std::string> gather(const std::string& mine) {
  const Job& j = job();
  if (j.size == 1) return {mine};
  if (j.rank != 0) {
    sendString(mine, 0, MPI_COMM_WORLD);
    return {};
  }
  std::vector<std::string> all{mine};
  for (int r = 1; r < j.size; ++r) all.push_back(receiveString(r, MPI_COMM_WORLD));
  return all;
}

std::string broadcast(const std::string& value) {
  const Job& j = job();
  if (j.size == 1) return value;
  uint64_t n = value.size();
  MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  std::string s = j.rank == 0 ? value : std::string(n, '\0');
  for (size_t at = 0; at < n; at += kPiece)
    MPI_Bcast(s.data() + at, int(std::min(kPiece, n - at)), MPI_CHAR, 0, MPI_COMM_WORLD);
  return s;
}

}  // namespace clref::cli::cluster
