#include "base/quote.hpp"

namespace sysgym {
namespace {

constexpr std::size_t kMessageChars = 4096;

void append_byte(std::string& out, unsigned char c, bool keep_newlines) {
  if (c >= 0x20 && c < 0x7f) {
    out += static_cast<char>(c);
  } else if (c == '\n') {
    out += keep_newlines ? "\n" : "\\n";
  } else if (c == '\r') {
    out += "\\r";
  } else if (c == '\t') {
    out += "\\t";
  } else {
    static constexpr char kHex[] = "0123456789abcdef";
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 0xf];
  }
}

std::string escaped(std::string_view s, std::size_t max_chars, bool keep_newlines) {
  std::string out;
  const std::size_t kept = s.size() <= max_chars ? s.size() : max_chars;
  out.reserve(kept + 8);
  for (std::size_t i = 0; i < kept; ++i)
    append_byte(out, static_cast<unsigned char>(s[i]), keep_newlines);
  if (kept < s.size()) out += "...";
  return out;
}

}  // namespace

std::string printable(std::string_view s, std::size_t max_chars) {
  return escaped(s, max_chars, false);
}

std::string quote(std::string_view s, std::size_t max_chars) {
  std::string out = "'";
  out.append(printable(s, max_chars));
  out.push_back('\'');
  return out;
}

std::string printable_message(std::string_view message) {
  return escaped(message, kMessageChars, true);
}

}  // namespace sysgym
