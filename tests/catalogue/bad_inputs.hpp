// The catalogue of bad inputs: each row feeds one malformed, hostile or impossible input to the
// part of the core that meets it first. catalogue_test.cpp checks that every row fails with a
// sysgym error and that the README's table, rendered from these rows and the errors they raise,
// is current; so the documented errors are the ones users get.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sysgym::catalogue {

struct BadInput {
  std::string format;          // the file or argument kind: "MemAI CSV", "env config", ...
  std::string input;           // what is wrong with it, for the README
  std::function<void()> feed;  // throws the sysgym error a user gets
};

// `j` with the value at `at` replaced: a file damaged in one place.
nlohmann::json edited(nlohmann::json j, const nlohmann::json::json_pointer& at,
                      nlohmann::json value);

// Rows in README order, grouped by format.
std::vector<BadInput> bad_inputs();
// The inline family's rows (inline_bad_inputs.cpp), at the end of bad_inputs().
std::vector<BadInput> inline_bad_inputs();
// tensorplace graph and plan files, looptune problems, training state files
// (family_bad_inputs.cpp), after the inline rows.
std::vector<BadInput> family_bad_inputs();

}  // namespace sysgym::catalogue
