// One tensor's decisions in AutoTM's ILP, in its three variants.
//
// static: one binary x (1 = slow memory) for the tensor's whole life.
// sync, async: a flow of one unit through a layered network. A layer is a kernel where the
// tensor's state is observed: its users, the kernel after each user (where an eviction lands) and,
// for async, the kernels an overlapped move may use (1, 2, 4, 8 and `async_window` kernels after
// a user for an eviction, as many before a user for a fetch). States: slow (S); fast without a
// clean slow copy (Fd); fast with one (Fc). Between consecutive layers i and i+1, a binary edge
// per choice:
//   stay                       the state carries over (a kernel that writes the tensor turns Fc
//                              into Fd);
//   sync fetch   S  -> Fc      before layer i+1 when it is a user: bytes / sync_to_fast;
//   sync evict   Fd -> S       before layer i+1 when layer i is a user: bytes / sync_to_slow;
//                Fc -> S       the same, free (the slow copy is clean);
//   async fetch  S  -> Fc      overlapped with layer i's kernel when it is a fetch spot: bytes /
//                              async_to_fast counted in that kernel's time; the fast space is held
//                              from its start;
//   async evict  Fd -> S       overlapped with layer i's kernel when it is an eviction spot.
// The last layer's edges carry the state to the end of the tensor's life. A tensor that lives
// across iterations starts in S or Fd and pays, after the last kernel, to return where it started.
//
// Every choice is a move simulator.hpp executes with the same cost, so a solution's objective is
// the simulated time of the plan it describes.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tensorplace/graph.hpp"
#include "tensorplace/lp_builder.hpp"
#include "tensorplace/platform.hpp"
#include "tensorplace/simulator.hpp"

namespace sysgym::tensorplace {

enum class IlpVariant : std::uint8_t { kStatic, kSync, kAsync };
const char* variant_name(IlpVariant variant);
IlpVariant parse_variant(const std::string& text);  // UnknownNameError
std::vector<std::string> variant_names();

// What one tensor's decisions contribute to the rows ilp.cpp assembles.
struct TensorTerms {
  struct Span {
    std::uint32_t tensor = 0;
    std::uint32_t first = 0, last = 0;  // kernels
    LinearExpr fast;                    // the tensor's share in fast memory over them
  };
  // (tensor, user kernel) -> the tensor's share in slow memory while the kernel runs
  std::map<std::pair<std::uint32_t, std::uint32_t>, LinearExpr> slow_at;
  std::vector<Span> fast;
  std::map<std::uint32_t, LinearExpr> async_ms;  // kernel -> milliseconds of moves overlapped
};

class TensorFlow {
 public:
  // Adds the tensor's variables and flow rows to `lp`, and its synchronous moves' and return's
  // milliseconds to the objective.
  TensorFlow(const Graph& graph, const Platform& platform, std::uint32_t tensor, IlpVariant variant,
             LpBuilder& lp, TensorTerms& terms);

  // The tensor's initial pool and moves in a solution (values by variable name).
  void extract(const std::vector<std::string>& names, const std::map<std::string, double>& values,
               Plan& plan) const;
  // Values of the tensor's binaries that follow `moves` (the plan's moves of this tensor) from
  // `initial`; false when the plan moves it where this variant cannot.
  bool follow(Pool initial, const std::vector<Move>& moves, const std::vector<std::string>& names,
              std::map<std::string, double>& start) const;

 private:
  enum State : std::uint8_t { kS, kFd, kFc };
  enum class Kind : std::uint8_t { kStay, kSync, kAsync };
  struct Layer {
    std::uint32_t kernel = 0;
    bool user = false;
    bool writes = false;
    bool evict_spot = false;
    bool fetch_spot = false;
  };
  struct Edge {
    std::uint32_t layer = 0;  // from this layer to the next (the last layer's: to the end)
    State from = kS;
    State to = kS;
    Kind kind = Kind::kStay;
    std::uint32_t var = 0;
  };

  void build_static(LpBuilder& lp, TensorTerms& terms);
  void build_layers(IlpVariant variant);
  void build_edges(IlpVariant variant, LpBuilder& lp, TensorTerms& terms);
  void add_return_cost(LpBuilder& lp);
  double move_ms(State to, Kind kind) const;

  const Graph& graph_;
  const Platform& platform_;
  std::uint32_t tensor_;
  enum class Mode : std::uint8_t { kFixed, kStatic, kFlow } mode_ = Mode::kFlow;
  std::uint32_t x_ = 0;  // static: the binary
  std::vector<Layer> layers_;
  std::vector<Edge> edges_;  // by layer, then state
};

}  // namespace sysgym::tensorplace
