#include "base/numbers.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "base/error.hpp"
#include "base/quote.hpp"

namespace sysgym {
namespace {

constexpr std::size_t kShownChars = 40;

// JSON's number grammar: -?digits[.digits][(e|E)[+-]digits]; no leading '+', no "inf", no hex.
bool json_number_syntax(std::string_view t) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9')
      ++i;
    return i > start;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (!digits()) return false;
  if (i < t.size() && t[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == t.size();
}

}  // namespace

std::string number_text(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

std::uint64_t parse_integer(std::string_view text, std::string_view name, IntegerRange range) {
  // from_chars of an unsigned type takes digits only: no sign, space, prefix or exponent.
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < range.min ||
      value > range.max) {
    throw ConfigError(std::string(name) + ": " + quote(text, kShownChars) +
                      " is not a whole number from " + std::to_string(range.min) + " to " +
                      std::to_string(range.max));
  }
  return value;
}

void check_number(double value, std::string_view name, NumberRange range) {
  if (!(value >= range.min && value <= range.max)) {  // false for NaN as well
    throw ConfigError(std::string(name) + ": " + number_text(value) + " is not a number from " +
                      number_text(range.min) + " to " + number_text(range.max));
  }
}

double parse_number(std::string_view text, std::string_view name, NumberRange range) {
  double value = 0.0;
  bool ok = json_number_syntax(text);
  if (ok) {
    // strtod, not from_chars: libc++ 14 (em++) has no floating-point from_chars. The syntax
    // check above leaves strtod nothing locale-dependent or hexadecimal to read; both C
    // libraries round correctly, so both builds get the same double.
    const std::string copy(text);
    value = std::strtod(copy.c_str(), nullptr);
    ok = std::isfinite(value) && value >= range.min && value <= range.max;
  }
  if (!ok) {
    throw ConfigError(std::string(name) + ": " + quote(text, kShownChars) +
                      " is not a number from " + number_text(range.min) + " to " +
                      number_text(range.max));
  }
  return value;
}

}  // namespace sysgym
