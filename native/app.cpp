#include "app.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "commands/commands.hpp"
#include "families/inline/inline_commands.hpp"
#include "families/looptune/looptune_commands.hpp"
#include "families/memtier/memtier_commands.hpp"
#include "families/tensorplace/tensorplace_commands.hpp"
#include "files.hpp"

namespace sysgym::cli {

std::unique_ptr<CLI::App> make_app() {
  auto app = std::make_unique<CLI::App>(
      "sysgym: simulator environments for learning systems-optimization policies");
  app->require_subcommand(1);
  app->footer("Run `sysgym COMMAND --help` for a command's flags and examples.");
  app->set_version_flag("--version", "sysgym 0.1.0");
  // Usage errors quote the arguments, which may hold terminal escapes.
  app->failure_message([](const CLI::App* failed, const CLI::Error& e) {
    return printable_message(CLI::FailureMessage::simple(failed, e));
  });
  add_run_command(*app);
  add_compare_command(*app);
  add_list_command(*app);
  add_describe_command(*app);
  add_check_command(*app);
  add_train_command(*app);
  add_eval_command(*app);
  add_profile_command(*app);
  add_memtier_commands(*app);  // one line per family with tools of its own
  add_tensorplace_commands(*app);
  add_looptune_commands(*app);
  add_inline_commands(*app);
  return app;
}

int print_error(const std::exception_ptr& error, const std::string& prefix) {
  try {
    std::rethrow_exception(error);
  } catch (const Error& e) {
    std::fprintf(stderr, "sysgym: %s%s: %s\n", prefix.c_str(), e.kind(),
                 printable_message(e.what()).c_str());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "sysgym: %sout of memory: the trace, window count or network needs more memory "
                 "than this machine has (see docs/hardening.md, Limits)\n",
                 prefix.c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sysgym: %sinternal error: %s\n", prefix.c_str(),
                 printable_message(e.what()).c_str());
    return 3;
  }
}

namespace {

// CLI11 says only "A subcommand is required" for a word that is none (`sysgym frobnicate`,
// `sysgym profile -- /bin/ls`): name the word and the commands.
void check_command_name(const CLI::App& app, const std::vector<std::string>& args) {
  if (args.empty() || args.front().empty() || args.front()[0] == '-') return;
  std::string commands;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == args.front()) return;
    if (sub->get_group() == "Subcommands")
      commands += (commands.empty() ? "" : ", ") + sub->get_name();
  }
  throw CLI::ParseError(
      "unknown command " + quote(args.front()) + " (the commands: " + commands + ")",
      CLI::ExitCodes::ExtrasError);
}

}  // namespace

int run_command_line(std::vector<std::string> args) {
  const std::unique_ptr<CLI::App> app = make_app();
  try {
    check_command_name(*app, args);
  } catch (const CLI::ParseError& e) {
    return app->exit(e) == 0 ? 0 : 2;
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes them last first
  try {
    app->parse(args);
    check_standard_output();
  } catch (const CLI::ParseError& e) {
    const int code = app->exit(e);
    return code == 0 ? 0 : 2;
  } catch (const ExitStatus& e) {
    return e.code;
  } catch (const std::exception&) {
    return print_error(std::current_exception());
  }
  return 0;
}

}  // namespace sysgym::cli
