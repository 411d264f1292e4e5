#include "looptune/problems.hpp"

#include <algorithm>
#include <optional>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "base/rng.hpp"
#include "base/text_scan.hpp"
#include "env/config_reader.hpp"
#include "looptune/limits.hpp"

namespace sysgym::looptune {
namespace {

constexpr const char* kFormat = "sysgym-looptune-problem";

using Dims = std::vector<std::vector<std::uint32_t>>;

// "128x192x64" as `count` sizes; throws naming the spec.
std::vector<std::int64_t> sizes_of(const std::string& spec, const std::string& text,
                                   std::size_t count, const char* form) {
  std::vector<std::int64_t> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t x = text.find('x', start);
    const std::string part = text.substr(start, x == std::string::npos ? x : x - start);
    std::uint64_t value = 0;
    if (!parse_decimal(part, value))
      throw ConfigError("kernel " + quote(spec) + ": " + quote(part) + " is not a size (" + form +
                        ")");
    if (value < 1 || value > static_cast<std::uint64_t>(kMaxVarSize))
      throw ConfigError("kernel " + quote(spec) + ": size " + part + " is not 1 to " +
                        std::to_string(kMaxVarSize));
    out.push_back(static_cast<std::int64_t>(value));
    if (x == std::string::npos) break;
    start = x + 1;
  }
  if (out.size() != count)
    throw ConfigError("kernel " + quote(spec) + ": " + std::to_string(out.size()) + " sizes, " +
                      form + " takes " + std::to_string(count));
  return out;
}

std::shared_ptr<const Problem> make(std::string name, std::vector<Var> vars, const Dims& a,
                                    const Dims& b, const Dims& out, const char* names[3]) {
  auto p = std::make_shared<Problem>();
  p->name = std::move(name);
  p->vars = std::move(vars);
  p->a = make_access(names[0], a, p->vars);
  p->b = make_access(names[1], b, p->vars);
  p->out = make_access(names[2], out, p->vars);
  p->check();
  return p;
}

std::shared_ptr<const Problem> matmul(const std::string& spec, const std::string& sizes) {
  const auto s = sizes_of(spec, sizes, 3, "matmul:MxNxK");
  enum : std::uint32_t { m, n, k };
  const char* names[3] = {"A", "B", "C"};
  return make(spec, {{"m", s[0]}, {"n", s[1]}, {"k", s[2]}}, {{m}, {k}}, {{k}, {n}}, {{m}, {n}},
              names);
}

std::shared_ptr<const Problem> conv3x3(const std::string& spec, const std::string& sizes) {
  const auto s = sizes_of(spec, sizes, 5, "conv3x3:NxCxKxHxW");
  enum : std::uint32_t { n, k, h, w, c, r, q };
  const char* names[3] = {"in", "w", "out"};
  return make(spec,
              {{"n", s[0]}, {"k", s[2]}, {"h", s[3]}, {"w", s[4]}, {"c", s[1]}, {"r", 3}, {"s", 3}},
              {{n}, {c}, {h, r}, {w, q}}, {{k}, {c}, {r}, {q}}, {{n}, {k}, {h}, {w}}, names);
}

Dims dims_from_json(const nlohmann::json& j, const std::vector<Var>& vars,
                    const std::string& context) {
  if (!j.is_array() || j.empty())
    throw ConfigError(context + ": 'dims' is a non-empty list of lists of variable names");
  Dims dims;
  for (const nlohmann::json& dim : j) {
    if (!dim.is_array() || dim.empty())
      throw ConfigError(context + ": each dimension is a non-empty list of variable names");
    std::vector<std::uint32_t> sum;
    for (const nlohmann::json& name : dim) {
      const auto it = std::find_if(vars.begin(), vars.end(), [&](const Var& v) {
        return name.is_string() && v.name == name.get<std::string>();
      });
      if (it == vars.end()) throw UnknownNameError(context + ": unknown variable " + name.dump());
      sum.push_back(static_cast<std::uint32_t>(it - vars.begin()));
    }
    dims.push_back(std::move(sum));
  }
  return dims;
}

nlohmann::json dims_to_json(const Access& a, const std::vector<Var>& vars) {
  nlohmann::json dims = nlohmann::json::array();
  for (const auto& dim : a.dims) {
    nlohmann::json names = nlohmann::json::array();
    for (std::uint32_t v : dim)
      names.push_back(vars[v].name);
    dims.push_back(std::move(names));
  }
  return {{"name", a.name}, {"dims", std::move(dims)}};
}

// LoopTune's 90/10 split, which the random sets use too: a problem is held out when a hash of its
// sizes falls in one tenth.
bool held_out_by_hash(std::uint64_t key) {
  return derive_seed(key, 19) % 10 == 0;
}

// Sizes drawn uniformly, any integer in range: the held-out sets probe sizes off LoopTune's grid
// of multiples of 16 (and above its 256), where a policy trained on the grid alone faltered.
// Each draw's spec and a key of its sizes; a draw repeated keeps its first place.
struct RandomDraw {
  std::string spec;
  std::uint64_t key = 0;
};

std::int64_t draw_size(Rng& rng, std::int64_t lo, std::int64_t hi) {
  return lo + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(hi - lo + 1)));
}

