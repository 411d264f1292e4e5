// A fixed-capacity ring of transitions (observation, action, reward, next observation, end)
// stored in flat arrays, for off-policy learning. The arrays are allocated by the first add, so
// an agent that never stores (an Ape-X actor rank) does not hold them.
#pragma once

#include <cstring>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "base/json_text.hpp"
#include "base/rng.hpp"

namespace sysgym::agents {

class ReplayBuffer {
 public:
  ReplayBuffer(std::size_t capacity, std::size_t observation_size)
      : capacity_(capacity), obs_size_(observation_size) {}

  void add(std::span<const float> obs, int action, double reward, std::span<const float> next,
           bool terminal) {
    if (action_.empty()) allocate();
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

  // Empties the buffer and frees its arrays.
  void release() { *this = ReplayBuffer(capacity_, obs_size_); }

  // Contents as raw bytes (binary JSON values: a checkpoint is written as CBOR, where a full
  // buffer of 10^5 observations stays a few hundred MB instead of gigabytes of decimal text).
  // Only the `size` rows stored are written: the buffer fills from row 0 before it wraps, and at
  // 1024 bins the capacity is gigabytes.
  nlohmann::json to_json() const {
    return {{"capacity", capacity_},
            {"observation_size", obs_size_},
            {"at", at_},
            {"size", size_},
            {"obs", bytes(obs_, obs_size_)},
            {"next_obs", bytes(next_obs_, obs_size_)},
            {"action", bytes(action_, 1)},
            {"reward", bytes(reward_, 1)},
            {"terminal", bytes(terminal_, 1)}};
  }
  // Throws std::runtime_error or nlohmann::json::exception on a mismatch (the caller names the
  // file).
  void load_json(const nlohmann::json& j) {
    if (json_integer<std::size_t>(j.at("capacity")) != capacity_ ||
        json_integer<std::size_t>(j.at("observation_size")) != obs_size_) {
      throw std::runtime_error("replay buffer shape differs from the agent's");
    }
    at_ = json_integer<std::size_t>(j.at("at"));
    size_ = json_integer<std::size_t>(j.at("size"));
    // A buffer that never stored anything was written without its arrays.
    if (j.at("action").get_binary().empty() && size_ == 0 && at_ == 0) {
      release();
      return;
    }
    allocate();
    if (at_ >= capacity_ || size_ > capacity_ || (size_ < capacity_ && at_ != size_))
      throw std::runtime_error("replay buffer cursor");
    unbytes(j.at("obs"), obs_, obs_size_);
    unbytes(j.at("next_obs"), next_obs_, obs_size_);
    unbytes(j.at("action"), action_, 1);
    unbytes(j.at("reward"), reward_, 1);
    unbytes(j.at("terminal"), terminal_, 1);
  }

 private:
  void allocate() {
    obs_.assign(capacity_ * obs_size_, 0.0F);
    next_obs_.assign(capacity_ * obs_size_, 0.0F);
    action_.assign(capacity_, 0);
    reward_.assign(capacity_, 0.0);
    terminal_.assign(capacity_, 0);
  }

  template <typename T>
  nlohmann::json bytes(const std::vector<T>& v, std::size_t per_row) const {
    std::vector<std::uint8_t> out(v.empty() ? 0 : size_ * per_row * sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), v.data(), out.size());
    return nlohmann::json::binary(std::move(out));
  }
  // The stored rows, or every row (checkpoints written before only the stored ones were).
  template <typename T>
  void unbytes(const nlohmann::json& j, std::vector<T>& v, std::size_t per_row) const {
    const auto& b = j.get_binary();
    if (b.size() != size_ * per_row * sizeof(T) && b.size() != v.size() * sizeof(T))
      throw std::runtime_error("replay buffer size differs");
    if (!b.empty()) std::memcpy(v.data(), b.data(), b.size());
  }

  std::size_t capacity_, obs_size_;
  std::vector<float> obs_, next_obs_;
  std::vector<int> action_;
  std::vector<double> reward_;
  std::vector<unsigned char> terminal_;
  std::size_t at_ = 0, size_ = 0;
};

}  // namespace sysgym::agents
