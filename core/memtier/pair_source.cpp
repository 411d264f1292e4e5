#include "memtier/pair_source.hpp"

#include <algorithm>
#include <charconv>
#include <set>

#include "base/container.hpp"
#include "base/error.hpp"
#include "base/names.hpp"
#include "base/quote.hpp"
#include "memtier/prepared_file.hpp"
#include "memtier/traces/load.hpp"
#include "memtier/traces/synth.hpp"
#include "profiling/ops.hpp"

namespace sysgym::memtier {
namespace {

std::string options_key(const WindowOptions& o) {
  return std::string(window_mode_name(o.mode)) + "/" + window_unit_name(o.unit) + "/" +
         (o.window_len ? std::to_string(*o.window_len) : "default") + "/" +
         std::to_string(o.page_size_bits) + "/" + std::to_string(o.cpu_cycles_per_ms);
}

// "synth:PATTERN[:SAMPLES[:SEED[:FOOTPRINT_MIB]]]"
SynthOptions parse_synth_name(const std::string& name) {
  SynthOptions o;
  std::vector<std::string> parts;
  std::size_t start = 6;
  while (start <= name.size()) {
    std::size_t colon = name.find(':', start);
    if (colon == std::string::npos) colon = name.size();
    parts.push_back(name.substr(start, colon - start));
    start = colon + 1;
  }
  auto number = [&](const std::string& text, const char* what) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) {
      throw ConfigError("trace " + quote(name) + ": " + what + " " + quote(text) +
                        " is not a number (form: synth:PATTERN[:SAMPLES[:SEED[:FOOTPRINT_MIB]]])");
    }
    return value;
  };
  o.pattern = parts[0];
  if (parts.size() > 1) o.samples = number(parts[1], "samples");
  if (parts.size() > 2) o.seed = number(parts[2], "seed");
  if (parts.size() > 3) {
    // Capped before the shift so a huge MiB count cannot wrap to a small byte count.
    o.footprint_bytes = std::min<std::uint64_t>(number(parts[3], "footprint"), 1ull << 40) << 20;
  }
  if (parts.size() > 4) {
    throw ConfigError("trace " + quote(name) +
                      ": form is synth:PATTERN[:SAMPLES[:SEED[:FOOTPRINT_MIB]]]");
  }
  return o;
}

// PREFIX's trace of `side` ("ddr" or "hbm"), "" when there is none; the binary one wins.
std::string side_name(const DataSource& data, const std::string& prefix, const std::string& side) {
  const std::string stem = prefix + "." + side + ".";
  const std::vector<std::string> found = data.names_with_prefix(stem);
  if (found.empty()) return "";
  if (std::find(found.begin(), found.end(), stem + "bin") != found.end()) return stem + "bin";
  if (found.size() > 1) {
    throw TraceFormatError("trace " + quote(prefix) + ": several " + side + " traces (" +
                           join(found, ", ") + "); name the pair as DDR_FILE,HBM_FILE");
  }
  return found.front();
}

// Where shipped pairs live under the data's shipped prefix.
const char* const kShippedFolders[] = {"real/", "synth/"};

bool is_bare(const std::string& name) {
  return !name.empty() && name.find('/') == std::string::npos;
}

TracePair read_one_after_the_other(const std::string& ddr_name, const DataBytes& ddr,
                                   const std::string& hbm_name, const DataBytes& hbm) {
  const profiling::Scope scope(profiling::ops::kDataLoad);
  TracePair pair;
  pair.ddr = load_trace(ddr.bytes, ddr_name);
  pair.hbm = load_trace(hbm.bytes, hbm_name);
  return pair;
}

}  // namespace

PairNames resolve_pair_names(const DataSource& data, const std::string& name) {
  PairNames names;
  if (const std::size_t comma = name.find(','); comma != std::string::npos) {
    names.ddr = name.substr(0, comma);
    names.hbm = name.substr(comma + 1);
    return names;
  }
  if (data.has(name)) {
    names.prepared = name;
    return names;
  }
  names.ddr = side_name(data, name, "ddr");
  names.hbm = side_name(data, name, "hbm");
  if (names.ddr.empty() != names.hbm.empty()) {
    throw TraceFormatError("trace " + quote(name) + ": found " +
                           (names.ddr.empty() ? names.hbm : names.ddr) + " but no " +
                           (names.ddr.empty() ? "DDR" : "HBM") + " trace beside it (" + name +
                           (names.ddr.empty() ? ".ddr.*)" : ".hbm.*)"));
  }
  return names;
}

