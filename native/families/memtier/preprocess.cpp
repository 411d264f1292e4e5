// sysgym memtier preprocess: window a trace pair once and save it for fast estimates and env
// episodes.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/quote.hpp"
#include "base/units.hpp"
#include "families/memtier/memtier_commands.hpp"
#include "files.hpp"
#include "json_output.hpp"
#include "memtier/prepared_file.hpp"
#include "output_flags.hpp"
#include "window_flags.hpp"

namespace sysgym::cli {
namespace {

struct PreprocessArgs {
  PairFlags pair;
  WindowFlags windows;
  std::string output;
  bool json = false;
};

void run_preprocess(const PreprocessArgs& args) {
  const std::shared_ptr<const memtier::PreparedPair> loaded = args.pair.load(args.windows);
  const memtier::PreparedPair& pair = *loaded;
  const std::vector<std::uint8_t> bytes = memtier::encode_prepared_pair(pair);
  write_file_atomically(args.output, bytes);
  if (args.json) {
    const nlohmann::json out = {{"output", args.output},
                                {"bytes", bytes.size()},
                                {"windows", pair.window_count()},
                                {"pages", pair.pages.size()},
                                {"entries", pair.entry_page.size()},
                                {"ddr_ms", pair.ddr_ms()},
                                {"hbm_ms", pair.hbm_ms()}};
    print_json(out);
    return;
  }
  std::printf("wrote %s (%s): %zu windows, %zu pages, %zu page entries; DDR %.3f ms, HBM %.3f ms\n",
              printable(args.output, 1024).c_str(), format_bytes(bytes.size()).c_str(),
              pair.window_count(), pair.pages.size(), pair.entry_page.size(), pair.ddr_ms(),
              pair.hbm_ms());
}

}  // namespace

void add_preprocess_command(CLI::App& app) {
  auto args = std::make_shared<PreprocessArgs>();
  CLI::App* command = app.add_subcommand(
      "preprocess", "Window a DDR/HBM trace pair and save it in the binary format");
  command->footer(
      "Example:\n"
      "  sysgym memtier preprocess --ddr run.ddr.csv --hbm run.hbm.csv --mode aligned -o run.bin\n"
      "  sysgym memtier preprocess --trace lammps -o lammps.bin\n"
      "The output is written to a temporary file and renamed into place.");
  args->pair.add_to(*command, false);
  args->windows.add_to(*command);
  add_output_option(*command, "-o,--output", args->output, "Output file")->required();
  add_json_flag(*command, args->json, "a summary");
  command->callback([args] { run_preprocess(*args); });
}

}  // namespace sysgym::cli
