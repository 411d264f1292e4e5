// Shared by the libFuzzer targets: run a reader on the input and let only the errors it is
// documented to throw pass. Anything else (another exception, a crash, a sanitizer report, a
// leak, a hang) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string_view>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "base/error.hpp"
#include "support/small_source.hpp"

namespace sysgym::fuzz {

inline std::span<const std::uint8_t> bytes(const std::uint8_t* data, std::size_t size) {
  return {data, size};
}

inline std::string_view text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The input with its last 8 bytes replaced by the XXH3-64 of the rest, as sysgym binary files
// end: without this nearly every mutation fails the checksum and the decoders behind it are
// never reached.
inline std::vector<std::uint8_t> with_valid_checksum(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> out(data, data + size);
  if (size >= 8) {
    const std::uint64_t sum = XXH3_64bits(out.data(), size - 8);
    for (int i = 0; i < 8; ++i)
      out[size - 8 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(sum >> (8 * i));
  }
  return out;
}

// Runs f; sysgym errors and JSON parse/type errors are the documented answers to bad input.
template <typename F>
int expecting_errors(F&& f) {
  try {
    f();
  } catch (const Error&) {
  } catch (const nlohmann::json::exception&) {
  }
  return 0;
}

using testing::kSmallTrace;
using testing::small_source;

}  // namespace sysgym::fuzz
