// A fixed-capacity ring of transitions (observation, action, reward, next observation, end)
// stored in flat arrays, for off-policy learning.
#pragma once

#include <span>
#include <vector>

#include "base/rng.hpp"

namespace sysgym::agents {

class ReplayBuffer {
 public:
  ReplayBuffer(std::size_t capacity, std::size_t observation_size)
      : capacity_(capacity),
        obs_size_(observation_size),
        obs_(capacity * observation_size),
        next_obs_(capacity * observation_size),
        action_(capacity),
        reward_(capacity),
        terminal_(capacity) {}

  void add(std::span<const float> obs, int action, double reward, std::span<const float> next,
           bool terminal) {
    std::copy(obs.begin(), obs.end(), obs_.begin() + static_cast<std::ptrdiff_t>(at_ * obs_size_));
    std::copy(next.begin(), next.end(),
              next_obs_.begin() + static_cast<std::ptrdiff_t>(at_ * obs_size_));
    action_[at_] = action;
    reward_[at_] = reward;
    terminal_[at_] = terminal ? 1 : 0;
    at_ = (at_ + 1) % capacity_;
    size_ = std::min(size_ + 1, capacity_);
  }
  std::size_t size() const { return size_; }
  // Indices of a uniform sample with replacement.
  void sample(std::size_t n, Rng& rng, std::vector<std::size_t>& out) const {
    out.resize(n);
    for (std::size_t& i : out)
      i = static_cast<std::size_t>(rng.below(size_));
  }
  std::span<const float> obs(std::size_t i) const { return {&obs_[i * obs_size_], obs_size_}; }
  std::span<const float> next_obs(std::size_t i) const {
    return {&next_obs_[i * obs_size_], obs_size_};
  }
  int action(std::size_t i) const { return action_[i]; }
  double reward(std::size_t i) const { return reward_[i]; }
  bool terminal(std::size_t i) const { return terminal_[i] != 0; }

 private:
  std::size_t capacity_, obs_size_;
  std::vector<float> obs_, next_obs_;
  std::vector<int> action_;
  std::vector<double> reward_;
  std::vector<unsigned char> terminal_;
  std::size_t at_ = 0, size_ = 0;
};

}  // namespace sysgym::agents
