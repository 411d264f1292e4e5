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
#include "memtier/pair_source.hpp"
#include "traces/synth.hpp"

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

// A small synthetic pair under the name "fuzz": configs and episodes are pointed at it, so the
// fuzzer explores their parsing instead of generating large traces.
inline memtier::InMemoryPairSource& small_source() {
  static memtier::InMemoryPairSource source;
  static const bool ready = [] {
    memtier::SynthOptions o;
    o.pattern = "phased";
    o.samples = 4000;
    o.footprint_bytes = 8ull << 20;
    source.add_traces("fuzz", std::make_shared<memtier::TracePair>(memtier::synthesize_pair(o)));
    return true;
  }();
  (void)ready;
  return source;
}

}  // namespace sysgym::fuzz
