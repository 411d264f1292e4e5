// looptune-v0's registration and its searches as policies: greedy lookahead over the env's own
// GFLOPS (the cost model or measurement, whichever the env rewards with).
#include <algorithm>
#include <chrono>

#include "base/error.hpp"
#include "env/config_reader.hpp"
#include "looptune/looptune_env.hpp"
#include "looptune/search_policy.hpp"

namespace sysgym::looptune {
namespace {

const LooptuneEnv& env_of(const Env& env, const char* policy) {
  const auto* t = dynamic_cast<const LooptuneEnv*>(&env);
  if (t == nullptr) throw ApiMisuseError(std::string(policy) + " runs on looptune envs only");
  return *t;
}

// Takes the action whose best continuation within `depth` actions is fastest; among those, the
// one fastest at once (else a cursor move whose continuation ties would undo itself next step).
// With `seconds` (0: no limit), the episode's time from the policy's reset: once it is spent, a
// step stops evaluating and takes the best action found so far (idles when none was), so a
// measured episode overruns by at most the one measurement under way.
class Greedy final : public Policy {
 public:
  Greedy(int depth, double seconds) : depth_(depth), seconds_(seconds) {}
  void reset(const Env& env, Rng&) override {
    env_of(env, "greedy");
    start_ = std::chrono::steady_clock::now();
  }
  void decide(const Env& e, Decision& out) override {
    const LooptuneEnv& env = env_of(e, "greedy");
    Action choice = env.idle_action();
    std::pair<double, double> best{-1, -1};
    for (int a = 0; a < kActionCount && !out_of_time(); ++a) {
      const auto next = env.after(static_cast<Action>(a));
      if (!next) continue;
      const std::pair<double, double> score{best_within(env, *next, depth_ - 1),
                                            env.gflops(next->nest)};
      if (score > best) {
        best = score;
        choice = static_cast<Action>(a);
      }
    }
    out.use_directive = false;
    out.action.assign(1, static_cast<double>(choice));
  }
  nlohmann::json parameters() const override { return {{"depth", depth_}, {"seconds", seconds_}}; }

 private:
  bool out_of_time() const {
    return seconds_ > 0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >=
               seconds_;
  }
  // The best GFLOPS reachable from `s` in `depth` more actions (at least s's own; as far as the
  // time allows).
  double best_within(const LooptuneEnv& env, const Schedule& s, int depth) const {
    double best = env.gflops(s.nest);
    if (depth == 0) return best;
    for (int a = 0; a < kActionCount && !out_of_time(); ++a) {
      if (const auto next = env.after(s, static_cast<Action>(a)))
        best = std::max(best, best_within(env, *next, depth - 1));
    }
    return best;
  }

  int depth_;
  double seconds_;
  std::chrono::steady_clock::time_point start_;
};

PolicySpec greedy_spec(const std::string& name, int depth) {
  return family_policy("looptune", name,
                       "Greedy search, lookahead " + std::to_string(depth) +
                           ": the action whose best continuation within " + std::to_string(depth) +
                           " actions has the most GFLOPS (as the env rewards: model or measured). "
                           "`seconds` (0: no limit) bounds the episode: once it is spent, a step "
                           "takes the best action found so far.",
                       [depth](ConfigReader& r) {
                         return std::make_unique<Greedy>(depth, r.number("seconds", 0, 0, 86400));
                       });
}

// Plays a given list of actions (a person's, from the playground's buttons), then idles.
class Sequence final : public Policy {
 public:
  explicit Sequence(std::vector<Action> actions) : actions_(std::move(actions)) {}
  void reset(const Env& env, Rng&) override {
    env_of(env, "sequence");
    played_ = 0;
  }
  void decide(const Env& e, Decision& out) override {
    const LooptuneEnv& env = env_of(e, "sequence");
    const Action a = played_ < actions_.size() ? actions_[played_++] : env.idle_action();
    out.use_directive = false;
    out.action.assign(1, static_cast<double>(a));
  }
  nlohmann::json parameters() const override {
    nlohmann::json names = nlohmann::json::array();
    for (Action a : actions_)
      names.push_back(action_name(a));
    return {{"actions", names}};
  }

