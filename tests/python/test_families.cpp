// The test families in the tests' Python module (build/<preset>/python-test): tests/env's line
// walk, and a line walk whose every step takes 50 ms of CPU, so that a vector step lasts long
// enough to be interrupted by Ctrl-C.
#include <chrono>

#include "catalog.hpp"
#include "env/line_walk_env.hpp"

namespace sysgym::python {
namespace {

constexpr auto kSlowStep = std::chrono::milliseconds(50);

class SlowWalkEnv : public testing::LineWalkEnv {
 public:
  explicit SlowWalkEnv(const nlohmann::json& config) : LineWalkEnv(config, "slowwalk-v0") {}

 protected:
  StepOutcome on_step(std::span<const double> action) override {
    const auto until = std::chrono::steady_clock::now() + kSlowStep;
    while (std::chrono::steady_clock::now() < until) {
    }
    return LineWalkEnv::on_step(action);
  }
};

}  // namespace

void register_test_families() {
  cli::Catalog& catalog = cli::catalog();
  testing::register_line_walk(catalog.envs, catalog.policies);
  catalog.envs.add({"slowwalk-v0", "a line walk whose steps take 50 ms",
                    [](const nlohmann::json& c) { return std::make_unique<SlowWalkEnv>(c); },
                    nlohmann::json::object(), testing::line_walk_schema()});
}

}  // namespace sysgym::python