// M, N and K each 16 to 512. A draw on LoopTune's grid (each 64 to 256, a multiple of 16) is
// skipped, so that matmul-test stays unseen by a policy trained on matmul-random-train.
std::optional<RandomDraw> random_matmul(Rng& rng) {
  const std::int64_t m = draw_size(rng, 16, 512);
  const std::int64_t n = draw_size(rng, 16, 512);
  const std::int64_t k = draw_size(rng, 16, 512);
  const auto on_grid = [](std::int64_t s) { return s >= 64 && s <= 256 && s % 16 == 0; };
  if (on_grid(m) && on_grid(n) && on_grid(k)) return std::nullopt;
  return RandomDraw{
      "matmul:" + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k),
      static_cast<std::uint64_t>((m * 1000 + n) * 1000 + k)};
}

// Batch 1, channels in and out 16 to 512, an image 16 to 64 on each side. The image stops at 64
// because a convolution's work grows with all four: at 512 channels both ways a 64 x 64 image is
// 19 GFLOP, about 40 s for one run of its untuned nest here, and one run is what measuring costs.
std::optional<RandomDraw> random_convolution(Rng& rng) {
  const std::int64_t c = draw_size(rng, 16, 512);
  const std::int64_t k = draw_size(rng, 16, 512);
  const std::int64_t h = draw_size(rng, 16, 64);
  const std::int64_t w = draw_size(rng, 16, 64);
  return RandomDraw{"conv3x3:1x" + std::to_string(c) + "x" + std::to_string(k) + "x" +
                        std::to_string(h) + "x" + std::to_string(w),
                    static_cast<std::uint64_t>(((c * 1000 + k) * 1000 + h) * 1000 + w)};
}

// A fixed number of draws from a fixed seed, split 90/10 by a hash of the sizes as LoopTune's
// sets are: 2,000 matmuls (about 200 held out) or 400 convolutions (about 40).
std::vector<std::string> random_set(bool matmul, bool test) {
  const std::uint64_t draws = matmul ? 2000 : 400;
  Rng rng(derive_seed(matmul ? 0x6d61746d756cULL : 0x636f6e76ULL, 16512));
  std::vector<std::string> out;
  std::vector<std::uint64_t> keys;
  for (std::uint64_t i = 0; i < draws; ++i) {
    const std::optional<RandomDraw> d = matmul ? random_matmul(rng) : random_convolution(rng);
    if (!d || std::find(keys.begin(), keys.end(), d->key) != keys.end()) continue;
    keys.push_back(d->key);
    if (held_out_by_hash(d->key) == test) out.push_back(d->spec);
  }
  return out;
}

}  // namespace

std::shared_ptr<const Problem> problem_from_spec(const std::string& spec) {
  const std::size_t colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  const std::string sizes = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (kind == "matmul") return matmul(spec, sizes);
  if (kind == "conv3x3") return conv3x3(spec, sizes);
  throw UnknownNameError("kernel " + quote(spec) +
                         ": not matmul:MxNxK or conv3x3:NxCxKxHxW (or a problem JSON file)");
}

