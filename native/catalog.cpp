#include "catalog.hpp"

#include <filesystem>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "builtins/builtins.hpp"
#include "files.hpp"

namespace sysgym::cli {

Catalog& catalog() {
  static Catalog instance = [] {
    Catalog c;
    register_builtins(c.envs, c.policies, c.traces);
    return c;
  }();
  return instance;
}

nlohmann::json json_option(const std::string& text, const std::string& flag) {
  std::string json = text;
  const std::size_t first = text.find_first_not_of(" \t\n");
  if (first == std::string::npos || (text[first] != '{' && text[first] != '[')) {
    const MappedFile file(text);
    json.assign(reinterpret_cast<const char*>(file.bytes().data()), file.bytes().size());
  }
  return parse_json_text(json, flag);
}

std::string resolve_trace_name(const std::string& name) {
  namespace fs = std::filesystem;
  const std::string ddr = name + ".ddr.bin", hbm = name + ".hbm.bin";
  if (!fs::exists(name) && fs::exists(ddr) && fs::exists(hbm)) return ddr + "," + hbm;
  return name;
}

std::unique_ptr<memtier::MemtierEnv> make_memtier(const nlohmann::json& config) {
  std::unique_ptr<Env> env = catalog().envs.make(memtier::kMemtierId, config);
  return std::unique_ptr<memtier::MemtierEnv>(static_cast<memtier::MemtierEnv*>(env.release()));
}

}  // namespace sysgym::cli
