#include "output_flags.hpp"

#include "base/error.hpp"
#include "files.hpp"

namespace sysgym::cli {

CLI::Option* add_output_option(CLI::App& command, const std::string& names, std::string& path,
                               const std::string& help) {
  CLI::Option* option = command.add_option(names, path, help);
  // each() runs while CLI11 reads the command line, before the command's callback.
  option->each([flag = option->get_name()](const std::string& value) {
    try {
      check_output_path(value);
    } catch (const IoError& e) {
      throw IoError(flag + ": " + e.what());
    }
  });
  return option;
}

}  // namespace sysgym::cli
