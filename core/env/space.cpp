#include "env/space.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "base/error.hpp"

namespace sysgym {
namespace {

bool is_integral(double x) {
  return std::isfinite(x) && std::floor(x) == x;
}

std::string shape_string(const std::vector<std::size_t>& shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(shape[i]);
  }
  if (shape.size() == 1) out += ",";
  return out + ")";
}

std::string number_string(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

// Irwin-Hall(12) - 6: mean 0, variance 1, no transcendental functions (bit-identical everywhere).
double approximately_normal(Rng& rng) {
  double sum = 0.0;
  for (int i = 0; i < 12; ++i)
    sum += rng.uniform();
  return sum - 6.0;
}

}  // namespace

std::string format_values(std::span<const double> values, std::size_t limit) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size() && i < limit; ++i) {
    if (i > 0) out += ", ";
    out += number_string(values[i]);
  }
  if (values.size() > limit) out += ", ...";
  return out + "]";
}

Space Space::discrete(std::int64_t n, std::int64_t start) {
  if (n < 1) throw ApiMisuseError("Discrete space needs n >= 1, got " + std::to_string(n));
  Space s;
  s.kind_ = SpaceKind::kDiscrete;
  s.flat_size_ = 1;
  s.n_ = n;
  s.start_ = start;
  return s;
}

Space Space::multi_binary(std::size_t n) {
  if (n < 1) throw ApiMisuseError("MultiBinary space needs n >= 1");
  Space s;
  s.kind_ = SpaceKind::kMultiBinary;
  s.shape_ = {n};
  s.flat_size_ = n;
  return s;
}

Space Space::multi_discrete(std::vector<std::int64_t> nvec) {
  if (nvec.empty()) throw ApiMisuseError("MultiDiscrete space needs at least one entry");
  for (std::size_t i = 0; i < nvec.size(); ++i) {
    if (nvec[i] < 1) {
      throw ApiMisuseError("MultiDiscrete space: nvec[" + std::to_string(i) +
                           "] must be >= 1, got " + std::to_string(nvec[i]));
    }
  }
  Space s;
  s.kind_ = SpaceKind::kMultiDiscrete;
  s.shape_ = {nvec.size()};
  s.flat_size_ = nvec.size();
  s.nvec_ = std::move(nvec);
  return s;
}

Space Space::box(std::vector<std::size_t> shape, float low, float high) {
  std::size_t size = 1;
  for (std::size_t d : shape)
    size *= d;
  return box(std::move(shape), std::vector<float>(size, low), std::vector<float>(size, high));
}

Space Space::box(std::vector<std::size_t> shape, std::vector<float> low, std::vector<float> high) {
  std::size_t size = 1;
  for (std::size_t d : shape)
    size *= d;
  if (size == 0) throw ApiMisuseError("Box space needs a non-empty shape");
  if (low.size() != size || high.size() != size) {
    throw ApiMisuseError("Box space: low and high need " + std::to_string(size) + " elements");
  }
  for (std::size_t i = 0; i < size; ++i) {
    if (std::isnan(low[i]) || std::isnan(high[i]) || low[i] > high[i]) {
      throw ApiMisuseError("Box space: element " + std::to_string(i) + " needs low <= high");
    }
  }
  Space s;
  s.kind_ = SpaceKind::kBox;
  s.shape_ = std::move(shape);
  s.flat_size_ = size;
  s.low_ = std::move(low);
  s.high_ = std::move(high);
  return s;
}

Space Space::dict(std::vector<std::pair<std::string, Space>> children) {
  if (children.empty()) throw ApiMisuseError("Dict space needs at least one child");
  Space s;
  s.kind_ = SpaceKind::kDict;
  for (const auto& [name, child] : children) {
    s.child_offsets_.push_back(s.flat_size_);
    s.flat_size_ += child.flat_size();
  }
  s.shape_ = {s.flat_size_};
  s.children_ = std::move(children);
  return s;
}

