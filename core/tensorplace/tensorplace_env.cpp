#include "tensorplace/tensorplace_env.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "profiling/profiler.hpp"
#include "tensorplace/simulator.hpp"

namespace sysgym::tensorplace {
namespace {

constexpr int kChannels = 8;
constexpr int kGlobals = 3;
constexpr const char* kChannelNames[kChannels] = {"present", "in_fast",  "size", "output",
                                                  "newborn", "next_use", "dies", "share"};
const std::vector<std::string> kInfoKeys = {
    "kernel", "step_ms", "kernel_ms", "move_ms", "fast_bytes", "refused_bytes", "evicted_bytes"};
constexpr double kNextUseScale = 64;  // kernels: "soon" is within a few dozen

bool born_here(const Graph& g, std::uint32_t t, std::uint32_t k) {
  return g.tensor(t).role == Role::kIntermediate && g.lifetime(t).first == k;
}

}  // namespace

TensorplaceEnv::TensorplaceEnv(const nlohmann::json& config, const DataSource& data)
    : TensorplaceEnv(read_tensorplace_config(config, data)) {}

TensorplaceEnv::TensorplaceEnv(TensorplaceConfig config)
    : Env("tensorplace-v0",
          Space::box({std::size_t{config.slots} * kChannels + kGlobals}, 0.0f, 1.0f),
          Space::multi_binary(config.slots), kInfoKeys),
      config_(std::move(config)) {
  const Graph& g = *config_.graph;
  all_fast_s_ = all_fast_seconds(g, config_.platform);
  all_slow_s_ = all_slow_seconds(g, config_.platform);
}

nlohmann::json TensorplaceEnv::facts() const {
  const Graph& g = graph();
  nlohmann::json facts = {{"model", g.model()},
                          {"batch", g.batch()},
                          {"kernels", g.kernels().size()},
                          {"tensors", g.tensors().size()},
                          {"peak_live_bytes", g.peak_live_bytes()},
                          {"fast_limit_bytes", config_.fast_limit},
                          {"parameter_bytes", g.bytes_of(Role::kParameter)},
                          {"platform", config_.platform.name},
                          {"all_fast_ms", all_fast_s_ * 1e3},
                          {"all_slow_ms", all_slow_s_ * 1e3}};
  if (config_.ilp_seconds) facts["ilp_ms"] = *config_.ilp_seconds * 1e3;
  return facts;
}

std::vector<std::string> TensorplaceEnv::observation_layout() const {
  std::vector<std::string> names;
  for (const char* channel : kChannelNames) {
    for (std::uint32_t i = 0; i < config_.slots; ++i)
      names.push_back(std::string(channel) + "[" + std::to_string(i) + "]");
  }
  names.insert(names.end(), {"fast_used", "progress", "compute_bound"});
  return names;
}

std::optional<EntityLayout> TensorplaceEnv::entity_layout() const {
  EntityLayout layout;
  layout.entity = "operand";
  layout.count = static_cast<int>(config_.slots);
  layout.channels = kChannels;
  layout.state_channel = 1;
  return layout;
}

std::vector<std::string> TensorplaceEnv::report_columns() const {
  if (config_.ilp_seconds) {
    return {"iteration_ms", "slowdown",      "gap_closed",   "ilp_gap_closed",
            "move_ms",      "bytes_to_fast", "refused_bytes"};
  }
  return {"iteration_ms", "slowdown", "gap_closed", "move_ms", "bytes_to_fast", "refused_bytes"};
}

nlohmann::json TensorplaceEnv::episode_summary() const {
  const double iteration = kernel_s_ + move_s_;
  const double gap = all_slow_s_ - all_fast_s_;
  nlohmann::json summary = {{"iteration_ms", iteration * 1e3},
                            {"all_fast_ms", all_fast_s_ * 1e3},
                            {"all_slow_ms", all_slow_s_ * 1e3},
                            {"slowdown", all_fast_s_ > 0 ? iteration / all_fast_s_ : 1.0},
                            {"gap_closed", gap > 0 ? (all_slow_s_ - iteration) / gap : 0.0},
                            {"kernel_ms", kernel_s_ * 1e3},
                            {"move_ms", move_s_ * 1e3},
                            {"bytes_to_fast", machine_ ? machine_->bytes_to_fast() : 0},
                            {"bytes_to_slow", machine_ ? machine_->bytes_to_slow() : 0},
                            {"refused_bytes", refused_},
                            {"evicted_bytes", evicted_},
                            {"kernels_run", kernel_}};
  if (config_.ilp_seconds) {
    // The gap closed measured against the ILP's plan instead of all-fast memory: 1 = as fast.
    const double ilp = *config_.ilp_seconds;
    summary["ilp_ms"] = ilp * 1e3;
    summary["ilp_gap_closed"] =
        all_slow_s_ > ilp ? (all_slow_s_ - iteration) / (all_slow_s_ - ilp) : 0.0;
  }
  return summary;
}

std::uint32_t TensorplaceEnv::next_use(std::uint32_t t, std::uint32_t k) const {
  const std::vector<std::uint32_t>& users = graph().users(t);
  const auto it = std::upper_bound(users.begin(), users.end(), k);
  return it == users.end() ? static_cast<std::uint32_t>(graph().kernels().size()) : *it;
}

void TensorplaceEnv::on_reset(Rng&, const nlohmann::json& options) {
  if (!options.empty())
    throw ConfigError("tensorplace-v0 reset options: none are taken, got " + options.dump());
  const std::vector<Pool> start = start_pools();
  starting_fast_ = 0;
  for (std::uint32_t t = 0; t < start.size(); ++t)
    starting_fast_ += start[t] == kFast ? graph().tensor(t).allocated_bytes() : 0;
  machine_ = std::make_unique<Machine>(graph(), config_.platform, start);
  kernel_ = 0;
  kernel_s_ = move_s_ = 0;
  refused_ = evicted_ = 0;
  prepare_slots();
  write_observation();
  std::fill(info_buffer().begin(), info_buffer().end(), 0.0);
}

std::vector<Pool> TensorplaceEnv::start_pools() const {
  const Graph& g = graph();
  std::vector<Pool> pools(g.tensors().size(), kSlow);
  if (!config_.start_fast) return pools;
  std::vector<std::uint32_t> persistent;
  for (std::uint32_t t = 0; t < g.tensors().size(); ++t) {
    if (g.tensor(t).role != Role::kIntermediate && g.tensor(t).fast_allowed && !g.users(t).empty())
      persistent.push_back(t);
  }
  std::stable_sort(persistent.begin(), persistent.end(), [&g](std::uint32_t a, std::uint32_t b) {
    return g.users(a).front() < g.users(b).front();
  });
  std::uint64_t used = 0;
  for (std::uint32_t t : persistent) {
    if (used + g.tensor(t).allocated_bytes() > config_.fast_limit) break;
    used += g.tensor(t).allocated_bytes();
    pools[t] = kFast;
  }
  return pools;
}

void TensorplaceEnv::prepare_slots() {
  slot_tensors_.clear();
  if (kernel_ >= graph().kernels().size()) return;
  const Kernel& k = graph().kernel(kernel_);
  for (std::size_t i = 0; i < k.operand_count() && slot_tensors_.size() < config_.slots; ++i) {
    const std::uint32_t t = k.operand(i);
    if (std::find(slot_tensors_.begin(), slot_tensors_.end(), t) == slot_tensors_.end())
      slot_tensors_.push_back(t);
  }
}

double TensorplaceEnv::evict_for(std::uint64_t needed, std::uint32_t k) {
  const Graph& g = graph();
  const Kernel& kernel = g.kernel(k);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> candidates;  // (next use, tensor)
  for (std::uint32_t t = 0; t < g.tensors().size(); ++t) {
    const Lifetime& life = g.lifetime(t);
    const bool live = life.last >= k && (g.tensor(t).role != Role::kIntermediate || life.first < k);
    if (!live || machine_->where(t) != kFast) continue;
    const bool operand =
        std::find(kernel.inputs.begin(), kernel.inputs.end(), t) != kernel.inputs.end() ||
        std::find(kernel.outputs.begin(), kernel.outputs.end(), t) != kernel.outputs.end();
    if (!operand) candidates.emplace_back(next_use(t, k), t);
  }
  std::sort(candidates.rbegin(), candidates.rend());
  double seconds = 0;
  std::uint64_t freed = 0;
  for (const auto& [use, t] : candidates) {
    if (freed >= needed) break;
    seconds += machine_->move_cost(t, kSlow, false);
    machine_->place(t, kSlow);
    freed += g.tensor(t).allocated_bytes();
    evicted_ += g.tensor(t).bytes;
  }
  return seconds;
}

TensorplaceEnv::StepOutcome TensorplaceEnv::on_step(std::span<const double> action) {
  // The step's own time is the placement; the kernel's timing and the next observation nest in it.
  static const profiling::Op placement("tensorplace.placement", profiling::Category::kSimulation);
  static const profiling::Op timing("tensorplace.kernel_timing", profiling::Category::kSimulation);
  const profiling::Scope scope(placement);
  const Graph& g = graph();
  const std::uint32_t k = kernel_;
  // What the action asks: newborn outputs in fast memory, slow operands copied in.
  std::vector<std::uint32_t> wanted;
  std::uint64_t wanted_bytes = 0;
  for (std::size_t i = 0; i < slot_tensors_.size(); ++i) {
    const std::uint32_t t = slot_tensors_[i];
    const bool fast = action[i] > 0.5;
    const bool placeable = born_here(g, t, k) || (config_.moves && machine_->where(t) == kSlow);
    if (fast && g.tensor(t).fast_allowed && placeable) {
      wanted.push_back(t);
      wanted_bytes += g.tensor(t).allocated_bytes();
    }
  }
  // Before kernel 0 the tensors that start in fast memory are not placed yet: count them.
  const std::uint64_t pending = k == 0 ? starting_fast_ : 0;
  double move = 0;
  if (config_.moves && machine_->fast_bytes() + pending + wanted_bytes > config_.fast_limit) {
    const std::uint64_t over = machine_->fast_bytes() + pending + wanted_bytes - config_.fast_limit;
    move += evict_for(over, k);
  }
  // What still does not fit stays in slow memory, the largest first.
  std::sort(wanted.begin(), wanted.end(), [&g](std::uint32_t a, std::uint32_t b) {
    return g.tensor(a).allocated_bytes() < g.tensor(b).allocated_bytes();
  });
  const std::uint64_t used = machine_->fast_bytes() + pending;
  std::uint64_t room = config_.fast_limit - std::min(config_.fast_limit, used);
  std::uint64_t refused = 0;
  std::vector<std::uint32_t> granted;
  for (std::uint32_t t : wanted) {
    const std::uint64_t bytes = g.tensor(t).allocated_bytes();
    if (bytes <= room) {
      room -= bytes;
      granted.push_back(t);
    } else {
      refused += g.tensor(t).bytes;
    }
  }
  for (std::uint32_t t : granted) {
    if (born_here(g, t, k)) machine_->set_birth_pool(t, kFast);
  }
  machine_->begin_kernel(k);
  for (std::uint32_t t : granted) {
    if (machine_->where(t) == kSlow) {
      move += machine_->move_cost(t, kFast, false);
      machine_->place(t, kFast);
    }
  }
  double kernel = 0;
  {
    const profiling::Scope timed(timing);
    kernel = machine_->run_kernel(k);
  }
  // Operands marked 0 leave fast memory after the kernel.
  for (std::size_t i = 0; config_.moves && i < slot_tensors_.size(); ++i) {
    const std::uint32_t t = slot_tensors_[i];
    if (action[i] <= 0.5 && machine_->where(t) == kFast && g.lifetime(t).last > k) {
      move += machine_->move_cost(t, kSlow, false);
      machine_->place(t, kSlow);
    }
  }
  return finish_kernel(kernel, move, refused);
}

TensorplaceEnv::StepOutcome TensorplaceEnv::finish_kernel(double kernel, double move,
                                                          std::uint64_t refused) {
  const std::uint32_t k = kernel_;
  machine_->end_kernel(k);
  ++kernel_;
  const bool last = kernel_ == graph().kernels().size();
  if (last) move += machine_->return_persistent();
  kernel_s_ += kernel;
  move_s_ += move;
  refused_ += refused;
  static const profiling::Op observation("tensorplace.observation",
                                         profiling::Category::kSimulation);
  {
    const profiling::Scope scope(observation);
    prepare_slots();
    write_observation();
  }
  const std::span<double> info = info_buffer();
  info[0] = k;
  info[1] = (kernel + move) * 1e3;
  info[2] = kernel * 1e3;
  info[3] = move * 1e3;
  info[4] = static_cast<double>(machine_->fast_bytes());
  info[5] = static_cast<double>(refused);
  info[6] = static_cast<double>(evicted_);
  StepOutcome out;
  out.reward = all_fast_s_ > 0 ? -(kernel + move) / all_fast_s_ : 0.0;
  out.terminated = last;
  return out;
}

void TensorplaceEnv::write_observation() {
  const std::span<float> obs = observation_buffer();
  std::fill(obs.begin(), obs.end(), 0.0f);
  const Graph& g = graph();
  const std::size_t slots = config_.slots;
  const double limit = static_cast<double>(std::max<std::uint64_t>(config_.fast_limit, 1));
  if (kernel_ < g.kernels().size()) {
    const Kernel& kernel = g.kernel(kernel_);
    double operand_bytes = 0;
    for (std::uint32_t t : slot_tensors_)
      operand_bytes += static_cast<double>(g.tensor(t).bytes);
    for (std::size_t i = 0; i < slot_tensors_.size(); ++i) {
      const std::uint32_t t = slot_tensors_[i];
      const auto bytes = static_cast<double>(g.tensor(t).bytes);
      const bool output =
          std::find(kernel.outputs.begin(), kernel.outputs.end(), t) != kernel.outputs.end();
      const double next = next_use(t, kernel_) - kernel_;
      const float values[kChannels] = {
          1.0f,
          machine_->where(t) == kFast && !born_here(g, t, kernel_) ? 1.0f : 0.0f,
          static_cast<float>(std::min(1.0, bytes / limit)),
          output ? 1.0f : 0.0f,
          born_here(g, t, kernel_) ? 1.0f : 0.0f,
          static_cast<float>(std::min(1.0, next / kNextUseScale)),
          g.lifetime(t).last == kernel_ && g.tensor(t).role == Role::kIntermediate ? 1.0f : 0.0f,
          static_cast<float>(operand_bytes > 0 ? bytes / operand_bytes : 0.0)};
      for (int c = 0; c < kChannels; ++c)
        obs[static_cast<std::size_t>(c) * slots + i] = values[c];
    }
    const double all_fast = kernel_time(g, kernel_, 0U, config_.platform);
    const double compute = kernel.flops / config_.platform.peak_flops;
    obs[slots * kChannels + 2] = static_cast<float>(all_fast > 0 ? compute / all_fast : 0.0);
  }
  obs[slots * kChannels] =
      static_cast<float>(std::min(1.0, static_cast<double>(machine_->fast_bytes()) / limit));
  obs[slots * kChannels + 1] =
      static_cast<float>(static_cast<double>(kernel_) / static_cast<double>(g.kernels().size()));
}

}  // namespace sysgym::tensorplace