PairNames find_pair_names(const DataSource& data, const std::string& name) {
  if (name.empty()) return {};
  if (PairNames names = resolve_pair_names(data, name); names.found()) return names;
  const std::string shipped = data.shipped_prefix();
  if (!is_bare(name) || shipped.empty()) return {};
  for (const char* folder : kShippedFolders) {
    std::string prefix = shipped;
    prefix.append(folder).append(name);
    if (PairNames names = resolve_pair_names(data, prefix); names.found()) return names;
  }
  return {};
}

std::vector<std::string> shipped_pair_names(const DataSource& data) {
  const std::string shipped = data.shipped_prefix();
  if (shipped.empty()) return {};
  std::set<std::string> names;
  for (const char* folder : kShippedFolders) {
    const std::string prefix = shipped + folder;
    for (const std::string& path : data.names_with_prefix(prefix)) {
      const std::string file = path.substr(prefix.size());
      const std::size_t at = file.find(".ddr.");
      if (at != std::string::npos && at > 0 && file.find('/') == std::string::npos)
        names.insert(file.substr(0, at));
    }
  }
  return {names.begin(), names.end()};
}

void check_prepared_bytes(const std::string& name, std::span<const std::uint8_t> bytes) {
  if (!has_container_magic(bytes)) {
    throw TraceFormatError(
        name +
        ": a single trace cannot drive the env; give DDR_FILE,HBM_FILE or a pair "
        "preprocessed by `sysgym memtier preprocess`");
  }
}

WindowOptions resolve_window_mode(const TracePair& traces, WindowOptions options, bool mode_given) {
  if (!mode_given) {
    options.mode = traces.ddr.has_instrs() && traces.hbm.has_instrs() ? WindowMode::kAligned
                                                                      : WindowMode::kMemai;
  }
  return options;
}

InMemoryPairSource::InMemoryPairSource(std::shared_ptr<const DataSource> data)
    : data_(std::move(data)), read_pair_(read_one_after_the_other) {}

void InMemoryPairSource::set_trace_pair_reader(TracePairReader reader) {
  const std::lock_guard<std::mutex> lock(mutex_);
  read_pair_ = std::move(reader);
}

void InMemoryPairSource::add(const std::string& name, std::shared_ptr<const PreparedPair> pair) {
  const std::lock_guard<std::mutex> lock(mutex_);
  prepared_[name] = std::move(pair);
}

void InMemoryPairSource::add_traces(const std::string& name,
                                    std::shared_ptr<const TracePair> traces) {
  const std::lock_guard<std::mutex> lock(mutex_);
  traces_[name] = std::move(traces);
}

namespace {

// Refuses window options for an already windowed pair.
void check_unwindowed(const std::string& name, const WindowRequest& windows) {
  if (windows.any_given) {
    throw ConfigError(
        "trace " + quote(name) +
        " is a preprocessed pair: its windows are fixed, so window options "
        "(window_mode, window_len, unit, page_size, cpu_cycles_per_ms) cannot be given");
  }
}

}  // namespace

std::shared_ptr<const PreparedPair> InMemoryPairSource::window_cached(
    const std::string& key, const std::shared_ptr<const TracePair>& traces,
    const WindowRequest& windows) {
  const WindowOptions options = resolve_window_mode(*traces, windows.options, windows.mode_given);
  const std::string cache_key = key + "|" + options_key(options);
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = windowed_.find(cache_key);
    if (it != windowed_.end()) return it->second;
  }
  auto pair = std::make_shared<const PreparedPair>(prepare_pair(*traces, options));
  const std::lock_guard<std::mutex> lock(mutex_);
  windowed_.emplace(cache_key, pair);
  return pair;
}

std::shared_ptr<const PreparedPair> InMemoryPairSource::load(const std::string& name,
                                                             const WindowRequest& windows) {
  std::shared_ptr<const PreparedPair> prepared;
  std::shared_ptr<const TracePair> traces;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = prepared_.find(name); it != prepared_.end()) prepared = it->second;
    if (const auto it = traces_.find(name); it != traces_.end()) traces = it->second;
  }
  if (prepared) {
    check_unwindowed(name, windows);
    return prepared;
  }
  if (!traces && name.rfind("synth:", 0) == 0) {
    static const profiling::Op synthesis("memtier.synthesis", profiling::Category::kData);
    const profiling::Scope scope(synthesis);
    traces = std::make_shared<const TracePair>(synthesize_pair(parse_synth_name(name)));
    add_traces(name, traces);
    remember_read(name);  // cached, but not a name the user added
  }
  if (traces) return window_cached(name, traces, windows);
  return load_data(name, windows);
}

