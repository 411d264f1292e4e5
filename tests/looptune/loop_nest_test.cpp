// looptune's loop nests, actions and executor: every nest a random walk of actions reaches
// computes exactly what the reference computes (integer operands: exact in any order), and the
// actions keep LoopTune's rules.
#include <gtest/gtest.h>

#include "base/error.hpp"
#include "base/rng.hpp"
#include "looptune/actions.hpp"
#include "looptune/executor.hpp"
#include "looptune/limits.hpp"
#include "looptune/problems.hpp"

namespace sysgym::looptune {
namespace {

std::vector<float> run_nest(const LoopNest& nest, bool annotations, const Operands& in) {
  std::vector<float> out = in.out;
  Executor(nest, annotations).run(in.a.data(), in.b.data(), out.data());
  return out;
}

TEST(LooptuneExecutor, EveryNestOfARandomWalkComputesTheReference) {
  for (const char* spec : {"matmul:16x20x12", "matmul:48x32x64", "conv3x3:2x3x4x6x5"}) {
    const auto problem = problem_from_spec(spec);
    const Operands in = make_operands(*problem, 7);
    std::vector<float> expected = in.out;
    reference(*problem, in.a.data(), in.b.data(), expected.data());
    Rng rng(11);
    std::size_t visited = 0;
    for (int walk = 0; walk < 40; ++walk) {
      Schedule s{LoopNest::initial(problem), 0};
      for (int step = 0; step < 12; ++step) {
        const auto next = apply(s, static_cast<Action>(rng.below(kActionCount)), 10);
        if (!next) continue;
        s = *next;
        ++visited;
        for (bool annotations : {false, true}) {
          ASSERT_EQ(run_nest(s.nest, annotations, in), expected)
              << spec << " annotations " << annotations << "\n"
              << s.nest.to_text(s.cursor);
        }
      }
    }
    EXPECT_GT(visited, 150u) << spec;
  }
}

TEST(LooptuneActions, SplitMergeAndSwapKeepTheCoverage) {
  const auto problem = problem_from_spec("matmul:20x16x64");
  Schedule s{LoopNest::initial(problem), 0};
  // m = 20 split by 8: two steps of 8 and a tail of 4.
  s = apply(s, Action::kSplit8, 10).value();
  EXPECT_EQ(s.nest.size(), 4u);
  EXPECT_EQ(s.nest.loop(0).size, 2);
  EXPECT_EQ(s.nest.loop(0).tail, 4);
  EXPECT_EQ(s.nest.step(0), 8);
  EXPECT_EQ(s.nest.loop(1).size, 8);
  // The two loops of m never swap; merging gives the one loop back.
  std::string why;
  EXPECT_FALSE(apply(s, Action::kSwapDown, 10, &why));
  EXPECT_EQ(why, "both loops walk the same variable");
  const Schedule merged = apply(s, Action::kMerge, 10).value();
  EXPECT_EQ(merged.nest, LoopNest::initial(problem));
  // The innermost loop (k = 64) split by 32 leaves 32 innermost: legal; the cursor walks down.
  Schedule k{LoopNest::initial(problem), 2};
  k = apply(k, Action::kSplit32, 10).value();
  EXPECT_EQ(k.nest.loop(3).size, 32);
  k = apply(k, Action::kDown, 10).value();
  EXPECT_EQ(k.cursor, 3);
  EXPECT_FALSE(apply(k, Action::kDown, 10));
  // Splitting the innermost by 2 would leave 2 innermost: not a multiple of the SIMD width.
  Schedule two{LoopNest::initial(problem_from_spec("matmul:8x8x8")), 2};
  EXPECT_FALSE(apply(two, Action::kSplit2, 10, &why));
  EXPECT_NE(why.find("SIMD"), std::string::npos);
  EXPECT_TRUE(apply(two, Action::kSplit4, 10));
  EXPECT_TRUE(apply(two, Action::kVectorize, 10));
  EXPECT_FALSE(apply(Schedule{two.nest, 0}, Action::kVectorize, 10));
  // At most max_loops loops.
  EXPECT_FALSE(apply(Schedule{LoopNest::initial(problem), 0}, Action::kSplit2, 3, &why));
  const auto mask = legal_actions(Schedule{LoopNest::initial(problem), 0}, 10);
  EXPECT_FALSE(mask[static_cast<std::size_t>(Action::kUp)]);
  EXPECT_TRUE(mask[static_cast<std::size_t>(Action::kSwapDown)]);
}

TEST(LooptuneProblems, SpecsAndFilesParseOrSayWhy) {
  const auto mm = problem_from_spec("matmul:128x192x64");
  EXPECT_EQ(mm->flops(), 2.0 * 128 * 192 * 64);
  EXPECT_EQ(mm->a.stride, (std::vector<std::int64_t>{64, 0, 1}));
  const auto conv = problem_from_spec("conv3x3:1x2x3x4x5");
  EXPECT_EQ(conv->a.elements, 1 * 2 * 6 * 7);  // padded input
  EXPECT_EQ(problem_from_json(problem_to_json(*conv), "round trip")->a.stride, conv->a.stride);
  EXPECT_THROW(problem_from_spec("matmul:0x4x4"), ConfigError);
  EXPECT_THROW(problem_from_spec("matmul:4x4"), ConfigError);
  EXPECT_THROW(problem_from_spec("matmul:4x4x99999"), ConfigError);
  EXPECT_THROW(problem_from_spec("gemm:4x4x4"), UnknownNameError);
  nlohmann::json bad = problem_to_json(*mm);
  bad["a"]["dims"] = {{"m"}, {"q"}};
  EXPECT_THROW(problem_from_json(bad, "bad.json"), UnknownNameError);
  EXPECT_THROW(loops_from_json(mm, {{{"var", "m"}, {"size", 128}}}, "loops"), ConfigError);
  EXPECT_EQ(loops_from_json(mm, loops_to_json(LoopNest::initial(mm)), "loops"),
            LoopNest::initial(mm));
}

}  // namespace
}  // namespace sysgym::looptune
