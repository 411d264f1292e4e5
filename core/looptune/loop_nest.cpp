#include "looptune/loop_nest.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "env/config_reader.hpp"
#include "looptune/limits.hpp"

namespace sysgym::looptune {
namespace {

void check_access(const Problem& p, const Access& access) {
  const std::string where = "problem " + quote(p.name) + ": tensor " + quote(access.name);
  if (access.stride.size() != p.vars.size())
    throw ConfigError(where + " has " + std::to_string(access.stride.size()) + " strides for " +
                      std::to_string(p.vars.size()) + " variables");
  if (access.elements < 1 || access.elements > kMaxElements)
    throw ConfigError(where + " has " + std::to_string(access.elements) + " elements, not 1 to " +
                      std::to_string(kMaxElements));
  std::int64_t last = 0;  // the farthest element any point reaches
  for (std::size_t v = 0; v < p.vars.size(); ++v) {
    if (access.stride[v] < 0) throw ConfigError(where + ": a negative stride");
    last += access.stride[v] * (p.vars[v].size - 1);
  }
  if (last >= access.elements)
    throw ConfigError(where + ": the iteration space reaches element " + std::to_string(last) +
                      " of " + std::to_string(access.elements));
}

std::string loop_label(const Problem& p, const std::vector<Loop>& loops, std::size_t i) {
  const std::uint32_t v = loops[i].var;
  return "loop " + std::to_string(i) + " (" +
         (v < p.vars.size() ? quote(p.vars[v].name) : "var #" + std::to_string(v)) + ")";
}

}  // namespace

Access make_access(std::string name, std::vector<std::vector<std::uint32_t>> dims,
                   const std::vector<Var>& vars) {
  Access a{std::move(name), std::move(dims), 1, std::vector<std::int64_t>(vars.size(), 0)};
  for (std::size_t d = a.dims.size(); d-- > 0;) {
    std::int64_t size = 1;
    for (std::uint32_t v : a.dims[d]) {
      a.stride.at(v) += a.elements;
      size += vars.at(v).size - 1;
    }
    // Saturates past the limit, so that check() names the tensor instead of overflowing.
    a.elements = a.elements > kMaxElements / size ? kMaxElements + 1 : a.elements * size;
  }
  return a;
}

void Problem::check() const {
  if (vars.empty() || vars.size() > kMaxVars)
    throw ConfigError("problem " + quote(name) + ": 1 to " + std::to_string(kMaxVars) +
                      " variables, got " + std::to_string(vars.size()));
  for (const Var& v : vars) {
    if (v.size < 1 || v.size > kMaxVarSize)
      throw ConfigError("problem " + quote(name) + ": variable " + quote(v.name) + " has size " +
                        std::to_string(v.size) + ", not 1 to " + std::to_string(kMaxVarSize));
  }
  for (const Access* access : {&a, &b, &out})
    check_access(*this, *access);
}

double Problem::flops() const {
  double points = 1;
  for (const Var& v : vars)
    points *= static_cast<double>(v.size);
  return 2 * points;
}

LoopNest::LoopNest(std::shared_ptr<const Problem> problem, std::vector<Loop> loops)
    : problem_(std::move(problem)), loops_(std::move(loops)), steps_(loops_.size(), 1) {
  const Problem& p = *problem_;
  // Innermost first: each loop steps by what the loops of its var below it cover.
  std::vector<std::int64_t> covered(p.vars.size(), 0);
  for (std::size_t i = loops_.size(); i-- > 0;) {
    const Loop& l = loops_[i];
    if (l.var >= p.vars.size())
      throw ConfigError(loop_label(p, loops_, i) + ": the problem has " +
                        std::to_string(p.vars.size()) + " variables");
    if (l.size < 1 || l.size > kMaxVarSize)
      throw ConfigError(loop_label(p, loops_, i) + ": size " + std::to_string(l.size) +
                        " is not 1 to " + std::to_string(kMaxVarSize));
    steps_[i] = covered[l.var] == 0 ? 1 : covered[l.var];
    if (l.tail < 0 || l.tail >= steps_[i])
      throw ConfigError(loop_label(p, loops_, i) + ": tail " + std::to_string(l.tail) +
                        " is not below its step " + std::to_string(steps_[i]));
    covered[l.var] = l.size * steps_[i] + l.tail;
  }
  for (std::size_t v = 0; v < p.vars.size(); ++v) {
    if (covered[v] != p.vars[v].size)
      throw ConfigError("variable " + quote(p.vars[v].name) + ": its loops cover " +
                        std::to_string(covered[v]) + " of " + std::to_string(p.vars[v].size));
  }
}

LoopNest LoopNest::initial(std::shared_ptr<const Problem> problem) {
  std::vector<Loop> loops;
  for (std::uint32_t v = 0; v < problem->vars.size(); ++v)
    loops.push_back({v, problem->vars[v].size, 0});
  return LoopNest(std::move(problem), std::move(loops));
}

std::int64_t LoopNest::extent(std::size_t i) const {
  return loops_.at(i).size * steps_.at(i) + loops_[i].tail;
}

std::int64_t LoopNest::stride(const Access& access, std::size_t i) const {
  return access.stride.at(loops_.at(i).var) * steps_[i];
}

std::uint64_t LoopNest::hash() const {
  std::vector<std::int64_t> words;
  for (const Loop& l : loops_) {
    words.insert(words.end(), {static_cast<std::int64_t>(l.var), l.size, l.tail,
                               (l.unroll ? 1 : 0) + (l.vectorize ? 2 : 0)});
  }
  const std::uint64_t seed = XXH3_64bits(problem_->name.data(), problem_->name.size());
  return XXH3_64bits_withSeed(words.data(), words.size() * sizeof(std::int64_t), seed);
}

std::string LoopNest::to_text(int cursor) const {
  const Problem& p = *problem_;
  std::string out;
  std::string indent;
  for (std::size_t i = 0; i < loops_.size(); ++i) {
    const Loop& l = loops_[i];
    out += indent + "for " + p.vars[l.var].name + " in " + std::to_string(l.size);
    if (l.tail > 0) out += " r " + std::to_string(l.tail);
    if (steps_[i] > 1) out += " (step " + std::to_string(steps_[i]) + ")";
    if (l.unroll) out += " unroll";
    if (l.vectorize) out += " vectorize";
    out += static_cast<int>(i) == cursor ? ":  <- cursor\n" : ":\n";
    indent += "  ";
  }
  out += indent + p.out.name + " += " + p.a.name + " * " + p.b.name + "\n";
  return out;
}

nlohmann::json loops_to_json(const LoopNest& nest) {
  nlohmann::json out = nlohmann::json::array();
  for (const Loop& l : nest.loops()) {
    nlohmann::json j = {
        {"var", nest.problem().vars[l.var].name}, {"size", l.size}, {"tail", l.tail}};
    if (l.unroll) j["unroll"] = true;
    if (l.vectorize) j["vectorize"] = true;
    out.push_back(std::move(j));
  }
  return out;
}

LoopNest loops_from_json(std::shared_ptr<const Problem> problem, const nlohmann::json& j,
                         const std::string& context) {
  if (!j.is_array()) throw ConfigError(context + ": the loops are a JSON array");
  if (j.size() > kMaxLoopsLimit)
    throw ConfigError(context + ": " + std::to_string(j.size()) + " loops, at most " +
                      std::to_string(kMaxLoopsLimit));
  std::vector<std::string> names;
  for (const Var& v : problem->vars)
    names.push_back(v.name);
  std::vector<Loop> loops;
  for (std::size_t i = 0; i < j.size(); ++i) {
    ConfigReader r(j[i], context + " loop " + std::to_string(i));
    Loop l;
    if (r.raw("var") == nullptr) r.fail("var", "is missing (one of the problem's variables)");
    const std::string var = r.choice("var", "", names);
    l.var = static_cast<std::uint32_t>(std::find(names.begin(), names.end(), var) - names.begin());
    l.size = r.integer("size", 1, 1, kMaxVarSize);
    l.tail = r.integer("tail", 0, 0, kMaxVarSize);
    l.unroll = r.boolean("unroll", false);
    l.vectorize = r.boolean("vectorize", false);
    r.finish();
    loops.push_back(l);
  }
  return LoopNest(std::move(problem), std::move(loops));
}

}  // namespace sysgym::looptune
