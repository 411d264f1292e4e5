// The static ILP, solved by CBC, against a brute-force search over every static placement of
// small random graphs, and `sysgym tensorplace ilp` end to end.
#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <random>

#include "base/error.hpp"
#include "builtins/builtins.hpp"
#include "cli/cli_fixture.hpp"
#include "env/episode.hpp"
#include "families/tensorplace/cbc_solver.hpp"
#include "tensorplace/ilp.hpp"
#include "tensorplace/plan_json.hpp"
#include "tensorplace/zoo/builder.hpp"
#include "tensorplace/zoo/zoo.hpp"

namespace sysgym::testing {
namespace {

using namespace sysgym::tensorplace;

// Kernel i reads one to three earlier tensors (or the parameter) and writes intermediate i; a
// third of the kernels carry a measured time table instead of flops.
Graph random_graph(std::mt19937_64& rng, std::uint32_t kernels) {
  std::uniform_int_distribution<std::uint64_t> pages(1, 8);
  std::vector<Tensor> tensors = {{"in", pages(rng) * 4096, Role::kIo},
                                 {"w", pages(rng) * 4096, Role::kParameter}};
  std::vector<Kernel> ks;
  for (std::uint32_t k = 0; k < kernels; ++k) {
    const auto out = static_cast<std::uint32_t>(tensors.size());
    tensors.push_back({layer_name("a", k), pages(rng) * 4096 - (rng() % 100)});
    Kernel kernel{layer_name("k", k), "op", {}, {out}, static_cast<double>(rng() % 4) * 1e7, {}};
    const std::size_t reads = 1 + rng() % 3;
    for (std::size_t r = 0; r < reads; ++r) {
      const auto t = static_cast<std::uint32_t>(rng() % out);
      if (std::find(kernel.inputs.begin(), kernel.inputs.end(), t) == kernel.inputs.end())
        kernel.inputs.push_back(t);
    }
    if (k % 3 == 2) {
      for (std::size_t c = 0; c < (std::size_t{1} << kernel.operand_count()); ++c)
        kernel.times.push_back(1e-4 * static_cast<double>(1 + rng() % 50));
    }
    ks.push_back(kernel);
  }
  return Graph("random", 1, std::move(tensors), std::move(ks));
}

double brute_force_ms(const Graph& g, const Platform& p, std::uint64_t limit) {
  double best = std::numeric_limits<double>::infinity();
  const std::size_t n = g.tensors().size();
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << n); ++mask) {
    Plan plan;
    for (std::size_t t = 0; t < n; ++t)
      plan.initial.push_back(((mask >> t) & 1U) != 0 ? kSlow : kFast);
    try {
      best = std::min(best, simulate(g, p, plan, limit).iteration_s * 1e3);
    } catch (const ConfigError&) {
      // over the limit at some kernel
    }
  }
  return best;
}

TEST(TensorplaceIlp, TheStaticIlpIsTheBestStaticPlacement) {
  std::mt19937_64 rng(11);
  const Platform p = platform_named("optane");
  SolveOptions exact;
  exact.relative_gap = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const Graph g = random_graph(rng, 6 + static_cast<std::uint32_t>(trial % 5));
    const auto limit = static_cast<std::uint64_t>(static_cast<double>(g.peak_live_bytes()) *
                                                  static_cast<double>(rng() % 101) / 100.0);
    const IlpModel model = build_ilp(g, p, limit, IlpVariant::kStatic);
    const SolveResult solved = cli::solve_with_cbc(model.lp, exact);
    ASSERT_EQ(solved.status, "optimal") << trial;
    const double brute = brute_force_ms(g, p, limit);
    EXPECT_NEAR(solved.objective, brute, 1e-6 * brute) << "trial " << trial;
    const Simulation replay = simulate(g, p, ilp_plan(g, model, solved), limit);
    EXPECT_NEAR(replay.iteration_s * 1e3, solved.objective, 1e-6 * brute) << "trial " << trial;
    EXPECT_LE(replay.peak_fast_bytes, limit);
  }
}

