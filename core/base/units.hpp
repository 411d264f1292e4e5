// Human-friendly quantities in configs and on the command line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sysgym {

// "4096", "64KiB", "64MiB", "1.5GiB", "2GB" (SI: 10^9), "16k" (= KiB). Throws ConfigError.
std::uint64_t parse_byte_size(std::string_view text);
// "12", "12.5": plain decimal without sign or exponent, parsed with integer arithmetic (exact
// to the last digit for up to 18 fraction digits; no locale, no floating-point parser).
bool parse_plain_decimal(std::string_view text, double& out);
// "10s", "1.5s", "500ms", "2min": a duration in seconds (> 0). Throws ConfigError naming `text`.
double parse_duration(std::string_view text);
// "1.5 MiB", "512 B"
std::string format_bytes(std::uint64_t bytes);
// "0x7f3a00" (lower case, no padding)
std::string format_hex(std::uint64_t value);

}  // namespace sysgym
