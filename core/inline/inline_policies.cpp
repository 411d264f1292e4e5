// inline-v0's registration and its baselines: never, always (within a size cap), clang's own
// decisions at -O2 and -Oz as the program file records them, and a size threshold.
#include <functional>

#include "base/error.hpp"
#include "env/config_reader.hpp"
#include "inline/inline_env.hpp"

namespace sysgym::inlining {
namespace {

using Rule = std::function<bool(const Program&, const CallSite&)>;

// Inlines a site where `rule` says so.
class SitePolicy final : public Policy {
 public:
  SitePolicy(std::string name, Rule rule, nlohmann::json parameters)
      : name_(std::move(name)), rule_(std::move(rule)), parameters_(std::move(parameters)) {}
  void reset(const Env& env, Rng&) override { env_of(env); }
  void decide(const Env& e, Decision& out) override {
    const InlineEnv& env = env_of(e);
    out.use_directive = false;
    out.action.assign(1, rule_(env.program(), env.current_site()) ? 1.0 : 0.0);
  }
  nlohmann::json parameters() const override { return parameters_; }

 private:
  const InlineEnv& env_of(const Env& env) const {
    const auto* e = dynamic_cast<const InlineEnv*>(&env);
    if (e == nullptr) throw ApiMisuseError(name_ + " runs on inline envs only");
    return *e;
  }
  std::string name_;
  Rule rule_;
  nlohmann::json parameters_;
};

PolicySpec rule_spec(const std::string& name, std::string summary, const Rule& rule) {
  return family_policy("inline", name, std::move(summary), [name, rule](ConfigReader&) {
    return std::make_unique<SitePolicy>(name, rule, nlohmann::json::object());
  });
}

PolicySpec always_spec() {
  return family_policy(
      "inline", "always",
      "inlines every site whose callee is at most `cap` bytes of machine code (default 4096)",
      [](ConfigReader& r) {
        const std::int64_t cap = r.integer("cap", 4096, 0, std::int64_t{1} << 40);
        return std::make_unique<SitePolicy>(
            "always",
            [cap](const Program& p, const CallSite& s) {
              return p.functions[s.callee].text_bytes <= cap;
            },
            nlohmann::json{{"cap", cap}});
      });
}

PolicySpec threshold_spec() {
  return family_policy(
      "inline", "size-threshold",
      "inlines a site when its callee is at most `bytes` of machine code (default 48), or is a "
      "static function called from this site only (inlining it deletes it)",
      [](ConfigReader& r) {
        const std::int64_t bytes = r.integer("bytes", 48, 0, std::int64_t{1} << 40);
        return std::make_unique<SitePolicy>(
            "size-threshold",
            [bytes](const Program& p, const CallSite& s) {
              const Function& callee = p.functions[s.callee];
              const bool last_call = callee.local && callee.calls_in == s.copies &&
                                     count_of(callee.properties, "Uses") == callee.calls_in;
              return callee.text_bytes <= bytes || last_call;
            },
            nlohmann::json{{"bytes", bytes}});
      });
}

}  // namespace

void register_inline_policies(PolicyRegistry& registry) {
  registry.add(rule_spec("never", "inlines no site (every call stays a call)",
                         [](const Program&, const CallSite&) { return false; }));
  registry.add(always_spec());
  registry.add(rule_spec("clang-O2", "clang 14's own decisions at -O2, as the program records them",
                         [](const Program&, const CallSite& s) { return s.o2; }));
  registry.add(rule_spec("clang-Oz", "clang 14's own decisions at -Oz, as the program records them",
                         [](const Program&, const CallSite& s) { return s.oz; }));
  registry.add(threshold_spec());
}

}  // namespace sysgym::inlining
