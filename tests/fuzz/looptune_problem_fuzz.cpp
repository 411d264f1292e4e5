// looptune problem files and specs (`--problem`, `--kernel`, the env's `problem` key): every
// field's checks and limits, then the problem written back and read again, which must agree.
#include "fuzz_support.hpp"
#include "looptune/problems.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym::looptune;
  const std::string_view text = sysgym::fuzz::text(data, size);
  // A spec such as matmul:64x64x64 when the input is not JSON.
  sysgym::fuzz::expecting_errors([&] { (void)problem_from_spec(std::string(text)); });
  return sysgym::fuzz::expecting_errors([&] {
    const auto problem = problem_from_json(nlohmann::json::parse(text), "fuzz");
    const nlohmann::json written = problem_to_json(*problem);
    if (problem_to_json(*problem_from_json(written, "written")) != written) __builtin_trap();
  });
}
