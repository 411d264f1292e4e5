#include "agents/bin_view.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "base/json_text.hpp"

namespace sysgym::agents {

BinView BinView::of(const std::optional<EntityLayout>& entities, int observation_size, bool flip) {
  if (!entities) {
    throw ConfigError(
        "a per-bin network needs an env that declares its entities (Env::entity_layout); this "
        "one declares none");
  }
  const EntityLayout& e = *entities;
  if (e.count < 1 || e.channels < 2 || observation_size < e.channels * e.count) {
    throw ConfigError("a per-bin network needs an observation of at least two channels of " +
                      std::to_string(e.count) + " " + e.entity + "s; this one has " +
                      std::to_string(e.channels) + " channels in " +
                      std::to_string(observation_size) + " values");
  }
  if (flip && e.state_channel < 0) {
    throw ConfigError("flip actions need an env whose " + e.entity +
                      "s have a state channel to toggle; this one has none");
  }
  BinView v;
  v.bins = e.count;
  v.channels = e.channels;
  v.scalars = observation_size - e.channels * e.count;
  v.flip = flip;
  v.state_channel = e.state_channel;
  return v;
}

void BinView::bind(const std::optional<EntityLayout>& entities) {
  if (entities && (entities->count != bins || entities->channels != channels)) {
    throw ConfigError(
        "the policy reads " + std::to_string(bins) + " bins of " + std::to_string(channels) +
        " channels; the env has " + std::to_string(entities->count) + " of " +
        std::to_string(entities->channels) + " (train it with the same bins and history)");
  }
  state_channel = of(entities, channels * bins + scalars, flip).state_channel;
}

namespace {

// rank[i] = bins strictly above value[i], over the bin count: after a descending sort, the
// position of the first value equal to value[i] (O(B log B); ranks are exact either way).
void ranks(const std::vector<double>& value, std::vector<double>& rank) {
  const std::size_t n = value.size();
  std::vector<double> sorted(value);
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  for (std::size_t i = 0; i < n; ++i) {
    const auto first = std::lower_bound(sorted.begin(), sorted.end(), value[i], std::greater<>());
    rank[i] = static_cast<double>(first - sorted.begin()) / static_cast<double>(n);
  }
}

}  // namespace

void BinView::features(std::span<const float> observation, std::span<double> out) const {
  const auto b = static_cast<std::size_t>(bins);
  const auto c = static_cast<std::size_t>(channels);
  const auto f = static_cast<std::size_t>(feature_size());
  std::vector<double> last(b), recent(b, 0.0), rank_last(b), rank_recent(b);
  for (std::size_t i = 0; i < b; ++i) {
    last[i] = observation[i];
    for (std::size_t k = 0; k < c; ++k) {
      if (static_cast<int>(k) != state_channel) recent[i] += observation[k * b + i];
    }
  }
  ranks(last, rank_last);
  ranks(recent, rank_recent);
  const std::span<const float> tail = observation.subspan(c * b);
  for (std::size_t i = 0; i < b; ++i) {
    double* x = out.data() + i * f;
    for (std::size_t k = 0; k < c; ++k)
      *x++ = observation[k * b + i];
    *x++ = rank_last[i];
    *x++ = rank_recent[i];
    for (const float s : tail)
      *x++ = s;
  }
}

double BinView::placement(std::span<const float> observation, int i, double decision) const {
  if (!flip) return decision;
  const auto at = static_cast<std::size_t>(state_channel) * static_cast<std::size_t>(bins) +
                  static_cast<std::size_t>(i);
  const bool resident = observation[at] > 0.5f;
  return resident != (decision != 0.0) ? 1.0 : 0.0;
}

nlohmann::json BinView::to_json() const {
  return {{"bins", bins}, {"channels", channels}, {"scalars", scalars}, {"flip", flip}};
}

BinView BinView::from_json(const nlohmann::json& j, int observation_size) {
  const auto integer = [&](const char* key) {
    return j.contains(key) && j[key].is_number_integer();
  };
  if (!j.is_object() || !integer("bins") || !integer("channels") || !integer("scalars") ||
      !j.contains("flip") || !j["flip"].is_boolean()) {
    throw ConfigError(
        "policy file: \"per_bin\" must be an object with integers \"bins\", \"channels\", "
        "\"scalars\" and a boolean \"flip\"");
  }
  BinView v;
  v.bins = json_integer<int>(j["bins"]);
  v.channels = json_integer<int>(j["channels"]);
  v.scalars = json_integer<int>(j["scalars"]);
  v.flip = j["flip"].get<bool>();
  if (v.bins < 1 || v.channels < 2 || v.scalars < 0 ||
      static_cast<long long>(v.channels) * v.bins + v.scalars != observation_size) {
    throw ConfigError("policy file: \"per_bin\" " + j.dump() + " does not fit an observation of " +
                      std::to_string(observation_size) + " values");
  }
  return v;
}

Eigen::MatrixXd batch_features(const BinView& view, Eigen::Index count,
                               const std::function<std::span<const float>(Eigen::Index)>& row) {
  const Eigen::Index b = view.bins, f = view.feature_size();
  Eigen::MatrixXd x(f, count * b);
  for (Eigen::Index k = 0; k < count; ++k)
    view.features(row(k), std::span<double>(x.col(k * b).data(), static_cast<std::size_t>(f * b)));
  return x;
}

void per_bin_logits(const BinView& view, const Mlp& network, std::span<const float> observation,
                    std::vector<double>& logits) {
  const auto b = static_cast<std::size_t>(view.bins);
  const auto f = static_cast<std::size_t>(view.feature_size());
  std::vector<double> features(f * b), out;
  view.features(observation, features);
  logits.resize(b);
  for (std::size_t i = 0; i < b; ++i) {
    network.act(std::span<const double>(features).subspan(i * f, f), out);
    logits[i] = out[0];
  }
}

}  // namespace sysgym::agents
