#include "distributed/mpi_collective.hpp"

#include <mpi.h>

#include "base/error.hpp"

namespace sysgym::cli {
namespace {

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
    // MPI's default error handler aborts the whole job on a failed call (a rank that died), with
    // mpirun's message naming the rank: nothing here could do better.
    MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
  }

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace

std::unique_ptr<agents::Collective> open_mpi_collective() {
  return std::make_unique<MpiCollective>();
}

}  // namespace sysgym::cli
