#include "base/container.hpp"

#include <gtest/gtest.h>

#include "support/errors.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "base/error.hpp"
#include "memtier/traces/synth.hpp"
#include "memtier/traces/trace_file.hpp"

namespace sysgym::memtier {
namespace {

std::string error_of(const std::vector<std::uint8_t>& bytes) {
  try {
    decode_trace(ContainerReader(bytes, "t.bin"));
  } catch (const TraceFormatError& e) {
    return e.what();
  }
  return "";
}

void reseal(std::vector<std::uint8_t>& bytes) {
  const std::uint64_t sum = XXH3_64bits(bytes.data(), bytes.size() - 8);
  std::memcpy(bytes.data() + bytes.size() - 8, &sum, 8);
}

Trace sample_trace() {
  SynthOptions options;
  options.pattern = "phased";
  options.samples = 1000;
  return synthesize_pair(options).ddr;
}

TEST(Container, TraceRoundTripsExactly) {
  const Trace t = sample_trace();
  const std::vector<std::uint8_t> bytes = encode_trace(t);
  const Trace back = decode_trace(ContainerReader(bytes, "t.bin"));
  EXPECT_EQ(back.timestamp, t.timestamp);
  EXPECT_EQ(back.vaddr, t.vaddr);
  EXPECT_EQ(back.phase, t.phase);
  EXPECT_EQ(back.instrs, t.instrs);
  EXPECT_EQ(back.access, t.access);
  EXPECT_EQ(back.time_base, t.time_base);
  EXPECT_EQ(back.source, "t.bin");
}

TEST(Container, EncodingIsDeterministicAndBlocksAreAligned) {
  const Trace t = sample_trace();
  EXPECT_EQ(encode_trace(t), encode_trace(t));
  const std::vector<std::uint8_t> bytes = encode_trace(t);
  const ContainerReader reader(bytes, "t.bin");
  EXPECT_EQ(reader.kind(), "trace");
  EXPECT_EQ(reader.meta()["samples"], 1000);
}

TEST(Container, AnyFlippedByteIsCaughtByTheChecksum) {
  std::vector<std::uint8_t> bytes = encode_trace(sample_trace());
  bytes[bytes.size() / 2] ^= 0x40;
  EXPECT_EQ(error_of(bytes), "t.bin: checksum mismatch: the file is corrupted or truncated");
}

TEST(Container, TruncatedAndForeignFilesAreNamed) {
  std::vector<std::uint8_t> bytes = encode_trace(sample_trace());
  bytes.resize(bytes.size() - 100);
  EXPECT_EQ(error_of(bytes), "t.bin: checksum mismatch: the file is corrupted or truncated");
  EXPECT_EQ(error_of({'h', 'e', 'l', 'l', 'o'}), "t.bin: not a sysgym binary file (bad magic)");
  std::vector<std::uint8_t> magic_only(kContainerMagic, kContainerMagic + 8);
  EXPECT_EQ(error_of(magic_only), "t.bin: truncated sysgym binary file");
}

TEST(Container, NewerVersionsAreRefusedWithBothNumbers) {
  std::vector<std::uint8_t> bytes = encode_trace(sample_trace());
  bytes[8] = 7;
  reseal(bytes);
  EXPECT_EQ(error_of(bytes),
            "t.bin: binary format version 7 is not supported (this build reads 1)");
}

TEST(Container, BlocksPointingOutsideTheFileAreRejected) {
  ContainerWriter writer("trace");
  writer.add("vaddr", std::vector<std::uint64_t>{1, 2, 3});
  std::vector<std::uint8_t> bytes = writer.finish();
  // Claim a huge count in the header (same length text, so offsets stay valid).
  std::string text(bytes.begin() + 16, bytes.begin() + 16 + bytes[12]);
  const std::size_t at = text.find("\"count\":3");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 9, "\"count\":9");
  std::copy(text.begin(), text.end(), bytes.begin() + 16);
  reseal(bytes);
  try {
    ContainerReader reader(bytes, "t.bin");
    FAIL();
  } catch (const TraceFormatError& e) {
    EXPECT_EQ(std::string(e.what()), "t.bin: block 'vaddr' lies outside the file");
  }
}

TEST(Container, MissingOrMistypedBlocksAreNamed) {
  ContainerWriter writer("trace");
  writer.meta() = {{"samples", 1}, {"time_base", "cycles"}, {"source", "x"}};
  writer.add("timestamp", std::vector<std::uint32_t>{1});
  const std::vector<std::uint8_t> bytes = writer.finish();
  EXPECT_EQ(error_of(bytes), "t.bin: block 'timestamp' has type u32, expected u64");
  ContainerWriter empty("trace");
  empty.meta() = {{"samples", 1}, {"time_base", "cycles"}};
  EXPECT_EQ(error_of(empty.finish()), "t.bin: missing block 'timestamp' in a 'trace' file");
}

TEST(Container, DecodedTracesAreValidated) {
  Trace t = sample_trace();
  std::swap(t.timestamp[10], t.timestamp[11]);
  EXPECT_EQ(error_of(encode_trace(t)),
            "t.bin: sample 11: Timestamp " + std::to_string(t.timestamp[11]) +
                " is smaller than the previous sample's " + std::to_string(t.timestamp[10]) +
                " (samples must be ordered by time, grouped by increasing phase)");
}

}  // namespace
}  // namespace sysgym::memtier
