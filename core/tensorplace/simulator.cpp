#include "tensorplace/simulator.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "base/units.hpp"

namespace sysgym::tensorplace {
namespace {

const char* pool_name(Pool p) {
  return p == kFast ? "fast" : "slow";
}

std::string at_kernel(const Graph& g, std::uint32_t k) {
  return "kernel " + quote(g.kernel(k).name) + " (#" + std::to_string(k) + ")";
}

bool allowed(const Tensor& t, Pool p) {
  return p == kFast ? t.fast_allowed : t.slow_allowed;
}

// Whether tensor t exists when kernel k starts (intermediates exist after their producer).
bool exists_before(const Graph& g, std::uint32_t t, std::uint32_t k) {
  const Lifetime& life = g.lifetime(t);
  const bool born = g.tensor(t).role == Role::kIntermediate ? life.first < k : life.first <= k;
  return born && k <= life.last;
}

void check_move(const Graph& g, const Platform& platform, const Move& m) {
  if (m.kernel >= g.kernels().size() || m.tensor >= g.tensors().size()) {
    throw ConfigError("a move names kernel #" + std::to_string(m.kernel) + " and tensor #" +
                      std::to_string(m.tensor) + ", outside the graph");
  }
  const Tensor& t = g.tensor(m.tensor);
  if (!allowed(t, m.to))
    throw ConfigError("tensor " + quote(t.name) + " may not live in " + pool_name(m.to) +
                      " memory");
  if (!exists_before(g, m.tensor, m.kernel)) {
    throw ConfigError("a move of tensor " + quote(t.name) + " at " + at_kernel(g, m.kernel) +
                      ", outside its lifetime");
  }
  if (!m.async) return;
  const std::vector<std::uint32_t>& users = g.users(m.tensor);
  const bool near = std::any_of(users.begin(), users.end(), [&](std::uint32_t u) {
    return (u > m.kernel ? u - m.kernel : m.kernel - u) <= platform.async_window;
  });
  if (!near) {
    throw ConfigError("an asynchronous move of tensor " + quote(t.name) + " at " +
                      at_kernel(g, m.kernel) + " is more than " +
                      std::to_string(platform.async_window) + " kernels from every user");
  }
}

class Replay {
 public:
  Replay(const Graph& g, const Platform& p, const Plan& plan, std::uint64_t limit)
      : g_(g),
        p_(p),
        plan_(plan),
        limit_(limit),
        where_(plan.initial),
        clean_(g.tensors().size(), false),
        born_(g.kernels().size()),
        dying_(g.kernels().size()),
        sync_(g.kernels().size()),
        async_(g.kernels().size()) {
    for (std::uint32_t t = 0; t < g.tensors().size(); ++t) {
      if (!allowed(g.tensor(t), where_[t]))
        throw ConfigError("tensor " + quote(g.tensor(t).name) + " may not live in " +
                          pool_name(where_[t]) + " memory");
      born_[g.lifetime(t).first].push_back(t);
      if (g.tensor(t).role == Role::kIntermediate) dying_[g.lifetime(t).last].push_back(t);
    }
    for (const Move& m : plan.moves) {
      check_move(g, p, m);
      (m.async ? async_ : sync_)[m.kernel].push_back(m);
    }
  }

  Simulation run() {
    for (std::uint32_t k = 0; k < g_.kernels().size(); ++k)
      kernel(k);
    for (std::uint32_t t = 0; t < g_.tensors().size(); ++t) {
      if (g_.tensor(t).role != Role::kIntermediate && where_[t] != plan_.initial[t])
        out_.sync_s += copy(t, plan_.initial[t], false);
    }
    out_.iteration_s += out_.sync_s - sync_in_kernels_;
    return out_;
  }

 private:
  // The seconds of moving t to `to`, bytes counted; a clean slow copy makes a move to slow free.
  double copy(std::uint32_t t, Pool to, bool async) {
    const auto bytes = g_.tensor(t).bytes;
    if (to == kSlow && clean_[t]) return 0;
    (to == kFast ? out_.bytes_to_fast : out_.bytes_to_slow) += bytes;
    const double bandwidth = to == kFast ? (async ? p_.async_to_fast : p_.sync_to_fast)
                                         : (async ? p_.async_to_slow : p_.sync_to_slow);
    return static_cast<double>(bytes) / bandwidth;
  }

  void place(std::uint32_t t, Pool to) {
    const auto bytes = g_.tensor(t).allocated_bytes();
    if (where_[t] == kFast) fast_ -= bytes;
    if (to == kFast) fast_ += bytes;
    if (to == kSlow) clean_[t] = true;
    where_[t] = to;
  }

