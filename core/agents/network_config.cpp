#include "agents/network_config.hpp"

namespace sysgym::agents {

std::vector<int> read_hidden_sizes(ConfigReader& reader, std::vector<int> fallback) {
  const nlohmann::json* raw = reader.raw("hidden");
  if (raw != nullptr) {
    if (!raw->is_array() || raw->empty()) reader.fail("hidden", "should be a list of layer sizes");
    fallback.clear();
    for (const nlohmann::json& v : *raw) {
      if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > 4096)
        reader.fail("hidden", "sizes should be integers in [1, 4096]");
      fallback.push_back(v.get<int>());
    }
  }
  reader.resolve("hidden", fallback);
  return fallback;
}

std::vector<int> network_sizes(int inputs, const std::vector<int>& hidden, int outputs) {
  std::vector<int> sizes = {inputs};
  sizes.insert(sizes.end(), hidden.begin(), hidden.end());
  sizes.push_back(outputs);
  return sizes;
}

}  // namespace sysgym::agents
