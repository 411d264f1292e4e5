#include "inline/inline_env.hpp"

#include <algorithm>
#include <cstdlib>

#include "base/det_math.hpp"
#include "base/error.hpp"
#include "profiling/profiler.hpp"

namespace sysgym::inlining {
namespace {

const std::vector<std::string> kChannels = {"calls",
                                            "copies",
                                            "cost",
                                            "threshold",
                                            "constant_args",
                                            "simplified",
                                            "callee_ir",
                                            "sroa_savings",
                                            "load_elim",
                                            "recursive",
                                            "callee_bytes",
                                            "callee_static",
                                            "callee_calls_in",
                                            "callee_last_call",
                                            "callee_blocks",
                                            "callee_cond_blocks",
                                            "callee_loop_depth",
                                            "callee_calls_out",
                                            "callee_memory_ops",
                                            "caller_bytes",
                                            "caller_blocks",
                                            "caller_loop_depth",
                                            "caller_calls_out",
                                            "progress",
                                            "inlined_share",
                                            "inlined_bytes",
                                            "clang_Oz",
                                            "clang_O2"};
const std::vector<std::string> kInfoKeys = {"site", "action", "inlined", "sites"};

// log2(1 + n) / scale for a count (n < 0 counts as 0).
float lg(std::int64_t n, double scale) {
  return static_cast<float>(
      log2_1p_count(static_cast<std::uint64_t>(std::max<std::int64_t>(0, n))) / scale);
}

float share(double part, double whole) {
  return whole > 0 ? static_cast<float>(std::min(1.0, part / whole)) : 0.0f;
}

}  // namespace

InlineEnv::InlineEnv(const nlohmann::json& config, const DataSource& data)
    : InlineEnv(read_inline_config(config, data)) {}

InlineEnv::InlineEnv(InlineConfig config)
    : Env("inline-v0", Space::box({kChannels.size()}, -1.0f, 1.0f), Space::discrete(2), kInfoKeys),
      config_(std::move(config)),
      loaded_(config_.programs.front()) {}

nlohmann::json InlineEnv::facts() const {
  nlohmann::json f = {{"programs", config_.programs.size()}, {"baseline", config_.baseline}};
  if (config_.programs.size() == 1) {
    const Program& p = config_.programs.front()->program;
    f["program"] = p.name;
    f["sites"] = p.sites.size();
    f["functions"] = p.functions.size();
  }
  return f;
}

nlohmann::json InlineEnv::frame_context() const {
  if (!loaded_) return nlohmann::json::object();
  return {{"program", program().name},
          {"sites", program().sites.size()},
          {"functions", program().functions.size()}};
}

std::vector<std::string> InlineEnv::observation_layout() const {
  return kChannels;
}

std::vector<std::string> InlineEnv::report_columns() const {
  return {"score", "text_bytes", "instructions", "text_vs_Oz", "instructions_vs_O2", "inlined"};
}

std::size_t InlineEnv::current_site_index() const {
  const auto& order = loaded_->model.bottom_up_sites();
  if (step_ >= order.size()) throw ApiMisuseError("inline-v0: no site left to decide");
  return order[step_];
}

const CallSite& InlineEnv::current_site() const {
  return program().sites[current_site_index()];
}

double InlineEnv::cost(const Decisions& d) const {
  if (!loaded_) throw ApiMisuseError("inline-v0: cost() before the first reset()");
  if (d.size() != program().sites.size())
    throw ConfigError("inline-v0: " + std::to_string(d.size()) + " decisions for " +
                      std::to_string(program().sites.size()) + " sites");
  return relative_cost(
      loaded_->model,
      {config_.model, config_.objective, config_.size_weight, baseline_, config_.size_limit}, d);
}

void InlineEnv::on_reset(Rng& rng, const nlohmann::json& options) {
  if (!options.empty())
    throw ConfigError("inline-v0 reset options: none are taken, got " + options.dump());
  const auto& programs = config_.programs;
  loaded_ = programs.size() == 1 ? programs.front() : programs[rng.below(programs.size())];
  o2_ = loaded_->model.estimate(config_.model, decision_set(program(), "O2"));
  oz_ = loaded_->model.estimate(config_.model, decision_set(program(), "Oz"));
  baseline_ = config_.baseline == "O2" ? o2_
              : config_.baseline == "Oz"
                  ? oz_
                  : loaded_->model.estimate(config_.model, decision_set(program(), "never"));
  step_ = 0;
  inlined_ = 0;
  inlined_bytes_ = 0;
  decisions_.assign(program().sites.size(), false);
  score_ = config_.dense ? 1 - cost(decisions_) : 0;
  write_observation();
  write_info(-1);
}

InlineEnv::StepOutcome InlineEnv::on_step(std::span<const double> action) {
  static const profiling::Op cost_model("inline.cost_model", profiling::Category::kSimulation);
  static const profiling::Op observation("inline.observation", profiling::Category::kSimulation);
  const int a = static_cast<int>(action[0]);
  const CallSite& site = current_site();
  if (a == 1) {
    decisions_[loaded_->model.bottom_up_sites()[step_]] = true;
    ++inlined_;
    inlined_bytes_ += static_cast<double>(program().functions[site.callee].text_bytes);
  }
  ++step_;
  StepOutcome out;
  out.terminated = step_ == to_decide();
  if (config_.dense || out.terminated) {
    const profiling::Scope scope(cost_model);
    const double score = 1 - cost(decisions_);
    out.reward = config_.dense ? score - score_ : score;
    score_ = score;
  }
  const profiling::Scope scope(observation);
  write_observation();
  write_info(a);
  return out;
}

void InlineEnv::write_info(int action) {
  const std::span<double> info = info_buffer();
  info[0] = static_cast<double>(step_);
  info[1] = action;
  info[2] = static_cast<double>(inlined_);
  info[3] = static_cast<double>(to_decide());
}

void InlineEnv::write_observation() {
  const std::span<float> obs = observation_buffer();
  std::fill(obs.begin(), obs.end(), 0.0f);
  const Program& p = program();
  const double never_text = static_cast<double>(p.reference.at("never").text_bytes);
  const std::size_t sites = to_decide();
  obs[23] = share(static_cast<double>(step_), static_cast<double>(sites));
  obs[24] = share(static_cast<double>(inlined_), static_cast<double>(step_));
  obs[25] = share(inlined_bytes_, never_text);
  if (step_ >= sites) return;  // the last observation: no site left
  const CallSite& s = current_site();
  const Function& callee = p.functions[s.callee];
  const Function& caller = p.functions[s.caller];
  const auto f = [&](const char* name) { return count_of(s.features, name); };
  const auto prop = [](const Function& fn, const char* name) {
    return count_of(fn.properties, name);
  };
  const std::int64_t cost = f("Cost");
  obs[0] = lg(static_cast<std::int64_t>(s.calls), 32);
  obs[1] = lg(s.copies, 8);
  obs[2] = (cost < 0 ? -1.0f : 1.0f) * lg(std::llabs(cost), 16);
  obs[3] = lg(f("Threshold"), 16);
  obs[4] = static_cast<float>(std::min<std::int64_t>(f("NumConstantArgs"), 8)) / 8;
  obs[5] = lg(f("NumInstructionsSimplified"), 16);
  obs[6] = lg(f("NumInstructions"), 16);
  obs[7] = lg(f("SROACostSavings"), 16);
  obs[8] = lg(f("LoadEliminationCost"), 16);
  obs[9] = s.caller == s.callee ? 1.0f : 0.0f;
  obs[10] = lg(callee.text_bytes, 20);
  obs[11] = callee.local ? 1.0f : 0.0f;
  obs[12] = lg(callee.calls_in, 16);
  obs[13] = callee.local && callee.calls_in == s.copies && prop(callee, "Uses") == callee.calls_in
                ? 1.0f
                : 0.0f;
  obs[14] = lg(prop(callee, "BasicBlockCount"), 16);
  obs[15] = lg(prop(callee, "BlocksReachedFromConditionalInstruction"), 16);
  obs[16] = static_cast<float>(std::min<std::int64_t>(prop(callee, "MaxLoopDepth"), 8)) / 8;
  obs[17] = lg(prop(callee, "DirectCallsToDefinedFunctions"), 16);
  obs[18] = lg(prop(callee, "LoadInstCount") + prop(callee, "StoreInstCount"), 16);
  obs[19] = lg(caller.text_bytes, 20);
  obs[20] = lg(prop(caller, "BasicBlockCount"), 16);
  obs[21] = static_cast<float>(std::min<std::int64_t>(prop(caller, "MaxLoopDepth"), 8)) / 8;
  obs[22] = lg(prop(caller, "DirectCallsToDefinedFunctions"), 16);
  // clang's own decisions for the site, as MLGO gives its policy `inlining_default`: known when
  // the site is compiled, and the baseline a policy has to improve on.
  obs[26] = s.oz ? 1.0f : 0.0f;
  obs[27] = s.o2 ? 1.0f : 0.0f;
}

nlohmann::json InlineEnv::assess(const Decisions& d) const {
  const double cost_of_d = cost(d);  // checks the size and that a program is loaded
  const Estimate e = loaded_->model.estimate(config_.model, d);
  return {{"score", 1 - cost_of_d},
          {"text_bytes", e.text_bytes},
          {"instructions", e.instructions},
          {"text_vs_Oz", e.text_bytes / oz_.text_bytes},
          {"instructions_vs_O2", e.instructions / o2_.instructions},
          {"inlined", std::count(d.begin(), d.end(), true)}};
}

nlohmann::json InlineEnv::episode_summary() const {
  if (decisions_.empty()) return nlohmann::json::object();  // before the first reset
  nlohmann::json summary = assess(decisions_);
  // A final-reward episode is scored once every site is decided.
  if (step_ != to_decide() && !config_.dense) summary["score"] = 0.0;
  summary["decided"] = step_;
  summary["sites"] = to_decide();
  return summary;
}

}  // namespace sysgym::inlining