  void check_target(const Move& m, std::uint32_t k) {
    if (where_[m.tensor] == m.to) {
      throw ConfigError("a move of tensor " + quote(g_.tensor(m.tensor).name) + " to " +
                        pool_name(m.to) + " memory at " + at_kernel(g_, k) +
                        ": it is already there");
    }
  }

  void kernel(std::uint32_t k) {
    KernelTiming timing;
    for (std::uint32_t t : born_[k]) {
      clean_[t] = where_[t] == kSlow;
      if (where_[t] == kFast) fast_ += g_.tensor(t).allocated_bytes();
    }
    for (const Move& m : sync_[k]) {
      check_target(m, k);
      timing.sync_s += copy(m.tensor, m.to, false);
      place(m.tensor, m.to);
    }
    // An async move to fast memory holds its fast space from the start of its kernel.
    std::uint64_t in_flight = 0;
    for (const Move& m : async_[k]) {
      check_target(m, k);
      timing.async_s += copy(m.tensor, m.to, true);
      if (m.to == kFast) in_flight += g_.tensor(m.tensor).allocated_bytes();
    }
    timing.fast_bytes = fast_ + in_flight;
    if (timing.fast_bytes > limit_) {
      throw ConfigError("the plan needs " + format_bytes(timing.fast_bytes) +
                        " of fast memory at " + at_kernel(g_, k) + ", over the limit of " +
                        format_bytes(limit_));
    }
    timing.kernel_s = kernel_time(g_, k, where_, p_);
    for (std::uint32_t t : g_.kernel(k).outputs)
      clean_[t] = clean_[t] && where_[t] == kSlow;
    for (const Move& m : async_[k])
      place(m.tensor, m.to);
    for (std::uint32_t t : dying_[k]) {
      if (where_[t] == kFast) fast_ -= g_.tensor(t).allocated_bytes();
    }
    out_.kernel_s += timing.kernel_s;
    out_.sync_s += timing.sync_s;
    sync_in_kernels_ += timing.sync_s;
    out_.async_stall_s += std::max(0.0, timing.async_s - timing.kernel_s);
    out_.iteration_s += timing.sync_s + std::max(timing.kernel_s, timing.async_s);
    out_.peak_fast_bytes = std::max(out_.peak_fast_bytes, timing.fast_bytes);
    out_.kernels.push_back(timing);
  }

  const Graph& g_;
  const Platform& p_;
  const Plan& plan_;
  std::uint64_t limit_;
  std::vector<Pool> where_;
  std::vector<bool> clean_;
  std::vector<std::vector<std::uint32_t>> born_, dying_;
  std::vector<std::vector<Move>> sync_, async_;
  std::uint64_t fast_ = 0;
  double sync_in_kernels_ = 0;
  Simulation out_;
};

}  // namespace

Simulation simulate(const Graph& graph, const Platform& platform, const Plan& plan,
                    std::uint64_t fast_limit) {
  if (plan.initial.size() != graph.tensors().size()) {
    throw ConfigError("the plan places " + std::to_string(plan.initial.size()) +
                      " tensors; the graph has " + std::to_string(graph.tensors().size()));
  }
  return Replay(graph, platform, plan, fast_limit).run();
}

Plan all_in(const Graph& graph, Pool pool) {
  Plan plan;
  for (const Tensor& t : graph.tensors())
    plan.initial.push_back(allowed(t, pool) ? pool : (pool == kFast ? kSlow : kFast));
  return plan;
}

Plan first_touch(const Graph& graph, std::uint64_t fast_limit) {
  Plan plan = all_in(graph, kSlow);
  std::vector<std::vector<std::uint32_t>> born(graph.kernels().size());
  std::vector<std::vector<std::uint32_t>> dying(graph.kernels().size());
  for (std::uint32_t t = 0; t < graph.tensors().size(); ++t) {
    born[graph.lifetime(t).first].push_back(t);
    if (graph.tensor(t).role == Role::kIntermediate) dying[graph.lifetime(t).last].push_back(t);
  }
  std::uint64_t used = 0;
  for (std::uint32_t k = 0; k < graph.kernels().size(); ++k) {
    for (std::uint32_t t : born[k]) {
      const Tensor& tensor = graph.tensor(t);
      if (tensor.fast_allowed && used + tensor.allocated_bytes() <= fast_limit) {
        plan.initial[t] = kFast;
        used += tensor.allocated_bytes();
      }
    }
    for (std::uint32_t t : dying[k])
      used -= plan.initial[t] == kFast ? graph.tensor(t).allocated_bytes() : 0;
  }
  return plan;
}

}  // namespace sysgym::tensorplace
