#include "memtier/prepared_pair.hpp"

#include <gtest/gtest.h>

#include "support/errors.hpp"

#include "base/error.hpp"
#include "base/rng.hpp"
#include "memtier/estimator.hpp"
#include "memtier/pair_source.hpp"
#include "memtier/prepared_file.hpp"
#include "memtier/traces/synth.hpp"
#include "memtier/traces/trace_file.hpp"

namespace sysgym::memtier {
namespace {

PreparedPair make_prepared(WindowMode mode) {
  SynthOptions o;
  o.pattern = "phased";
  o.samples = 20000;
  WindowOptions w;
  w.mode = mode;
  return prepare_pair(synthesize_pair(o), w);
}

TEST(PreparedPair, CountsEverySampleOfEveryWindowOnItsPage) {
  SynthOptions o;
  o.pattern = "random";
  o.samples = 5000;
  const TracePair traces = synthesize_pair(o);
  WindowOptions w;
  w.mode = WindowMode::kAligned;
  const PreparedPair pair = prepare_pair(traces, w);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < pair.window_count(); ++i)
    total += pair.window_samples(i);
  EXPECT_EQ(total, traces.ddr.size());  // aligned windows do not share samples
  EXPECT_EQ(pair.ddr_total_ticks, traces.ddr.span_ticks());
  EXPECT_EQ(pair.hbm_total_ticks, traces.hbm.span_ticks());
}

TEST(PreparedPair, AddressSpacesWiderThan32BitsOfPagesAreCountedToo) {
  // Heap near 0x5555... and stack near 0x7ffd...: 2^33 pages apart at 4 KiB pages.
  Trace ddr;
  ddr.source = "wide.csv";
  Trace hbm;
  hbm.source = "wide-hbm.csv";
  const std::uint64_t bases[3] = {0x555555554000ull, 0x7ffd00000000ull, 0x7f0000000000ull};
  for (std::uint64_t i = 0; i < 3000; ++i) {
    ddr.timestamp.push_back(1000 * i);
    hbm.timestamp.push_back(500 * i);
    ddr.vaddr.push_back(bases[i % 3] + (i % 7) * 4096);
  }
  ddr.phase.assign(3000, 0);
  hbm.phase.assign(3000, 0);
  hbm.vaddr = ddr.vaddr;
  WindowOptions w;
  w.page_size_bits = 12;
  w.window_len = 100.0 / 1400.0;  // ms: 100 samples per window
  const PreparedPair pair = prepare_pair({ddr, hbm}, w);
  EXPECT_EQ(pair.pages.size(), 21u);  // 3 bases x 7 pages
  EXPECT_EQ(pair.pages.front(), bases[0]);
  EXPECT_EQ(pair.pages.back(), bases[1] + 6 * 4096);
  const HbmRanges stack({{bases[1], bases[1] + (1 << 20)}});
  const Estimate e = Estimator(pair).estimate(stack);
  EXPECT_NEAR(static_cast<double>(e.samples_in_hbm) / static_cast<double>(e.samples), 1.0 / 3.0,
              0.01);
}

TEST(PreparedPair, FileRoundTripGivesBitIdenticalEstimates) {
  for (WindowMode mode : {WindowMode::kMemai, WindowMode::kAligned}) {
    const PreparedPair pair = make_prepared(mode);
    const std::vector<std::uint8_t> bytes = encode_prepared_pair(pair);
    const PreparedPair back = decode_prepared_pair(ContainerReader(bytes, "p.bin"));
    // Zero-copy decoding: the big columns view the buffer, which the owner keeps alive.
    auto owned = std::make_shared<std::vector<std::uint8_t>>(bytes);
    PreparedPair viewed = decode_prepared_pair(ContainerReader(*owned, "p.bin"), owned);
    EXPECT_TRUE(viewed.entry_page.is_view());
    EXPECT_FALSE(back.entry_page.is_view());
    const PreparedPair copied = viewed;  // copies keep viewing the same owner
    owned.reset();
    viewed = PreparedPair();
    EXPECT_EQ(Estimator(copied).estimate(HbmRanges()).estimated_ms,
              Estimator(pair).estimate(HbmRanges()).estimated_ms);
    EXPECT_EQ(back.options.mode, mode);
    EXPECT_EQ(back.options.window_len, pair.options.window_len);
    Rng rng(1);
    for (int trial = 0; trial < 10; ++trial) {
      const std::uint64_t page = pair.pages[rng.below(pair.pages.size())];
      const HbmRanges ranges({{page, page + (rng.below(512) + 1) * pair.page_bytes()}});
      EXPECT_EQ(Estimator(back).estimate(ranges).estimated_ms,
                Estimator(pair).estimate(ranges).estimated_ms);
    }
  }
}

TEST(PreparedPair, InconsistentColumnsAreRejectedOnLoad) {
  PreparedPair pair = make_prepared(WindowMode::kAligned);
  pair.entry_page.mutable_values()[3] = static_cast<std::uint32_t>(pair.pages.size());
  const std::vector<std::uint8_t> bytes = encode_prepared_pair(pair);
  EXPECT_EQ(sysgym::testing::message_of<TraceFormatError>(
                [&] { decode_prepared_pair(ContainerReader(bytes, "p.bin")); }),
            "p.bin: bad page entry in window 0");
}

// An offset far past the entries, followed by a valid last offset, once walked 2^55 entries
// (a fuzzing finding: tests/fuzz/regressions/prepared_pair).
TEST(PreparedPair, AnEntryOffsetPastTheEndIsRejectedAtOnce) {
  PreparedPair pair = make_prepared(WindowMode::kAligned);
  ASSERT_GT(pair.entry_offset.size(), 4u);
  pair.entry_offset[2] = std::uint64_t{1} << 55;
  const std::vector<std::uint8_t> bytes = encode_prepared_pair(pair);
  EXPECT_EQ(sysgym::testing::message_of<TraceFormatError>(
                [&] { decode_prepared_pair(ContainerReader(bytes, "p.bin")); }),
            "p.bin: entry offset 36028797018963968 of window 1 is past the " +
                std::to_string(pair.entry_page.size()) + " entries");
}

TEST(PreparedPair, ARawTraceIsNotAPreparedPair) {
  SynthOptions o;
  o.samples = 10;
  const std::vector<std::uint8_t> bytes = encode_trace(synthesize_pair(o).ddr);
  EXPECT_EQ(sysgym::testing::message_of<TraceFormatError>(
                [&] { decode_prepared_pair(ContainerReader(bytes, "ddr.bin")); }),
            "ddr.bin: holds a 'trace', expected a preprocessed pair (make one with `sysgym "
            "memtier preprocess`)");
}

std::shared_ptr<const std::string> text_of(const std::vector<std::uint8_t>& bytes) {
  return std::make_shared<const std::string>(bytes.begin(), bytes.end());
}

TEST(PreparedPair, TraceNamesResolveOverTheDataStoreAsOverFiles) {
  SynthOptions o;
  o.samples = 4000;
  const TracePair pair = synthesize_pair(o);
  auto data = std::make_shared<DataStore>();
  data->add("run/app.ddr.bin", text_of(encode_trace(pair.ddr)));
  data->add("run/app.hbm.bin", text_of(encode_trace(pair.hbm)));
  data->add("run/app.ddr.csv", std::make_shared<const std::string>("not read: the binary wins"));
  data->add("pair.bin", text_of(encode_prepared_pair(prepare_pair(pair, WindowOptions{}))));
  data->add("half.ddr.bin", text_of(encode_trace(pair.ddr)));
  data->add("two.ddr.csv", std::make_shared<const std::string>(""));
  data->add("two.ddr.perf", std::make_shared<const std::string>(""));
  data->add("two.hbm.csv", std::make_shared<const std::string>(""));
  InMemoryPairSource source(data);
  const WindowRequest windows;
  const auto by_prefix = source.load("run/app", windows);
  const auto by_files = source.load("run/app.ddr.bin,run/app.hbm.bin", windows);
  const auto by_pair = source.load("pair.bin", windows);
  const auto ddr_ms = [](const auto& p) { return Estimator(*p).estimate(HbmRanges()).ddr_ms; };
  EXPECT_GT(ddr_ms(by_prefix), 0.0);
  EXPECT_EQ(ddr_ms(by_prefix), ddr_ms(by_files));
  EXPECT_EQ(ddr_ms(by_prefix), ddr_ms(by_pair));
  EXPECT_TRUE(source.is_preprocessed("pair.bin"));
  EXPECT_FALSE(source.is_preprocessed("run/app"));
  using sysgym::testing::message_of;
  EXPECT_EQ(message_of<TraceFormatError>([&] { source.load("half", windows); }),
            "trace 'half': found half.ddr.bin but no HBM trace beside it (half.hbm.*)");
  EXPECT_EQ(message_of<TraceFormatError>([&] { source.load("two", windows); }),
            "trace 'two': several ddr traces (two.ddr.csv, two.ddr.perf); name the pair as "
            "DDR_FILE,HBM_FILE");
  EXPECT_EQ(message_of<UnknownNameError>([&] { source.load("run/app.ddr.bin,nope", windows); }),
            "trace 'run/app.ddr.bin,nope': no data named 'nope' was added");
  EXPECT_EQ(message_of<TraceFormatError>([&] { source.load("run/app.ddr.csv", windows); }),
            "run/app.ddr.csv: a single trace cannot drive the env; give DDR_FILE,HBM_FILE or a "
            "pair preprocessed by `sysgym memtier preprocess`");
  EXPECT_EQ(message_of<TraceFormatError>([&] { source.load("run/app.ddr.bin", windows); }),
            "run/app.ddr.bin: holds a 'trace', expected a preprocessed pair (make one with "
            "`sysgym memtier preprocess`)");
  EXPECT_EQ(message_of<UnknownNameError>([&] { source.load("other", windows); }),
            "unknown trace 'other': no data named 'other' was added, and no other.ddr.* + "
            "other.hbm.* pair; also DDR,HBM, a preprocessed PAIR.bin or "
            "synth:PATTERN[:SAMPLES[:SEED[:FOOTPRINT_MIB]]]");
}

}  // namespace
}  // namespace sysgym::memtier
