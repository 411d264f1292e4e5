#include "file_pair_source.hpp"

#include "base/container.hpp"
#include "base/error.hpp"
#include "files.hpp"
#include "memtier/prepared_file.hpp"
#include "trace_names.hpp"
#include "window_flags.hpp"

namespace sysgym::cli {

bool FilePairSource::is_preprocessed(const std::string& name) {
  if (InMemoryPairSource::is_preprocessed(name)) return true;
  if (name.starts_with("synth:")) return false;
  try {
    return !find_pair_files(name).prepared.empty();
  } catch (const Error&) {
    return false;  // loading it names the problem
  }
}

std::shared_ptr<const memtier::PreparedPair> FilePairSource::load_other(
    const std::string& name, const memtier::WindowRequest& windows) {
  const PairFiles files = find_pair_files(name);
  if (files.prepared.empty()) {
    auto traces = std::make_shared<const memtier::TracePair>(read_trace_pair(files.ddr, files.hbm));
    add_traces(name, traces);
    return window_cached(name, traces, windows);
  }
  const auto file = std::make_shared<const MappedFile>(name);
  memtier::check_prepared_bytes(name, file->bytes());
  check_unwindowed(name, windows);
  auto pair = std::make_shared<const memtier::PreparedPair>(
      memtier::decode_prepared_pair(ContainerReader(file->bytes(), name), file));
  add(name, pair);
  return pair;
}

}  // namespace sysgym::cli
