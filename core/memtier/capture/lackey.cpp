#include "memtier/capture/lackey.hpp"

#include <string>

#include "base/error.hpp"
#include "base/text_scan.hpp"

namespace sysgym::capture {

LackeyEvent parse_lackey_line(std::string_view line, std::uint64_t line_number) {
  if (line.empty() || line.starts_with("==") || line.starts_with("--")) return {};
  auto fail = [&](const char* what) -> LackeyEvent {
    throw TraceFormatError("lackey output line " + std::to_string(line_number) + ": " + what +
                           ": '" + excerpt(line) + "'");
  };
  if (line.size() < 4) return fail("too short for an access");
  LackeyEvent event;
  std::string_view rest;
  if (line[0] == 'I' && line[1] == ' ' && line[2] == ' ') {
    event.kind = LackeyKind::kInstruction;
    rest = line.substr(3);
  } else if (line[0] == ' ' && line[2] == ' ') {
    switch (line[1]) {
      case 'L':
        event.kind = LackeyKind::kLoad;
        break;
      case 'S':
        event.kind = LackeyKind::kStore;
        break;
      case 'M':
        event.kind = LackeyKind::kModify;
        break;
      default:
        return fail("unknown access kind");
    }
    rest = line.substr(3);
  } else {
    return fail("not an access line (I, L, S or M)");
  }
  const std::size_t comma = rest.find(',');
  std::uint64_t size = 0;
  if (comma == std::string_view::npos || !parse_hex(rest.substr(0, comma), event.address) ||
      !parse_decimal(trim(rest.substr(comma + 1)), size)) {
    return fail("expected HEXADDRESS,SIZE");
  }
  if (size == 0 || size > 4096) return fail("an access size outside 1 to 4096 bytes");
  event.size = static_cast<std::uint32_t>(size);
  return event;
}

}  // namespace sysgym::capture
