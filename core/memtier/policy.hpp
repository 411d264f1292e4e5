// memtier's own policies: baselines, oracles and heuristics of real tiering systems. They are
// generic Policies (env/policy.hpp) that read the MemtierEnv behind the Env they are given, and
// that usually place page-granular address ranges (a Placement directive) rather than bins.
// Online policies learn only from windows already played (learn()); oracles read the whole pair.
#pragma once

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/rng.hpp"
#include "env/policy.hpp"
#include "memtier/memtier_env.hpp"

namespace sysgym::memtier {

inline constexpr const char* kFamily = "memtier";

// A memtier policy: the Env it is handed is a MemtierEnv (ApiMisuseError otherwise).
class MemtierPolicy : public Policy {
 public:
  void reset(const Env& env, Rng& rng) final { start(memtier_env(env), rng); }
  void decide(const Env& env, Decision& out) final { choose(memtier_env(env), out); }
  void observe(const Env& env) final { learn(memtier_env(env)); }

 protected:
  // A new episode starts at env.next_window().
  virtual void start(const MemtierEnv& env, Rng& rng) = 0;
  // The decision for window env.next_window(); placement(out) gives the ranges to fill.
  virtual void choose(const MemtierEnv& env, Decision& out) = 0;
  // The window just played (env.next_window() - 1).
  virtual void learn(const MemtierEnv&) {}

 private:
  static const MemtierEnv& memtier_env(const Env& env);
};

// Makes `out` a placement and returns its ranges (priority order) to fill; the buffer is reused
// from the policy's previous decision.
std::vector<AddressRange>& placement(Decision& out);

// Registers memtier's baselines, oracles and heuristics (family "memtier").
void register_memtier_policies(PolicyRegistry& registry);
// Registers one policy of family "memtier".
void add_memtier_policy(PolicyRegistry& registry, PolicySpec spec);
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
// Shrinks `candidates` to the `k` with the largest score (ties: lower id), in no set order: for
// callers that want the set, without the sort of top_pages.
template <typename Score>
void keep_best(std::vector<std::uint32_t>& candidates, std::size_t k, Score&& score) {
  if (candidates.size() <= k) return;
  std::nth_element(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(k),
                   candidates.end(), [&](std::uint32_t a, std::uint32_t b) {
                     const auto sa = score(a);
                     const auto sb = score(b);
                     return sa != sb ? sa > sb : a < b;
                   });
  candidates.resize(k);
}
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
