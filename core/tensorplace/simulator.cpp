#include "tensorplace/simulator.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "base/units.hpp"
#include "tensorplace/machine.hpp"

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

class Replay {
 public:
  Replay(const Graph& g, const Platform& p, const Plan& plan, std::uint64_t limit)
      : g_(g), limit_(limit), machine_(g, p, plan.initial, true), moves_(g.kernels().size()) {
    for (std::uint32_t t = 0; t < g.tensors().size(); ++t) {
      if (!allowed(g.tensor(t), plan.initial[t]))
        throw ConfigError("tensor " + quote(g.tensor(t).name) + " may not live in " +
                          pool_name(plan.initial[t]) + " memory");
    }
    for (const Move& m : plan.moves) {
      check_move(g, p, m);
      moves_[m.kernel].push_back(m);
    }
  }

  Simulation run() {
    for (std::uint32_t k = 0; k < g_.kernels().size(); ++k) {
      const KernelTiming timing = run_kernel_moves(g_, machine_, k, moves_[k], limit_);
      machine_.end_kernel(k);
      out_.kernel_s += timing.kernel_s;
      out_.sync_s += timing.sync_s;
      out_.async_stall_s += std::max(0.0, timing.async_s - timing.kernel_s);
      out_.iteration_s += timing.sync_s + std::max(timing.kernel_s, timing.async_s);
      out_.peak_fast_bytes = std::max(out_.peak_fast_bytes, timing.fast_bytes);
      out_.kernels.push_back(timing);
    }
    const double returns = machine_.return_persistent();
    out_.sync_s += returns;
    out_.iteration_s += returns;
    out_.bytes_to_fast = machine_.bytes_to_fast();
    out_.bytes_to_slow = machine_.bytes_to_slow();
    out_.fast_heap_bytes = machine_.fast_heap_bytes();
    return out_;
  }

 private:
  const Graph& g_;
  std::uint64_t limit_;
  Machine machine_;
  std::vector<std::vector<Move>> moves_;  // by kernel
  Simulation out_;
};

}  // namespace

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

KernelTiming run_kernel_moves(const Graph& graph, Machine& machine, std::uint32_t k,
                              std::span<const Move> moves, std::uint64_t fast_limit) {
  const auto check_target = [&](const Move& m) {
    if (machine.where(m.tensor) == m.to) {
      throw ConfigError("a move of tensor " + quote(graph.tensor(m.tensor).name) + " to " +
                        pool_name(m.to) + " memory at " + at_kernel(graph, k) +
                        ": it is already there");
    }
  };
  KernelTiming timing;
  machine.begin_kernel(k);
  for (const Move& m : moves) {
    if (m.async) continue;
    check_target(m);
    timing.sync_s += machine.move_cost(m.tensor, m.to, false);
    machine.place(m.tensor, m.to);
  }
  // An async move to fast memory holds its fast space from the start of its kernel.
  std::uint64_t in_flight = 0;
  for (const Move& m : moves) {
    if (!m.async) continue;
    check_target(m);
    timing.async_s += machine.move_cost(m.tensor, m.to, true);
    if (m.to == kFast) in_flight += graph.tensor(m.tensor).allocated_bytes();
  }
  timing.fast_bytes = machine.fast_bytes() + in_flight;
  timing.heap_top = machine.fast_heap_top();
  if (timing.fast_bytes > fast_limit) {
    throw ConfigError("the plan needs " + format_bytes(timing.fast_bytes) + " of fast memory at " +
                      at_kernel(graph, k) + ", over the limit of " + format_bytes(fast_limit));
  }
  timing.kernel_s = machine.run_kernel(k);
  for (const Move& m : moves) {
    if (m.async) machine.place(m.tensor, m.to);
  }
  return timing;
}

Simulation simulate(const Graph& graph, const Platform& platform, const Plan& plan,
                    std::uint64_t fast_limit) {
  if (plan.initial.size() != graph.tensors().size()) {
    throw ConfigError("the plan places " + std::to_string(plan.initial.size()) +
                      " tensors; the graph has " + std::to_string(graph.tensors().size()));
  }
  return Replay(graph, platform, plan, fast_limit).run();
}

double all_fast_seconds(const Graph& graph, const Platform& platform) {
  return simulate(graph, platform, all_in(graph, kFast), graph.peak_live_bytes()).iteration_s;
}

double all_slow_seconds(const Graph& graph, const Platform& platform) {
  return simulate(graph, platform, all_in(graph, kSlow), 0).iteration_s;
}

Plan all_in(const Graph& graph, Pool pool) {
  Plan plan;
  for (const Tensor& t : graph.tensors())
    plan.initial.push_back(allowed(t, pool) ? pool : (pool == kFast ? kSlow : kFast));
  return plan;
}

Plan first_touch(const Graph& graph, std::uint64_t fast_limit) {
  Plan plan = all_in(graph, kSlow);
  std::uint64_t used = 0;
  for (std::uint32_t k = 0; k < graph.kernels().size(); ++k) {
    for (std::uint32_t t : graph.born_at(k)) {
      const Tensor& tensor = graph.tensor(t);
      if (tensor.fast_allowed && used + tensor.allocated_bytes() <= fast_limit) {
        plan.initial[t] = kFast;
        used += tensor.allocated_bytes();
      }
    }
    for (std::uint32_t t : graph.dying_at(k))
      used -= plan.initial[t] == kFast ? graph.tensor(t).allocated_bytes() : 0;
  }
  return plan;
}

}  // namespace sysgym::tensorplace
