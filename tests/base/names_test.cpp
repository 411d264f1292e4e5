#include "base/names.hpp"

#include <gtest/gtest.h>

namespace sysgym {
namespace {

TEST(Names, EditDistanceCountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("memtier", "memtier"), 0u);
  EXPECT_EQ(edit_distance("memtir", "memtier"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
}

TEST(Names, SuggestsTheClosestValidName) {
  EXPECT_EQ(closest_name("acesses", {"ms", "instrs", "accesses"}), "accesses");
  EXPECT_EQ(closest_name("zzzzzzzz", {"ms", "instrs", "accesses"}), "");
}

TEST(Names, UnknownNameMessageListsValidNamesAndSuggestion) {
  EXPECT_EQ(unknown_name_message("unit", "msec", {"ms", "instrs", "accesses"}),
            "unknown unit 'msec' (did you mean 'ms'?); valid: ms, instrs, accesses");
  EXPECT_EQ(unknown_name_message("env", "x", {}), "unknown env 'x'; valid: (none)");
}

}  // namespace
}  // namespace sysgym