// The sync and async models on the same graphs: each solution's objective is the simulated time
// of the plan it describes, moves only help (static >= sync >= async), the plans hold the limit,
// and a plan of a weaker variant starts a stronger one.
TEST(TensorplaceIlp, MovesOnlyHelpAndTheObjectiveIsTheSimulatedTime) {
  std::mt19937_64 rng(5);
  Platform p = platform_named("optane");
  p.async_window = 3;  // small graphs: let the window matter
  SolveOptions exact;
  exact.relative_gap = 0;
  int moved = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const Graph g = random_graph(rng, 8 + static_cast<std::uint32_t>(trial % 7));
    const auto limit = static_cast<std::uint64_t>(static_cast<double>(g.peak_live_bytes()) *
                                                  static_cast<double>(10 + rng() % 80) / 100.0);
    double previous = std::numeric_limits<double>::infinity();
    Plan start = first_touch(g, limit);
    for (IlpVariant variant : {IlpVariant::kStatic, IlpVariant::kSync, IlpVariant::kAsync}) {
      const IlpModel model = build_ilp(g, p, limit, variant);
      SolveOptions options = exact;
      const auto values = ilp_start(model, start);
      ASSERT_TRUE(values.has_value()) << variant_name(variant) << " trial " << trial;
      options.start = *values;
      const SolveResult solved = cli::solve_with_cbc(model.lp, options);
      ASSERT_EQ(solved.status, "optimal") << variant_name(variant) << " trial " << trial;
      const Plan plan = ilp_plan(g, model, solved);
      const Simulation replay = simulate(g, p, plan, limit);
      EXPECT_NEAR(replay.iteration_s * 1e3, solved.objective, 1e-6 * solved.objective)
          << variant_name(variant) << " trial " << trial;
      EXPECT_LE(replay.peak_fast_bytes, limit);
      EXPECT_GE(replay.fast_heap_bytes, replay.peak_fast_bytes);
      EXPECT_LE(solved.objective, previous * (1 + 1e-9)) << variant_name(variant) << " " << trial;
      if (variant != IlpVariant::kStatic && solved.objective < previous * (1 - 1e-6)) ++moved;
      previous = solved.objective;
      start = plan;
    }
  }
  EXPECT_GT(moved, 3) << "moves should beat the static optimum on some graphs";
}

// The ILP as a policy: tensorplace-v0 following a plan's moves (KernelMoves directives) takes the
// plan's simulated time, for every variant; the episode records and replays.
TEST(TensorplaceIlp, ThePlanPolicyTakesThePlansTimeInTheEnv) {
  Registry envs;
  PolicyRegistry policies;
  register_builtins(envs, policies, std::make_shared<DataStore>());
  const Graph g = zoo_graph("vgg19", 8);
  const Platform p = platform_named("optane");
  const std::uint64_t limit = g.peak_live_bytes() * 2 / 5;
  const nlohmann::json config = {{"model", "vgg19"}, {"batch", 8}, {"fast_memory", limit}};
  SolveOptions options;
  options.relative_gap = 0.01;
  options.time_limit_s = 3;  // any plan will do; an optimal one is not needed here
  Plan start = first_touch(g, limit);
  for (IlpVariant variant : {IlpVariant::kStatic, IlpVariant::kSync, IlpVariant::kAsync}) {
    const IlpModel model = build_ilp(g, p, limit, variant);
    options.start = ilp_start(model, start).value();
    start = ilp_plan(g, model, cli::solve_with_cbc(model.lp, options));
    const double simulated = simulate(g, p, start, limit).iteration_s * 1e3;
    auto env = envs.make("tensorplace-v0", config);
    auto follow = policies.make("plan", "tensorplace-v0",
                                plan_to_json(g, start, {{"fast_limit_bytes", limit}}));
    const EpisodeRecord episode = run_episode(*env, *follow, "plan", 0, true);
    const double iteration = episode.summary["iteration_ms"].get<double>();
    EXPECT_NEAR(iteration, simulated, 1e-9 * simulated) << variant_name(variant);
    if (variant == IlpVariant::kAsync) {
      EXPECT_FALSE(start.moves.empty());
    }
    const nlohmann::json recorded = episode_to_json(episode, *env);
    auto again = make_recorded_env(envs, recorded);
    EXPECT_EQ(replay_episode(*again, recorded)["iteration_ms"], episode.summary["iteration_ms"]);
  }
  // A plan for another limit, graph or no plan at all: named errors.
  const nlohmann::json plan = plan_to_json(g, start, {{"fast_limit_bytes", limit}});
  auto env = envs.make("tensorplace-v0", {{"model", "vgg19"}, {"batch", 8}});
  auto wrong_limit = policies.make("plan", "tensorplace-v0", plan);
  EXPECT_THROW(run_episode(*env, *wrong_limit, "plan", 0, false), ConfigError);
  auto other =
      envs.make("tensorplace-v0", {{"model", "vgg16"}, {"batch", 8}, {"fast_memory", limit}});
  auto wrong_graph = policies.make("plan", "tensorplace-v0", plan);
  EXPECT_THROW(run_episode(*other, *wrong_graph, "plan", 0, false), ConfigError);
  EXPECT_THROW(policies.make("plan", "tensorplace-v0"), ConfigError);
  nlohmann::json unknown = plan;
  unknown["moves"] = {{{"kernel", "conv1_1"}, {"tensor", "nope"}, {"to", "fast"}}};
  auto bad = policies.make("plan", "tensorplace-v0", unknown);
  auto fresh = envs.make("tensorplace-v0", config);
  EXPECT_THROW(run_episode(*fresh, *bad, "plan", 0, false), ConfigError);
}

