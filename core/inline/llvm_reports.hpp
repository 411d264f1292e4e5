// Readers of what LLVM's tools print about a module, line by line so that a shell can feed them
// from a pipe (opt's inline-cost printer writes every callee's body once per call, hundreds of
// megabytes on a large program):
//   opt -passes='print<inline-cost>'     per direct call to a defined function, in each caller's
//                                        instruction order: the callee's cost and threshold and
//                                        the analysis' counters
//   opt -passes='print<func-properties>' per function: block, use, load/store and loop counts
//   clang -Rpass=inline                  the call sites the inliner inlined, by replay key
//   llvm-size (Berkeley format)          text bytes
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sysgym::inlining {

using NamedCounts = std::vector<std::pair<std::string, std::int64_t>>;

// The value of `name` in `counts`, `fallback` when absent.
std::int64_t count_of(const NamedCounts& counts, std::string_view name, std::int64_t fallback = 0);

struct InlineCostRecord {
  std::string callee;
  std::string caller;
  NamedCounts counts;  // "Cost", "Threshold", "NumConstantArgs", ... as printed
};

class InlineCostReader {
 public:
  void line(std::string_view line);
  std::vector<InlineCostRecord> take() { return std::move(records_); }

 private:
  std::vector<InlineCostRecord> records_;
};

struct FunctionPropertiesRecord {
  std::string function;
  NamedCounts counts;  // "BasicBlockCount", "Uses", "MaxLoopDepth", ...
};

class FunctionPropertiesReader {
 public:
  void line(std::string_view line);
  std::vector<FunctionPropertiesRecord> take() { return std::move(records_); }

 private:
  std::vector<FunctionPropertiesRecord> records_;
};

struct InlinedSite {
  std::string callee;
  std::string caller;
  std::string location;  // the replay key's call-site part (" @ " chains for inlined copies)
};

// The "inlined into" remarks among `text`'s lines (other lines are skipped).
std::vector<InlinedSite> read_inline_remarks(std::string_view text);

// Function symbols' sizes in bytes from `llvm-nm --print-size --defined-only` (t/T symbols only).
std::vector<std::pair<std::string, std::int64_t>> read_function_sizes(std::string_view text);

// The sum of the text column of llvm-size's Berkeley table. Throws TraceFormatError naming
// `what` when the text holds no such table.
std::int64_t read_text_bytes(std::string_view text, const std::string& what);

}  // namespace sysgym::inlining
