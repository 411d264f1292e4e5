// Policies for memtier-v0: baselines, oracles, heuristics of real tiering systems and (later)
// learned agents, all behind one interface so that any of them runs anywhere a policy runs
// (`sysgym run`, `sysgym compare`, the browser).
//
// Before each window a policy makes a Decision: an action in the env's action space (what an
// RL agent produces), or a page-granular placement (address ranges in priority order) for the
// baselines and oracles that reason about pages rather than bins. Online policies learn only
// from windows already played (observe()); oracles read the whole pair.
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/rng.hpp"
#include "memtier/memtier_env.hpp"

namespace sysgym::memtier {

struct Decision {
  bool use_action = false;
  std::vector<double> action;        // when use_action
  std::vector<AddressRange> ranges;  // otherwise: the placement, priority order
};

class Policy {
 public:
  virtual ~Policy() = default;
  // Called after env.reset(): a new episode starts at env.next_window().
  virtual void reset(const MemtierEnv& env, Rng& rng) = 0;
  // The placement for window env.next_window().
  virtual void decide(const MemtierEnv& env, Decision& out) = 0;
  // Called after each step with the window just played (env.next_window() - 1).
  virtual void observe(const MemtierEnv&) {}
  // The resolved parameters (every key with its effective value).
  virtual nlohmann::json parameters() const { return nlohmann::json::object(); }
};

using PolicyFactory = std::function<std::unique_ptr<Policy>(const nlohmann::json& config)>;

struct PolicySpec {
  std::string name;
  std::string summary;  // one paragraph: what it models
  bool oracle = false;  // reads future windows
  PolicyFactory factory;
  // Runs only with parameters given (a learned policy's file); left out of comparisons of all.
  bool needs_parameters = false;
};

class PolicyRegistry {
 public:
  void add(PolicySpec spec);
  // Throws UnknownNameError (closest name) or the factory's ConfigError.
  std::unique_ptr<Policy> make(const std::string& name,
                               const nlohmann::json& config = nlohmann::json::object()) const;
  const PolicySpec& spec(const std::string& name) const;
  std::vector<std::string> names() const;
  // The policies that run without parameters: what "compare every policy" compares.
  std::vector<std::string> standalone_names() const;

 private:
  std::map<std::string, PolicySpec> specs_;
};

// Registers every built-in baseline, oracle and heuristic.
void register_builtin_policies(PolicyRegistry& registry);
void register_static_policies(PolicyRegistry& registry);
void register_oracle_policies(PolicyRegistry& registry);
void register_tiering_policies(PolicyRegistry& registry);

// Helpers for page-granular policies.
// Sampled pages currently in HBM, ascending.
std::vector<std::uint32_t> resident_pages(const MemtierEnv& env);
// The largest number of sampled pages the env's HBM holds.
std::size_t page_slots(const MemtierEnv& env);
// Ranges covering `pages` (ids into the pair's page table), merged where adjacent. Order is
// by address: callers pass no more pages than fit, so priority does not matter.
void ranges_of_pages(const MemtierEnv& env, std::vector<std::uint32_t> pages,
                     std::vector<AddressRange>& out);
// The `k` candidates with the largest score (ties: lower id), best first. A template so the
// score inlines: policies call it every window over thousands of pages.
template <typename Score>
std::vector<std::uint32_t> top_pages(std::vector<std::uint32_t> candidates, std::size_t k,
                                     Score&& score) {
  auto better = [&](std::uint32_t a, std::uint32_t b) {
    const auto sa = score(a);
    const auto sb = score(b);
    return sa != sb ? sa > sb : a < b;
  };
  if (candidates.size() > k) {
    std::nth_element(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(k),
                     candidates.end(), better);
    candidates.resize(k);
  }
  std::sort(candidates.begin(), candidates.end(), better);
  return candidates;
}

}  // namespace sysgym::memtier
