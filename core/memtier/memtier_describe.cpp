// memtier-v0's side of the generic env contract: what it tells generic code about itself
// (observation layout, episode summary, render frame) and its Placement directive. Its
// registration is memtier_family.cpp.
#include "base/error.hpp"
#include "base/units.hpp"
#include "memtier/hbm_ranges.hpp"
#include "memtier/memtier_env.hpp"

namespace sysgym::memtier {

std::vector<std::string> MemtierEnv::observation_layout() const {
  if (swaps_) return PageSwaps::observation_names();
  std::vector<std::string> names;
  const std::size_t b = config_.bins;
  for (std::size_t i = 0; i < b; ++i)
    names.push_back("hist[" + std::to_string(i) + "]");
  for (std::size_t i = 0; i < b; ++i)
    names.push_back("resident[" + std::to_string(i) + "]");
  for (std::size_t k = 1; k <= config_.history; ++k) {
    for (std::size_t i = 0; i < b; ++i) {
      names.push_back("hist_prev_" + std::to_string(k) + "[" + std::to_string(i) + "]");
    }
  }
  for (const char* scalar :
       {"free_capacity", "progress", "last_speedup", "last_duration", "capacity_share"}) {
    names.emplace_back(scalar);
  }
  return names;
}

EpisodeSummary MemtierEnv::summary() const {
  EpisodeSummary s = totals_;
  const double tpm = pair_->ticks_per_ms;
  s.ddr_ms = static_cast<double>(ddr_ticks_) / tpm;
  s.hbm_ms = static_cast<double>(hbm_ticks_) / tpm;
  s.estimated_ms = (static_cast<double>(static_cast<std::int64_t>(ddr_ticks_) - exact_saving_) -
                    partial_saving_) /
                   tpm;
  s.total_ms = s.estimated_ms + s.migration_ms;
  s.gap_closed = s.ddr_ms != s.hbm_ms ? (s.ddr_ms - s.total_ms) / (s.ddr_ms - s.hbm_ms) : 0.0;
  return s;
}

RenderFrame MemtierEnv::render_frame() const {
  RenderFrame f;
  f.window = static_cast<std::int64_t>(next_) - 1;
  f.histogram = histogram_;
  f.resident_fraction = resident_fraction_;
  f.resident = memory_.resident();
  f.t_ddr_ms = last_t_ddr_ms_;
  f.t_hbm_ms = last_t_hbm_ms_;
  f.window_ms = last_window_ms_;
  f.migration_ms = last_migration_ms_;
  f.hbm_used_bytes = memory_.used_bytes();
  return f;
}

std::optional<EntityLayout> MemtierEnv::entity_layout() const {
  if (swaps_) return std::nullopt;  // global features, no bins
  EntityLayout layout;
  layout.entity = "bin";
  layout.count = static_cast<int>(config_.bins);
  layout.channels = 2 + static_cast<int>(config_.history);
  layout.state_channel = 1;
  if (action_space().kind() == SpaceKind::kDiscrete) layout.verbs = {"promote", "demote"};
  return layout;
}

Frame MemtierEnv::frame() const {
  return {{"histogram", std::span<const std::uint32_t>(histogram_)},
          {"resident", std::span<const float>(resident_fraction_)}};
}

nlohmann::json MemtierEnv::frame_context() const {
  nlohmann::json bins = nlohmann::json::array();
  for (const Bin& b : bins_.bins()) {
    bins.push_back({{"lo", format_hex(b.ranges.front().lo)},
                    {"hi", format_hex(b.ranges.back().hi)},
                    {"bytes", b.bytes}});
  }
  return {{"bins", std::move(bins)}, {"start", begin_}, {"windows", end_ - begin_}};
}

std::unique_ptr<Directive> Placement::clone() const {
  return std::make_unique<Placement>(*this);
}

void Placement::record(nlohmann::json& step, const Directive* previous) const {
  const auto* before = dynamic_cast<const Placement*>(previous);
  if (before != nullptr && before->ranges == ranges) {
    step["same_ranges"] = true;  // placements often repeat: recorded once
    return;
  }
  nlohmann::json texts = nlohmann::json::array();
  for (const AddressRange& r : ranges)
    texts.push_back(format_hex(r.lo) + ":" + format_hex(r.hi));
  step["ranges"] = std::move(texts);
}

Env::StepOutcome MemtierEnv::on_directive(const Directive& directive) {
  const auto* placement = dynamic_cast<const Placement*>(&directive);
  if (placement == nullptr)
    throw ApiMisuseError(id() + " takes Placement directives only (page-granular ranges)");
  return place_ranges(placement->ranges);
}

bool MemtierEnv::read_directive(const nlohmann::json& step,
                                std::unique_ptr<Directive>& directive) const {
  if (step.value("same_ranges", false)) {
    if (dynamic_cast<const Placement*>(directive.get()) == nullptr)
      throw TraceFormatError("repeats no placement");
    return true;
  }
  if (!step.contains("ranges")) return false;
  auto placement = std::make_unique<Placement>();
  for (const auto& text : step.at("ranges"))
    placement->ranges.push_back(parse_address_range(text.get<std::string>()));
  directive = std::move(placement);
  return true;
}

}  // namespace sysgym::memtier
