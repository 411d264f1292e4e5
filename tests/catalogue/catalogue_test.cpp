// docs/hardening.md's table of bad inputs is rendered from bad_inputs() and the errors they
// raise, and each env page's config table from its ConfigSchema; these tests fail when a table is
// stale.
// `./sysgym.sh catalogue` rewrites it (it runs this test with SYSGYM_UPDATE_CATALOGUE=1).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "base/error.hpp"
#include "builtins/builtins.hpp"
#include "catalogue/bad_inputs.hpp"

namespace sysgym::catalogue {
namespace {

constexpr std::string_view kBegin =
    "<!-- bad-inputs: generated from tests/catalogue by `./sysgym.sh catalogue` -->\n";
constexpr std::string_view kEnd = "<!-- bad-inputs: end -->\n";
constexpr std::size_t kLongestMessage = 400;
constexpr std::string_view kConfigEnd = "<!-- config: end -->\n";

struct Outcome {
  bool sysgym_error = false;
  std::string kind;
  std::string message;
};

Outcome outcome_of(const BadInput& row) {
  try {
    row.feed();
  } catch (const Error& e) {
    return {true, e.kind(), e.what()};
  } catch (const std::exception& e) {
    return {false, "std::exception", e.what()};
  }
  return {false, "", "no error"};
}

const std::vector<std::pair<BadInput, Outcome>>& catalogue() {
  static const auto rows = [] {
    std::vector<std::pair<BadInput, Outcome>> out;
    for (BadInput& row : bad_inputs()) {
      Outcome o = outcome_of(row);
      out.emplace_back(std::move(row), std::move(o));
    }
    return out;
  }();
  return rows;
}

// A GitHub table cell: pipes escaped; code spans fenced with two backticks when the text has one.
std::string code(const std::string& text) {
  std::string escaped;
  for (char c : text)
    escaped += c == '|' ? std::string("\\|") : std::string(1, c);
  return text.find('`') == std::string::npos ? "`" + escaped + "`" : "`` " + escaped + " ``";
}

std::string render() {
  std::string table = "| format | bad input | error |\n|---|---|---|\n";
  for (const auto& [row, outcome] : catalogue()) {
    table += "| " + row.format + " | " + row.input + " | " + code(outcome.kind) + " " +
             code(outcome.message) + " |\n";
  }
  return table;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(BadInputs, EveryRowFailsWithASysgymErrorOfReadableLength) {
  EXPECT_GE(catalogue().size(), 30u);
  for (const auto& [row, outcome] : catalogue()) {
    SCOPED_TRACE(row.format + ": " + row.input);
    EXPECT_TRUE(outcome.sysgym_error) << outcome.kind << ": " << outcome.message;
    EXPECT_LE(outcome.message.size(), kLongestMessage) << outcome.message.substr(0, 200);
  }
}

TEST(BadInputs, HardeningPageTableIsCurrent) {
  const std::string path = SYSGYM_SOURCE_DIR "/docs/hardening.md";
  std::string readme = read_file(path);
  const std::size_t begin = readme.find(kBegin);
  const std::size_t end = readme.find(kEnd);
  ASSERT_NE(begin, std::string::npos) << path << " has no line " << kBegin;
  ASSERT_NE(end, std::string::npos) << path << " has no line " << kEnd;
  const std::size_t from = begin + kBegin.size();
  const std::string table = render();
  if (std::getenv("SYSGYM_UPDATE_CATALOGUE") != nullptr) {
    readme.replace(from, end - from, table);
    std::ofstream(path, std::ios::binary) << readme;
    return;
  }
  EXPECT_EQ(readme.substr(from, end - from), table)
      << "the bad-input table of docs/hardening.md is stale: run ./sysgym.sh catalogue";
}

// Every registered env's config table, between its markers on its family's page
// (docs/envs/FAMILY.md, FAMILY the id without its version: memtier-v0 on memtier.md).
TEST(ConfigTables, EnvPageTablesAreCurrent) {
  Registry envs;
  PolicyRegistry policies;
  register_builtins(envs, policies, std::make_shared<DataStore>());
  for (const std::string& id : envs.ids()) {
    const std::string path = SYSGYM_SOURCE_DIR "/docs/envs/" + id.substr(0, id.rfind("-v")) + ".md";
    std::string page = read_file(path);
    const std::string begin = "<!-- config " + id +
                              ": generated from the env's ConfigSchema by `./sysgym.sh "
                              "catalogue` -->\n";
    const std::size_t from = page.find(begin);
    ASSERT_NE(from, std::string::npos) << path << " has no line " << begin;
    const std::size_t start = from + begin.size();
    const std::size_t end = page.find(kConfigEnd, start);
    ASSERT_NE(end, std::string::npos) << path << " has no " << kConfigEnd << " after " << begin;
    const std::string table = envs.spec(id).schema.markdown();
    ASSERT_FALSE(envs.spec(id).schema.empty()) << id << " declares no config schema";
    if (std::getenv("SYSGYM_UPDATE_CATALOGUE") != nullptr) {
      page.replace(start, end - start, table);
      std::ofstream(path, std::ios::binary) << page;
      continue;
    }
    EXPECT_EQ(page.substr(start, end - start), table)
        << "the config table of " << id << " in " << path << " is stale: run ./sysgym.sh catalogue";
  }
}

}  // namespace
}  // namespace sysgym::catalogue
