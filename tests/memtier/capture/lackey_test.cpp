#include "memtier/capture/lackey.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "support/errors.hpp"

namespace sysgym::capture {
namespace {

using sysgym::testing::message_of;

TEST(Lackey, ParsesInstructionAndDataLines) {
  const LackeyEvent i = parse_lackey_line("I  0401ab70,3", 1);
  EXPECT_EQ(i.kind, LackeyKind::kInstruction);
  EXPECT_EQ(i.address, 0x0401ab70u);
  EXPECT_EQ(i.size, 3u);
  EXPECT_EQ(parse_lackey_line(" S 1fff000648,8", 2).kind, LackeyKind::kStore);
  EXPECT_EQ(parse_lackey_line(" L 04022f50,8", 3).address, 0x04022f50u);
  EXPECT_EQ(parse_lackey_line(" M 0421f8a8,4", 4).kind, LackeyKind::kModify);
}

TEST(Lackey, SkipsValgrindsOwnLog) {
  EXPECT_EQ(parse_lackey_line("==8367== Lackey, an example Valgrind tool", 1).kind,
            LackeyKind::kNone);
  EXPECT_EQ(parse_lackey_line("--8367-- warning: something", 2).kind, LackeyKind::kNone);
  EXPECT_EQ(parse_lackey_line("", 3).kind, LackeyKind::kNone);
}

TEST(Lackey, MalformedLinesNameTheLine) {
  EXPECT_EQ(message_of<TraceFormatError>([] { parse_lackey_line(" X 0401ab70,3", 7); }),
            "lackey output line 7: unknown access kind: ' X 0401ab70,3'");
  EXPECT_EQ(message_of<TraceFormatError>([] { parse_lackey_line(" L 04zz,8", 8); }),
            "lackey output line 8: expected HEXADDRESS,SIZE: ' L 04zz,8'");
  EXPECT_EQ(message_of<TraceFormatError>([] { parse_lackey_line(" L 0400", 9); }),
            "lackey output line 9: expected HEXADDRESS,SIZE: ' L 0400'");
  EXPECT_EQ(message_of<TraceFormatError>([] { parse_lackey_line("hello world", 10); }),
            "lackey output line 10: not an access line (I, L, S or M): 'hello world'");
}

}  // namespace
}  // namespace sysgym::capture
