#include "json_output.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "files.hpp"

namespace sysgym::cli {

void add_json_flag(CLI::App& command, bool& json, const std::string& document) {
  command.add_flag("--json", json, "Print " + document + " as JSON");
}

std::string json_text(const nlohmann::json& document, int indent) {
  return document.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

void print_json(const nlohmann::json& document, int indent) {
  const std::string text = json_text(document, indent);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fputc('\n', stdout);
}

void write_json_file(const std::string& path, const nlohmann::json& document, int indent) {
  write_file_atomically(path, json_text(document, indent) + "\n");
}

}  // namespace sysgym::cli
