#include "base/text_scan.hpp"

#include <charconv>

#include "base/error.hpp"
#include "base/quote.hpp"

namespace sysgym {

bool LineCursor::next(std::string_view& line) {
  if (pos_ >= text_.size()) return false;
  std::size_t end = text_.find('\n', pos_);
  if (end == std::string_view::npos) end = text_.size();
  line = text_.substr(pos_, end - pos_);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  pos_ = end + 1;
  ++line_number_;
  return true;
}

void throw_line_too_long(std::size_t bytes, const std::string& where) {
  throw TraceFormatError(where + ": the line is " + std::to_string(bytes) +
                         " bytes long, more than the " + std::to_string(kMaxLineBytes) +
                         " a text trace line may have (is this a text trace?)");
}

std::string excerpt(std::string_view s) {
  constexpr std::size_t kShown = 60;
  return printable(s, kShown);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

namespace {
bool parse_base(std::string_view s, int base, std::uint64_t& out) {
  if (s.empty()) return false;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), out, base);
  return error == std::errc() && end == s.data() + s.size();
}
bool has_hex_prefix(std::string_view s) {
  return s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}
}  // namespace

bool parse_decimal(std::string_view s, std::uint64_t& out) {
  return parse_base(s, 10, out);
}

bool parse_hex(std::string_view s, std::uint64_t& out) {
  if (has_hex_prefix(s)) s.remove_prefix(2);
  return parse_base(s, 16, out);
}

bool parse_address(std::string_view s, std::uint64_t& out) {
  if (has_hex_prefix(s)) return parse_base(s.substr(2), 16, out);
  return parse_base(s, 10, out);
}

}  // namespace sysgym
