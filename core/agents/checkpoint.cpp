#include "agents/checkpoint.hpp"

#include <array>
#include <string>

#include "base/error.hpp"
#include "base/json_text.hpp"

namespace sysgym::agents {

nlohmann::json rng_to_json(const Rng& rng) {
  const auto s = rng.state();
  return nlohmann::json::array({s[0], s[1], s[2], s[3]});
}

void load_rng(const nlohmann::json& j, Rng& rng) {
  if (!j.is_array() || j.size() != 4) throw ConfigError("checkpoint: rng state is not 4 words");
  std::array<std::uint64_t, 4> s{};
  for (std::size_t i = 0; i < 4; ++i) {
    if (!j[i].is_number_unsigned()) throw ConfigError("checkpoint: rng state is not 4 words");
    s[i] = json_integer<std::uint64_t>(j[i]);
  }
  rng.set_state(s);
}

void load_checkpoint(const char* what, const std::function<void()>& load) {
  try {
    load();
  } catch (const ConfigError&) {
    throw;
  } catch (const std::exception& e) {
    throw ConfigError(std::string("checkpoint: ") + what +
                      " state is incomplete or malformed: " + json_problem(e));
  }
}

void load_network(const nlohmann::json& j, Mlp& network, const char* what) {
  Mlp loaded;
  try {
    loaded = Mlp::from_json(j);
  } catch (const ConfigError& e) {
    throw ConfigError(std::string("checkpoint: the ") + what + " network: " + e.what());
  }
  if (loaded.sizes() != network.sizes()) {
    throw ConfigError(std::string("checkpoint: the ") + what +
                      " network's layer sizes differ from the agent's (another architecture)");
  }
  network = std::move(loaded);
}

}  // namespace sysgym::agents
