// Phase markers in a traced program's output: the matcher and the capture's phase bookkeeping
// over marker-heavy output. Linear time shows as the same bytes/s at every size; the old
// std::regex + per-marker scan of all phases took 55 s for 1 MB and over 5 minutes for 20 MB.
// Each marker follows one traced instruction, so every marker starts a real phase (the worst
// case: markers with nothing run between them only rename the current phase).
#include <benchmark/benchmark.h>

#include <string>

#include "families/memtier/marker_matcher.hpp"
#include "memtier/capture/capture.hpp"

namespace {

void BM_MarkerHeavyOutput(benchmark::State& state) {
  const auto lines = static_cast<std::size_t>(state.range(0));
  const sysgym::cli::MarkerMatcher matcher({"^P(\\d+)$", "", "^STOP$"});
  const std::string marker = "P1";
  for (auto _ : state) {
    sysgym::capture::CaptureBuilder builder(sysgym::capture::CaptureOptions{});
    for (std::size_t i = 0; i < lines; ++i) {
      builder.add_line("I  0400d7d4,8");
      sysgym::cli::MarkerMatch m = matcher.match(marker);
      if (m.phase) builder.start_phase(std::move(*m.phase), m.keep);
    }
    benchmark::DoNotOptimize(builder.stats());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * lines * 3));
  state.counters["markers/s"] = benchmark::Counter(static_cast<double>(state.iterations() * lines),
                                                   benchmark::Counter::kIsRate);
}
// 1 MB, 4 MB and 20 MB of "P1\n" lines.
BENCHMARK(BM_MarkerHeavyOutput)
    ->Arg(333'333)
    ->Arg(1'333'333)
    ->Arg(6'666'666)
    ->Unit(benchmark::kMillisecond);

void BM_MarkerOnAHugeLine(benchmark::State& state) {
  const sysgym::cli::MarkerMatcher matcher({"(a|b)*c", "", ""});
  const std::string line(static_cast<std::size_t>(state.range(0)), 'a');
  for (auto _ : state)
    benchmark::DoNotOptimize(matcher.match(line));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_MarkerOnAHugeLine)->Arg(20'000)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
