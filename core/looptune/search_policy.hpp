// The searches (search.hpp) as policies: on its first decision of an episode a search plans from
// the env's schedule over the episode's remaining steps, then plays its best sequence; once that
// is played out it moves the cursor (which leaves the nest as it is) to the episode's end.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "env/policy.hpp"
#include "looptune/search.hpp"

namespace sysgym::looptune {

class SearchPolicy final : public Policy {
 public:
  SearchPolicy(SearchKind kind, int width, SearchBudget budget)
      : kind_(kind), width_(width), budget_(budget) {}
  void reset(const Env& env, Rng& rng) override;
  void decide(const Env& env, Decision& out) override;
  nlohmann::json parameters() const override;
  // The last plan: its actions and the schedules it evaluated.
  const SearchResult& last() const { return result_; }

 private:
  SearchKind kind_;
  int width_;
  SearchBudget budget_;
  Rng rng_;
  bool planned_ = false;
  std::size_t played_ = 0;
  SearchResult result_;
};

// Whether `policy` names one of these searches (they take `evaluations` and `seconds`).
bool is_planning_search(const std::string& policy);
// Whether `policy` takes `seconds`, a time budget it keeps itself (the planning searches and
// greedy); the other policies' steps are bounded by whoever steps them.
bool takes_time_budget(const std::string& policy);
// The search a name such as "beam2dfs" names; nullopt for any other name.
std::optional<std::pair<SearchKind, int>> planning_search(const std::string& policy);

}  // namespace sysgym::looptune
