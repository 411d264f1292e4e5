// Line cursor and number parsing shared by the text trace readers. std::from_chars only: no
// streams, no locale, no allocation per field.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sysgym {

class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : text_(text) {}
  // Next line without its '\n' or "\r\n"; false at the end. line_number() is then 1-based.
  bool next(std::string_view& line);
  std::size_t line_number() const { return line_number_; }
  // Where the next line starts (the end of the text after the last line).
  std::size_t offset() const { return std::min(pos_, text_.size()); }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t line_number_ = 0;
};

// Lines of text traces are a few hundred bytes; a longer one means a wrong or hostile file and is
// refused before it is split (a 2 GB line of separators would otherwise become a billion tokens).
inline constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;
// Throws TraceFormatError "WHERE: the line is N bytes long; ...".
[[noreturn]] void throw_line_too_long(std::size_t bytes, const std::string& where);
// At most 60 characters of s for quoting in an error message; "..." marks a cut.
std::string excerpt(std::string_view s);

std::string_view trim(std::string_view s);
// Plain decimal unsigned integer, the whole of `s`.
bool parse_decimal(std::string_view s, std::uint64_t& out);
// Hexadecimal with or without a 0x prefix, the whole of `s`.
bool parse_hex(std::string_view s, std::uint64_t& out);
// Decimal, or hexadecimal with a 0x prefix.
bool parse_address(std::string_view s, std::uint64_t& out);

}  // namespace sysgym
