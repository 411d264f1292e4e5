// Numbers given as text (command-line flags, the npm bin's arguments): parsed strictly and
// identically in both builds. A seed of -1, 2^64, "abc", "1.5" or "" is refused with a message
// naming the flag and the accepted range, never wrapped, saturated or read as 0.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace sysgym {

struct IntegerRange {
  std::uint64_t min = 0;
  std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
};

// Both ends included; finite.
struct NumberRange {
  double min = 0.0;
  double max = 0.0;
};

inline constexpr IntegerRange kSeedRange{};  // any 64-bit unsigned integer

// Plain decimal digits (no sign, no spaces, no exponent) within `range`. Throws ConfigError
// "NAME: 'TEXT' is not a whole number from MIN to MAX".
std::uint64_t parse_integer(std::string_view text, std::string_view name, IntegerRange range);
// A decimal number (as JSON writes them, e.g. 1.4e6) within `range`; no NaN or infinity.
// Throws ConfigError "NAME: 'TEXT' is not a number from MIN to MAX".
double parse_number(std::string_view text, std::string_view name, NumberRange range);
// Throws ConfigError naming `name` unless value is finite and inside `range`.
void check_number(double value, std::string_view name, NumberRange range);
// "1e+12" style text of a range end, as messages show it.
std::string number_text(double value);

}  // namespace sysgym
