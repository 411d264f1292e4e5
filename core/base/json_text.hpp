// JSON text from outside (configs, policy files, recorded episodes, binary-file headers), parsed
// with a nesting limit: hostile input fails at once with a message, instead of exhausting the
// stack of whatever walks the value next (printing it, copying it, comparing it).
#pragma once

#include <cstdint>
#include <exception>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace sysgym {

// Deeper than any file sysgym writes (a policy file nests 5 levels) by a wide margin.
inline constexpr int kMaxJsonDepth = 64;

// Throws ConfigError "WHAT: not valid JSON (...)" or "WHAT: JSON nested deeper than 64 levels".
nlohmann::json parse_json_text(std::string_view text, const std::string& what);
// The same for CBOR bytes (training states): "WHAT: not valid CBOR (...)" or nested too deep.
nlohmann::json parse_cbor(std::span<const std::uint8_t> bytes, const std::string& what);

// An integer of outside JSON as T. nlohmann's get<T>() casts a floating-point value, undefined
// behaviour beyond T's range (a fuzzer found "count": 1.8e23 in a binary header); this takes
// integers only, checks T's range and throws nlohmann's type_error or out_of_range like get<T>()
// does for other mistakes, so callers keep their one catch.
template <typename T>
T json_integer(const nlohmann::json& j) {
  static_assert(std::is_integral_v<T>);
  if (!j.is_number_integer()) {
    const std::string shown = j.is_primitive() ? j.dump().substr(0, 40) : j.type_name();
    throw nlohmann::json::type_error::create(302, "expected an integer, got " + shown, &j);
  }
  const bool fits = j.is_number_unsigned() ? std::in_range<T>(j.get<std::uint64_t>())
                                           : std::in_range<T>(j.get<std::int64_t>());
  if (!fits) throw nlohmann::json::out_of_range::create(406, j.dump() + " is out of range", &j);
  return j.get<T>();
}

// What a file that is a JSON object holds, for an error when a tool was given the wrong file:
// "a sysgym-policy file" for sysgym's own files (their "kind"), "a JSON file" for others, and
// "" when `bytes` is no JSON object.
std::string json_file_kind(std::span<const std::uint8_t> bytes);

// The message of an exception without nlohmann's "[json.exception.type_error.302] " prefix,
// which names the library's internals rather than the problem in the file.
std::string json_problem(const std::exception& e);

}  // namespace sysgym
