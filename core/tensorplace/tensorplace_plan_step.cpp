// tensorplace-v0's steps in a plan's own terms (KernelMoves), and their recording. The same order
// of work as the simulator's replay: births, synchronous moves, the limit (an asynchronous move to
// fast memory holds its space from the start of its kernel), the kernel, asynchronous moves
// landing.
#include <algorithm>

#include "base/error.hpp"
#include "base/units.hpp"
#include "tensorplace/tensorplace_env.hpp"

namespace sysgym::tensorplace {
namespace {

bool born_at(const Graph& g, std::uint32_t t, std::uint32_t k) {
  return t < g.tensors().size() && g.lifetime(t).first == k &&
         (g.tensor(t).role == Role::kIntermediate || k == 0);
}

std::string kernel_text(const Graph& g, std::uint32_t k) {
  return "kernel " + g.kernel(k).name + " (#" + std::to_string(k) + ")";
}

}  // namespace

std::unique_ptr<Directive> KernelMoves::clone() const {
  return std::make_unique<KernelMoves>(*this);
}

void KernelMoves::record(nlohmann::json& step, const Directive*) const {
  nlohmann::json born = nlohmann::json::array();
  for (const auto& [t, pool] : births)
    born.push_back({t, pool == kFast ? "fast" : "slow"});
  nlohmann::json moved = nlohmann::json::array();
  for (const Move& m : moves)
    moved.push_back({m.tensor, m.to == kFast ? "fast" : "slow", m.async ? "async" : "sync"});
  step["births"] = std::move(born);
  step["moves"] = std::move(moved);
}

bool TensorplaceEnv::read_directive(const nlohmann::json& step,
                                    std::unique_ptr<Directive>& directive) const {
  if (!step.contains("births") && !step.contains("moves")) return false;
  const auto pool = [](const nlohmann::json& text) {
    if (text != "fast" && text != "slow")
      throw TraceFormatError("a recorded pool is \"fast\" or \"slow\", not " + text.dump());
    return text == "fast" ? kFast : kSlow;
  };
  auto moves = std::make_unique<KernelMoves>();
  for (const nlohmann::json& b : step.value("births", nlohmann::json::array()))
    moves->births.emplace_back(b.at(0).get<std::uint32_t>(), pool(b.at(1)));
  for (const nlohmann::json& m : step.value("moves", nlohmann::json::array())) {
    Move move;
    move.kernel = kernel_;
    move.tensor = m.at(0).get<std::uint32_t>();
    move.to = pool(m.at(1));
    move.async = m.at(2) == "async";
    moves->moves.push_back(move);
  }
  directive = std::move(moves);
  return true;
}

TensorplaceEnv::StepOutcome TensorplaceEnv::on_directive(const Directive& directive) {
  const auto* plan = dynamic_cast<const KernelMoves*>(&directive);
  if (plan == nullptr)
    throw ApiMisuseError("tensorplace-v0 steps with KernelMoves directives only");
  const Graph& g = graph();
  const std::uint32_t k = kernel_;
  for (const auto& [t, pool] : plan->births) {
    if (!born_at(g, t, k))
      throw InvalidActionError("tensor #" + std::to_string(t) + " is not born at " +
                               kernel_text(g, k));
    if (!(pool == kFast ? g.tensor(t).fast_allowed : g.tensor(t).slow_allowed))
      throw InvalidActionError("tensor " + g.tensor(t).name + " may not live in " +
                               (pool == kFast ? "fast" : "slow") + " memory");
    machine_->set_birth_pool(t, pool);
  }
  machine_->begin_kernel(k);
  double sync = 0;
  double async = 0;
  std::uint64_t in_flight = 0;
  for (const bool overlapped : {false, true}) {
    for (Move m : plan->moves) {
      if (m.async != overlapped) continue;
      m.kernel = k;
      try {
        check_move(g, config_.platform, m);
      } catch (const ConfigError& e) {
        throw InvalidActionError(e.what());
      }
      if (machine_->where(m.tensor) == m.to)
        throw InvalidActionError("a move of tensor " + g.tensor(m.tensor).name + " at " +
                                 kernel_text(g, k) + ": it is already there");
      if (!m.async) {
        sync += machine_->move_cost(m.tensor, m.to, false);
        machine_->place(m.tensor, m.to);
        continue;
      }
      async += machine_->move_cost(m.tensor, m.to, true);
      if (m.to == kFast) in_flight += g.tensor(m.tensor).allocated_bytes();
    }
  }
  if (machine_->fast_bytes() + in_flight > config_.fast_limit)
    throw InvalidActionError("the plan needs " + format_bytes(machine_->fast_bytes() + in_flight) +
                             " of fast memory at " + kernel_text(g, k) + ", over the limit of " +
                             format_bytes(config_.fast_limit));
  const double kernel = machine_->run_kernel(k);
  for (const Move& m : plan->moves) {
    if (m.async) machine_->place(m.tensor, m.to);
  }
  return finish_kernel(kernel, sync + std::max(0.0, async - kernel), 0);
}

}  // namespace sysgym::tensorplace
