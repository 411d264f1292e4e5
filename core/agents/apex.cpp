#include "agents/apex.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "base/error.hpp"
#include "profiling/ops.hpp"

namespace sysgym::agents {
namespace {

// A transition on the wire: observation, next observation, action, reward, end.
std::size_t transition_bytes(std::size_t observation_size) {
  return 2 * observation_size * sizeof(float) + sizeof(std::int32_t) + sizeof(double) + 1;
}

template <typename T>
void put(std::vector<std::byte>& out, const T* values, std::size_t count) {
  const auto* bytes = reinterpret_cast<const std::byte*>(values);
  out.insert(out.end(), bytes, bytes + count * sizeof(T));
}

template <typename T>
const std::byte* take(const std::byte* in, T* values, std::size_t count) {
  std::memcpy(values, in, count * sizeof(T));
  return in + count * sizeof(T);
}

}  // namespace

ApexExchange::ApexExchange(Collective& collective, DqnAgent& agent, std::size_t envs)
    : collective_(collective),
      agent_(agent),
      obs_(agent.normalizer().size()),
      next_(agent.normalizer().size()) {
  const auto per_round =
      static_cast<std::int64_t>(agent.config().broadcast_every) * agent.config().train_every;
  const auto k = static_cast<std::int64_t>(envs);
  steps_per_round_ = std::max<std::int64_t>(1, (per_round + k - 1) / k);
}

void ApexExchange::keep(std::span<const float> observation, int action, double reward,
                        std::span<const float> next, bool terminal) {
  const auto a = static_cast<std::int32_t>(action);
  const auto end = static_cast<std::uint8_t>(terminal ? 1 : 0);
  put(outbox_, observation.data(), observation.size());
  put(outbox_, next.data(), next.size());
  put(outbox_, &a, 1);
  put(outbox_, &reward, 1);
  put(outbox_, &end, 1);
}

void ApexExchange::finish_round() {
  if (learner()) {
    for (int u = 0; u < agent_.config().broadcast_every; ++u)
      agent_.learn();
  }
  const profiling::Scope scope(profiling::ops::kApexExchange);
  collective_.gather(outbox_, 0, inbox_);
  outbox_.clear();
  store_transitions(inbox_);  // every rank's, in rank order
  std::vector<double> parameters = agent_.acting_parameters();
  collective_.broadcast(parameters, 0);
  if (!learner()) agent_.load_acting_parameters(parameters);
}

void ApexExchange::store_transitions(std::span<const std::byte> bytes) {
  const std::size_t size = transition_bytes(obs_.size());
  if (bytes.size() % size != 0) throw Error("Ape-X: a rank sent a partial transition");
  for (const std::byte* at = bytes.data(); at != bytes.data() + bytes.size();) {
    std::int32_t action = 0;
    double reward = 0;
    std::uint8_t end = 0;
    at = take(at, obs_.data(), obs_.size());
    at = take(at, next_.data(), next_.size());
    at = take(at, &action, 1);
    at = take(at, &reward, 1);
    at = take(at, &end, 1);
    agent_.store(obs_, action, reward, next_, end != 0);
  }
}

}  // namespace sysgym::agents
