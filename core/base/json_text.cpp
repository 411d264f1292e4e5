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

std::string json_file_kind(std::span<const std::uint8_t> bytes) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{') return "";
  nlohmann::json j;
  try {
    j = parse_json_text(text, "file");
  } catch (const Error&) {
    return "";
  }
  if (!j.is_object()) return "";
  const nlohmann::json kind = j.value("kind", nlohmann::json());
  if (kind.is_string() && kind.get<std::string>().starts_with("sysgym-"))
    return "a " + kind.get<std::string>() + " file";
  return "a JSON file";
}

}  // namespace sysgym
