#include "memtier/traces/perf_reader.hpp"

#include <gtest/gtest.h>

#include "support/errors.hpp"

#include <fstream>
#include <sstream>

#include "base/error.hpp"

namespace sysgym::memtier {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(SYSGYM_TEST_DATA) + "/" + name, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

TEST(PerfReader, ReadsTimeAddressAndAccessKind) {
  const Trace t = read_perf_script_trace(fixture("perf_mem.txt"), "perf_mem.txt");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t.time_base, TimeBase::kNanoseconds);
  EXPECT_EQ(t.timestamp,
            (std::vector<std::uint64_t>{1000000100000ull, 1000000250000ull, 1000001000000ull}));
  EXPECT_EQ(t.vaddr, (std::vector<std::uint64_t>{0x7f3a00001000, 0x7f3a00002040, 0x7f3a00003000}));
  EXPECT_EQ(t.access, (std::vector<std::uint8_t>{1, 2, 1}));
  EXPECT_FALSE(t.has_instrs());
}

TEST(PerfReader, AcceptsTimeAndAddressOnly) {
  const Trace t = read_perf_script_trace("  5.000000001:  1000\n  5.000000002:  0x2000\n", "p.txt");
  EXPECT_EQ(t.timestamp, (std::vector<std::uint64_t>{5000000001ull, 5000000002ull}));
  EXPECT_EQ(t.vaddr, (std::vector<std::uint64_t>{0x1000, 0x2000}));
  EXPECT_TRUE(t.access.empty());
}

TEST(PerfReader, MalformedLinesNameTheLine) {
  EXPECT_EQ(testing::message_of<TraceFormatError>(
                [&] { read_perf_script_trace("1.0: 1000\nhello world\n", "p.txt"); }),
            "p.txt:2: no time field 'SECONDS.FRACTION:' (expected `perf script -F "
            "time,event,addr,weight,data_src` output)");
  EXPECT_EQ(testing::message_of<TraceFormatError>(
                [&] { read_perf_script_trace("1.0: cycles: zz\n", "p.txt"); }),
            "p.txt:1: no data address after the event name field (expected a hexadecimal addr "
            "field), got 'zz'");
}

TEST(PerfReader, UnsortedSamplesAndEmptyFilesAreRejected) {
  EXPECT_THROW(read_perf_script_trace("2.0: 10\n1.0: 10\n", "p.txt"), TraceFormatError);
  EXPECT_EQ(testing::message_of<TraceFormatError>(
                [&] { read_perf_script_trace("# only a comment\n", "p.txt"); }),
            "p.txt: the file has no perf samples");
}

}  // namespace
}  // namespace sysgym::memtier
