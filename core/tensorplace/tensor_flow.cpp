#include "tensorplace/tensor_flow.hpp"

#include <algorithm>
#include <set>

#include "base/error.hpp"
#include "base/names.hpp"

namespace sysgym::tensorplace {
namespace {


bool is_fast(std::uint8_t state) {
  return state != 0;
}

// By IlpVariant's value.
constexpr std::array<const char*, 3> kVariantNames = {"static", "sync", "async"};

bool chosen(const std::string& name, const std::map<std::string, double>& values) {
  const auto found = values.find(name);
  return found != values.end() && found->second >= 0.5;
}

}  // namespace

const char* variant_name(IlpVariant variant) {
  return kVariantNames.at(static_cast<std::size_t>(variant));
}

std::vector<std::string> variant_names() {
  return {kVariantNames.begin(), kVariantNames.end()};
}

IlpVariant parse_variant(const std::string& text) {
  const auto found = std::find(kVariantNames.begin(), kVariantNames.end(), text);
  if (found == kVariantNames.end())
    throw UnknownNameError(unknown_name_message("ILP variant", text, variant_names()));
  return static_cast<IlpVariant>(found - kVariantNames.begin());
}

TensorFlow::TensorFlow(const Graph& graph, const Platform& platform, std::uint32_t tensor,
                       IlpVariant variant, LpBuilder& lp, TensorTerms& terms)
    : graph_(graph), platform_(platform), tensor_(tensor) {
  const Tensor& t = graph.tensor(tensor);
  const Lifetime& life = graph.lifetime(tensor);
  if (!t.fast_allowed || !t.slow_allowed) {  // one pool: constants, nothing to decide
    mode_ = Mode::kFixed;
    for (std::uint32_t k : graph.users(tensor))
      terms.slow_at[{tensor, k}].constant = t.fast_allowed ? 0 : 1;
    if (t.fast_allowed) terms.fast.push_back({tensor, life.first, life.last, LinearExpr{1, {}}});
    return;
  }
  if (variant == IlpVariant::kStatic) {
    build_static(lp, terms);
    return;
  }
  build_layers(variant);
  build_edges(variant, lp, terms);
  if (t.role != Role::kIntermediate) add_return_cost(lp);
}

void TensorFlow::build_static(LpBuilder& lp, TensorTerms& terms) {
  mode_ = Mode::kStatic;
  x_ = lp.add_var(lp_name("x", tensor_), LpBuilder::Kind::kBinary);
  for (std::uint32_t k : graph_.users(tensor_))
    terms.slow_at[{tensor_, k}] = LinearExpr{0, {{x_, 1}}};
  const Lifetime& life = graph_.lifetime(tensor_);
  terms.fast.push_back({tensor_, life.first, life.last, LinearExpr{1, {{x_, -1}}}});
}

void TensorFlow::build_layers(IlpVariant variant) {
  const std::vector<std::uint32_t>& users = graph_.users(tensor_);
  const Lifetime& life = graph_.lifetime(tensor_);
  const std::uint32_t window = platform_.async_window;
  std::set<std::uint32_t> kernels(users.begin(), users.end());
  kernels.insert(life.first);
  const bool async = variant == IlpVariant::kAsync;
  for (std::uint32_t u : users) {
    if (u + 1 <= life.last) kernels.insert(u + 1);  // where an eviction after u lands
    if (!async) continue;
    for (std::uint32_t d : {2U, 4U, 8U, window}) {
      if (d <= window && u + d <= life.last) kernels.insert(u + d);
    }
    for (std::uint32_t d : {1U, 2U, 4U, 8U, window}) {
      if (d <= window && u >= life.first + d) kernels.insert(u - d);
    }
  }
  const std::set<std::uint32_t> user_set(users.begin(), users.end());
  for (std::uint32_t k : kernels) {
    Layer layer;
    layer.kernel = k;
    layer.user = user_set.count(k) != 0;
    const std::vector<std::uint32_t>& outputs = graph_.kernel(k).outputs;
    layer.writes = std::find(outputs.begin(), outputs.end(), tensor_) != outputs.end();
    if (async && !layer.user) {
      const auto next = std::upper_bound(users.begin(), users.end(), k);
      layer.fetch_spot = next != users.end() && *next - k <= window;
      layer.evict_spot = next != users.begin() && k - *(next - 1) <= window;
    }
    layers_.push_back(layer);
  }
}

double TensorFlow::move_ms(State to, Kind kind) const {
  const auto bytes = static_cast<double>(graph_.tensor(tensor_).bytes);
  if (to == kS)
    return bytes / (kind == Kind::kAsync ? platform_.async_to_slow : platform_.sync_to_slow) * kMsPerSecond;
  return bytes / (kind == Kind::kAsync ? platform_.async_to_fast : platform_.sync_to_fast) * kMsPerSecond;
}

void TensorFlow::build_edges(IlpVariant variant, LpBuilder& lp, TensorTerms& terms) {
  const Lifetime& life = graph_.lifetime(tensor_);
  const bool async = variant == IlpVariant::kAsync;
  std::array<LinearExpr, 3> incoming;  // flow into each state of the current layer
  std::array<bool, 3> reached = {true, true, false};
  LinearExpr start;  // the first layer's flow: one unit
  LinearExpr objective;
  for (std::uint32_t i = 0; i < layers_.size(); ++i) {
    const Layer& layer = layers_[i];
    const bool last = i + 1 == layers_.size();
    // The edge carries its state over kernels [layer.kernel, end].
    const std::uint32_t end = last ? life.last : layers_[i + 1].kernel - 1;
    std::array<LinearExpr, 3> outgoing;
    std::array<LinearExpr, 3> next_incoming;
    for (std::uint8_t s = kS; s <= kFc; ++s) {
      if (!reached[s]) continue;
      const auto from = static_cast<State>(s);
      const State after = from == kFc && layer.writes ? kFd : from;
      const auto add = [&](State to, Kind kind) {
        Edge edge{i, from, to, kind, 0};
        edge.var = lp.add_var(lp_name("e", tensor_, edges_.size()), LpBuilder::Kind::kBinary);
        outgoing[s].add(edge.var, 1);
        if (!last) next_incoming[to].add(edge.var, 1);
        // Fast memory held: the state during this layer's kernel; an async fetch holds its
        // target from the start; a sync move changes the state only at the next layer.
        const bool fast_now = is_fast(from) || (kind == Kind::kAsync && to != kS);
        const bool fast_after = kind == Kind::kAsync ? is_fast(to) : is_fast(after);
        if (fast_now) {
          terms.fast.push_back({tensor_, layer.kernel, fast_after ? end : layer.kernel, {}});
          terms.fast.back().fast.add(edge.var, 1);
        }
        if (kind == Kind::kSync && (to != kS || after == kFd))
          objective.add(edge.var, move_ms(to, kind));
        if (kind == Kind::kAsync) terms.async_ms[layer.kernel].add(edge.var, move_ms(to, kind));
        edges_.push_back(edge);
      };
      add(after, Kind::kStay);
      const bool next_user = !last && layers_[i + 1].user;
      if (after == kS && next_user) add(kFc, Kind::kSync);
      if (after == kS && async && layer.fetch_spot && !last) add(kFc, Kind::kAsync);
      if (after != kS && layer.user && !last) add(kS, Kind::kSync);
      if (after == kFd && async && layer.evict_spot) add(kS, Kind::kAsync);
      if (i == 0) start.add(outgoing[s], 1);
    }
    if (layer.user)
      terms.slow_at[{tensor_, layer.kernel}] = outgoing[kS];  // in slow memory while it runs
    for (std::uint8_t s = kS; s <= kFc; ++s) {
      if (i > 0 && reached[s]) {
        LinearExpr balance = incoming[s];
        balance.add(outgoing[s], -1);
        lp.add_row(lp_name("flow", tensor_, i, s), balance, "=", 0);
      }
      reached[s] = !next_incoming[s].terms.empty();
    }
    incoming = std::move(next_incoming);
  }
  lp.add_row(lp_name("start", tensor_), start, "=", 1);
  lp.minimise(objective);
}

// After the last kernel the tensor returns to where the iteration started it, synchronously:
// r >= write ms * (started slow + ended dirty in fast - 1), r >= read ms * (ended slow - started
// slow). Minimising r makes it the cost.
void TensorFlow::add_return_cost(LpBuilder& lp) {
  const std::uint32_t r = lp.add_var(lp_name("r", tensor_), LpBuilder::Kind::kContinuous);
  LinearExpr started_slow;
  LinearExpr ended_slow;
  LinearExpr ended_dirty;
  const std::uint32_t last = static_cast<std::uint32_t>(layers_.size() - 1);
  for (const Edge& edge : edges_) {
    if (edge.layer == 0 && edge.from == kS) started_slow.add(edge.var, 1);
    if (edge.layer != last) continue;
    if (edge.to == kS) ended_slow.add(edge.var, 1);
    if (edge.to == kFd) ended_dirty.add(edge.var, 1);
  }
  LinearExpr write{0, {{r, 1}}};
  write.add(started_slow, -move_ms(kS, Kind::kSync)).add(ended_dirty, -move_ms(kS, Kind::kSync));
  lp.add_row(lp_name("return_w", tensor_), write, ">=", -move_ms(kS, Kind::kSync));
  LinearExpr read{0, {{r, 1}}};
  read.add(ended_slow, -move_ms(kFc, Kind::kSync)).add(started_slow, move_ms(kFc, Kind::kSync));
  lp.add_row(lp_name("return_r", tensor_), read, ">=", 0);
  lp.minimise(LinearExpr{0, {{r, 1}}});
}

void TensorFlow::extract(const std::vector<std::string>& names,
                         const std::map<std::string, double>& values, Plan& plan) const {
  if (mode_ == Mode::kFixed) return;  // all_in() put it in its pool
  if (mode_ == Mode::kStatic) {
    plan.initial[tensor_] = chosen(names[x_], values) ? kSlow : kFast;
    return;
  }
  State state = kS;
  for (std::uint32_t i = 0; i < layers_.size(); ++i) {
    const auto taken = std::find_if(edges_.begin(), edges_.end(), [&](const Edge& e) {
      return e.layer == i && (i > 0 ? e.from == state : true) && chosen(names[e.var], values);
    });
    if (taken == edges_.end())
      throw Error("the ILP solution has no path for tensor " + graph_.tensor(tensor_).name);
    if (i == 0) plan.initial[tensor_] = taken->from == kS ? kSlow : kFast;
    const Pool to = taken->to == kS ? kSlow : kFast;
    if (taken->kind == Kind::kSync) plan.moves.push_back({layers_[i + 1].kernel, tensor_, to});
    if (taken->kind == Kind::kAsync) plan.moves.push_back({layers_[i].kernel, tensor_, to, true});
    state = taken->to;
  }
}

bool TensorFlow::follow(Pool initial, const std::vector<Move>& moves,
                        const std::vector<std::string>& names,
                        std::map<std::string, double>& start) const {
  if (mode_ == Mode::kFixed) return moves.empty();
  if (mode_ == Mode::kStatic) {
    start[names[x_]] = initial == kSlow ? 1 : 0;
    return moves.empty();
  }
  std::size_t used = 0;
  State state = initial == kSlow ? kS : kFd;
  for (std::uint32_t i = 0; i < layers_.size(); ++i) {
    const std::uint32_t next = i + 1 < layers_.size() ? layers_[i + 1].kernel : 0;
    Kind kind = Kind::kStay;
    Pool to = kFast;
    for (const Move& m : moves) {
      const bool here = m.async ? m.kernel == layers_[i].kernel : next != 0 && m.kernel == next;
      if (!here) continue;
      kind = m.async ? Kind::kAsync : Kind::kSync;
      to = m.to;
      ++used;
    }
    const auto taken = std::find_if(edges_.begin(), edges_.end(), [&](const Edge& e) {
      return e.layer == i && e.from == state && e.kind == kind &&
             (kind == Kind::kStay || (e.to == kS) == (to == kSlow));
    });
    if (taken == edges_.end()) return false;
    for (const Edge& e : edges_) {
      if (e.layer == i) start[names[e.var]] = &e == &*taken ? 1 : 0;
    }
    state = taken->to;
  }
  return used == moves.size();
}

}  // namespace sysgym::tensorplace