 private:
  std::vector<Action> actions_;
  std::size_t played_ = 0;
};

PolicySpec sequence_spec() {
  return family_policy(
      "looptune", "sequence",
      "Plays the `actions` it is given (names such as \"swap_down\" or numbers 0-11) in order, "
      "then moves the cursor: a person's tuning, replayed (the playground's buttons).",
      [](ConfigReader& r) {
        std::vector<Action> actions;
        if (const nlohmann::json* given = r.raw("actions")) {
          if (!given->is_array()) r.fail("actions", "must be a list of action names or numbers");
          for (const nlohmann::json& a : *given) {
            if (a.is_string()) {
              actions.push_back(parse_action(a.get<std::string>(), "sequence policy config"));
            } else if (a.is_number_integer() && a.get<int>() >= 0 && a.get<int>() < kActionCount) {
              actions.push_back(static_cast<Action>(a.get<int>()));
            } else {
              r.fail("actions", "holds " + a.dump() + ", neither an action name nor 0 to 11");
            }
          }
        }
        return std::make_unique<Sequence>(std::move(actions));
      });
}

struct SearchSpec {
  const char* name;
  SearchKind kind;
  int width;
  const char* summary;
};

const SearchSpec kSearches[] = {
    {"beam2bfs", SearchKind::kBeamBfs, 2,
     "Beam search, breadth first, width 2: every action of the 2 fastest schedules at each "
     "level, ranked by GFLOPS"},
    {"beam4bfs", SearchKind::kBeamBfs, 4,
     "Beam search, breadth first, width 4: every action of the 4 fastest schedules at each "
     "level, ranked by GFLOPS"},
    {"beam2dfs", SearchKind::kBeamDfs, 2,
     "Beam search, depth first, width 2: from each schedule, its 2 fastest children in turn"},
    {"beam4dfs", SearchKind::kBeamDfs, 4,
     "Beam search, depth first, width 4: from each schedule, its 4 fastest children in turn"},
    {"rollouts", SearchKind::kRollouts, 0,
     "Random search: rollouts of random legal actions over the episode, the best prefix kept"},
    {"anneal", SearchKind::kAnneal, 0,
     "Simulated annealing over the episode's action sequence: one action replaced at a time, "
     "worse sequences accepted less as the budget runs out"},
};

PolicySpec search_spec(const SearchSpec& s) {
  return family_policy(
      "looptune", s.name,
      std::string(s.summary) +
          ". Plans at the episode's first step within `evaluations` (default 2000) distinct "
          "schedules and `seconds` (0: no time limit), then plays the plan.",
      [s](ConfigReader& r) {
        SearchBudget budget;
        budget.evaluations = r.integer("evaluations", budget.evaluations, 1, 100'000'000);
        budget.seconds = r.number("seconds", 0, 0, 86400);
        return std::make_unique<SearchPolicy>(s.kind, s.width, budget);
      });
}

}  // namespace

bool is_planning_search(const std::string& policy) {
  return planning_search(policy).has_value();
}

bool takes_time_budget(const std::string& policy) {
  return is_planning_search(policy) || policy == "greedy1" || policy == "greedy2";
}

std::optional<std::pair<SearchKind, int>> planning_search(const std::string& policy) {
  for (const SearchSpec& s : kSearches) {
    if (policy == s.name) return std::pair{s.kind, s.width};
  }
  return std::nullopt;
}

void SearchPolicy::reset(const Env& env, Rng& rng) {
  env_of(env, "a looptune search");
  rng_.reseed(rng.next_u64());
  planned_ = false;
  played_ = 0;
}

void SearchPolicy::decide(const Env& e, Decision& out) {
  const LooptuneEnv& env = env_of(e, "a looptune search");
  if (!planned_) {
    result_ = run_search(
        kind_, width_, env.schedule(), static_cast<int>(env.steps_left()),
        [&env](const Schedule& s, Action a) { return env.after(s, a); },
        [&env](const LoopNest& nest) { return env.gflops(nest); }, budget_, rng_);
    planned_ = true;
  }
  const Action a =
      played_ < result_.actions.size() ? result_.actions[played_++] : env.idle_action();
  out.use_directive = false;
  out.action.assign(1, static_cast<double>(a));
}

nlohmann::json SearchPolicy::parameters() const {
  return {{"evaluations", budget_.evaluations}, {"seconds", budget_.seconds}};
}

void register_looptune_policies(PolicyRegistry& registry) {
  registry.add(greedy_spec("greedy1", 1));
  registry.add(greedy_spec("greedy2", 2));
  for (const SearchSpec& s : kSearches)
    registry.add(search_spec(s));
  registry.add(sequence_spec());
}

}  // namespace sysgym::looptune
