// A tensor computation as LoopTune tunes it (after loop_tool's loop trees): one output updated by
// the product of two inputs over named index variables, out[...] += a[...] * b[...] (read, mul,
// add, write), run by a nest of loops, outermost first.
//
// Each loop walks one variable. A variable split into several loops is walked by all of them:
// a loop steps by what the loops of the same variable inside it cover (its `step`; 1 for the
// innermost of its variable), `size` full steps and then a `tail` of elements (a partial step:
// the loops inside it cover only the tail). So a loop covers extent = size * step + tail
// elements, and the outermost loop of each variable covers the variable's whole range.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sysgym::looptune {

struct Var {
  std::string name;
  std::int64_t size = 1;
};

// A tensor's element is addressed by a linear combination of the variables (row-major layout
// folded in): stride[v] elements between consecutive values of variable v, 0 where v does not
// index it (a convolution's input row is h + kh: both strides are the row length).
struct Access {
  std::string name;
  std::vector<std::vector<std::uint32_t>> dims;  // each dimension's index: a sum of vars
  std::int64_t elements = 0;
  std::vector<std::int64_t> stride;  // one per var
};

// The access to a row-major tensor whose dimensions are indexed by sums of `vars` (indices into
// them): each dimension's size is what its sum reaches plus one.
Access make_access(std::string name, std::vector<std::vector<std::uint32_t>> dims,
                   const std::vector<Var>& vars);

struct Problem {
  std::string name;  // what made it: "matmul:128x192x64"
  std::vector<Var> vars;
  Access a;
  Access b;
  Access out;  // out[...] += a[...] * b[...] for every point of the iteration space
  // Throws ConfigError naming the problem: no vars, a size out of range, a stride list of the
  // wrong length, an access reaching past its tensor.
  void check() const;
  double flops() const;  // 2 per point: a multiply and an add
};

struct Loop {
  std::uint32_t var = 0;
  std::int64_t size = 1;  // full steps
  std::int64_t tail = 0;  // elements after them, fewer than a step
  bool unroll = false;    // annotations (actions.hpp); the executor and the model read them
  bool vectorize = false;
  bool operator==(const Loop&) const = default;
};

class LoopNest {
 public:
  // Throws ConfigError naming the loop at fault: an unknown var, a size below 1, a tail not below
  // the step, a var without a loop, a var's outermost loop not covering its range.
  LoopNest(std::shared_ptr<const Problem> problem, std::vector<Loop> loops);
  // One loop per var, in the problem's order: the untuned schedule every episode starts from.
  static LoopNest initial(std::shared_ptr<const Problem> problem);

  const Problem& problem() const { return *problem_; }
  const std::shared_ptr<const Problem>& problem_ptr() const { return problem_; }
  const std::vector<Loop>& loops() const { return loops_; }
  std::size_t size() const { return loops_.size(); }
  const Loop& loop(std::size_t i) const { return loops_.at(i); }
  // Elements of its var one step of loop i covers, and all its steps with the tail.
  std::int64_t step(std::size_t i) const { return steps_.at(i); }
  std::int64_t extent(std::size_t i) const;
  // Element distance in tensor `access` between consecutive steps of loop i.
  std::int64_t stride(const Access& access, std::size_t i) const;

  // Same loops (annotations included) and problem name: equal hashes (memoisation, recordings).
  std::uint64_t hash() const;
  bool operator==(const LoopNest& other) const { return loops_ == other.loops_; }
  // The nest as indented C-like code, `cursor` marked (-1: none).
  std::string to_text(int cursor = -1) const;

 private:
  std::shared_ptr<const Problem> problem_;
  std::vector<Loop> loops_;
  std::vector<std::int64_t> steps_;
};

// The loops as JSON: [{"var": "m", "size": 8, "tail": 0, "unroll": false, "vectorize": false}]
// (annotations only when set), and back; names the field at fault.
nlohmann::json loops_to_json(const LoopNest& nest);
LoopNest loops_from_json(std::shared_ptr<const Problem> problem, const nlohmann::json& j,
                         const std::string& context);

}  // namespace sysgym::looptune
