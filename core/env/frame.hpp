// What an env shows a front end after each reset and step: named arrays, nothing drawn. Generic
// front ends (the browser's player, the npm package) pass them on by name and type without
// knowing the family; the family's own view decides how to draw them.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace sysgym {

struct FrameArray {
  std::string name;
  // A view of env memory, valid until the env's next reset() or step().
  std::variant<std::span<const float>, std::span<const double>, std::span<const std::uint32_t>>
      values;

  std::size_t size() const;
  // "float32", "float64" or "uint32": the typed array JS receives.
  std::string_view dtype() const;
};

using Frame = std::vector<FrameArray>;

}  // namespace sysgym
