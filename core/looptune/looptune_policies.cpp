// looptune-v0's registration and its searches as policies: greedy lookahead over the env's own
// GFLOPS (the cost model or measurement, whichever the env rewards with).
#include "base/error.hpp"
#include "env/config_reader.hpp"
#include "looptune/looptune_env.hpp"

namespace sysgym::looptune {
namespace {

const LooptuneEnv& env_of(const Env& env, const char* policy) {
  const auto* t = dynamic_cast<const LooptuneEnv*>(&env);
  if (t == nullptr) throw ApiMisuseError(std::string(policy) + " runs on looptune envs only");
  return *t;
}

// The best GFLOPS reachable from `s` in `depth` more actions (at least s's own).
double best_within(const LooptuneEnv& env, const Schedule& s, int depth) {
  double best = env.gflops(s.nest);
  if (depth == 0) return best;
  for (int a = 0; a < kActionCount; ++a) {
    if (const auto next = env.after(s, static_cast<Action>(a)))
      best = std::max(best, best_within(env, *next, depth - 1));
  }
  return best;
}

// Takes the action whose best continuation within `depth` actions is fastest; among those, the
// one fastest at once (else a cursor move whose continuation ties would undo itself next step).
class Greedy final : public Policy {
 public:
  explicit Greedy(int depth) : depth_(depth) {}
  void reset(const Env& env, Rng&) override { env_of(env, "greedy"); }
  void decide(const Env& e, Decision& out) override {
    const LooptuneEnv& env = env_of(e, "greedy");
    int choice = 0;
    std::pair<double, double> best{-1, -1};
    for (int a = 0; a < kActionCount; ++a) {
      const auto next = env.after(static_cast<Action>(a));
      if (!next) continue;
      const std::pair<double, double> score{best_within(env, *next, depth_ - 1),
                                            env.gflops(next->nest)};
      if (score > best) {
        best = score;
        choice = a;
      }
    }
    out.use_directive = false;
    out.action.assign(1, choice);
  }
  nlohmann::json parameters() const override { return {{"depth", depth_}}; }

 private:
  int depth_;
};

PolicySpec greedy_spec(const std::string& name, int depth) {
  return family_policy("looptune", name,
                       "Greedy search, lookahead " + std::to_string(depth) +
                           ": the action whose best continuation within " + std::to_string(depth) +
                           " actions has the most GFLOPS (as the env rewards: model or measured).",
                       [depth](ConfigReader&) { return std::make_unique<Greedy>(depth); });
}

}  // namespace

void register_looptune(Registry& registry, const std::shared_ptr<const DataSource>& data) {
  EnvSpec s;
  s.id = "looptune-v0";
  s.summary = "tune a loop nest's order and tiling for GFLOPS (LoopTune on loop_tool)";
  s.factory = [data](const nlohmann::json& config) {
    return std::make_unique<LooptuneEnv>(config, *data);
  };
  s.example_config = {{"kernel", "matmul:64x64x64"}};
  s.schema = looptune_schema();
  registry.add(std::move(s));
}

void register_looptune_policies(PolicyRegistry& registry) {
  registry.add(greedy_spec("greedy1", 1));
  registry.add(greedy_spec("greedy2", 2));
}

}  // namespace sysgym::looptune
