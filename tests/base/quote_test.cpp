#include "base/quote.hpp"

#include <gtest/gtest.h>

#include "base/names.hpp"

namespace sysgym {
namespace {

TEST(Quote, PrintableAsciiStaysAsItIs) {
  EXPECT_EQ(quote("data/real/lammps (1).bin"), "'data/real/lammps (1).bin'");
}

// A config value that would set the terminal's title and clear its screen.
TEST(Quote, TerminalEscapesNulAndNonAsciiBytesBecomeHexEscapes) {
  using namespace std::string_literals;
  EXPECT_EQ(quote("\x1b]0;owned\x07\x1b[2J\0tail"s), R"('\x1b]0;owned\x07\x1b[2J\x00tail')");
  EXPECT_EQ(printable("caf\xc3\xa9\n\t\r"), R"(caf\xc3\xa9\n\t\r)");
}

TEST(Quote, LongValuesAreCutWithAnEllipsis) {
  EXPECT_EQ(quote(std::string(1000, 'k'), 5), "'kkkkk...'");
  EXPECT_EQ(quote(std::string(1000, 'k')).size(), kQuotedChars + 5);
}

TEST(Quote, WholeMessagesKeepTheirNewlinesAndAreCapped) {
  EXPECT_EQ(printable_message("a\nb\x1b"), "a\nb\\x1b");
  EXPECT_LT(printable_message(std::string(10'000'000, 'x')).size(), 5000u);
}

TEST(Quote, AHugeUnknownNameGetsNoSuggestionSearchAndAShortMessage) {
  const std::string message =
      unknown_name_message("config key", std::string(150'000'000, 'b'), {"bins", "trace"});
  EXPECT_LT(message.size(), 300u);
  EXPECT_EQ(message.find("did you mean"), std::string::npos);
}

}  // namespace
}  // namespace sysgym
