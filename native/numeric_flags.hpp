// Numeric command-line flags parsed by core's strict parsers (base/numbers.hpp), with the ranges
// their config keys declare: a bad value is the same ConfigError (exit 1) as in the npm bin,
// never wrapped or saturated as a plain CLI11 conversion would.
#pragma once

#include <CLI/CLI.hpp>
#include <limits>
#include <optional>
#include <string>

#include "base/numbers.hpp"

namespace sysgym::cli {

template <typename T>
CLI::Option* add_integer_flag(CLI::App& command, const std::string& name, T& target,
                              const std::string& description, IntegerRange range) {
  static_assert(std::is_integral_v<T>);
  if (range.max > static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
    range.max = static_cast<std::uint64_t>(std::numeric_limits<T>::max());
  const std::string flag = name.substr(0, name.find(','));
  return command
      .add_option_function<std::string>(
          name,
          [&target, flag, range](const std::string& text) {
            target = static_cast<T>(parse_integer(text, flag, range));
          },
          description)
      ->default_str(std::to_string(target))
      ->type_name("UINT");
}

CLI::Option* add_number_flag(CLI::App& command, const std::string& name, double& target,
                             const std::string& description, NumberRange range);
CLI::Option* add_number_flag(CLI::App& command, const std::string& name,
                             std::optional<double>& target, const std::string& description,
                             NumberRange range);

}  // namespace sysgym::cli
