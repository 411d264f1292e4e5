// Runs written together carry one set id that readers check; timestamps cannot make a run so long
// that tick sums wrap; CSV quirks of other tools (a byte-order mark, CR-only lines) are handled.
#include <gtest/gtest.h>

#include "base/error.hpp"
#include "memtier/prepared_file.hpp"
#include "memtier/prepared_pair.hpp"
#include "memtier/traces/csv_reader.hpp"
#include "memtier/traces/csv_writer.hpp"
#include "memtier/traces/perf_reader.hpp"
#include "memtier/traces/synth.hpp"
#include "memtier/traces/trace_file.hpp"
#include "support/errors.hpp"

namespace sysgym::memtier {
namespace {

using sysgym::testing::message_of;

TracePair pair_of_seed(std::uint64_t seed) {
  SynthOptions o;
  o.pattern = "phased";
  o.samples = 2000;
  o.seed = seed;
  return synthesize_pair(o);
}

TEST(SetId, BothRunsOfAPairShareOneIdAndOtherSeedsGetAnother) {
  const TracePair a = pair_of_seed(1);
  EXPECT_EQ(a.ddr.set_id.size(), 16u);
  EXPECT_EQ(a.ddr.set_id, a.hbm.set_id);
  EXPECT_EQ(pair_of_seed(1).ddr.set_id, a.ddr.set_id);
  EXPECT_NE(pair_of_seed(2).ddr.set_id, a.ddr.set_id);
}

TEST(SetId, CsvAndBinaryFilesKeepIt) {
  const TracePair a = pair_of_seed(1);
  EXPECT_EQ(read_csv_trace(write_csv_trace(a.ddr), "a.csv").set_id, a.ddr.set_id);
  const std::vector<std::uint8_t> bytes = encode_trace(a.hbm);
  EXPECT_EQ(decode_trace(ContainerReader(bytes, "a.bin")).set_id, a.hbm.set_id);
}

TEST(SetId, APairOfRunsFromDifferentSetsIsRefused) {
  TracePair mixed{pair_of_seed(1).ddr, pair_of_seed(2).hbm};
  mixed.ddr.source = "p.ddr.csv";
  mixed.hbm.source = "p.hbm.csv";
  const std::string message = message_of<TraceFormatError>([&] { validate_pair(mixed); });
  EXPECT_NE(message.find("p.ddr.csv and p.hbm.csv were not written together"), std::string::npos)
      << message;
  // Files of other tools carry no id: nothing to check.
  mixed.hbm.set_id.clear();
  EXPECT_NO_THROW(validate_pair(mixed));
}

TEST(SetId, AMalformedIdIsNamed) {
  EXPECT_EQ(message_of<TraceFormatError>([] {
              read_csv_trace("# sysgym-set: a b\nTimestamp,Vaddr,Phase\n1,0x1000,0\n", "x.csv");
            }),
            "x.csv:1: set id 'a b' is not 1 to 64 letters, digits, '-' or '_'");
}

TEST(CsvQuirks, AByteOrderMarkIsNotPartOfTheFirstColumnName) {
  const Trace t = read_csv_trace("\xEF\xBB\xBFTimestamp,Vaddr,Phase\n5,0x1000,0\n", "bom.csv");
  EXPECT_EQ(t.timestamp.at(0), 5u);
}

TEST(CsvQuirks, CarriageReturnOnlyLineEndingsAreNamed) {
  const std::string message = message_of<TraceFormatError>(
      [] { read_csv_trace("Timestamp,Vaddr,Phase\r5,0x1000,0\r6,0x2000,0\r", "mac.csv"); });
  EXPECT_NE(message.find("mac.csv:1: lines end in a bare carriage return"), std::string::npos)
      << message;
}

TEST(Spans, ARunLongerThan2To62TicksIsRefusedBeforeAnySumCanWrap) {
  const std::string message = message_of<TraceFormatError>([] {
    read_csv_trace("Timestamp,Vaddr,Phase\n0,0x1000,0\n18446744073709551615,0x2000,0\n", "w.csv");
  });
  EXPECT_NE(message.find("w.csv: the run spans 18446744073709551615 ticks"), std::string::npos)
      << message;
}

TEST(Spans, APreparedPairWhoseWindowTicksOverflowIsRefusedDespiteAValidChecksum) {
  WindowOptions w;
  w.mode = WindowMode::kAligned;
  PreparedPair pair = prepare_pair(pair_of_seed(1), w);
  pair.ddr_ticks.back() = UINT64_MAX;
  const std::vector<std::uint8_t> bytes = encode_prepared_pair(pair);  // resealed checksum
  const std::string message =
      message_of<TraceFormatError>([&] { decode_prepared_pair(ContainerReader(bytes, "p.bin")); });
  EXPECT_NE(message.find("p.bin: the window ticks add up to more than 2^62"), std::string::npos)
      << message;
}

TEST(PerfQuirks, ATimeTooLargeForNanosecondsIsNamedAsOutOfRange) {
  const std::string message = message_of<TraceFormatError>([] {
    read_perf_script_trace("x 1 [000] 99999999999999999999.000001: cpu/mem-loads/P: 7f00\n",
                           "perf.txt");
  });
  EXPECT_NE(message.find("perf.txt:1: time '99999999999999999999.000001:' is out of range"),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace sysgym::memtier