bool InMemoryPairSource::is_preprocessed(const std::string& name) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (prepared_.count(name) != 0) return true;
  }
  if (!data_ || name.starts_with("synth:")) return false;
  try {
    return !find_pair_names(*data_, name).prepared.empty();
  } catch (const Error&) {
    return false;  // loading it names the problem
  }
}

std::shared_ptr<const PreparedPair> InMemoryPairSource::load_data(const std::string& name,
                                                                  const WindowRequest& windows) {
  const PairNames names = data_ ? find_pair_names(*data_, name) : PairNames{};
  if (!names.found()) throw_unknown(name);
  if (names.prepared.empty()) {
    for (const std::string* side : {&names.ddr, &names.hbm}) {
      if (!data_->has(*side))
        throw UnknownNameError("trace " + quote(name) + ": " + data_->missing(*side));
    }
    TracePairReader read_pair;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      read_pair = read_pair_;
    }
    auto traces = std::make_shared<TracePair>(
        read_pair(names.ddr, data_->read(names.ddr), names.hbm, data_->read(names.hbm)));
    validate_pair(*traces);
    add_traces(name, traces);
    remember_read(name);
    return window_cached(name, traces, windows);
  }
  const DataBytes bytes = data_->read(names.prepared);
  check_prepared_bytes(name, bytes.bytes);
  check_unwindowed(name, windows);
  // The pair's big columns view the bytes, kept alive with it.
  auto pair = std::make_shared<const PreparedPair>(
      decode_prepared_pair(ContainerReader(bytes.bytes, name), bytes.owner));
  add(name, pair);
  remember_read(name);
  return pair;
}

void InMemoryPairSource::remember_read(const std::string& name) {
  const std::lock_guard<std::mutex> lock(mutex_);
  read_.insert(name);
}

void InMemoryPairSource::throw_unknown(const std::string& name) {
  std::vector<std::string> added;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& entry : prepared_) {
      if (read_.count(entry.first) == 0) added.push_back(entry.first);
    }
    for (const auto& entry : traces_) {
      if (read_.count(entry.first) == 0) added.push_back(entry.first);
    }
  }
  const std::vector<std::string> shipped =
      data_ ? shipped_pair_names(*data_) : std::vector<std::string>{};
  std::string message = "unknown trace " + quote(name);
  if (data_) {
    message += ": " + data_->missing(name) + ", and no " + printable(name) + ".ddr.* + " +
               printable(name) + ".hbm.* pair";
  }
  if (is_bare(name) && !shipped.empty()) message += ", and no shipped pair of that name";
  std::vector<std::string> known = shipped;
  known.insert(known.end(), added.begin(), added.end());
  if (const std::string closest = is_bare(name) ? closest_name(name, known) : "";
      !closest.empty()) {
    message += "; did you mean " + quote(closest) + "?";
  }
  if (!shipped.empty()) message += " (shipped: " + join(shipped, ", ") + ")";
  if (!added.empty()) message += "; added: " + printable(join(added, ", "));
  throw UnknownNameError(message +
                         "; also DDR,HBM, a preprocessed PAIR.bin or "
                         "synth:PATTERN[:SAMPLES[:SEED[:FOOTPRINT_MIB]]]");
}

std::shared_ptr<InMemoryPairSource> pair_source_over(
    const std::shared_ptr<const DataSource>& data) {
  // One source per data source, held weakly: the envs and tools that use it keep it alive.
  static std::mutex mutex;
  static std::map<const DataSource*, std::weak_ptr<InMemoryPairSource>> sources;
  const std::lock_guard<std::mutex> lock(mutex);
  std::weak_ptr<InMemoryPairSource>& slot = sources[data.get()];
  std::shared_ptr<InMemoryPairSource> source = slot.lock();
  if (!source) {
    source = std::make_shared<InMemoryPairSource>(data);
    slot = source;
  }
  return source;
}

}  // namespace sysgym::memtier
