// The strict number parsers behind every numeric flag (base/numbers.hpp): any text either parses
// to a value inside the range that prints back as the same number, or is a ConfigError.
#include <cmath>
#include <cstdlib>

#include "base/numbers.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym;
  const std::string_view text = fuzz::text(data, size);
  fuzz::expecting_errors([&] {
    const std::uint64_t v = parse_integer(text, "--seed", kSeedRange);
    std::string_view digits = text;
    while (digits.size() > 1 && digits.front() == '0')
      digits.remove_prefix(1);
    if (std::to_string(v) != digits) std::abort();  // a wrapped or saturated value
  });
  fuzz::expecting_errors([&] {
    const std::uint64_t v = parse_integer(text, "--samples", {2, 50'000'000});
    if (v < 2 || v > 50'000'000) std::abort();
  });
  fuzz::expecting_errors([&] {
    const double v = parse_number(text, "--cpu-cycles-per-ms", {1.0, 1e12});
    if (!(v >= 1.0 && v <= 1e12)) std::abort();  // NaN included
  });
  return 0;
}
