#include "tensorplace/tensorplace_config.hpp"

#include <cmath>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "base/units.hpp"
#include "env/config_reader.hpp"
#include "tensorplace/graph_json.hpp"
#include "tensorplace/plan_json.hpp"
#include "tensorplace/simulator.hpp"
#include "tensorplace/zoo/zoo.hpp"

namespace sysgym::tensorplace {
namespace {

std::vector<std::string> model_names() {
  std::vector<std::string> names;
  for (const ZooModel& m : zoo_models())
    names.push_back(m.name);
  return names;
}

nlohmann::json read_json_file(const std::string& key, const std::string& name,
                              const DataSource& data) {
  return read_data_json(data, name, "tensorplace-v0 config: '" + key + "'");
}

// The plan's iteration as the simulator replays it on this config.
double replayed_seconds(const std::string& name, const DataSource& data,
                        const TensorplaceConfig& c) {
  const Plan plan = plan_for_limit(read_json_file("ilp_plan", name, data), *c.graph, c.fast_limit,
                                   "tensorplace-v0 config: 'ilp_plan' " + quote(name));
  return simulate(*c.graph, c.platform, plan, c.fast_limit).iteration_s;
}

}  // namespace

const ConfigSchema& tensorplace_schema() {
  static const ConfigSchema schema({
      choice_key("model", "resnet50", model_names(),
                 "the zoo model whose training iteration is placed (sysgym tensorplace zoo)"),
      string_key("graph",
                 "a graph JSON file (sysgym tensorplace graph -o) placed instead of a zoo model",
                 false),
      integer_key("batch", 16, 1, 1 << 20, "images per iteration (zoo models)", "images"),
      value_key("fast_memory", "50%",
                "fast memory: a share of the iteration's peak live bytes (\"50%\"), AutoTM's "
                "slow:fast ratio (\"1:4\": fast is 4/5 of the peak) or a size (\"8GiB\")"),
      value_key("platform", "optane",
                "\"optane\" (DRAM + Optane DIMMs), \"gpu\" (device + host memory over PCIe), "
                "or an object naming one with fields replaced ({\"name\": \"gpu\", "
                "\"peak_flops\": 2e13})"),
      choice_key("start", "slow", {"slow", "fast-while-fits"},
                 "where the tensors that live across iterations (parameters, io) are when the "
                 "iteration starts: all in slow memory, or in fast memory in order of first use "
                 "while they fit"),
      policy_task(choice_key(
          "moves", "sync", {"sync", "none"},
          "sync: an operand is copied in before its kernel or written back after it; none: a "
          "tensor stays in the pool it is born in (AutoTM's static setting)")),
      string_key("ilp_plan",
                 "a plan file for this graph and fast memory (sysgym tensorplace ilp "
                 "--write-plan): its replayed iteration is the reference of the summary's "
                 "ilp_gap_closed",
                 false),
      fixed_by_policy(integer_key("slots", 8, 1, 64,
                                  "operands of the current kernel the agent places (more are "
                                  "kept where they are)",
                                  "tensors")),
  });
  return schema;
}

std::uint64_t parse_fast_memory(const nlohmann::json& value, std::uint64_t peak,
                                const std::string& key) {
  const auto fail = [&](const std::string& why) -> std::uint64_t {
    throw ConfigError(key + ": " + why +
                      " (a share \"50%\", a slow:fast ratio \"1:4\" or a size "
                      "\"8GiB\")");
  };
  if (value.is_number_integer()) {
    if (value.get<std::int64_t>() < 0 && !value.is_number_unsigned())
      return fail(value.dump() + " bytes is negative");
    return value.get<std::uint64_t>();
  }
  if (!value.is_string()) return fail("expected text or a byte count, got " + value.dump());
  const std::string text = value.get<std::string>();
  double share = 0;
  if (!text.empty() && text.back() == '%') {
    if (!parse_plain_decimal(std::string_view(text).substr(0, text.size() - 1), share) ||
        share > 100)
      return fail(quote(text) + " is not a share from 0% to 100%");
    return static_cast<std::uint64_t>(std::floor(static_cast<double>(peak) * share / 100));
  }
  if (const std::size_t colon = text.find(':'); colon != std::string::npos) {
    double slow = 0;
    double fast = 0;
    if (!parse_plain_decimal(std::string_view(text).substr(0, colon), slow) ||
        !parse_plain_decimal(std::string_view(text).substr(colon + 1), fast) || slow + fast <= 0)
      return fail(quote(text) + " is not a ratio of two numbers");
    return static_cast<std::uint64_t>(std::floor(static_cast<double>(peak) * fast / (slow + fast)));
  }
  try {
    return parse_byte_size(text);
  } catch (const ConfigError& e) {
    return fail(e.what());
  }
}

TensorplaceConfig read_tensorplace_config(const nlohmann::json& config, const DataSource& data) {
  ConfigReader reader(config, "tensorplace-v0 config");
  const ConfigSchema& k = tensorplace_schema();
  TensorplaceConfig out;
  const std::string model = reader.choice(k.at("model"));
  const std::string graph = reader.string(k.at("graph"));
  const auto batch = static_cast<std::uint32_t>(reader.integer(k.at("batch")));
  out.graph = graph.empty() ? std::make_shared<const Graph>(zoo_graph(model, batch))
                            : std::make_shared<const Graph>(
                                  graph_from_json(read_json_file("graph", graph, data), graph));
  const nlohmann::json* fast = reader.raw("fast_memory");
  const nlohmann::json fast_value = fast != nullptr ? *fast : k.at("fast_memory").fallback;
  out.fast_limit = parse_fast_memory(fast_value, out.graph->peak_live_bytes(),
                                     "tensorplace-v0 config: 'fast_memory'");
  reader.resolve("fast_memory", fast_value);
  const nlohmann::json* platform = reader.raw("platform");
  out.platform = platform_from_json(platform != nullptr ? *platform : nlohmann::json("optane"),
                                    "tensorplace-v0 config: 'platform'");
  reader.resolve("platform", out.platform.to_json());
  out.start_fast = reader.choice(k.at("start")) == "fast-while-fits";
  out.moves = reader.choice(k.at("moves")) == "sync";
  const std::string plan = reader.string(k.at("ilp_plan"));
  if (!plan.empty()) out.ilp_seconds = replayed_seconds(plan, data, out);
  out.slots = static_cast<std::uint32_t>(reader.integer(k.at("slots")));
  reader.finish();
  out.resolved = reader.resolved();
  return out;
}

}  // namespace sysgym::tensorplace
