// Placements fixed for a whole episode (decided at reset, free as the initial placement).
#include <algorithm>

#include "env/config_reader.hpp"
#include "memtier/policy.hpp"

namespace sysgym::memtier {
namespace {

// A placement computed once per episode.
class StaticPolicy : public MemtierPolicy {
 public:
  void choose(const MemtierEnv&, Decision& out) override {
    std::vector<AddressRange>& ranges = placement(out);
    ranges = ranges_;
  }

 protected:
  std::vector<AddressRange> ranges_;
};

class AllDdr : public StaticPolicy {
 public:
  void start(const MemtierEnv&, Rng&) override { ranges_.clear(); }
};

// The application's memory (its regions) from the lowest address up, until HBM is full.
class AllHbmLowestAddress : public StaticPolicy {
 public:
  void start(const MemtierEnv& env, Rng&) override {
    ranges_.clear();
    for (const Region& r : env.bins().regions())
      ranges_.push_back({r.lo, r.hi});
  }
};

// Sampled pages in the order the program first touched them, until HBM is full: what
// first-touch allocation into HBM gives.
class AllHbmFirstTouch : public StaticPolicy {
 public:
  void start(const MemtierEnv& env, Rng&) override {
    ranges_of_pages(env, first_touched_pages(env.pair(), env.next_window(), page_slots(env)),
                    ranges_);
  }
};

// The best fixed placement: T is linear in which pages are in HBM, a page's value being
// sum over the episode's windows of (t_ddr - t_hbm) * n_pw / n_w; with equal-size pages,
// taking pages by decreasing positive value until capacity is exact.
class StaticOracle : public StaticPolicy {
 public:
  void start(const MemtierEnv& env, Rng&) override {
    const PreparedPair& pair = env.pair();
    std::vector<double> value(pair.pages.size(), 0.0);
    for (std::size_t w = env.episode_begin(); w < env.episode_end(); ++w) {
      const double gain = pair.saving_per_sample_ms(w);
      for (std::uint64_t e = pair.entry_offset[w]; e < pair.entry_offset[w + 1]; ++e) {
        value[pair.entry_page[e]] += gain * pair.entry_count(e);
      }
    }
    std::vector<std::uint32_t> candidates;
    for (std::uint32_t p = 0; p < value.size(); ++p) {
      if (value[p] > 0.0) candidates.push_back(p);
    }
    ranges_of_pages(
        env, top_pages(candidates, page_slots(env), [&](std::uint32_t p) { return value[p]; }),
        ranges_);
  }
};

template <typename P>
PolicyFactory parameterless(const std::string& name) {
  return [name](const nlohmann::json& config) -> std::unique_ptr<Policy> {
    ConfigReader(config, name + " policy config").finish();
    return std::make_unique<P>();
  };
}

}  // namespace

void register_static_policies(PolicyRegistry& registry) {
  add_memtier_policy(
      registry,
      {"all-ddr", "Everything stays in DDR: the slow bound every policy is measured from.", false,
       parameterless<AllDdr>("all-ddr")});
  add_memtier_policy(
      registry, {"all-hbm-lowest-address",
                 "The application's memory regions from the lowest address up, until HBM is full "
                 "(all-HBM capped by capacity, as an allocator filling HBM first would).",
                 false, parameterless<AllHbmLowestAddress>("all-hbm-lowest-address")});
  add_memtier_policy(
      registry,
      {"all-hbm-first-touch",
       "Pages in the order the program first touches them, until HBM is full (first-touch "
       "allocation into HBM with DDR as the fallback).",
       false, parameterless<AllHbmFirstTouch>("all-hbm-first-touch")});
  add_memtier_policy(
      registry,
      {"static-oracle",
       "The best placement fixed for the whole episode, knowing every window: pages by "
       "decreasing (t_ddr - t_hbm) * n_pw / n_w summed over windows (exact for equal-size pages).",
       true, parameterless<StaticOracle>("static-oracle")});
}

}  // namespace sysgym::memtier
