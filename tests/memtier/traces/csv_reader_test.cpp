#include "memtier/traces/csv_reader.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace sysgym::memtier {
namespace {

std::string error_of(std::string_view text) {
  try {
    read_csv_trace(text, "ddr.csv");
  } catch (const TraceFormatError& e) {
    return e.what();
  }
  return "";
}

TEST(CsvReader, ReadsMemaiColumnsWithHexAndDecimalAddresses) {
  const Trace t = read_csv_trace(
      "Timestamp,Instrs,Vaddr,Phase,Index\n10,5,0x1000,0,0\n20,9,8192,1,1\n", "ddr.csv");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.timestamp, (std::vector<std::uint64_t>{10, 20}));
  EXPECT_EQ(t.instrs, (std::vector<std::uint64_t>{5, 9}));
  EXPECT_EQ(t.vaddr, (std::vector<std::uint64_t>{0x1000, 8192}));
  EXPECT_EQ(t.phase, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(t.index, (std::vector<std::uint64_t>{0, 1}));
  EXPECT_EQ(t.time_base, TimeBase::kCycles);
}

TEST(CsvReader, ColumnsMayComeInAnyOrderWithExtrasQuotesAndCrlf) {
  const Trace t =
      read_csv_trace("\"\",vaddr,extra,TIMESTAMP\r\n0,0x10,x,5\r\n1,0x20,y,6\r\n", "t.csv");
  EXPECT_EQ(t.vaddr, (std::vector<std::uint64_t>{0x10, 0x20}));
  EXPECT_EQ(t.timestamp, (std::vector<std::uint64_t>{5, 6}));
  EXPECT_FALSE(t.has_instrs());
  EXPECT_EQ(t.phase, (std::vector<std::uint32_t>{0, 0}));
}

TEST(CsvReader, InstructionCountersRestartingPerPhaseBecomeCumulative) {
  const Trace t = read_csv_trace(
      "Timestamp,Instrs,Vaddr,Phase\n1,100,0,0\n2,200,0,0\n3,50,0,1\n4,120,0,1\n", "t.csv");
  EXPECT_EQ(t.instrs, (std::vector<std::uint64_t>{100, 200, 250, 320}));
}

TEST(CsvReader, EmptyFileIsNamed) {
  EXPECT_EQ(error_of(""), "ddr.csv: the file is empty");
  EXPECT_EQ(error_of("\n  \n"), "ddr.csv: the file is empty");
  EXPECT_EQ(error_of("Timestamp,Vaddr\n"), "ddr.csv: the file has a header but no samples");
  // Found by fuzzing: a header as the last line, without a newline, read past the end.
  EXPECT_EQ(error_of("Timestamp,Vaddr"), "ddr.csv: the file has a header but no samples");
}

TEST(CsvReader, MissingColumnListsWhatWasFound) {
  EXPECT_EQ(error_of("Timestamp,Instrs,Address\n1,2,3\n"),
            "ddr.csv:1: the header has no 'Vaddr' column (found: Timestamp, Instrs, Address; "
            "expected MemAI columns Timestamp, Vaddr, Instrs, Phase, Index, of which Timestamp and "
            "Vaddr are required)");
}

TEST(CsvReader, NonNumericFieldNamesFileLineAndColumn) {
  EXPECT_EQ(error_of("Timestamp,Vaddr\n1,0x10\n2,0xzz\n"),
            "ddr.csv:3: column 'Vaddr': '0xzz' is not an address (decimal or 0x-hex)");
  EXPECT_EQ(error_of("Timestamp,Vaddr\n\n1.5,16\n"),
            "ddr.csv:3: column 'Timestamp': '1.5' is not an unsigned integer");
  EXPECT_EQ(error_of("Timestamp,Vaddr\n-4,16\n"),
            "ddr.csv:2: column 'Timestamp': '-4' is not an unsigned integer");
}

TEST(CsvReader, ShortRowNamesTheMissingField) {
  EXPECT_EQ(error_of("Timestamp,Instrs,Vaddr\n1,2\n"),
            "ddr.csv:2: the row has 2 fields, column 'Vaddr' is field 3");
}

TEST(CsvReader, UnsortedTimestampsAreRejectedWithTheLine) {
  EXPECT_EQ(error_of("Timestamp,Vaddr\n10,1\n5,1\n"),
            "ddr.csv:3: Timestamp 5 is smaller than the previous sample's 10 (samples must be "
            "ordered by time, grouped by increasing phase)");
  EXPECT_EQ(
      error_of("Timestamp,Vaddr,Phase\n1,1,1\n2,1,0\n"),
      "ddr.csv:3: Phase 0 is smaller than the previous sample's 1 (samples must be ordered by "
      "time, grouped by increasing phase)");
  EXPECT_EQ(
      error_of("Timestamp,Instrs,Vaddr,Phase\n1,9,1,0\n2,8,1,0\n"),
      "ddr.csv:3: Instrs 8 is smaller than the previous sample's 9 (samples must be ordered by "
      "time, grouped by increasing phase)");
}

TEST(CsvReader, ReportsProgressUpToTheWholeText) {
  std::string text = "Timestamp,Vaddr\n";
  for (int i = 0; i < 70000; ++i)
    text += std::to_string(i) + ",4096\n";
  std::uint64_t last_done = 0;
  int calls = 0;
  read_csv_trace(text, "big.csv", [&](std::uint64_t done, std::uint64_t total) {
    EXPECT_EQ(total, text.size());
    EXPECT_GE(done, last_done);
    last_done = done;
    ++calls;
  });
  EXPECT_GE(calls, 2);
  EXPECT_EQ(last_done, text.size());
}

}  // namespace
}  // namespace sysgym::memtier
