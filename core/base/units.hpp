// Human-friendly quantities in configs and on the command line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sysgym {

// "4096", "64KiB", "64MiB", "1.5GiB", "2GB" (SI: 10^9), "16k" (= KiB). Throws ConfigError.
std::uint64_t parse_byte_size(std::string_view text);
// "1.5 MiB", "512 B"
std::string format_bytes(std::uint64_t bytes);

}  // namespace sysgym
