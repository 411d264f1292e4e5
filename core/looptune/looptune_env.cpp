#include "looptune/looptune_env.hpp"

#include <algorithm>
#include <cmath>

#include "base/det_math.hpp"
#include "base/error.hpp"
#include "profiling/profiler.hpp"

namespace sysgym::looptune {
namespace {

constexpr int kGlobals = 3;
constexpr int kBuckets = 16;
const std::vector<std::string> kInfoKeys = {"legal",  "gflops",     "loops",
                                            "cursor", "legal_mask", "action"};

std::vector<std::string> channel_names() {
  std::vector<std::string> names = {"is_cursor", "is_loop", "log_size", "log_tail"};
  for (int b = 0; b < kBuckets; ++b)
    names.push_back("stride_hist" + std::to_string(b));
  return names;
}

// 0 for stride 0, else 1 + floor(log2(stride)), at most 15 (integer arithmetic: the same in every
// build).
int stride_bucket(std::int64_t stride) {
  int bucket = 0;
  for (std::int64_t s = stride; s > 0 && bucket < kBuckets - 1; s >>= 1)
    ++bucket;
  return bucket;
}

// log2(n) for n >= 1 with det_math's series (libm's log2 differs between builds in the last bit).
double log2_count(double n) {
  return log2_1p_count(static_cast<std::uint64_t>(n) - 1);
}

}  // namespace

LooptuneEnv::LooptuneEnv(const nlohmann::json& config, const DataSource& data)
    : LooptuneEnv(read_looptune_config(config, data)) {}

LooptuneEnv::LooptuneEnv(LooptuneConfig config)
    : Env("looptune-v0", Space::box({config.max_loops * kLoopChannels + kGlobals}, 0.0f, 1.0f),
          Space::discrete(kActionCount), kInfoKeys),
      config_(std::move(config)) {}

nlohmann::json LooptuneEnv::facts() const {
  nlohmann::json f = {{"problems", config_.problems.size()},
                      {"reward", config_.measure ? "measure" : "model"},
                      {"model_peak_gflops", config_.model.peak_gflops()}};
  if (config_.problems.size() == 1) {
    f["kernel"] = config_.problems.front()->name;
    f["gflop"] = config_.problems.front()->flops() * 1e-9;
  }
  return f;
}

std::vector<std::string> LooptuneEnv::observation_layout() const {
  std::vector<std::string> names;
  for (const std::string& channel : channel_names()) {
    for (std::size_t i = 0; i < config_.max_loops; ++i)
      names.push_back(channel + "[" + std::to_string(i) + "]");
  }
  names.insert(names.end(), {"progress", "gflops_share", "log_flops"});
  return names;
}

std::vector<std::string> LooptuneEnv::report_columns() const {
  return {"best_gflops", "best_speedup", "final_gflops",
          "speedup",     "start_gflops", "illegal_actions"};
}

nlohmann::json LooptuneEnv::episode_summary() const {
  return {{"start_gflops", start_gflops_},
          {"final_gflops", gflops_},
          {"best_gflops", best_gflops_},
          {"speedup", start_gflops_ > 0 ? gflops_ / start_gflops_ : 0.0},
          {"best_speedup", start_gflops_ > 0 ? best_gflops_ / start_gflops_ : 0.0},
          {"best_step", best_step_},
          {"illegal_actions", illegal_},
          {"steps", steps_}};
}

double LooptuneEnv::gflops(const LoopNest& nest) const {
  if (config_.measure) return measurer_.measure(nest, config_.annotations).best_gflops;
  return config_.model.gflops(nest, config_.annotations);
}

double LooptuneEnv::peak_gflops() const {
  if (!config_.measure) return config_.model.peak_gflops();
  if (!peak_) peak_ = probe_peak_gflops();
  return *peak_;
}

std::optional<Schedule> LooptuneEnv::after(const Schedule& s, Action a) const {
  // Without annotations the executor decides the micro-kernels: the annotation actions do nothing.
  if (!config_.annotations && (a == Action::kUnroll || a == Action::kVectorize))
    return std::nullopt;
  return apply(s, a, config_.max_loops);
}

void LooptuneEnv::on_reset(Rng& rng, const nlohmann::json& options) {
  if (!options.empty())
    throw ConfigError("looptune-v0 reset options: none are taken, got " + options.dump());
  const auto& problems = config_.problems;
  const auto& problem =
      problems.size() == 1 ? problems.front() : problems[rng.below(problems.size())];
  schedule_ = Schedule{LoopNest::initial(problem), 0};
  steps_ = illegal_ = 0;
  start_gflops_ = gflops_ = best_gflops_ = gflops(schedule_->nest);
  best_ = schedule_->nest;
  best_step_ = 0;
  write_observation();
  write_info(true, -1);
}

LooptuneEnv::StepOutcome LooptuneEnv::on_step(std::span<const double> action) {
  static const profiling::Op transform("looptune.transform", profiling::Category::kSimulation);
  static const profiling::Op reward("looptune.gflops", profiling::Category::kSimulation);
  static const profiling::Op observation("looptune.observation", profiling::Category::kSimulation);
  const auto a = static_cast<Action>(static_cast<int>(action[0]));
  std::optional<Schedule> next;
  {
    const profiling::Scope scope(transform);
    next = after(a);
  }
  const bool legal = next.has_value();
  const double before = gflops_;
  if (legal) {
    schedule_ = std::move(next);
    const profiling::Scope scope(reward);
    gflops_ = gflops(schedule_->nest);
    if (gflops_ > best_gflops_) {
      best_gflops_ = gflops_;
      best_ = schedule_->nest;
      best_step_ = steps_ + 1;
    }
  } else {
    ++illegal_;
  }
  ++steps_;
  {
    const profiling::Scope scope(observation);
    write_observation();
    write_info(legal, static_cast<int>(a));
  }
  StepOutcome out;
  out.reward = (gflops_ - before) / peak_gflops();
  out.truncated = steps_ >= config_.episode_length;
  return out;
}

void LooptuneEnv::write_info(bool legal, int action) {
  double mask = 0;
  for (int a = 0; a < kActionCount; ++a)
    mask += after(static_cast<Action>(a)) ? std::ldexp(1.0, a) : 0.0;
  const std::span<double> info = info_buffer();
  info[0] = legal ? 1 : 0;
  info[1] = gflops_;
  info[2] = static_cast<double>(schedule_->nest.size());
  info[3] = schedule_->cursor;
  info[4] = mask;
  info[5] = action;
}

// Written when asked, not every step: training never reads it (zeros before the first reset).
Frame LooptuneEnv::frame() const {
  loops_frame_.assign(config_.max_loops * 5, 0);
  const std::size_t shown = schedule_ ? std::min(schedule_->nest.size(), config_.max_loops) : 0;
  for (std::size_t i = 0; i < shown; ++i) {
    const Loop& l = schedule_->nest.loop(i);
    const std::array<std::uint32_t, 5> row = {l.var + 1, static_cast<std::uint32_t>(l.size),
                                              static_cast<std::uint32_t>(l.tail),
                                              l.unroll ? 1u : 0u, l.vectorize ? 1u : 0u};
    std::copy(row.begin(), row.end(), loops_frame_.begin() + static_cast<std::ptrdiff_t>(i * 5));
  }
  return {{"loops", std::span<const std::uint32_t>(loops_frame_)}};
}

nlohmann::json LooptuneEnv::frame_context() const {
  const Problem& p = schedule_->nest.problem();
  nlohmann::json vars = nlohmann::json::array();
  for (const Var& v : p.vars)
    vars.push_back({{"name", v.name}, {"size", v.size}});
  return {{"kernel", p.name},
          {"start_gflops", start_gflops_},
          {"vars", vars},
          {"tensors", {p.a.name, p.b.name, p.out.name}},
          {"max_loops", config_.max_loops}};
}

void LooptuneEnv::write_observation() {
  const std::span<float> obs = observation_buffer();
  std::fill(obs.begin(), obs.end(), 0.0f);
  const LoopNest& nest = schedule_->nest;
  const Problem& p = nest.problem();
  const std::size_t rows = config_.max_loops;
  const double points = p.flops() / 2;
  double around = 1;  // trips of the loops outside and including loop i
  for (std::size_t i = 0; i < nest.size() && i < rows; ++i) {
    const Loop& l = nest.loop(i);
    around *= static_cast<double>(l.size + (l.tail > 0 ? 1 : 0));
    const auto at = [&](int channel) -> float& {
      return obs[static_cast<std::size_t>(channel) * rows + i];
    };
    at(0) = static_cast<int>(i) == schedule_->cursor ? 1.0f : 0.0f;
    at(1) = 1.0f;
    at(2) = static_cast<float>(log2_count(static_cast<double>(l.size)) / 16);
    at(3) = static_cast<float>(log2_1p_count(static_cast<std::uint64_t>(l.tail)) / 16);
    const float weight = static_cast<float>(std::min(1.0, around / points) / 3);
    for (const Access* t : {&p.a, &p.b, &p.out})
      at(4 + stride_bucket(nest.stride(*t, i))) += weight;
  }
  obs[rows * kLoopChannels] =
      static_cast<float>(static_cast<double>(steps_) / static_cast<double>(config_.episode_length));
  obs[rows * kLoopChannels + 1] = static_cast<float>(std::min(1.0, gflops_ / peak_gflops()));
  constexpr double kLog10Of2 = 0.30102999566398119521;
  obs[rows * kLoopChannels + 2] =
      static_cast<float>(std::min(1.0, log2_count(p.flops()) * kLog10Of2 / 12));
}

}  // namespace sysgym::looptune