bool Space::element_ok(std::size_t i, double x) const {
  switch (kind_) {
    case SpaceKind::kDiscrete:
      return is_integral(x) && x >= static_cast<double>(start_) &&
             x < static_cast<double>(start_ + n_);
    case SpaceKind::kMultiBinary:
      return x == 0.0 || x == 1.0;
    case SpaceKind::kMultiDiscrete:
      return is_integral(x) && x >= 0 && x < static_cast<double>(nvec_[i]);
    case SpaceKind::kBox:
      return !std::isnan(x) && x >= low_[i] && x <= high_[i];
    case SpaceKind::kDict:
      break;
  }
  return true;
}

bool Space::contains(std::span<const double> value) const {
  if (value.size() != flat_size_) return false;
  if (kind_ == SpaceKind::kDict) {
    for (std::size_t c = 0; c < children_.size(); ++c) {
      const Space& child = children_[c].second;
      if (!child.contains(value.subspan(child_offsets_[c], child.flat_size()))) return false;
    }
    return true;
  }
  if (kind_ == SpaceKind::kMultiBinary) {
    // Every step checks its action: one pass without early exits or branches (a branch per
    // element mispredicts on an agent's random 0/1 choices). x (x - 1) is exactly 0 only for 0
    // and 1 (NaN and infinities give NaN or inf): or-ing its bits without the sign is an integer
    // reduction, which the compiler vectorises (a floating-point compare per element it did not).
    std::uint64_t bits = 0;
    for (const double x : value)
      bits |= __builtin_bit_cast(std::uint64_t, x * (x - 1.0)) << 1;  // libc++ 14: no bit_cast
    return bits == 0;
  }
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!element_ok(i, value[i])) return false;
  }
  return true;
}

std::string Space::element_reason(std::size_t i, double x) const {
  if (element_ok(i, x)) return "";
  const std::string at = "element " + std::to_string(i) + " is " + number_string(x);
  switch (kind_) {
    case SpaceKind::kDiscrete:
      if (!is_integral(x) || x < static_cast<double>(start_) ||
          x >= static_cast<double>(start_ + n_)) {
        return "value is " + number_string(x) + ", expected an integer in [" +
               std::to_string(start_) + ", " + std::to_string(start_ + n_ - 1) + "]";
      }
      return "";
    case SpaceKind::kMultiBinary:
      return (x == 0.0 || x == 1.0) ? "" : at + ", expected 0 or 1";
    case SpaceKind::kMultiDiscrete:
      if (!is_integral(x) || x < 0 || x >= static_cast<double>(nvec_[i])) {
        return at + ", expected an integer in [0, " + std::to_string(nvec_[i] - 1) + "]";
      }
      return "";
    case SpaceKind::kBox:
      if (std::isnan(x) || x < low_[i] || x > high_[i]) {
        return at + ", expected a value in [" + number_string(low_[i]) + ", " +
               number_string(high_[i]) + "]";
      }
      return "";
    case SpaceKind::kDict:
      break;
  }
  return "";
}

std::string Space::why_not(std::span<const double> value) const {
  if (value.size() != flat_size_) {
    return "it has " + std::to_string(value.size()) + " elements, expected " +
           std::to_string(flat_size_);
  }
  if (kind_ == SpaceKind::kDict) {
    for (std::size_t c = 0; c < children_.size(); ++c) {
      const auto& [name, child] = children_[c];
      const std::string reason = child.why_not(value.subspan(child_offsets_[c], child.flat_size()));
      if (!reason.empty()) return std::string("in '").append(name).append("': ").append(reason);
    }
    return "";
  }
  for (std::size_t i = 0; i < value.size(); ++i) {
    std::string reason = element_reason(i, value[i]);
    if (!reason.empty()) return reason;
  }
  return "";
}

void Space::check(std::span<const double> value, std::string_view what) const {
  if (contains(value)) return;  // the common case allocates nothing
  const std::string reason = why_not(value);
  throw InvalidActionError(std::string(what) + " " + format_values(value) + " is not in " +
                           to_string() + ": " + reason);
}

