#include "agents/training_files.hpp"
#include "base/quote.hpp"

#include "base/append_format.hpp"
#include "base/error.hpp"
#include "base/json_text.hpp"
#include "profiling/ops.hpp"

namespace sysgym::agents {

std::vector<nlohmann::json> training_configs(const std::vector<nlohmann::json>& grid,
                                             std::size_t count) {
  std::vector<nlohmann::json> out;
  const std::size_t n = count > 0 ? count : grid.size();
  for (std::size_t k = 0; k < n; ++k)
    out.push_back(grid[k % grid.size()]);
  return out;
}

ResumedTraining read_training_state(std::span<const std::uint8_t> bytes, const std::string& path) {
  ResumedTraining out;
  out.state = parse_cbor(
      bytes, "--resume " + path + ": not a training state written by --checkpoint-every");
  try {
    out.options = Trainer::options_of_state(out.state);
    const nlohmann::json cli = out.state.value("cli", nlohmann::json::object());
    out.vary = cli.is_object() ? cli.value("vary", std::vector<std::string>{})
                               : std::vector<std::string>{};
  } catch (const ConfigError& e) {
    throw ConfigError("--resume " + path + ": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError("--resume " + path + ": " + e.what());
  }
  return out;
}

void resume_training(Trainer& trainer, const ResumedTraining& resumed, const std::string& path) {
  try {
    trainer.load_state(resumed.state);
  } catch (const ConfigError& e) {
    throw ConfigError("--resume " + path + ": " + e.what());
  }
}

std::vector<std::uint8_t> training_state(const Trainer& trainer,
                                         const std::vector<std::string>& vary) {
  const profiling::Scope save(profiling::ops::kTrainerSave);
  nlohmann::json state = trainer.state();
  state["cli"] = {{"vary", vary}};
  return nlohmann::json::to_cbor(state);
}

std::string trained_policy_text(const Trainer& trainer, const std::vector<std::string>& vary,
                                std::size_t threads, double seconds) {
  const profiling::Scope save(profiling::ops::kTrainerSave);
  PolicyFile policy = trainer.policy();
  policy.training["vary"] = vary;
  policy.training["threads"] = threads;
  policy.training["seconds"] = seconds;
  return policy.to_json().dump() + "\n";
}

std::string training_progress_text(const std::string& agent, const CurvePoint& p,
                                   std::int64_t total, double steps_per_second,
                                   const std::string& metric) {
  std::string out;
  append_format(out,
                "%s %lld/%lld steps (%.0f%%), %.0f steps/s, %lld episodes, return %.3f, %s %.4g, "
                "loss %.4g",
                agent.c_str(), static_cast<long long>(p.env_steps), static_cast<long long>(total),
                100.0 * static_cast<double>(p.env_steps) / static_cast<double>(total),
                steps_per_second, static_cast<long long>(p.episodes), p.mean_return,
                metric.empty() ? "metric" : metric.c_str(), p.mean_metric, p.loss);
  return out;
}

std::string curve_csv(const std::string& metric, const std::vector<CurvePoint>& curve) {
  std::string csv =
      "env_steps,episodes,mean_return,mean_" + (metric.empty() ? "metric" : metric) + ",loss\n";
  for (const CurvePoint& p : curve) {
    append_format(csv, "%lld,%lld,%.6f,%.6f,%.6g\n", static_cast<long long>(p.env_steps),
                  static_cast<long long>(p.episodes), p.mean_return, p.mean_metric, p.loss);
  }
  return csv;
}

std::string training_summary_text(const std::string& agent, const Trainer& trainer,
                                  std::int64_t new_steps, double seconds, const std::string& output,
                                  const std::string& curve) {
  std::string out;
  append_format(out, "trained %s for %lld env steps (%lld episodes) in %.1f s: %.0f steps/s\n",
                agent.c_str(), static_cast<long long>(trainer.env_steps()),
                static_cast<long long>(trainer.episodes()), seconds,
                static_cast<double>(new_steps) / seconds);
  append_format(out, "wrote %s%s%s\n", printable(output, 1024).c_str(),
                curve.empty() ? "" : " and ", printable(curve, 1024).c_str());
  return out;
}

}  // namespace sysgym::agents
