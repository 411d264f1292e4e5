// A small env used to test the env framework (registry, vector env, contract checks): an agent
// walks a line of `length` cells from cell 0 to the last one; each move slips (does nothing)
// with probability slip_percent/100, drawn from the env's Rng.
#pragma once

#include <algorithm>
#include <memory>

#include "base/error.hpp"
#include "env/config_reader.hpp"
#include "env/env.hpp"
#include "env/policy.hpp"
#include "env/registry.hpp"

namespace sysgym::testing {

inline const ConfigSchema& line_walk_schema() {
  static const ConfigSchema schema({
      integer_key("length", 5, 2, 1000, "cells of the line", "cells"),
      integer_key("max_steps", 20, 1, 100000, "steps before the episode is truncated", "steps"),
      integer_key("slip_percent", 0, 0, 100, "chance that a move does nothing", "%"),
  });
  return schema;
}

class LineWalkEnv : public Env {
 public:
  explicit LineWalkEnv(const nlohmann::json& config, std::string id = "linewalk-v0")
      : LineWalkEnv(read(config, id), id) {}

  nlohmann::json config() const override { return config_; }
  std::vector<std::string> observation_layout() const override { return {"position", "time"}; }
  nlohmann::json episode_summary() const override {
    return {{"position", position_}, {"steps", steps_}};
  }
  std::string primary_metric() const override { return "position"; }
  // One cell per position, 1 where the walker stands: what a front end would draw.
  Frame frame() const override { return {{"cells", std::span<const float>(cells_)}}; }
  int position() const { return position_; }

 protected:
  void on_reset(Rng&, const nlohmann::json& options) override {
    position_ = options.value("start", 0);
    steps_ = 0;
    write();
  }
  StepOutcome on_step(std::span<const double> action) override {
    const int move = static_cast<int>(action[0]) - 1;  // 0 left, 1 stay, 2 right
    if (!rng().chance(static_cast<std::uint64_t>(slip_percent_), 100)) {
      position_ = std::clamp(position_ + move, 0, length_ - 1);
    }
    ++steps_;
    write();
    StepOutcome out;
    out.terminated = position_ == length_ - 1;
    out.truncated = !out.terminated && steps_ >= max_steps_;
    out.reward = out.terminated ? 1.0 : -0.01;
    return out;
  }

 private:
  struct Parsed {
    nlohmann::json resolved;
    int length, max_steps, slip_percent;
  };
  static Parsed read(const nlohmann::json& config, const std::string& id) {
    ConfigReader reader(config, id + " config");
    Parsed p;
    const ConfigSchema& k = line_walk_schema();
    p.length = static_cast<int>(reader.integer(k.at("length")));
    p.max_steps = static_cast<int>(reader.integer(k.at("max_steps")));
    p.slip_percent = static_cast<int>(reader.integer(k.at("slip_percent")));
    reader.finish();
    p.resolved = reader.resolved();
    return p;
  }
  LineWalkEnv(Parsed p, const std::string& id)
      : Env(id, Space::box({2}, 0.0f, 1.0f), Space::discrete(3), {"position", "steps"}),
        config_(p.resolved),
        length_(p.length),
        max_steps_(p.max_steps),
        slip_percent_(p.slip_percent),
        cells_(static_cast<std::size_t>(p.length), 0.0f) {}
  void write() {
    observation_buffer()[0] = static_cast<float>(position_) / static_cast<float>(length_ - 1);
    observation_buffer()[1] = static_cast<float>(steps_) / static_cast<float>(max_steps_);
    info_buffer()[0] = position_;
    info_buffer()[1] = steps_;
    std::fill(cells_.begin(), cells_.end(), 0.0f);
    cells_[static_cast<std::size_t>(position_)] = 1.0f;
  }

  nlohmann::json config_;
  int length_, max_steps_, slip_percent_;
  int position_ = 0;
  int steps_ = 0;
  std::vector<float> cells_;
};

inline void register_line_walk(Registry& registry) {
  registry.add({"linewalk-v0", "walk to the end of a line",
                [](const nlohmann::json& c) { return std::make_unique<LineWalkEnv>(c); },
                nlohmann::json::object(), line_walk_schema()});
  registry.add(
      {"linewalk-v1", "walk to the end of a line (v1)",
       [](const nlohmann::json& c) { return std::make_unique<LineWalkEnv>(c, "linewalk-v1"); },
       nlohmann::json::object(), line_walk_schema()});
}

// The line walk's own policy: always step right (a family policy reading its env's internals).
class WalkRight final : public Policy {
 public:
  void reset(const Env& env, Rng&) override {
    if (dynamic_cast<const LineWalkEnv*>(&env) == nullptr)
      throw ApiMisuseError("walk-right runs on linewalk envs only");
  }
  void decide(const Env&, Decision& out) override {
    out.use_directive = false;
    out.action = {2.0};
  }
};

// A family registers its envs and its policies: the same two calls as core/builtins makes for
// the built-in families.
inline void register_line_walk(Registry& registry, PolicyRegistry& policies) {
  policies.add({"walk-right", "always steps right", false,
                [](const nlohmann::json& c) -> std::unique_ptr<Policy> {
                  ConfigReader(c, "walk-right policy config").finish();
                  return std::make_unique<WalkRight>();
                },
                false, "linewalk"});
  register_line_walk(registry);
}

inline Registry line_walk_registry() {
  Registry registry;
  register_line_walk(registry);
  return registry;
}

}  // namespace sysgym::testing
