// Parser for the memory trace valgrind's lackey tool prints with --trace-mem=yes:
//   "I  04001f30,3"   an instruction fetch (address, size)
//   " L 7ff000a78,8"  a data load;  " S ..." a store;  " M ..." a modify (load + store)
// and "==PID== ..." / "--PID-- ..." lines of valgrind's own log, which carry no access.
#pragma once

#include <cstdint>
#include <string_view>

namespace sysgym::capture {

enum class LackeyKind : std::uint8_t { kNone, kInstruction, kLoad, kStore, kModify };

struct LackeyEvent {
  LackeyKind kind = LackeyKind::kNone;
  std::uint64_t address = 0;
  std::uint32_t size = 0;
};

// Parses one line (without its newline). Returns kNone for valgrind log and empty lines.
// Throws TraceFormatError naming `line_number` for anything else that is not an access.
LackeyEvent parse_lackey_line(std::string_view line, std::uint64_t line_number);

}  // namespace sysgym::capture
