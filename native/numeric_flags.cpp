#include "numeric_flags.hpp"

namespace sysgym::cli {
namespace {

// Target: double or std::optional<double>.
template <typename Target>
CLI::Option* add_parsed_number(CLI::App& command, const std::string& name, Target& target,
                               const std::string& description, NumberRange range) {
  return command
      .add_option_function<std::string>(
          name,
          [&target, name, range](const std::string& text) {
            target = parse_number(text, name, range);
          },
          description)
      ->type_name("NUMBER");
}

}  // namespace

CLI::Option* add_number_flag(CLI::App& command, const std::string& name, double& target,
                             const std::string& description, NumberRange range) {
  return add_parsed_number(command, name, target, description, range)
      ->default_str(number_text(target));
}

CLI::Option* add_number_flag(CLI::App& command, const std::string& name,
                             std::optional<double>& target, const std::string& description,
                             NumberRange range) {
  return add_parsed_number(command, name, target, description, range);
}

}  // namespace sysgym::cli
