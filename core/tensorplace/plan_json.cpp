#include "tensorplace/plan_json.hpp"

#include <unordered_map>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "base/units.hpp"
#include "env/config_reader.hpp"

namespace sysgym::tensorplace {
namespace {

constexpr const char* kFormat = "sysgym-tensorplace-plan";

// Tensors' or kernels' names to their indices, built once per plan read.
template <typename Named>
std::unordered_map<std::string, std::uint32_t> index_by_name(const std::vector<Named>& items) {
  std::unordered_map<std::string, std::uint32_t> out;
  for (std::uint32_t i = 0; i < items.size(); ++i)
    out.emplace(items[i].name, i);
  return out;
}

std::uint32_t named(const std::unordered_map<std::string, std::uint32_t>& index,
                    const nlohmann::json& name, const char* what, ConfigReader& reader,
                    std::string_view key) {
  if (!name.is_string()) reader.fail(key, std::string("names a ") + what + " with " + name.dump());
  const auto found = index.find(name.get<std::string>());
  if (found == index.end())
    reader.fail(
        key, std::string("names no ") + what + " of the graph: " + quote(name.get<std::string>()));
  return found->second;
}

}  // namespace

nlohmann::json plan_to_json(const Graph& graph, const Plan& plan, const nlohmann::json& about) {
  nlohmann::json slow = nlohmann::json::array();
  for (std::uint32_t t = 0; t < plan.initial.size(); ++t) {
    if (plan.initial[t] == kSlow) slow.push_back(graph.tensor(t).name);
  }
  nlohmann::json moves = nlohmann::json::array();
  for (const Move& m : plan.moves) {
    moves.push_back({{"kernel", graph.kernel(m.kernel).name},
                     {"tensor", graph.tensor(m.tensor).name},
                     {"to", m.to == kFast ? "fast" : "slow"},
                     {"async", m.async}});
  }
  nlohmann::json out = {{"format", kFormat},
                        {"version", 1},
                        {"model", graph.model()},
                        {"batch", graph.batch()},
                        {"tensors", graph.tensors().size()}};
  out.update(about);
  out["slow"] = std::move(slow);
  out["moves"] = std::move(moves);
  return out;
}

Plan plan_from_json(const nlohmann::json& j, const Graph& graph, const std::string& context) {
  ConfigReader reader(j, context);
  if (reader.string("format", "") != kFormat)
    reader.fail("format", std::string("must be \"") + kFormat + "\"");
  if (reader.integer("version", 0, 0, 1 << 20) != 1) reader.fail("version", "must be 1");
  const std::string model = reader.string("model", "");
  const auto batch = static_cast<std::uint32_t>(reader.integer("batch", 0, 0, 1 << 30));
  const auto tensors = static_cast<std::size_t>(reader.integer("tensors", 0, 0, 1LL << 40));
  if (model != graph.model() || batch != graph.batch() || tensors != graph.tensors().size()) {
    throw ConfigError(context + ": the plan is for " + quote(model) + " at batch " +
                      std::to_string(batch) + " (" + std::to_string(tensors) +
                      " tensors), not for this graph, " + quote(graph.model()) + " at batch " +
                      std::to_string(graph.batch()) + " (" +
                      std::to_string(graph.tensors().size()) + " tensors)");
  }
  // Written for people and checked by the env, not needed to follow the plan.
  for (const char* key : {"fast_limit_bytes", "variant", "iteration_ms", "platform", "status"})
    reader.raw(key);
  const auto tensor_index = index_by_name(graph.tensors());
  const auto kernel_index = index_by_name(graph.kernels());
  Plan plan = all_in(graph, kFast);
  if (const nlohmann::json* slow = reader.raw("slow")) {
    if (!slow->is_array()) reader.fail("slow", "must be a list of tensor names");
    for (const nlohmann::json& name : *slow)
      plan.initial[named(tensor_index, name, "tensor", reader, "slow")] = kSlow;
  }
  if (const nlohmann::json* moves = reader.raw("moves")) {
    if (!moves->is_array()) reader.fail("moves", "must be a list of moves");
    for (std::size_t i = 0; i < moves->size(); ++i) {
      ConfigReader move((*moves)[i], context + " move #" + std::to_string(i));
      Move m;
      const nlohmann::json* kernel = move.raw("kernel");
      const nlohmann::json* tensor = move.raw("tensor");
      for (const char* key : {"kernel", "tensor", "to"}) {
        if ((*moves)[i].is_object() && !(*moves)[i].contains(key)) move.fail(key, "is required");
      }
      m.kernel = named(kernel_index, *kernel, "kernel", move, "kernel");
      m.tensor = named(tensor_index, *tensor, "tensor", move, "tensor");
      m.to = move.choice("to", "fast", {"fast", "slow"}) == "fast" ? kFast : kSlow;
      m.async = move.boolean("async", false);
      move.finish();
      plan.moves.push_back(m);
    }
  }
  reader.finish();
  return plan;
}

Plan plan_for_limit(const nlohmann::json& j, const Graph& graph, std::uint64_t fast_limit,
                    const std::string& context) {
  Plan plan = plan_from_json(j, graph, context);
  const auto limit = j.value("fast_limit_bytes", fast_limit);
  if (limit != fast_limit)
    throw ConfigError(context + ": the plan is for " + format_bytes(limit) +
                      " of fast memory, the env has " + format_bytes(fast_limit) +
                      " (fast_memory=" + std::to_string(limit) + ")");
  return plan;
}

}  // namespace sysgym::tensorplace
