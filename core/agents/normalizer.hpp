// Running per-feature mean and variance of observations (Welford), applied as
// clip((x - mean) / sqrt(var + eps), -5, 5). Updated while training, frozen in a policy file so
// that acting is a pure function of the observation. A disabled normaliser passes observations
// through unchanged, so agents and policy files never branch on whether they normalise.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <vector>

namespace sysgym::agents {

class ObservationNormalizer {
 public:
  ObservationNormalizer() = default;
  ObservationNormalizer(std::size_t size, bool enabled)
      : enabled_(enabled), mean_(size, 0.0), m2_(size, 0.0) {}

  bool enabled() const { return enabled_; }
  std::size_t size() const { return mean_.size(); }
  double count() const { return count_; }
  void update(std::span<const float> x);  // no-op when disabled
  // Merges a batch's statistics (its count, per-feature mean and sum of squared deviations from
  // it) into the running ones, as if its observations had been update()d (Chan et al.'s parallel
  // form): data-parallel training merges every rank's rollout once per update. No-op when
  // disabled.
  void merge(double count, std::span<const double> mean, std::span<const double> m2);
  // out[i] = normalised x[i] (x[i] when disabled); only +, -, *, / and sqrt, so every build
  // agrees.
  void apply(std::span<const float> x, std::span<double> out) const;

  // The count, means and squared deviations as one flat list (1 + 2 size() values), to send the
  // statistics to other ranks; read_state takes them back from the front of `in` and returns
  // the rest.
  void append_state(std::vector<double>& out) const;
  std::span<const double> read_state(std::span<const double> in);
  // null when disabled.
  nlohmann::json to_json() const;
  // null gives a disabled normaliser. Throws ConfigError when the sizes disagree with `size`.
  static ObservationNormalizer from_json(const nlohmann::json& j, std::size_t size);

 private:
  bool enabled_ = true;
  double count_ = 0;
  std::vector<double> mean_, m2_;
};

}  // namespace sysgym::agents
