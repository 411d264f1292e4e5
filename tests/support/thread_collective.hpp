// Ranks as threads of a test, meeting at a barrier: distributed training without MPI, in every
// build (the sanitized one included). Sums add the ranks' values in rank order, so every rank
// gets the same bits, as MPI_Allreduce gives them.
#pragma once

#include <barrier>
#include <vector>

#include "agents/collective.hpp"

namespace sysgym::testing {

class ThreadCollective {
 public:
  explicit ThreadCollective(int size)
      : size_(size), slots_(static_cast<std::size_t>(size)), sync_(size) {}

  class Rank final : public agents::Collective {
   public:
    Rank(ThreadCollective& all, int rank) : all_(all), rank_(rank) {}
    int rank() const override { return rank_; }
    int size() const override { return all_.size_; }

    void sum(std::span<double> values) override {
      publish(values.data(), values.size());
      for (std::size_t i = 0; i < values.size(); ++i) {
        double total = 0;
        for (const auto& slot : all_.slots_)
          total += reinterpret_cast<const double*>(slot.data())[i];
        values[i] = total;
      }
      all_.sync_.arrive_and_wait();  // nobody overwrites a slot still being read
    }

    void gather(std::span<const std::byte> mine, int root, std::vector<std::byte>& all) override {
      publish(mine.data(), mine.size());
      all.clear();
      if (rank_ == root) {
        for (const auto& slot : all_.slots_)
          all.insert(all.end(), slot.begin(), slot.end());
      }
      all_.sync_.arrive_and_wait();
    }

    void broadcast(std::span<double> values, int root) override {
      if (rank_ == root)
        publish(values.data(), values.size());
      else
        all_.sync_.arrive_and_wait();
      if (rank_ != root) {
        const auto& slot = all_.slots_[static_cast<std::size_t>(root)];
        std::copy_n(reinterpret_cast<const double*>(slot.data()), values.size(), values.begin());
      }
      all_.sync_.arrive_and_wait();
    }

   private:
    // Puts this rank's values in its slot and waits for every rank to have done the same.
    template <typename T>
    void publish(const T* values, std::size_t count) {
      const auto* bytes = reinterpret_cast<const std::byte*>(values);
      all_.slots_[static_cast<std::size_t>(rank_)].assign(bytes, bytes + count * sizeof(T));
      all_.sync_.arrive_and_wait();
    }

    ThreadCollective& all_;
    int rank_;
  };

 private:
  int size_;
  std::vector<std::vector<std::byte>> slots_;
  std::barrier<> sync_;
};

}  // namespace sysgym::testing
