// User-supplied text inside messages. A message may reach a terminal, so whatever a file, a config
// or a command line held is shown as printable ASCII: other bytes become \xNN (a NUL too, which
// would otherwise cut the message short), and a long value is cut with an ellipsis so that a
// 150 MB config key does not become a 150 MB message.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sysgym {

inline constexpr std::size_t kQuotedChars = 160;

// `s` as printable ASCII: bytes 0x20-0x7e as they are, \n \r \t as such escapes, every other
// byte as \xNN; at most `max_chars` characters of `s` are kept, a cut marked by "...".
std::string printable(std::string_view s, std::size_t max_chars = kQuotedChars);
// printable(s) in single quotes.
std::string quote(std::string_view s, std::size_t max_chars = kQuotedChars);
// A whole message for a terminal or a JS Error: printable(), but newlines stay newlines and the
// cap is the one for whole messages.
std::string printable_message(std::string_view message);

}  // namespace sysgym
