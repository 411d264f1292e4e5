// JSON output, one way for every command: `--json` declared with one wording, reports and files
// serialized by one function.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace sysgym::cli {

// Adds `--json` to `command`, its help "Print DOCUMENT as JSON" (e.g. "the report").
void add_json_flag(CLI::App& command, bool& json, const std::string& document);

// `document` as text, indented by `indent` spaces (-1: one line). A name read from the file
// system or a program may hold bytes that are not UTF-8, which JSON cannot; they are written as
// U+FFFD rather than failing the command after its work is done.
std::string json_text(const nlohmann::json& document, int indent = -1);

// json_text(document, indent) and a newline on standard output.
void print_json(const nlohmann::json& document, int indent = 2);

// json_text(document, indent) and a newline as the file `path`, atomically (files.hpp).
void write_json_file(const std::string& path, const nlohmann::json& document, int indent = -1);

}  // namespace sysgym::cli
