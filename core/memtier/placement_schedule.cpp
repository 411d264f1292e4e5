#include "memtier/placement_schedule.hpp"

#define LEMON_ONLY_TEMPLATES
#include <lemon/network_simplex.h>
#include <lemon/smart_graph.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "base/error.hpp"

namespace sysgym::memtier {
namespace {

using Graph = lemon::SmartDigraph;
using Solver = lemon::NetworkSimplex<Graph, std::int64_t, std::int64_t>;

constexpr double kUnitsPerEpisode = 68719476736.0;  // 2^36 units = the episode's all-DDR time

// One sampled (page, window) of the episode and the arcs that touch it.
struct Entry {
  std::uint32_t page = 0;
  std::uint32_t window = 0;
  double value_ms = 0;  // saving when the page is in HBM during the window
  int hold = -1;        // in -> out, earns value_ms
  int promote = -1;     // free chain -> in
  int link = -1;        // out -> the page's next entry: kept through idle windows
  int demote = -1;      // out -> free chain after the window
  int keep = -1;        // out -> the end: kept to the episode's end, no demotion
  int initial = -1;     // episode start -> in: placed free with the first placement, kept idle
};

struct Network {
  Graph graph;
  Graph::ArcMap<std::int64_t> capacity{graph};
  Graph::ArcMap<std::int64_t> cost{graph};
  int add(Graph::Node from, Graph::Node to, std::int64_t cap, std::int64_t units) {
    const Graph::Arc a = graph.addArc(from, to);
    capacity[a] = cap;
    cost[a] = units;
    return graph.id(a);
  }
};

std::vector<Entry> episode_entries(const PreparedPair& pair, const ScheduleProblem& p) {
  std::vector<Entry> entries;
  entries.reserve(pair.entry_offset[p.end] - pair.entry_offset[p.begin]);
  for (std::size_t w = p.begin; w < p.end; ++w) {
    const double gain = pair.saving_per_sample_ms(w);
    for (std::uint64_t e = pair.entry_offset[w]; e < pair.entry_offset[w + 1]; ++e) {
      Entry entry;
      entry.page = pair.entry_page[e];
      entry.window = static_cast<std::uint32_t>(w);
      entry.value_ms = gain * pair.entry_count(e);
      entries.push_back(entry);
    }
  }
  return entries;
}

double episode_ddr_ms(const PreparedPair& pair, const ScheduleProblem& p) {
  std::uint64_t ticks = 0;
  for (std::size_t w = p.begin; w < p.end; ++w)
    ticks += pair.ddr_ticks[w];
  return static_cast<double>(ticks) / pair.ticks_per_ms;
}

// Builds the network; returns the free chain's nodes (time points begin..end).
std::vector<Graph::Node> build(const PreparedPair& pair, const ScheduleProblem& p,
                               std::vector<Entry>& entries, Network& net) {
  const std::size_t steps = p.end - p.begin;
  double positive_ms = 0;
  for (const Entry& e : entries)
    positive_ms += std::max(0.0, e.value_ms);
  const double scale = kUnitsPerEpisode / std::max(episode_ddr_ms(pair, p), 1e-300);
  auto units = [&](double ms) { return static_cast<std::int64_t>(std::llround(ms * scale)); };
  // A paid move dearer than every saving together is never worth making: clamping it keeps the
  // optimum and the arithmetic far from overflow.
  const std::int64_t move = std::min(units(p.move_ms), units(positive_ms) + 1);
  const auto capacity = static_cast<std::int64_t>(p.slots);

  net.graph.reserveNode(static_cast<int>(steps + 1 + 2 * entries.size()));
  net.graph.reserveArc(static_cast<int>(steps + 6 * entries.size()));
  std::vector<Graph::Node> time(steps + 1);
  for (auto& node : time)
    node = net.graph.addNode();
  for (std::size_t t = 0; t < steps; ++t)
    net.add(time[t], time[t + 1], capacity, 0);

  std::vector<std::int64_t> last_of_page(pair.pages.size(), -1);
  std::vector<Graph::Node> out_nodes(entries.size());
  for (std::size_t k = 0; k < entries.size(); ++k) {
    Entry& e = entries[k];
    const std::size_t t = e.window - p.begin;
    const Graph::Node in = net.graph.addNode();
    const Graph::Node out = net.graph.addNode();
    out_nodes[k] = out;
    e.hold = net.add(in, out, 1, -units(e.value_ms));
    const std::int64_t previous = last_of_page[e.page];
    if (previous >= 0) {
      entries[static_cast<std::size_t>(previous)].link =
          net.add(out_nodes[static_cast<std::size_t>(previous)], in, 1, 0);
    }
    // A page's first promotion may come with the free initial placement, held idle until used.
    const bool free = p.free_first && t == 0;
    e.promote = net.add(time[t], in, 1, free ? 0 : move);
    if (p.free_first && t > 0 && previous < 0) e.initial = net.add(time[0], in, 1, 0);
    if (t + 1 < steps) e.demote = net.add(out, time[t + 1], 1, move);
    last_of_page[e.page] = static_cast<std::int64_t>(k);
  }
  for (std::size_t k = 0; k < entries.size(); ++k) {
    if (entries[k].link < 0) entries[k].keep = net.add(out_nodes[k], time[steps], 1, 0);
  }
  return time;
}

}  // namespace

PlacementSchedule optimal_schedule(const PreparedPair& pair, const ScheduleProblem& p) {
  if (p.begin >= p.end || p.end > pair.window_count())
    throw ConfigError("the schedule's windows [" + std::to_string(p.begin) + ", " +
                      std::to_string(p.end) + ") are not a range of the pair's " +
                      std::to_string(pair.window_count()) + " windows");
  std::vector<Entry> entries = episode_entries(pair, p);
  Network net;
  const std::vector<Graph::Node> time = build(pair, p, entries, net);
  Solver solver(net.graph);
  solver.upperMap(net.capacity)
      .costMap(net.cost)
      .stSupply(time.front(), time.back(), static_cast<std::int64_t>(p.slots));
  // Candidate lists pivoted fastest here (shipped traces and synthetic pairs up to 200 k samples).
  if (solver.run(Solver::CANDIDATE_LIST) != Solver::OPTIMAL)
    throw std::logic_error("the placement schedule's flow network has no optimum");

  auto used = [&](int arc) { return arc >= 0 && solver.flow(net.graph.arcFromId(arc)) > 0; };
  PlacementSchedule schedule;
  schedule.arcs = static_cast<std::size_t>(net.graph.arcNum());
  double saved_ms = 0;
  std::size_t moves = 0;
  // Each page's entries in window order, open = the hold running through them.
  std::vector<std::int64_t> open(pair.pages.size(), -1);
  for (const Entry& e : entries) {
    if (!used(e.hold)) continue;
    saved_ms += e.value_ms;
    std::int64_t& first = open[e.page];
    if (first < 0) {
      const bool free = used(e.initial) || (p.free_first && e.window == p.begin);
      moves += free ? 0 : 1;
      first = free ? static_cast<std::int64_t>(p.begin) : e.window;
    }
    if (used(e.link)) continue;
    const bool demoted = used(e.demote);
    moves += demoted ? 1 : 0;
    schedule.holds.push_back({e.page, static_cast<std::uint32_t>(first),
                              demoted ? e.window : static_cast<std::uint32_t>(p.end - 1)});
    first = -1;
  }
  std::sort(schedule.holds.begin(), schedule.holds.end(), [](const Hold& a, const Hold& b) {
    return a.first != b.first ? a.first < b.first : a.page < b.page;
  });
  schedule.total_ms = episode_ddr_ms(pair, p) - saved_ms + static_cast<double>(moves) * p.move_ms;
  return schedule;
}

}  // namespace sysgym::memtier
