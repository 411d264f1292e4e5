// valgrind lackey output through the capture pipeline (line parser, cache model, timing model).
#include "fuzz_support.hpp"
#include "memtier/capture/capture.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym;
  return fuzz::expecting_errors([&] {
    capture::CaptureOptions options;
    options.cache.size_bytes = 4096;  // small, so that short inputs miss and make samples
    options.cache.ways = 4;
    options.sample_period = 1;
    capture::CaptureBuilder builder(options);
    std::string_view rest = fuzz::text(data, size);
    while (!rest.empty()) {
      const std::size_t end = rest.find('\n');
      builder.add_line(rest.substr(0, end));
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
    builder.finish("fuzz");
  });
}
