// inline-v0's configuration: which program (a shipped one, a split drawn from per episode, or a
// program file), what a decision set is scored on and how the score is paid out.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/data_store.hpp"
#include "env/config_schema.hpp"
#include "inline/cost_model.hpp"
#include "inline/program.hpp"

namespace sysgym::inlining {

const ConfigSchema& inline_schema();

// A program with what the env needs of it, shared by every env that plays it.
struct LoadedProgram {
  explicit LoadedProgram(Program p) : program(std::move(p)), model(program) {}
  LoadedProgram(const LoadedProgram&) = delete;
  LoadedProgram& operator=(const LoadedProgram&) = delete;
  Program program;
  ProgramModel model;  // points into `program`
};

struct InlineConfig {
  nlohmann::json resolved;
  std::vector<std::shared_ptr<const LoadedProgram>> programs;  // one, or a split
  Objective objective = Objective::kSize;
  double size_weight = 0.5;     // kMix: the size ratio's weight, the instructions' 1 - this
  double size_limit = 0;        // Scoring::size_limit
  std::string baseline = "Oz";  // the decision set a score is relative to
  bool dense = false;           // a reward after every decision instead of at the end
  CostModel model;
};

// The shipped programs' names and their split ("train", "held-out"), from inline/manifest.json.
std::vector<std::pair<std::string, std::string>> shipped_programs(const DataSource& data);

// Throws ConfigError / UnknownNameError naming the key.
InlineConfig read_inline_config(const nlohmann::json& config, const DataSource& data);

}  // namespace sysgym::inlining
