#include "looptune/looptune_config.hpp"

#include "base/error.hpp"
#include "base/quote.hpp"
#include "env/config_reader.hpp"
#include "looptune/limits.hpp"
#include "looptune/measure.hpp"
#include "looptune/problems.hpp"

namespace sysgym::looptune {
namespace {

std::shared_ptr<const Problem> load_problem(const std::string& name, const DataSource& data) {
  return problem_from_json(read_data_json(data, name, "looptune-v0 config: 'problem'"), name);
}

std::vector<std::shared_ptr<const Problem>> problems_of(const std::string& kernel) {
  std::vector<std::shared_ptr<const Problem>> out;
  const std::vector<std::string> set = problem_set(kernel);
  if (set.empty()) {
    out.push_back(problem_from_spec(kernel));
  } else {
    for (const std::string& spec : set)
      out.push_back(problem_from_spec(spec));
  }
  return out;
}

}  // namespace

const ConfigSchema& looptune_schema() {
  static const ConfigSchema schema({
      value_key("kernel", "matmul:128x192x64",
                "the computation: matmul:MxNxK, conv3x3:NxCxKxHxW, or a benchmark set drawn "
                "from per episode (matmul-train, matmul-test, conv-train, conv-test; "
                "matmul-random-train, ... with sizes drawn off LoopTune's grid)"),
      string_key("problem", "a problem JSON file tuned instead of `kernel`", false),
      integer_key("episode_length", 10, 1, 1000, "actions per episode", "steps"),
      fixed_by_policy(integer_key("max_loops", static_cast<std::int64_t>(kDefaultMaxLoops), 2,
                                  static_cast<std::int64_t>(kMaxLoopsLimit),
                                  "loops a nest may have (the observation's rows)", "loops")),
      choice_key("reward", "model", {"model", "measure"},
                 "model: GFLOPS from the deterministic cost model; measure: timed on this "
                 "machine (min of runs over at least 10 ms, memoised)"),
      fixed_by_policy(choice_key(
          "annotations", "auto", {"auto", "actions"},
          "auto: the executor picks SIMD and register tiles from the strides (loop_tool's JIT); "
          "actions: only where the unroll and vectorize actions ask")),
      value_key("cost_model", nlohmann::json::object(),
                "cost model parameters replaced ({\"call_ns\": 4}; see docs/envs/looptune.md)"),
  });
  return schema;
}

LooptuneConfig read_looptune_config(const nlohmann::json& config, const DataSource& data) {
  ConfigReader reader(config, "looptune-v0 config");
  const ConfigSchema& k = looptune_schema();
  LooptuneConfig out;
  const std::string kernel = reader.string("kernel", k.at("kernel").fallback.get<std::string>());
  const std::string problem = reader.string(k.at("problem"));
  out.problems = problem.empty()
                     ? problems_of(kernel)
                     : std::vector<std::shared_ptr<const Problem>>{load_problem(problem, data)};
  out.episode_length = reader.integer(k.at("episode_length"));
  out.max_loops = static_cast<std::size_t>(reader.integer(k.at("max_loops")));
  out.measure = reader.choice(k.at("reward")) == "measure";
  out.annotations = reader.choice(k.at("annotations")) == "actions";
  const nlohmann::json* model = reader.raw("cost_model");
  out.model = CostModel::from_json(model ? *model : nlohmann::json::object(),
                                   "looptune-v0 config: 'cost_model'");
  reader.resolve("cost_model", out.model.to_json());
  reader.finish();
  for (const auto& p : out.problems) {
    if (p->vars.size() > out.max_loops)
      throw ConfigError("looptune-v0 config: " + quote(p->name) + " has " +
                        std::to_string(p->vars.size()) + " variables, more than max_loops " +
                        std::to_string(out.max_loops));
    if (out.measure)
      check_measurable(p, out.model, out.annotations,
                       "use reward=model (the cost model) or smaller sizes");
  }
  out.resolved = reader.resolved();
  return out;
}

}  // namespace sysgym::looptune
