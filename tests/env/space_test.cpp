#include "env/space.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "base/error.hpp"

namespace sysgym {
namespace {

std::string check_message(const Space& space, std::vector<double> value) {
  try {
    space.check(value, "action");
  } catch (const InvalidActionError& e) {
    return e.what();
  }
  return "";
}

TEST(Space, DiscreteContainsIntegersInRangeOnly) {
  const Space s = Space::discrete(3, 1);
  EXPECT_TRUE(s.contains(std::vector<double>{1}));
  EXPECT_TRUE(s.contains(std::vector<double>{3}));
  EXPECT_FALSE(s.contains(std::vector<double>{0}));
  EXPECT_FALSE(s.contains(std::vector<double>{1.5}));
  EXPECT_FALSE(s.contains(std::vector<double>{1, 2}));
  EXPECT_EQ(s.to_string(), "Discrete(3, start=1)");
}

TEST(Space, CheckNamesTheActionTheSpaceAndTheReason) {
  EXPECT_EQ(check_message(Space::multi_binary(3), {0, 2, 1}),
            "action [0, 2, 1] is not in MultiBinary(3): element 1 is 2, expected 0 or 1");
  EXPECT_EQ(check_message(Space::discrete(4), {7}),
            "action [7] is not in Discrete(4): value is 7, expected an integer in [0, 3]");
  EXPECT_EQ(check_message(Space::multi_binary(2), {0, 1, 1}),
            "action [0, 1, 1] is not in MultiBinary(2): it has 3 elements, expected 2");
  EXPECT_EQ(check_message(Space::multi_discrete({2, 5}), {1, 5}),
            "action [1, 5] is not in MultiDiscrete([2, 5]): element 1 is 5, expected an integer in "
            "[0, 4]");
  EXPECT_EQ(check_message(Space::box({2}, -1.0f, 1.0f), {0.5, std::nan("")}),
            "action [0.5, nan] is not in Box(-1, 1, (2,), float32): element 1 is nan, expected a "
            "value in [-1, 1]");
}

TEST(Space, LongActionsAreAbbreviatedInMessages) {
  std::vector<double> value(20, 0.0);
  value[19] = 3;
  EXPECT_EQ(check_message(Space::multi_binary(20), value),
            "action [0, 0, 0, 0, 0, 0, 0, 0, ...] is not in MultiBinary(20): element 19 is 3, "
            "expected 0 or 1");
}

TEST(Space, SamplesAlwaysLieInTheSpace) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<Space> spaces = {
      Space::discrete(5, -2),
      Space::multi_binary(7),
      Space::multi_discrete({3, 1, 9}),
      Space::box({2, 3}, -2.0f, 5.0f),
      Space::box({3}, {-inf, 0.0f, -inf}, {inf, inf, 1.0f}),
      Space::dict({{"bins", Space::multi_binary(4)}, {"move", Space::discrete(3)}})};
  Rng rng(11);
  for (const Space& s : spaces) {
    for (int i = 0; i < 2000; ++i)
      ASSERT_TRUE(s.contains(s.sample(rng))) << s.to_string();
  }
}

TEST(Space, SamplingIsDeterministicForASeed) {
  const Space s = Space::box({4}, 0.0f, 1.0f);
  Rng a(5);
  Rng b(5);
  EXPECT_EQ(s.sample(a), s.sample(b));
}

TEST(Space, DictLaysChildrenOutInOrder) {
  const Space s = Space::dict({{"bins", Space::multi_binary(4)}, {"move", Space::discrete(3)}});
  EXPECT_EQ(s.flat_size(), 5u);
  EXPECT_EQ(s.child_offset(0), 0u);
  EXPECT_EQ(s.child_offset(1), 4u);
  EXPECT_TRUE(s.contains(std::vector<double>{1, 0, 1, 1, 2}));
  EXPECT_EQ(
      check_message(s, {1, 0, 1, 1, 3}),
      "action [1, 0, 1, 1, 3] is not in Dict('bins': MultiBinary(4), 'move': Discrete(3)): in "
      "'move': value is 3, expected an integer in [0, 2]");
}

TEST(Space, JsonDescribesTypeShapeAndBounds) {
  const float inf = std::numeric_limits<float>::infinity();
  const nlohmann::json j = Space::box({2}, {0.0f, -inf}, {1.0f, inf}).to_json();
  EXPECT_EQ(j["type"], "Box");
  EXPECT_EQ(j["shape"], nlohmann::json::array({2}));
  EXPECT_EQ(j["low"][1], nullptr);
  EXPECT_EQ(j["high"][0], 1.0);
  EXPECT_EQ(Space::multi_binary(64).to_json()["n"], 64);
}

TEST(Space, RejectsEmptyOrInvertedDefinitions) {
  EXPECT_THROW(Space::discrete(0), ApiMisuseError);
  EXPECT_THROW(Space::multi_discrete({2, 0}), ApiMisuseError);
  EXPECT_THROW(Space::box({2}, 1.0f, 0.0f), ApiMisuseError);
  EXPECT_THROW(Space::dict({}), ApiMisuseError);
}

}  // namespace
}  // namespace sysgym