std::shared_ptr<const Problem> problem_from_json(const nlohmann::json& j,
                                                 const std::string& context) {
  ConfigReader r(j, context);
  if (r.choice("format", "", {kFormat}) != kFormat || r.integer("version", 0, 1, 1) != 1)
    throw ConfigError(context + ": not a " + std::string(kFormat) + " version 1 file");
  auto p = std::make_shared<Problem>();
  p->name = r.string("name", "imported");
  const nlohmann::json* vars = r.raw("vars");
  if (vars == nullptr || !vars->is_array())
    throw ConfigError(context + ": 'vars' is a list of {\"name\", \"size\"}");
  for (std::size_t i = 0; i < vars->size(); ++i) {
    ConfigReader v((*vars)[i], context + " var " + std::to_string(i));
    Var var{v.string("name", ""), v.integer("size", 1, 1, kMaxVarSize)};
    v.finish();
    if (var.name.empty()) throw ConfigError(context + " var " + std::to_string(i) + ": no name");
    for (const Var& other : p->vars) {
      if (other.name == var.name)
        throw ConfigError(context + ": variable " + quote(var.name) + " declared twice");
    }
    p->vars.push_back(std::move(var));
  }
  if (p->vars.empty() || p->vars.size() > kMaxVars)
    throw ConfigError(context + ": 1 to " + std::to_string(kMaxVars) + " variables");
  for (const char* which : {"a", "b", "out"}) {
    const nlohmann::json* t = r.raw(which);
    const std::string where = context + " '" + which + "'";
    if (t == nullptr) throw ConfigError(where + " is missing");
    ConfigReader tr(*t, where);
    const std::string name = tr.string("name", which);
    const nlohmann::json* dims = tr.raw("dims");
    tr.finish();
    Access access =
        make_access(name, dims_from_json(dims ? *dims : nlohmann::json(), p->vars, where), p->vars);
    (std::string(which) == "a" ? p->a : std::string(which) == "b" ? p->b : p->out) = access;
  }
  r.finish();
  p->check();
  return p;
}

nlohmann::json problem_to_json(const Problem& p) {
  nlohmann::json vars = nlohmann::json::array();
  for (const Var& v : p.vars)
    vars.push_back({{"name", v.name}, {"size", v.size}});
  return {{"format", kFormat},
          {"version", 1},
          {"name", p.name},
          {"vars", std::move(vars)},
          {"a", dims_to_json(p.a, p.vars)},
          {"b", dims_to_json(p.b, p.vars)},
          {"out", dims_to_json(p.out, p.vars)}};
}

const std::vector<std::string>& problem_set_names() {
  static const std::vector<std::string> names = {
      "matmul-train",        "matmul-test",        "conv-train",        "conv-test",
      "matmul-random-train", "matmul-random-test", "conv-random-train", "conv-random-test"};
  return names;
}

std::vector<std::string> problem_set(const std::string& name) {
  std::vector<std::string> out;
  const bool test = name.ends_with("-test");
  if (name == "matmul-random-train" || name == "matmul-random-test") return random_set(true, test);
  if (name == "conv-random-train" || name == "conv-random-test") return random_set(false, test);
  if (name == "matmul-train" || name == "matmul-test") {
    for (int m = 64; m <= 256; m += 16) {
      for (int n = 64; n <= 256; n += 16) {
        for (int k = 64; k <= 256; k += 16) {
          const std::uint64_t key = (static_cast<std::uint64_t>(m) * 1000 + n) * 1000 + k;
          if (held_out_by_hash(key) == test)
            out.push_back(std::string("matmul:") + std::to_string(m) + "x" + std::to_string(n) +
                          "x" + std::to_string(k));
        }
      }
    }
  } else if (name == "conv-train" || name == "conv-test") {
    // Batch 1, channels in and out 8 to 64, square images 8 to 32: LoopTune's convolution sizes.
    for (int c : {8, 16, 32, 64}) {
      for (int k : {8, 16, 32, 64}) {
        for (int hw : {8, 16, 24, 32}) {
          const std::uint64_t key = (static_cast<std::uint64_t>(c) * 1000 + k) * 1000 + hw;
          if (held_out_by_hash(key) == test)
            out.push_back(std::string("conv3x3:1x") + std::to_string(c) + "x" + std::to_string(k) +
                          "x" + std::to_string(hw) + "x" + std::to_string(hw));
        }
      }
    }
  }
  return out;
}

}  // namespace sysgym::looptune
