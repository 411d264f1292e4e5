// tensorplace-v0's steps in a plan's own terms (KernelMoves), and their recording. A step runs
// its kernel as the simulator's replay does (run_kernel_moves), so an episode takes the plan's
// simulated time.
#include <algorithm>

#include "base/error.hpp"
#include "tensorplace/tensorplace_env.hpp"

namespace sysgym::tensorplace {
namespace {

// The graph lists the tensors born at each kernel in index order.
bool born_at(const Graph& g, std::uint32_t t, std::uint32_t k) {
  return std::binary_search(g.born_at(k).begin(), g.born_at(k).end(), t);
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
      throw InvalidActionError("tensor #" + std::to_string(t) + " is not born at kernel " +
                               g.kernel(k).name + " (#" + std::to_string(k) + ")");
    if (!(pool == kFast ? g.tensor(t).fast_allowed : g.tensor(t).slow_allowed))
      throw InvalidActionError("tensor " + g.tensor(t).name + " may not live in " +
                               (pool == kFast ? "fast" : "slow") + " memory");
    machine_->set_birth_pool(t, pool);
  }
  if (!config_.moves && !plan->moves.empty())
    throw InvalidActionError("a move at kernel " + g.kernel(k).name +
                             ", but this env has moves=none (a static plan places tensors at "
                             "birth only)");
  std::vector<Move> moves = plan->moves;
  KernelTiming timing;
  try {
    for (Move& m : moves) {
      m.kernel = k;
      check_move(g, config_.platform, m);
    }
    timing = run_kernel_moves(g, *machine_, k, moves, config_.fast_limit);
  } catch (const ConfigError& e) {
    throw InvalidActionError(e.what());
  }
  return finish_kernel(timing.kernel_s,
                       timing.sync_s + std::max(0.0, timing.async_s - timing.kernel_s), 0);
}

}  // namespace sysgym::tensorplace
