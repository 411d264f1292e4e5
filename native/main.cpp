// The sysgym command-line tool. Exit codes: 0 success, 1 a sysgym error (bad input, bad
// config, out of memory, output lost; the message says what and where), 2 a command-line usage
// error. Killed by any catchable signal it dies of that signal after removing its temporary files.
#include <CLI/CLI.hpp>
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
#include "temporaries.hpp"

int main(int argc, char** argv) {
  sysgym::cli::remove_temporaries_on_signal();
  CLI::App app{"sysgym: simulator environments for learning systems-optimization policies"};
  app.require_subcommand(1);
  app.footer("Run `sysgym COMMAND --help` for a command's flags and examples.");
  app.set_version_flag("--version", "sysgym 0.1.0");
  // Usage errors quote the arguments, which may hold terminal escapes.
  app.failure_message([](const CLI::App* failed, const CLI::Error& e) {
    return sysgym::printable_message(CLI::FailureMessage::simple(failed, e));
  });
  sysgym::cli::add_run_command(app);
  sysgym::cli::add_compare_command(app);
  sysgym::cli::add_list_command(app);
  sysgym::cli::add_describe_command(app);
  sysgym::cli::add_check_command(app);
  sysgym::cli::add_train_command(app);
  sysgym::cli::add_eval_command(app);
  sysgym::cli::add_memtier_commands(app);  // one line per family with tools of its own
  sysgym::cli::add_tensorplace_commands(app);
  sysgym::cli::add_looptune_commands(app);
  sysgym::cli::add_inline_commands(app);
  try {
    app.parse(argc, argv);
    sysgym::cli::check_standard_output();
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  } catch (const sysgym::Error& e) {
    std::fprintf(stderr, "sysgym: %s: %s\n", e.kind(), sysgym::printable_message(e.what()).c_str());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fputs(
        "sysgym: out of memory: the trace, window count or network needs more memory than "
        "this machine has (see Limits in the README)\n",
        stderr);
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sysgym: internal error: %s\n",
                 sysgym::printable_message(e.what()).c_str());
    return 3;
  }
  return 0;
}
