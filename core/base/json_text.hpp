// JSON text from outside (configs, policy files, recorded episodes, binary-file headers), parsed
// with a nesting limit: hostile input fails at once with a message, instead of exhausting the
// stack of whatever walks the value next (printing it, copying it, comparing it).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace sysgym {

// Deeper than any file sysgym writes (a policy file nests 5 levels) by a wide margin.
inline constexpr int kMaxJsonDepth = 64;

// Throws ConfigError "WHAT: not valid JSON (...)" or "WHAT: JSON nested deeper than 64 levels".
nlohmann::json parse_json_text(std::string_view text, const std::string& what);

}  // namespace sysgym
