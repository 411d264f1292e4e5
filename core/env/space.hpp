// Spaces in Gymnasium's sense: the set of valid actions or observations of an env.
//
// Every value (an action, an observation) is passed as a flat array of scalars. Actions are
// std::span<const double> (doubles hold every int up to 2^53 and every float32 exactly, so one
// type serves Discrete, MultiBinary, MultiDiscrete and Box). A Dict space lays its children out
// one after another in declaration order; child_offset() says where each starts.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/rng.hpp"

namespace sysgym {

enum class SpaceKind { kDiscrete, kMultiBinary, kMultiDiscrete, kBox, kDict };

class Space {
 public:
  // {start, ..., start + n - 1}; one scalar. Precondition: n >= 1 (else ApiMisuseError).
  static Space discrete(std::int64_t n, std::int64_t start = 0);
  // n scalars, each 0 or 1.
  static Space multi_binary(std::size_t n);
  // One scalar per entry, scalar i in [0, nvec[i]).
  static Space multi_discrete(std::vector<std::int64_t> nvec);
  // float32 values in [low, high] per element; bounds may be infinite.
  static Space box(std::vector<std::size_t> shape, float low, float high);
  static Space box(std::vector<std::size_t> shape, std::vector<float> low, std::vector<float> high);
  // Named children laid out in order.
  static Space dict(std::vector<std::pair<std::string, Space>> children);

  SpaceKind kind() const { return kind_; }
  const std::vector<std::size_t>& shape() const { return shape_; }
  std::size_t flat_size() const { return flat_size_; }
  std::int64_t n() const { return n_; }          // Discrete only
  std::int64_t start() const { return start_; }  // Discrete only
  const std::vector<std::int64_t>& nvec() const { return nvec_; }
  const std::vector<float>& low() const { return low_; }
  const std::vector<float>& high() const { return high_; }
  const std::vector<std::pair<std::string, Space>>& children() const { return children_; }
  std::size_t child_offset(std::size_t i) const { return child_offsets_.at(i); }

  bool contains(std::span<const double> value) const;
  // Throws InvalidActionError: "<what> [..] is not in <space>: <reason>".
  void check(std::span<const double> value, std::string_view what) const;

  // A uniformly drawn member (Box: uniform on finite bounds, an approximately normal draw on
  // unbounded sides). Deterministic for a given Rng state in every build.
  std::vector<double> sample(Rng& rng) const;
  void sample_into(Rng& rng, std::span<double> out) const;

  std::string to_string() const;  // "MultiBinary(64)", "Box(0.0, 1.0, (3, 4), float32)", ...
  nlohmann::json to_json() const;

  friend bool operator==(const Space&, const Space&) = default;

 private:
  Space() = default;
  // The reason `value` is not a member, or "" when it is.
  std::string why_not(std::span<const double> value) const;
  bool element_ok(std::size_t i, double x) const;
  std::string element_reason(std::size_t i, double x) const;

  SpaceKind kind_ = SpaceKind::kDiscrete;
  std::vector<std::size_t> shape_;
  std::size_t flat_size_ = 0;
  std::int64_t n_ = 0;
  std::int64_t start_ = 0;
  std::vector<std::int64_t> nvec_;
  std::vector<float> low_;
  std::vector<float> high_;
  std::vector<std::pair<std::string, Space>> children_;
  std::vector<std::size_t> child_offsets_;
};

// "[1, 0, 2]" (at most `limit` elements, then "...").
std::string format_values(std::span<const double> values, std::size_t limit = 8);

}  // namespace sysgym
