#include "numeric_flags.hpp"

namespace sysgym::cli {

CLI::Option* add_number_flag(CLI::App& command, const std::string& name, double& target,
                             const std::string& description, NumberRange range) {
  return command
      .add_option_function<std::string>(
          name,
          [&target, name, range](const std::string& text) {
            target = parse_number(text, name, range);
          },
          description)
      ->default_str(number_text(target))
      ->type_name("NUMBER");
}

CLI::Option* add_number_flag(CLI::App& command, const std::string& name,
                             std::optional<double>& target, const std::string& description,
                             NumberRange range) {
  return command
      .add_option_function<std::string>(
          name,
          [&target, name, range](const std::string& text) {
            target = parse_number(text, name, range);
          },
          description)
      ->type_name("NUMBER");
}

}  // namespace sysgym::cli