// With an ILP plan as the env's reference, the summary says how much of the gap to the ILP an
// episode closed (1 for the plan itself); with moves=none the env is AutoTM's static setting, in
// which no policy beats the static ILP and a plan that moves is refused.
TEST(TensorplaceIlp, TheEnvMeasuresEpisodesAgainstAnIlpPlanAndKeepsStaticWithoutMoves) {
  Registry envs;
  PolicyRegistry policies;
  auto data = std::make_shared<DataStore>();
  register_builtins(envs, policies, data);
  const Graph g = zoo_graph("vgg19", 8);
  const Platform p = platform_named("optane");
  const std::uint64_t limit = g.peak_live_bytes() * 2 / 5;
  SolveOptions options;
  options.relative_gap = 0.01;
  options.time_limit_s = 3;
  const IlpModel model = build_ilp(g, p, limit, IlpVariant::kStatic);
  options.start = ilp_start(model, first_touch(g, limit)).value();
  const Plan plan = ilp_plan(g, model, cli::solve_with_cbc(model.lp, options));
  const double ilp_ms = simulate(g, p, plan, limit).iteration_s * 1e3;
  const nlohmann::json plan_json = plan_to_json(g, plan, {{"fast_limit_bytes", limit}});
  data->add("static.json", std::make_shared<const std::string>(plan_json.dump()));
  const nlohmann::json config = {{"model", "vgg19"},
                                 {"batch", 8},
                                 {"fast_memory", limit},
                                 {"moves", "none"},
                                 {"ilp_plan", "static.json"}};
  auto env = envs.make("tensorplace-v0", config);
  EXPECT_EQ(env->facts()["ilp_ms"].get<double>(), ilp_ms);
  auto follow = policies.make("plan", "tensorplace-v0", plan_json);
  const nlohmann::json own = run_episode(*env, *follow, "plan", 0, false).summary;
  EXPECT_NEAR(own["ilp_gap_closed"].get<double>(), 1.0, 1e-12);
  for (const char* name : {"first-touch", "next-use", "all-fast", "all-slow"}) {
    auto policy = policies.make(name, "tensorplace-v0");
    const nlohmann::json s = run_episode(*env, *policy, name, 0, false).summary;
    EXPECT_EQ(s["bytes_to_fast"], 0) << name << ": nothing moves";
    EXPECT_GE(s["iteration_ms"].get<double>(), ilp_ms / (1 + options.relative_gap)) << name;
    EXPECT_LE(s["ilp_gap_closed"].get<double>(), 1.0 + options.relative_gap) << name;
  }
  nlohmann::json moving = plan_json;
  moving["moves"] = {{{"kernel", g.kernel(3).name},
                      {"tensor", g.tensor(g.kernel(3).inputs[0]).name},
                      {"to", "slow"}}};
  auto mover = policies.make("plan", "tensorplace-v0", moving);
  EXPECT_THROW(run_episode(*env, *mover, "plan", 0, false), InvalidActionError);
  nlohmann::json other = config;
  other["fast_memory"] = limit / 2;
  try {
    envs.make("tensorplace-v0", other);
    ADD_FAILURE() << "a plan for another limit was taken";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("'ilp_plan' 'static.json': the plan is for"),
              std::string::npos)
        << e.what();
  }
}

