#include "base/json_text.hpp"

#include "base/error.hpp"
#include "base/quote.hpp"

namespace sysgym {
namespace {

struct TooDeep {};

// nlohmann's DOM builder, stopped past kMaxJsonDepth: its CBOR reader descends once per nesting
// level, so the limit must act before it does (4,800 nested arrays overflowed the stack). Its
// text parser takes a callback instead; the binary readers only a SAX handler like this one.
class DepthLimitedDom : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
 public:
  using Base = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;
  explicit DepthLimitedDom(nlohmann::json& root) : Base(root, true) {}
  bool start_object(std::size_t elements) {
    deeper();
    return Base::start_object(elements);
  }
  bool end_object() {
    --depth_;
    return Base::end_object();
  }
  bool start_array(std::size_t elements) {
    deeper();
    return Base::start_array(elements);
  }
  bool end_array() {
    --depth_;
    return Base::end_array();
  }

 private:
  void deeper() {
    if (++depth_ > kMaxJsonDepth) throw TooDeep{};
  }
  int depth_ = 0;
};

}  // namespace

nlohmann::json parse_cbor(std::span<const std::uint8_t> bytes, const std::string& what) {
  nlohmann::json out;
  DepthLimitedDom dom(out);
  try {
    if (!nlohmann::json::sax_parse(bytes.begin(), bytes.end(), &dom,
                                   nlohmann::json::input_format_t::cbor))
      throw ConfigError(what + ": not valid CBOR");
  } catch (const TooDeep&) {
    throw ConfigError(what + ": CBOR nested deeper than " + std::to_string(kMaxJsonDepth) +
                      " levels");
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(what + ": not valid CBOR (" + json_problem(e) + ")");
  }
  return out;
}

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
