#include "env/frame.hpp"

namespace sysgym {

std::size_t FrameArray::size() const {
  return std::visit([](const auto& span) { return span.size(); }, values);
}

std::string_view FrameArray::dtype() const {
  struct Name {
    std::string_view operator()(std::span<const float> /*unused*/) const { return "float32"; }
    std::string_view operator()(std::span<const double> /*unused*/) const { return "float64"; }
    std::string_view operator()(std::span<const std::uint32_t> /*unused*/) const {
      return "uint32";
    }
  };
  return std::visit(Name{}, values);
}

}  // namespace sysgym
