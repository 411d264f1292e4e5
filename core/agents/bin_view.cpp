#include "agents/bin_view.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "base/json_text.hpp"

namespace sysgym::agents {

BinView BinView::of(int observation_size, int bins, bool flip) {
  if (bins < 1 || observation_size < 2 * bins) {
    throw ConfigError("a per-bin network needs an observation of at least two channels of " +
                      std::to_string(bins) + " bins; this one has " +
                      std::to_string(observation_size) + " values");
  }
  BinView v;
  v.bins = bins;
  v.channels = observation_size / bins;
  v.scalars = observation_size - v.channels * bins;
  v.flip = flip;
  return v;
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
      if (k != 1) recent[i] += observation[k * b + i];
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
  const bool resident =
      observation[static_cast<std::size_t>(bins) + static_cast<std::size_t>(i)] > 0.5f;
  return resident != (decision != 0.0) ? 1.0 : 0.0;
}

nlohmann::json BinView::to_json() const {
  return {{"bins", bins}, {"channels", channels}, {"scalars", scalars}, {"flip", flip}};
}

BinView BinView::from_json(const nlohmann::json& j, int observation_size) {
  if (!j.is_object() || !j.contains("bins") || !j["bins"].is_number_integer() ||
      !j.contains("flip") || !j["flip"].is_boolean()) {
    throw ConfigError(
        "policy file: \"per_bin\" must be an object with an integer \"bins\" and a boolean "
        "\"flip\"");
  }
  const BinView v = of(observation_size, json_integer<int>(j["bins"]), j["flip"].get<bool>());
  if (j != v.to_json()) {
    throw ConfigError("policy file: \"per_bin\" " + j.dump() + " does not fit an observation of " +
                      std::to_string(observation_size) + " values (expected " + v.to_json().dump() +
                      ")");
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
