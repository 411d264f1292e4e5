#include "training_handles.hpp"

#include "agents/evaluation.hpp"
#include "agents/training_files.hpp"
#include "base/json_text.hpp"
#include "base/numbers.hpp"
#include "env/config_grid.hpp"
#include "runtime.hpp"

namespace sysgym::wasm {
namespace {

// --config's object, or null when the text is empty.
nlohmann::json given_config(const nlohmann::json& request) {
  const std::string text = request.value("config", std::string());
  return text.empty() ? nlohmann::json() : parse_json_text(text, "--config");
}

std::vector<std::string> strings(const nlohmann::json& request, const char* key) {
  return request.value(key, std::vector<std::string>{});
}

// An integer flag's text, or `fallback` when the flag was not given.
std::uint64_t integer_flag(const nlohmann::json& request, const char* key, const char* flag,
                           IntegerRange range, std::uint64_t fallback) {
  const std::string text = request.value(key, std::string());
  return text.empty() ? fallback : parse_integer(text, flag, range);
}

}  // namespace

std::string eval_report_text(const std::string& request_json, bool json) {
  std::string out;
  guarded([&] {
    const nlohmann::json request = parse(request_json);
    agents::EvaluationRequest r;
    for (const nlohmann::json& p : request.at("policies")) {
      const std::string path = p.at("path").get<std::string>();
      r.trained.push_back(agents::trained_policy(
          parse_json_text(p.at("text").get<std::string>(), "--policy"), path));
    }
    r.env = request.value("env", std::string());
    r.config = given_config(request);
    r.settings = strings(request, "settings");
    r.vary = strings(request, "vary");
    r.baselines = strings(request, "baselines");
    r.seed = integer_flag(request, "seed", "--seed", kSeedRange, 0);
    r.seeds = integer_flag(request, "seeds", "--seeds", agents::kEvalSeedsRange, 1);
    const agents::Evaluation evaluation =
        agents::evaluate_policies(runtime().envs, runtime().policies, r);
    out = json ? evaluation.tables.dump(2) : agents::evaluation_text(runtime().envs, evaluation);
  });
  return out;
}

std::string train_flag_ranges_json() {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [flag, range] : {std::pair{"--steps", agents::kTrainStepsRange},
                                    {"--envs", agents::kTrainEnvsRange},
                                    {"--threads", agents::kTrainThreadsRange},
                                    {"--curve-every", agents::kCurveEveryRange},
                                    {"--checkpoint-every", agents::kCheckpointEveryRange}})
    out[flag] = {range.min, range.max};
  return out.dump();
}

TrainerHandle::TrainerHandle(std::unique_ptr<agents::Trainer> trainer, std::string agent,
                             std::vector<std::string> vary)
    : trainer_(std::move(trainer)), agent_(std::move(agent)), vary_(std::move(vary)) {}

TrainerHandle* TrainerHandle::make(const std::string& request_json) {
  TrainerHandle* out = nullptr;
  guarded([&] {
    const nlohmann::json request = parse(request_json);
    agents::TrainerOptions options;
    options.agent = request.value("agent", std::string());  // empty: the env's (trainer.hpp)
    const std::string agent_config = request.value("agent_config", std::string());
    options.agent_config = agent_config.empty() ? nlohmann::json::object()
                                                : parse_json_text(agent_config, "--agent-config");
    const EnvSpec& spec = runtime().envs.spec(request.at("env").get<std::string>());
    options.env_id = spec.id;
    const std::vector<std::string> vary = strings(request, "vary");
    const nlohmann::json base = spec.command_line_config(
        nlohmann::json::object(), given_config(request), strings(request, "settings"));
    options.env_configs = agents::training_configs(
        config_grid(spec, base, vary),
        integer_flag(request, "envs", "--envs", agents::kTrainEnvsRange, 0));
    options.seed = integer_flag(request, "seed", "--seed", kSeedRange, 0);
    options.curve_every = static_cast<std::int64_t>(
        integer_flag(request, "curve_every", "--curve-every", agents::kCurveEveryRange, 5000));
    auto trainer = std::make_unique<agents::Trainer>(runtime().envs, options);
    std::string agent = trainer->agent();
    out = new TrainerHandle(std::move(trainer), std::move(agent), vary);
  });
  return out;
}

TrainerHandle* TrainerHandle::resume(const std::string& state_bytes, const std::string& path) {
  TrainerHandle* out = nullptr;
  guarded([&] {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(state_bytes.data());
    const agents::ResumedTraining resumed =
        agents::read_training_state({bytes, state_bytes.size()}, path);
    auto trainer = std::make_unique<agents::Trainer>(runtime().envs, resumed.options);
    agents::resume_training(*trainer, resumed, path);
    out = new TrainerHandle(std::move(trainer), resumed.options.agent, resumed.vary);
  });
  return out;
}

int TrainerHandle::advance(const std::string& target) {
  int out = -1;
  guarded([&] {
    const auto steps =
        static_cast<std::int64_t>(parse_integer(target, "--steps", agents::kTrainStepsRange));
    out = trainer_->advance(steps) ? 1 : 0;
  });
  return out;
}

std::string TrainerHandle::point_json() const {
  const agents::CurvePoint p =
      trainer_->curve().empty() ? trainer_->current() : trainer_->curve().back();
  return nlohmann::json{{"env_steps", p.env_steps},
                        {"episodes", p.episodes},
                        {"mean_return", p.mean_return},
                        {"mean_metric", p.mean_metric},
                        {"loss", p.loss}}
      .dump();
}

std::string TrainerHandle::progress_text(double total, double steps_per_second) const {
  const agents::CurvePoint p =
      trainer_->curve().empty() ? trainer_->current() : trainer_->curve().back();
  return agents::training_progress_text(agent_, p, static_cast<std::int64_t>(total),
                                        steps_per_second, trainer_->metric());
}

std::string TrainerHandle::summary_text(double new_steps, double seconds, const std::string& output,
                                        const std::string& curve) const {
  return agents::training_summary_text(agent_, *trainer_, static_cast<std::int64_t>(new_steps),
                                       seconds, output, curve);
}

std::string TrainerHandle::policy_text(double seconds) const {
  // One thread: the WebAssembly build steps its envs in turn (the same results as natively).
  return agents::trained_policy_text(*trainer_, vary_, 1, seconds);
}

std::string TrainerHandle::checkpoint_text() const {
  return trainer_->policy().to_json().dump() + "\n";
}

emscripten::val TrainerHandle::state_view() {
  state_ = agents::training_state(*trainer_, vary_);
  return view(std::span<const std::uint8_t>(state_));
}

std::string TrainerHandle::curve_csv() const {
  return agents::curve_csv(trainer_->metric(), trainer_->curve());
}

}  // namespace sysgym::wasm
