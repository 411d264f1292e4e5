#include "base/json_text.hpp"

#include "base/error.hpp"
#include "base/quote.hpp"

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
  } catch (const nlohmann::json::out_of_range& e) {
    // A number such as 1e400 that no double holds.
    throw ConfigError(what + ": a number is out of range (" + json_problem(e) +
                      "; JSON numbers must fit a 64-bit float)");
  }
}

std::string json_problem(const std::exception& e) {
  const std::string_view text = e.what();
  const std::size_t end = text.find("] ");
  return printable(text.starts_with("[json.exception.") && end != std::string_view::npos
                       ? text.substr(end + 2)
                       : text);
}

}  // namespace sysgym
