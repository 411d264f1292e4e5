#include "families/memtier/memtier_commands.hpp"

#include "catalog.hpp"
#include "families/memtier/window_flags.hpp"
#include "memtier/pair_source.hpp"

namespace sysgym::cli {

void add_memtier_commands(CLI::App& app) {
  // The env's raw traces parse on two threads with a progress bar, as the tools' do.
  memtier::pair_source_over(catalog().data)->set_trace_pair_reader(read_trace_pair_bytes);
  using Adder = void (*)(CLI::App&);
  const std::pair<const char*, Adder> tools[] = {{"estimate", add_estimate_command},
                                                 {"preprocess", add_preprocess_command},
                                                 {"inspect", add_inspect_command},
                                                 {"synth", add_synth_command},
                                                 {"trace", add_trace_command}};
  CLI::App* family = app.add_subcommand(
      "memtier",
      "memtier's tools: capture, synthesize, inspect, estimate, preprocess and rate traces");
  family->require_subcommand(1);
  for (const auto& [name, add] : tools)
    add(*family);
  add_traces_command(*family);  // newer than the top-level names: no alias
  // Scripts written before the family had its own command keep working for one release.
  for (const auto& [name, add] : tools) {
    add(app);
    app.get_subcommand(name)->group("Aliases of `sysgym memtier ...` (kept for one release)");
  }
}

}  // namespace sysgym::cli
