#include "memtier/traces/load.hpp"

#include <gtest/gtest.h>

#include "support/errors.hpp"

#include "base/error.hpp"
#include "memtier/traces/csv_writer.hpp"
#include "memtier/traces/synth.hpp"
#include "memtier/traces/trace_file.hpp"

namespace sysgym::memtier {
namespace {

std::vector<std::uint8_t> bytes_of(std::string_view text) {
  return {text.begin(), text.end()};
}

TEST(Load, RecognisesEachFormatFromItsBytes) {
  EXPECT_EQ(detect_trace_format(bytes_of("Timestamp,Vaddr\n1,2\n"), "a"), TraceFormat::kCsv);
  EXPECT_EQ(detect_trace_format(bytes_of("  12.5: 7f00\n"), "a"), TraceFormat::kPerfScript);
  SynthOptions options;
  options.samples = 10;
  EXPECT_EQ(detect_trace_format(encode_trace(synthesize_pair(options).ddr), "a"),
            TraceFormat::kBinary);
}

TEST(Load, EmptyAndUnrecognisedFilesAreNamed) {
  EXPECT_EQ(testing::message_of<TraceFormatError>([&] { load_trace({}, "empty.csv"); }),
            "empty.csv: the file is empty");
  EXPECT_EQ(testing::message_of<TraceFormatError>(
                [&] { load_trace(bytes_of("hello world\n"), "notes.txt"); }),
            "notes.txt: not a recognised trace (expected a MemAI CSV header with Timestamp and "
            "Vaddr columns, `perf script` sample lines, or a sysgym binary file)");
}

TEST(Load, CsvWriterOutputReadsBackIdentically) {
  SynthOptions options;
  options.pattern = "stencil";
  options.samples = 500;
  const Trace t = synthesize_pair(options).hbm;
  const Trace back = load_trace(bytes_of(write_csv_trace(t)), "x.csv");
  EXPECT_EQ(back.timestamp, t.timestamp);
  EXPECT_EQ(back.instrs, t.instrs);
  EXPECT_EQ(back.vaddr, t.vaddr);
  EXPECT_EQ(back.phase, t.phase);
}

}  // namespace
}  // namespace sysgym::memtier
