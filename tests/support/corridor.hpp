// A tiny env for agents' tests, small enough to learn in a few thousand steps.
#pragma once

#include <tuple>
#include <vector>

#include "agents/dqn.hpp"

namespace sysgym::testing {

// A corridor of 6 cells: start in cell 1; "right" moves right, "left" moves left (cell 0 is a
// pit: reward -1, episode over); cell 5 is the goal (reward +1, over). Each step costs 0.01,
// and episodes are cut at 30 steps. The optimal policy goes right from every cell.
struct Corridor {
  static constexpr int kCells = 6;
  int cell = 1, steps = 0;
  std::vector<float> observation() const {
    std::vector<float> o(kCells, 0.0f);
    o[static_cast<std::size_t>(cell)] = 1.0f;
    return o;
  }
  // Returns {reward, terminal, truncated}.
  std::tuple<double, bool, bool> step(int action) {
    cell += action == 1 ? 1 : -1;
    ++steps;
    if (cell == 0) return {-1.0, true, false};
    if (cell == kCells - 1) return {1.0, true, false};
    return {-0.01, false, steps >= 30};
  }
};

// A DQN that learns the corridor within 3,000 steps for most seeds.
inline agents::DqnConfig corridor_dqn_config() {
  agents::DqnConfig c;
  c.hidden = {32};
  c.learning_rate = 2e-3;
  c.gamma = 0.95;
  c.batch_size = 32;
  c.learning_starts = 200;
  c.target_update = 100;
  c.epsilon_decay_steps = 1500;
  c.train_every = 1;
  return c;
}

}  // namespace sysgym::testing
