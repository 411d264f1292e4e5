#include "tensorplace/graph_json.hpp"

#include <unordered_map>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "env/config_reader.hpp"

namespace sysgym::tensorplace {
namespace {

constexpr std::int64_t kMaxBytes = std::int64_t{1} << 50;  // a PiB: far beyond any one tensor
constexpr std::int64_t kMaxBatch = std::int64_t{1} << 20;

const nlohmann::json& required(ConfigReader& reader, std::string_view key) {
  const nlohmann::json* value = reader.raw(key);
  if (value == nullptr) reader.fail(key, "is required");
  return *value;
}

std::vector<std::string> string_list(ConfigReader& reader, std::string_view key, bool needed) {
  const nlohmann::json* value = reader.raw(key);
  if (value == nullptr) {
    if (needed) reader.fail(key, "is required");
    return {};
  }
  if (!value->is_array()) reader.fail(key, "must be a list of names");
  std::vector<std::string> out;
  for (const nlohmann::json& item : *value) {
    if (!item.is_string()) reader.fail(key, "must be a list of names, got " + item.dump());
    out.push_back(item.get<std::string>());
  }
  return out;
}

Tensor read_tensor(const nlohmann::json& j, const std::string& context) {
  ConfigReader reader(j, context);
  Tensor t;
  const nlohmann::json& name = required(reader, "name");
  if (!name.is_string()) reader.fail("name", "must be a string");
  t.name = name.get<std::string>();
  ConfigReader named(j, context + " " + quote(t.name));
  named.raw("name");
  if (named.raw("bytes") == nullptr) named.fail("bytes", "is required");
  t.bytes = static_cast<std::uint64_t>(named.integer("bytes", 1, 1, kMaxBytes));
  t.role = parse_role(named.string("role", "intermediate"), named.context());
  const nlohmann::json* pools = named.raw("pools");
  if (pools != nullptr) {
    t.fast_allowed = t.slow_allowed = false;
    for (const std::string& pool : string_list(named, "pools", true)) {
      if (pool == "fast")
        t.fast_allowed = true;
      else if (pool == "slow")
        t.slow_allowed = true;
      else
        named.fail("pools", "holds " + quote(pool) + ": pools are \"fast\" and \"slow\"");
    }
  }
  named.finish();
  return t;
}

std::vector<std::uint32_t> operands(ConfigReader& reader, std::string_view key,
                                    const std::unordered_map<std::string, std::uint32_t>& index) {
  std::vector<std::uint32_t> out;
  for (const std::string& name : string_list(reader, key, false)) {
    const auto found = index.find(name);
    if (found == index.end())
      reader.fail(key, "names unknown tensor " + quote(name) + " (not in \"tensors\")");
    out.push_back(found->second);
  }
  return out;
}

Kernel read_kernel(const nlohmann::json& j, std::size_t position,
                   const std::unordered_map<std::string, std::uint32_t>& index) {
  ConfigReader first(j, "graph kernel #" + std::to_string(position));
  const nlohmann::json& name = required(first, "name");
  if (!name.is_string()) first.fail("name", "must be a string");
  Kernel k;
  k.name = name.get<std::string>();
  ConfigReader reader(j, "graph kernel " + quote(k.name));
  reader.raw("name");
  k.op = reader.string("op", "");
  k.inputs = operands(reader, "inputs", index);
  k.outputs = operands(reader, "outputs", index);
  const bool has_flops = reader.raw("flops") != nullptr;
  k.flops = reader.number("flops", 0, 0, 1e30);
  if (const nlohmann::json* times = reader.raw("times")) {
    if (!times->is_array()) reader.fail("times", "must be a list of seconds");
    for (const nlohmann::json& t : *times) {
      if (!t.is_number()) reader.fail("times", "must be a list of seconds, got " + t.dump());
      k.times.push_back(t.get<double>());
    }
  } else if (!has_flops) {
    throw ConfigError(reader.context() +
                      " has no time: give \"flops\" (timed by the roofline model) or \"times\" "
                      "(seconds per placement of its operands)");
  }
  reader.finish();
  return k;
}

}  // namespace

Graph graph_from_json(const nlohmann::json& j, const std::string& source) {
  ConfigReader reader(j, source);
  if (reader.string("format", "") != kGraphFormat)
    reader.fail("format", std::string("must be \"") + kGraphFormat + "\" (is this a graph file?)");
  const auto version = reader.integer("version", 0, 0, 1 << 30);
  if (version != kGraphVersion) {
    reader.fail("version", "is " + std::to_string(version) + "; this sysgym reads version " +
                               std::to_string(kGraphVersion));
  }
  const std::string model = reader.string("model", "graph");
  const auto batch = static_cast<std::uint32_t>(reader.integer("batch", 1, 1, kMaxBatch));
  const nlohmann::json& tensors = required(reader, "tensors");
  const nlohmann::json& kernels = required(reader, "kernels");
  if (!tensors.is_array()) reader.fail("tensors", "must be a list");
  if (!kernels.is_array()) reader.fail("kernels", "must be a list");
  reader.finish();
  std::vector<Tensor> ts;
  std::unordered_map<std::string, std::uint32_t> index;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    ts.push_back(read_tensor(tensors[i], source + ": tensor #" + std::to_string(i)));
    if (!index.emplace(ts.back().name, static_cast<std::uint32_t>(i)).second)
      throw ConfigError(source + ": tensor " + quote(ts.back().name) + " is defined twice");
  }
  std::vector<Kernel> ks;
  for (std::size_t i = 0; i < kernels.size(); ++i)
    ks.push_back(read_kernel(kernels[i], i, index));
  try {
    return Graph(model, batch, std::move(ts), std::move(ks));
  } catch (const ConfigError& e) {
    throw ConfigError(source + ": " + e.what());
  }
}

nlohmann::json graph_to_json(const Graph& graph) {
  nlohmann::json tensors = nlohmann::json::array();
  for (const Tensor& t : graph.tensors()) {
    nlohmann::json pools = nlohmann::json::array();
    if (t.fast_allowed) pools.push_back("fast");
    if (t.slow_allowed) pools.push_back("slow");
    tensors.push_back(
        {{"name", t.name}, {"bytes", t.bytes}, {"role", role_name(t.role)}, {"pools", pools}});
  }
  nlohmann::json kernels = nlohmann::json::array();
  const auto names = [&graph](const std::vector<std::uint32_t>& ids) {
    nlohmann::json out = nlohmann::json::array();
    for (std::uint32_t t : ids)
      out.push_back(graph.tensor(t).name);
    return out;
  };
  for (const Kernel& k : graph.kernels()) {
    nlohmann::json j = {{"name", k.name},
                        {"op", k.op},
                        {"inputs", names(k.inputs)},
                        {"outputs", names(k.outputs)},
                        {"flops", k.flops}};
    if (!k.times.empty()) j["times"] = k.times;
    kernels.push_back(std::move(j));
  }
  return {{"format", kGraphFormat}, {"version", kGraphVersion}, {"model", graph.model()},
          {"batch", graph.batch()}, {"tensors", tensors},       {"kernels", kernels}};
}

}  // namespace sysgym::tensorplace
