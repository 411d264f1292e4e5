#include "tensorplace/machine.hpp"

namespace sysgym::tensorplace {

Machine::Machine(const Graph& graph, const Platform& platform, std::vector<Pool> initial,
                 bool track_heap)
    : graph_(graph),
      platform_(platform),
      initial_(std::move(initial)),
      where_(initial_),
      clean_(graph.tensors().size(), false),
      start_(initial_),
      track_heap_(track_heap),
      offset_(track_heap ? graph.tensors().size() : 0) {}

void Machine::enter_fast(std::uint32_t t) {
  fast_ += graph_.tensor(t).allocated_bytes();
  if (track_heap_) offset_[t] = heap_.allocate(graph_.tensor(t).allocated_bytes());
}

void Machine::leave_fast(std::uint32_t t) {
  fast_ -= graph_.tensor(t).allocated_bytes();
  if (track_heap_) heap_.release(offset_[t], graph_.tensor(t).allocated_bytes());
}

void Machine::begin_kernel(std::uint32_t k) {
  for (std::uint32_t t : graph_.born_at(k)) {
    where_[t] = initial_[t];
    clean_[t] = where_[t] == kSlow;
    if (where_[t] == kFast) enter_fast(t);
    if (graph_.tensor(t).role != Role::kIntermediate) start_[t] = initial_[t];
  }
}

double Machine::move_cost(std::uint32_t t, Pool to, bool async) {
  const auto bytes = graph_.tensor(t).bytes;
  if (to == kSlow && clean_[t]) return 0;
  (to == kFast ? bytes_to_fast_ : bytes_to_slow_) += bytes;
  const double bandwidth = to == kFast ? (async ? platform_.async_to_fast : platform_.sync_to_fast)
                                       : (async ? platform_.async_to_slow : platform_.sync_to_slow);
  return static_cast<double>(bytes) / bandwidth;
}

void Machine::place(std::uint32_t t, Pool to) {
  if (where_[t] == kFast) leave_fast(t);
  if (to == kFast) enter_fast(t);
  if (to == kSlow) clean_[t] = true;
  where_[t] = to;
}

double Machine::run_kernel(std::uint32_t k) {
  const double seconds = kernel_time(graph_, k, where_, platform_);
  for (std::uint32_t t : graph_.kernel(k).outputs)
    clean_[t] = clean_[t] && where_[t] == kSlow;
  return seconds;
}

void Machine::end_kernel(std::uint32_t k) {
  for (std::uint32_t t : graph_.dying_at(k)) {
    if (where_[t] == kFast) leave_fast(t);
  }
}

double Machine::return_persistent() {
  double seconds = 0;
  for (std::uint32_t t = 0; t < graph_.tensors().size(); ++t) {
    if (graph_.tensor(t).role == Role::kIntermediate || where_[t] == start_[t]) continue;
    seconds += move_cost(t, start_[t], false);
    place(t, start_[t]);
  }
  return seconds;
}

}  // namespace sysgym::tensorplace
