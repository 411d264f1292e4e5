// printf into a string: the text reports keep printf's column layouts (%-24s, %14.3f) and return
// text instead of writing to a terminal, so both shells print the same bytes.
#pragma once

#include <cstdio>
#include <string>

namespace sysgym {

template <typename... Args>
void append_format(std::string& out, const char* format, Args... args) {
  const int size = std::snprintf(nullptr, 0, format, args...);
  if (size <= 0) return;
  std::string piece(static_cast<std::size_t>(size), '\0');
  std::snprintf(piece.data(), piece.size() + 1, format, args...);
  out += piece;
}

}  // namespace sysgym
