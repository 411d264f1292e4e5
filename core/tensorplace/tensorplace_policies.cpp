// tensorplace-v0's registration and its heuristics. Each decides, for the current kernel's
// operands, fast (1) or slow (0) until their next use; the env's fallback keeps every plan within
// the fast-memory limit.
#include <algorithm>

#include "base/error.hpp"
#include "env/config_reader.hpp"
#include "tensorplace/plan_json.hpp"
#include "tensorplace/tensorplace_env.hpp"

namespace sysgym::tensorplace {
namespace {

const TensorplaceEnv& env_of(const Env& env, const char* policy) {
  const auto* t = dynamic_cast<const TensorplaceEnv*>(&env);
  if (t == nullptr) throw ApiMisuseError(std::string(policy) + " runs on tensorplace envs only");
  return *t;
}

// Every operand in one pool.
class Constant final : public Policy {
 public:
  explicit Constant(double bit) : bit_(bit) {}
  void reset(const Env& env, Rng&) override { env_of(env, "all-fast/all-slow"); }
  void decide(const Env& env, Decision& out) override {
    out.use_directive = false;
    out.action.assign(env.action_space().flat_size(), bit_);
  }

 private:
  double bit_;
};

// First-touch NUMA: a tensor goes to fast memory when first touched if it fits then, and never
// moves.
class FirstTouch final : public Policy {
 public:
  void reset(const Env& env, Rng&) override {
    touched_.assign(env_of(env, "first-touch").graph().tensors().size(), false);
  }
  void decide(const Env& e, Decision& out) override {
    const TensorplaceEnv& env = env_of(e, "first-touch");
    out.use_directive = false;
    out.action.assign(env.action_space().flat_size(), 0.0);
    std::uint64_t used = env.machine().fast_bytes();
    const std::vector<std::uint32_t>& slots = env.slot_tensors();
    for (std::size_t i = 0; i < slots.size(); ++i) {
      const std::uint32_t t = slots[i];
      const Tensor& tensor = env.graph().tensor(t);
      if (touched_[t]) {
        out.action[i] = env.machine().where(t) == kFast ? 1.0 : 0.0;
        continue;
      }
      touched_[t] = true;
      if (tensor.fast_allowed && used + tensor.allocated_bytes() <= env.fast_limit()) {
        used += tensor.allocated_bytes();
        out.action[i] = 1.0;
      }
    }
  }

 private:
  std::vector<bool> touched_;
};

// Keeps an operand in fast memory when it is used again within `horizon` kernels.
class NextUse final : public Policy {
 public:
  explicit NextUse(std::uint32_t horizon) : horizon_(horizon) {}
  void reset(const Env& env, Rng&) override { env_of(env, "next-use"); }
  void decide(const Env& e, Decision& out) override {
    const TensorplaceEnv& env = env_of(e, "next-use");
    out.use_directive = false;
    out.action.assign(env.action_space().flat_size(), 0.0);
    const std::vector<std::uint32_t>& slots = env.slot_tensors();
    for (std::size_t i = 0; i < slots.size(); ++i)
      out.action[i] = env.next_use(slots[i], env.kernel()) - env.kernel() <= horizon_ ? 1.0 : 0.0;
  }
  nlohmann::json parameters() const override { return {{"horizon", horizon_}}; }

 private:
  std::uint32_t horizon_;
};

// Follows a plan (plan_json.hpp: what `sysgym tensorplace ilp --write-plan` writes) move for
// move through KernelMoves directives, so its episode takes the plan's simulated time.
class FollowPlan final : public Policy {
 public:
  explicit FollowPlan(nlohmann::json plan) : plan_(std::move(plan)) {}
  void reset(const Env& e, Rng&) override {
    const TensorplaceEnv& env = env_of(e, "plan");
    const Graph& g = env.graph();
    const Plan plan = plan_for_limit(plan_, g, env.fast_limit(), "plan policy config");
    steps_.assign(g.kernels().size(), KernelMoves{});
    for (std::uint32_t k = 0; k < g.kernels().size(); ++k) {
      for (std::uint32_t t : g.born_at(k))
        steps_[k].births.emplace_back(t, plan.initial[t]);
    }
    for (const Move& m : plan.moves) {
      if (m.kernel < steps_.size()) steps_[m.kernel].moves.push_back(m);
    }
  }
  void decide(const Env& e, Decision& out) override {
    const TensorplaceEnv& env = env_of(e, "plan");
    out.use_directive = true;
    out.directive = std::make_unique<KernelMoves>(steps_.at(env.kernel()));
  }

 private:
  nlohmann::json plan_;
  std::vector<KernelMoves> steps_;
};

template <typename Make>
PolicySpec spec(const std::string& name, std::string summary, Make make) {
  return family_policy("tensorplace", name, std::move(summary), make);
}

}  // namespace

void register_tensorplace_policies(PolicyRegistry& registry) {
  registry.add(spec("all-slow", "Every operand in slow memory (the upper bound on time).",
                    [](ConfigReader&) { return std::make_unique<Constant>(0.0); }));
  registry.add(spec("all-fast",
                    "Every operand asked into fast memory; the env evicts the tensors used last "
                    "and refuses what still does not fit.",
                    [](ConfigReader&) { return std::make_unique<Constant>(1.0); }));
  registry.add(spec("first-touch",
                    "First-touch NUMA: fast memory when a tensor is first touched if it fits "
                    "then, never moved (AutoTM's baseline).",
                    [](ConfigReader&) { return std::make_unique<FirstTouch>(); }));
  registry.add(spec("next-use",
                    "Keeps an operand in fast memory when it is used again within `horizon` "
                    "kernels (default 8), else writes it back.",
                    [](ConfigReader& reader) {
                      return std::make_unique<NextUse>(
                          static_cast<std::uint32_t>(reader.integer("horizon", 8, 0, 1 << 20)));
                    }));
  // Its config is the plan itself, so it needs one: it does not run on its own in `compare`.
  PolicySpec plan{"plan",
                  "Follows a placement plan move for move (--policy-config PLAN.json, from "
                  "`sysgym tensorplace ilp --write-plan`): the ILP as a policy.",
                  false,
                  [](const nlohmann::json& config) -> std::unique_ptr<Policy> {
                    if (!config.is_object() || !config.contains("format"))
                      throw ConfigError(
                          "plan policy: give the plan as its config (--policy-config PLAN.json, "
                          "written by `sysgym tensorplace ilp --write-plan PLAN.json`)");
                    return std::make_unique<FollowPlan>(config);
                  },
                  true,
                  "tensorplace"};
  registry.add(std::move(plan));
}

}  // namespace sysgym::tensorplace
