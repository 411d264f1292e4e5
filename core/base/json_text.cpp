#include "base/json_text.hpp"

#include "base/error.hpp"

namespace sysgym {
namespace {

struct TooDeep {};

}  // namespace

nlohmann::json parse_json_text(std::string_view text, const std::string& what) {
  // The callback sees each value's depth as the parser reaches it; giving up there keeps the
  // parser from building the deep value at all.
  const auto limit = [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > kMaxJsonDepth) throw TooDeep{};
    return true;
  };
  try {
    return nlohmann::json::parse(text, limit);
  } catch (const TooDeep&) {
    throw ConfigError(what + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                      " levels");
  } catch (const nlohmann::json::parse_error& e) {
    throw ConfigError(what + ": not valid JSON (" + json_problem(e) + ")");
  }
}

std::string json_problem(const std::exception& e) {
  const std::string_view text = e.what();
  const std::size_t end = text.find("] ");
  return std::string(text.starts_with("[json.exception.") && end != std::string_view::npos
                         ? text.substr(end + 2)
                         : text);
}

}  // namespace sysgym
