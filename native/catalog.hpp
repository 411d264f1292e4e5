// The envs, policies and trace source every env-running command shares.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "env/policy.hpp"
#include "env/registry.hpp"
#include "file_pair_source.hpp"
#include "memtier/memtier_env.hpp"

namespace sysgym::cli {

struct Catalog {
  std::shared_ptr<FilePairSource> traces = std::make_shared<FilePairSource>();
  Registry envs;
  PolicyRegistry policies;
};

Catalog& catalog();

// A JSON option: inline JSON text ("{...}") or the path of a JSON file. Throws ConfigError
// naming the flag.
nlohmann::json json_option(const std::string& text, const std::string& flag);

// A pair name from the command line: PREFIX stands for PREFIX.ddr.bin + PREFIX.hbm.bin when
// those exist; anything else (PAIR.bin, DDR,HBM, synth:...) passes through.
std::string resolve_trace_name(const std::string& name);

// Makes a memtier env (the registry returns the base type).
std::unique_ptr<memtier::MemtierEnv> make_memtier(const nlohmann::json& config);

}  // namespace sysgym::cli
