#include "base/units.hpp"

#include <cctype>
#include <charconv>
#include <cstdio>

#include "base/error.hpp"
#include "base/quote.hpp"

namespace sysgym {
namespace {

struct Suffix {
  const char* name;
  std::uint64_t factor;
};
constexpr std::uint64_t kKi = 1024;
constexpr Suffix kSuffixes[] = {
    {"", 1},
    {"b", 1},
    {"k", kKi},
    {"kib", kKi},
    {"kb", 1000},
    {"m", kKi* kKi},
    {"mib", kKi* kKi},
    {"mb", 1000ull * 1000},
    {"g", kKi* kKi* kKi},
    {"gib", kKi* kKi* kKi},
    {"gb", 1000ull * 1000 * 1000},
    {"t", kKi* kKi* kKi* kKi},
    {"tib", kKi* kKi* kKi* kKi},
    {"tb", 1000ull * 1000 * 1000 * 1000},
};

bool parse_digits(std::string_view digits, std::uint64_t& value) {
  if (digits.empty()) return true;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return error == std::errc() && end == digits.data() + digits.size();
}

// "12.5" -> whole 12, fraction 5 with 1 digit. False unless plain digits with at most one dot
// and at most 18 fraction digits.
struct Decimal {
  std::uint64_t whole = 0;
  std::uint64_t fraction = 0;
  std::size_t fraction_digits = 0;
};

bool split_decimal(std::string_view text, Decimal& out) {
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  out.fraction_digits = fraction.size();
  return !text.empty() && text != "." && fraction.find('.') == std::string_view::npos &&
         fraction.size() <= 18 && parse_digits(whole, out.whole) &&
         parse_digits(fraction, out.fraction);
}

}  // namespace

// Integer arithmetic only (no floating-point parsing, which is locale- and library-dependent):
// "1.5GiB" is 15 * 2^30 / 10, accepted when that division is exact.
std::uint64_t parse_byte_size(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
    ++i;
  Decimal number;
  if (!split_decimal(text.substr(0, i), number)) {
    throw ConfigError("size " + quote(text) +
                      " is not a number of bytes (e.g. 4096, 64MiB, 1.5GiB)");
  }
  std::string suffix;
  for (std::size_t k = i; k < text.size(); ++k) {
    if (text[k] != ' ')
      suffix += static_cast<char>(std::tolower(static_cast<unsigned char>(text[k])));
  }
  for (const Suffix& s : kSuffixes) {
    if (suffix != s.name) continue;
    std::uint64_t scale = 1;
    for (std::size_t d = 0; d < number.fraction_digits; ++d)
      scale *= 10;
    const bool fits =
        number.whole <= UINT64_MAX / s.factor && number.fraction <= UINT64_MAX / s.factor;
    const std::uint64_t fraction_bytes = fits ? number.fraction * s.factor : 0;
    if (!fits || fraction_bytes % scale != 0 ||
        number.whole * s.factor > UINT64_MAX - fraction_bytes / scale) {
      throw ConfigError("size " + quote(text) + " is not a whole number of bytes below 2^64");
    }
    return number.whole * s.factor + fraction_bytes / scale;
  }
  throw ConfigError("size " + quote(text) + " has unknown unit " + quote(suffix) +
                    " (use B, KiB, MiB, GiB, TiB, or KB, MB, GB, TB)");
}

bool parse_plain_decimal(std::string_view text, double& out) {
  Decimal number;
  if (!split_decimal(text, number)) return false;
  double scale = 1.0;
  for (std::size_t d = 0; d < number.fraction_digits; ++d)
    scale *= 10.0;
  out = static_cast<double>(number.whole) + static_cast<double>(number.fraction) / scale;
  return true;
}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 5) {
    value /= 1024.0;
    ++unit;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return buffer;
}

std::string format_hex(std::uint64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value, 16);
  return "0x" + std::string(buffer, result.ptr);
}

double parse_duration(std::string_view text) {
  struct Unit {
    std::string_view suffix;
    double seconds;
  };
  // Longest suffixes first: "ms" before "s".
  for (const Unit& u : {Unit{"min", 60}, Unit{"ms", 1e-3}, Unit{"s", 1}}) {
    if (text.size() <= u.suffix.size() || !text.ends_with(u.suffix)) continue;
    double value = 0;
    if (parse_plain_decimal(text.substr(0, text.size() - u.suffix.size()), value) && value > 0)
      return value * u.seconds;
    break;
  }
  throw ConfigError(quote(std::string(text)) +
                    " is not a duration: a positive number with s, ms or min (\"10s\")");
}

}  // namespace sysgym