void Space::sample_into(Rng& rng, std::span<double> out) const {
  if (out.size() != flat_size_) throw ApiMisuseError("sample_into: output has the wrong size");
  switch (kind_) {
    case SpaceKind::kDiscrete:
      out[0] = static_cast<double>(
          start_ + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(n_))));
      return;
    case SpaceKind::kMultiBinary:
      for (auto& x : out)
        x = static_cast<double>(rng.below(2));
      return;
    case SpaceKind::kMultiDiscrete:
      for (std::size_t i = 0; i < out.size(); ++i) {
        out[i] = static_cast<double>(rng.below(static_cast<std::uint64_t>(nvec_[i])));
      }
      return;
    case SpaceKind::kBox:
      for (std::size_t i = 0; i < out.size(); ++i) {
        const double lo = low_[i];
        const double hi = high_[i];
        double x;
        if (std::isfinite(lo) && std::isfinite(hi)) {
          x = lo + (hi - lo) * rng.uniform();
        } else if (std::isfinite(lo)) {
          x = lo + std::fabs(approximately_normal(rng));
        } else if (std::isfinite(hi)) {
          x = hi - std::fabs(approximately_normal(rng));
        } else {
          x = approximately_normal(rng);
        }
        // Round to the float32 the space holds, staying inside the bounds.
        float f = static_cast<float>(x);
        if (f < low_[i]) f = low_[i];
        if (f > high_[i]) f = high_[i];
        out[i] = f;
      }
      return;
    case SpaceKind::kDict:
      for (std::size_t c = 0; c < children_.size(); ++c) {
        const Space& child = children_[c].second;
        child.sample_into(rng, out.subspan(child_offsets_[c], child.flat_size()));
      }
      return;
  }
}

std::vector<double> Space::sample(Rng& rng) const {
  std::vector<double> out(flat_size_);
  sample_into(rng, out);
  return out;
}

std::string Space::to_string() const {
  switch (kind_) {
    case SpaceKind::kDiscrete:
      return "Discrete(" + std::to_string(n_) +
             (start_ != 0 ? ", start=" + std::to_string(start_) : "") + ")";
    case SpaceKind::kMultiBinary:
      return "MultiBinary(" + std::to_string(flat_size_) + ")";
    case SpaceKind::kMultiDiscrete: {
      std::vector<double> values(nvec_.begin(), nvec_.end());
      return "MultiDiscrete(" + format_values(values) + ")";
    }
    case SpaceKind::kBox: {
      bool uniform = true;
      for (std::size_t i = 1; i < flat_size_; ++i) {
        uniform = uniform && low_[i] == low_[0] && high_[i] == high_[0];
      }
      const std::string bounds =
          uniform ? number_string(low_[0]) + ", " + number_string(high_[0]) : "per-element bounds";
      return "Box(" + bounds + ", " + shape_string(shape_) + ", float32)";
    }
    case SpaceKind::kDict: {
      std::string out = "Dict(";
      for (std::size_t c = 0; c < children_.size(); ++c) {
        if (c > 0) out += ", ";
        out += "'" + children_[c].first + "': " + children_[c].second.to_string();
      }
      return out + ")";
    }
  }
  return "";
}

nlohmann::json Space::to_json() const {
  nlohmann::json j;
  switch (kind_) {
    case SpaceKind::kDiscrete:
      j = {{"type", "Discrete"}, {"n", n_}, {"start", start_}};
      break;
    case SpaceKind::kMultiBinary:
      j = {{"type", "MultiBinary"}, {"n", flat_size_}};
      break;
    case SpaceKind::kMultiDiscrete:
      j = {{"type", "MultiDiscrete"}, {"nvec", nvec_}};
      break;
    case SpaceKind::kBox: {
      // JSON has no infinities: unbounded sides are null.
      auto bound = [](float x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(); };
      nlohmann::json low = nlohmann::json::array();
      nlohmann::json high = nlohmann::json::array();
      for (std::size_t i = 0; i < flat_size_; ++i) {
        low.push_back(bound(low_[i]));
        high.push_back(bound(high_[i]));
      }
      j = {{"type", "Box"}, {"shape", shape_}, {"dtype", "float32"}, {"low", low}, {"high", high}};
      break;
    }
    case SpaceKind::kDict: {
      nlohmann::json children = nlohmann::json::array();
      for (std::size_t c = 0; c < children_.size(); ++c) {
        children.push_back({{"name", children_[c].first},
                            {"offset", child_offsets_[c]},
                            {"space", children_[c].second.to_json()}});
      }
      j = {{"type", "Dict"}, {"children", children}};
      break;
    }
  }
  j["flat_size"] = flat_size_;
  return j;
}

}  // namespace sysgym
