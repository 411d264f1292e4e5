#include "base/units.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "base/error.hpp"

namespace sysgym {
namespace {

struct Suffix {
  const char* name;
  double factor;
};
constexpr Suffix kSuffixes[] = {
    {"", 1.0},
    {"b", 1.0},
    {"k", 1024.0},
    {"kib", 1024.0},
    {"kb", 1e3},
    {"m", 1048576.0},
    {"mib", 1048576.0},
    {"mb", 1e6},
    {"g", 1073741824.0},
    {"gib", 1073741824.0},
    {"gb", 1e9},
    {"t", 1099511627776.0},
    {"tib", 1099511627776.0},
    {"tb", 1e12},
};

}  // namespace

std::uint64_t parse_byte_size(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
    ++i;
  double number = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + i, number);
  std::string suffix;
  for (std::size_t k = i; k < text.size(); ++k) {
    if (text[k] != ' ')
      suffix += static_cast<char>(std::tolower(static_cast<unsigned char>(text[k])));
  }
  if (i == 0 || error != std::errc() || end != text.data() + i) {
    throw ConfigError("size '" + std::string(text) +
                      "' is not a number of bytes (e.g. 4096, 64MiB, 1.5GiB)");
  }
  for (const Suffix& s : kSuffixes) {
    if (suffix != s.name) continue;
    const double bytes = number * s.factor;
    if (!(bytes < 1.8e19) || bytes != std::floor(bytes)) {
      throw ConfigError("size '" + std::string(text) +
                        "' is not a whole number of bytes below 2^64");
    }
    return static_cast<std::uint64_t>(bytes);
  }
  throw ConfigError("size '" + std::string(text) + "' has unknown unit '" + suffix +
                    "' (use B, KiB, MiB, GiB, TiB, or KB, MB, GB, TB)");
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

}  // namespace sysgym
