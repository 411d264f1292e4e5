#include "memtier/capture/timing_model.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "base/names.hpp"

namespace sysgym::capture {
namespace {

const std::vector<TimingModel>& models() {
  static const std::vector<TimingModel> all = {
      {"knl", 1.4, 1.0, 10.0, 64.0, {130.0, 90.0}, {150.0, 400.0}},
      {"cxl", 2.5, 0.8, 10.0, 32.0, {250.0, 64.0}, {100.0, 300.0}},
  };
  return all;
}

}  // namespace

double TimingModel::miss_ns(const MemoryTiming& memory, double line_bytes) const {
  return std::max(memory.latency_ns / mlp, line_bytes * threads / memory.bandwidth_gbps);
}

const TimingModel& timing_model(std::string_view name) {
  for (const TimingModel& m : models()) {
    if (m.name == name) return m;
  }
  throw UnknownNameError(unknown_name_message("timing model", name, timing_model_names()));
}

std::vector<std::string> timing_model_names() {
  std::vector<std::string> names;
  for (const TimingModel& m : models())
    names.push_back(m.name);
  return names;
}

}  // namespace sysgym::capture