TEST(TensorplaceIlp, TheOptimumBeatsEveryHeuristicOnTheZoo) {
  const Platform p = platform_named("optane");
  for (const char* model : {"vgg19", "resnet50"}) {
    const Graph g = zoo_graph(model, 8);
    for (double share : {0.2, 0.5}) {
      const auto limit =
          static_cast<std::uint64_t>(share * static_cast<double>(g.peak_live_bytes()));
      const IlpModel ilp = build_ilp(g, p, limit, IlpVariant::kStatic);
      SolveOptions options;
      options.start = ilp_start(ilp, first_touch(g, limit)).value();
      const SolveResult solved = cli::solve_with_cbc(ilp.lp, options);
      ASSERT_TRUE(solved.has_solution) << model;
      const double optimum = simulate(g, p, ilp_plan(g, ilp, solved), limit).iteration_s;
      EXPECT_LE(optimum, simulate(g, p, first_touch(g, limit), limit).iteration_s) << model;
      EXPECT_LE(optimum, simulate(g, p, all_in(g, kSlow), limit).iteration_s) << model;
      EXPECT_GE(optimum, simulate(g, p, all_in(g, kFast), g.peak_live_bytes()).iteration_s)
          << model;
    }
  }
}

// a and b take a page each; a dies and c (two pages) is born: c does not fit a's hole, so with
// all three pages of fast memory the best-fit heap needs four. AutoTM's defragmentation lowers the
// limit at c's birth and solves again: b goes slow and the heap fits.
TEST_F(Cli, TensorplaceDefragmentationMakesTheHeapFit) {
  const std::string graph = path("holes.json");
  std::ofstream(graph) << R"({"format": "sysgym-tensorplace-graph", "version": 1,
    "model": "holes", "batch": 1,
    "tensors": [{"name": "a", "bytes": 4096}, {"name": "b", "bytes": 4096},
                {"name": "c", "bytes": 8192}, {"name": "d", "bytes": 4096}],
    "kernels": [{"name": "k0", "inputs": [], "outputs": ["a"], "flops": 0},
                {"name": "k1", "inputs": ["a"], "outputs": ["b"], "flops": 0},
                {"name": "k2", "inputs": ["b"], "outputs": ["c"], "flops": 0},
                {"name": "k3", "inputs": ["c"], "outputs": ["d"], "flops": 0}]})";
  const Result bytes = run("tensorplace ilp --input " + graph + " --fast-memory 12KiB --json");
  ASSERT_EQ(bytes.code, 0) << bytes.err;
  const nlohmann::json b = nlohmann::json::parse(bytes.out);
  EXPECT_EQ(b["peak_fast_bytes"], 3 * 4096);
  EXPECT_EQ(b["fast_heap_bytes"], 4 * 4096);
  EXPECT_FALSE(b["heap_fits"].get<bool>());
  const Result defrag =
      run("tensorplace ilp --input " + graph + " --fast-memory 12KiB --defrag 3 --json");
  ASSERT_EQ(defrag.code, 0) << defrag.err;
  const nlohmann::json d = nlohmann::json::parse(defrag.out);
  EXPECT_TRUE(d["heap_fits"].get<bool>());
  EXPECT_EQ(d["defrag_rounds"], 1);
  EXPECT_LE(d["fast_heap_bytes"].get<std::uint64_t>(), 3 * 4096u);
  EXPECT_GT(d["iteration_ms"].get<double>(), b["iteration_ms"].get<double>())
      << "fitting the heap costs time here";
  EXPECT_EQ(run("tensorplace ilp --input " + graph + " --defrag -1").code, 1);
}

