#include "agents/normalizer.hpp"

#include <algorithm>
#include <cmath>

#include "base/error.hpp"

namespace sysgym::agents {

void ObservationNormalizer::update(std::span<const float> x) {
  if (!enabled_) return;
  count_ += 1;
  for (std::size_t i = 0; i < mean_.size(); ++i) {
    const double delta = x[i] - mean_[i];
    mean_[i] += delta / count_;
    m2_[i] += delta * (x[i] - mean_[i]);
  }
}

void ObservationNormalizer::merge(double count, std::span<const double> mean,
                                  std::span<const double> m2) {
  if (!enabled_ || count <= 0) return;
  const double total = count_ + count;
  for (std::size_t i = 0; i < mean_.size(); ++i) {
    const double delta = mean[i] - mean_[i];
    mean_[i] += delta * count / total;
    m2_[i] += m2[i] + delta * delta * count_ * count / total;
  }
  count_ = total;
}

void ObservationNormalizer::append_state(std::vector<double>& out) const {
  out.push_back(count_);
  out.insert(out.end(), mean_.begin(), mean_.end());
  out.insert(out.end(), m2_.begin(), m2_.end());
}

std::span<const double> ObservationNormalizer::read_state(std::span<const double> in) {
  const std::size_t n = mean_.size();
  if (in.size() < 1 + 2 * n) throw Error("a normaliser's statistics are cut short");
  count_ = in[0];
  std::copy_n(in.begin() + 1, n, mean_.begin());
  std::copy_n(in.begin() + 1 + static_cast<std::ptrdiff_t>(n), n, m2_.begin());
  return in.subspan(1 + 2 * n);
}

void ObservationNormalizer::apply(std::span<const float> x, std::span<double> out) const {
  if (!enabled_) {
    std::copy(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(mean_.size()), out.begin());
    return;
  }
  for (std::size_t i = 0; i < mean_.size(); ++i) {
    const double variance = count_ > 1 ? m2_[i] / count_ : 1.0;
    const double z = (x[i] - mean_[i]) / std::sqrt(variance + 1e-8);
    out[i] = std::clamp(z, -5.0, 5.0);
  }
}

nlohmann::json ObservationNormalizer::to_json() const {
  if (!enabled_) return nullptr;
  return {{"count", count_}, {"mean", mean_}, {"m2", m2_}};
}

ObservationNormalizer ObservationNormalizer::from_json(const nlohmann::json& j, std::size_t size) {
  ObservationNormalizer n(size, !j.is_null());
  if (j.is_null()) return n;
  try {
    n.count_ = j.at("count").get<double>();
    n.mean_ = j.at("mean").get<std::vector<double>>();
    n.m2_ = j.at("m2").get<std::vector<double>>();
  } catch (const nlohmann::json::exception&) {
    throw ConfigError("observation normaliser needs numbers \"count\", \"mean\" and \"m2\"");
  }
  if (n.mean_.size() != size || n.m2_.size() != size) {
    throw ConfigError("observation normaliser has " + std::to_string(n.mean_.size()) +
                      " features; the observation has " + std::to_string(size));
  }
  return n;
}

}  // namespace sysgym::agents
