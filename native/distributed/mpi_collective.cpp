#include "distributed/mpi_collective.hpp"

#include <mpi.h>

#include <climits>
#include <numeric>

#include "base/error.hpp"

namespace sysgym::cli {
namespace {

// MPI's default error handler aborts the whole job on a failed call (a rank that died), with
// mpirun's message naming the rank: nothing here could do better, so no call checks its result.
class MpiCollective final : public agents::Collective {
 public:
  MpiCollective() {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized == 0 && MPI_Init(nullptr, nullptr) != MPI_SUCCESS)
      throw Error("MPI_Init failed: is this run started by mpirun?");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~MpiCollective() override { MPI_Finalize(); }
  MpiCollective(const MpiCollective&) = delete;
  MpiCollective& operator=(const MpiCollective&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void sum(std::span<double> values) override {
    MPI_Allreduce(MPI_IN_PLACE, values.data(), count_of(values.size()), MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
  }

  void gather(std::span<const std::byte> mine, int root, std::vector<std::byte>& all) override {
    // Sizes first, so the root can place every rank's bytes; then the bytes in one call.
    const int count = count_of(mine.size());
    std::vector<int> counts(rank_ == root ? static_cast<std::size_t>(size_) : 0);
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, root, MPI_COMM_WORLD);
    std::vector<int> offsets(counts.size());
    std::exclusive_scan(counts.begin(), counts.end(), offsets.begin(), 0);
    const long long total = std::accumulate(counts.begin(), counts.end(), 0LL);
    if (total > INT_MAX)
      throw Error("a gather of " + std::to_string(total) + " bytes is more than MPI's int counts");
    all.resize(static_cast<std::size_t>(total));
    MPI_Gatherv(mine.data(), count, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE,
                root, MPI_COMM_WORLD);
  }

  void broadcast(std::span<double> values, int root) override {
    MPI_Bcast(values.data(), count_of(values.size()), MPI_DOUBLE, root, MPI_COMM_WORLD);
  }

 private:
  static int count_of(std::size_t n) {
    if (n > INT_MAX)
      throw Error("a message of " + std::to_string(n) + " items is more than MPI's int counts");
    return static_cast<int>(n);
  }

  int rank_ = 0;
  int size_ = 1;
};

}  // namespace

std::unique_ptr<agents::Collective> open_mpi_collective() {
  return std::make_unique<MpiCollective>();
}

void abort_mpi_job(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
}

}  // namespace sysgym::cli