TEST_F(Cli, TensorplaceIlpReportsTheOptimumAndItsBaselines) {
  const std::string lp = path("model.lp");
  const Result r =
      run("tensorplace ilp --model vgg19 --batch 8 --fast-memory 1:1 --json --write-lp " + lp);
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "optimal");
  EXPECT_LE(j["iteration_ms"].get<double>(), j["first_touch_ms"].get<double>());
  EXPECT_GE(j["iteration_ms"].get<double>(), j["all_fast_ms"].get<double>());
  EXPECT_EQ(slurp(lp).rfind("\\ sysgym tensorplace static ILP: vgg19", 0), 0u);
  const Result text = run("tensorplace ilp --model resnet50 --batch 2 --fast-memory 30%");
  EXPECT_NE(text.out.find("solver: optimal"), std::string::npos) << text.out;
  const Result async =
      run("tensorplace ilp --model vgg19 --batch 16 --fast-memory 40% --variant async --gap 0.01 "
          "--json");
  ASSERT_EQ(async.code, 0) << async.err;
  const nlohmann::json a = nlohmann::json::parse(async.out);
  ASSERT_EQ(a["steps"].size(), 3u);  // static and sync first, each starting the next
  EXPECT_LE(a["iteration_ms"].get<double>(), a["steps"][1]["iteration_ms"].get<double>() + 1e-9);
  EXPECT_LE(a["steps"][1]["iteration_ms"].get<double>(),
            a["steps"][0]["iteration_ms"].get<double>() + 1e-9);
  EXPECT_GT(a["moves"].get<int>(), 0) << "overlapped moves pay on VGG-19 at 40 %";
  const Result variant = run("tensorplace ilp --model vgg19 --variant eager");
  EXPECT_EQ(variant.code, 1);
  EXPECT_NE(variant.err.find("unknown ILP variant"), std::string::npos) << variant.err;
  EXPECT_EQ(run("tensorplace ilp --model vgg19 --fast-memory 120%").code, 1);
  // Stopped by its time limit, the solver keeps the incumbent (at worst the warm start) and the
  // bound; it used to crash in CBC's preprocessing.
  const Result stopped = run("tensorplace ilp --model resnet200 --batch 8 --time-limit 0.3 --json");
  ASSERT_EQ(stopped.code, 0) << stopped.err;
  const nlohmann::json s = nlohmann::json::parse(stopped.out);
  ASSERT_TRUE(s.contains("iteration_ms")) << stopped.out;
  EXPECT_LE(s["iteration_ms"].get<double>(), s["first_touch_ms"].get<double>() * (1 + 1e-9));
  EXPECT_LE(s["bound_ms"].get<double>(), s["objective_ms"].get<double>() * (1 + 1e-9));
}

}  // namespace
}  // namespace sysgym::testing

namespace sysgym::testing {
namespace {

TEST_F(Cli, TensorplaceSweepOrdersTheOptimizersAtEveryRatio) {
  const Result r = run("tensorplace sweep --model resnet50 --batch 2 --ratios 0,1:1,8:1 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["rows"].size(), 3u);
  double previous = 0;
  for (const nlohmann::json& row : j["rows"]) {
    const nlohmann::json& o = row["optimizers"];
    const double ilp = o["static"]["slowdown"].get<double>();
    EXPECT_EQ(o["static"]["status"], "optimal") << row["ratio"];
    // The optimum within its 1 % gap of every static heuristic, and no better than all-fast.
    EXPECT_LE(ilp, o["greedy"]["slowdown"].get<double>() * 1.01) << row["ratio"];
    EXPECT_LE(ilp, o["first-touch"]["slowdown"].get<double>() * 1.01) << row["ratio"];
    EXPECT_LE(o["first-touch"]["slowdown"].get<double>(), o["all-slow"]["slowdown"].get<double>());
    EXPECT_GE(ilp, 1.0 - 1e-9);
    EXPECT_GE(ilp, previous * 0.99) << "less fast memory is never faster";
    EXPECT_LE(o["sync"]["slowdown"].get<double>(), ilp * (1 + 1e-9)) << row["ratio"];
    EXPECT_FALSE(o.contains("async")) << "async is asked for, not default";
    EXPECT_GE(o["2lm"]["slowdown"].get<double>(), 1.0 - 1e-9) << row["ratio"];
    previous = ilp;
  }
  EXPECT_DOUBLE_EQ(j["rows"][0]["optimizers"]["first-touch"]["slowdown"].get<double>(), 1.0);
  const Result text =
      run("tensorplace sweep --model vgg19 --batch 2 --ratios 1:1 --optimizers greedy,all-slow");
  EXPECT_NE(text.out.find("slow:fast"), std::string::npos) << text.out;
  // The variants in any order on the command line run static, sync, async: each starts the next.
  const Result chain =
      run("tensorplace sweep --model vgg19 --batch 16 --ratios 3:1 "
          "--optimizers async,static,sync --gap 0.01 --json");
  ASSERT_EQ(chain.code, 0) << chain.err;
  const nlohmann::json chained = nlohmann::json::parse(chain.out);
  for (const nlohmann::json& row : chained["rows"]) {
    const nlohmann::json& o = row["optimizers"];
    EXPECT_LE(o["sync"]["slowdown"].get<double>(), o["static"]["slowdown"].get<double>() + 1e-9);
    EXPECT_LE(o["async"]["slowdown"].get<double>(), o["sync"]["slowdown"].get<double>() + 1e-9);
  }
  EXPECT_EQ(run("tensorplace sweep --model vgg19 --optimizers static,magic").code, 1);
  EXPECT_EQ(run("tensorplace sweep --model vgg19 --ratios 1:x").code, 1);
}

}  // namespace
}  // namespace sysgym::testing
