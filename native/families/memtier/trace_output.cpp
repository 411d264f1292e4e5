#include "trace_output.hpp"

#include <cstdint>

#include "files.hpp"
#include "memtier/traces/csv_writer.hpp"
#include "memtier/traces/trace_file.hpp"

namespace sysgym::cli {

void write_trace_set(const std::vector<TraceOutput>& outputs, const std::string& format) {
  std::vector<std::vector<std::uint8_t>> encoded;
  encoded.reserve(outputs.size());
  for (const TraceOutput& output : outputs) {
    if (format == "csv") {
      const std::string text = memtier::write_csv_trace(*output.trace);
      encoded.emplace_back(text.begin(), text.end());
    } else {
      encoded.push_back(memtier::encode_trace(*output.trace));
    }
  }
  std::vector<OutputFile> files;
  files.reserve(outputs.size());
  for (std::size_t i = 0; i < outputs.size(); ++i)
    files.push_back({outputs[i].path, encoded[i]});
  write_files_atomically(files);
}

}  // namespace sysgym::cli
