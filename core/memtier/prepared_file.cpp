#include "memtier/prepared_file.hpp"

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/quote.hpp"

namespace sysgym::memtier {

std::vector<std::uint8_t> encode_prepared_pair(const PreparedPair& pair) {
  ContainerWriter writer(kPreparedPairKind);
  writer.meta() = {
      {"mode", window_mode_name(pair.options.mode)},
      {"unit", window_unit_name(pair.options.unit)},
      {"window_len", pair.options.window_len.value_or(0.0)},
      {"cpu_cycles_per_ms", pair.options.cpu_cycles_per_ms},
      {"page_size", pair.options.page_size_bits},
      {"ddr_source", pair.ddr_source},
      {"hbm_source", pair.hbm_source},
      {"time_base", time_base_name(pair.time_base)},
      {"ticks_per_ms", pair.ticks_per_ms},
      {"ddr_samples", pair.ddr_samples},
      {"hbm_samples", pair.hbm_samples},
      {"windows", pair.window_count()},
  };
  writer.add("ddr_ticks", pair.ddr_ticks);
  writer.add("hbm_ticks", pair.hbm_ticks);
  writer.add("phase", pair.phase);
  writer.add("flags", pair.flags);
  writer.add("entry_offset", pair.entry_offset);
  writer.add("pages", pair.pages.span());
  writer.add("entry_page", pair.entry_page.span());
  writer.add("entry_prefix", pair.count_prefix.span());
  return writer.finish();
}

namespace {

// A view into the reader's bytes when an owner keeps them alive and they are aligned; a copy
// otherwise.
template <typename T>
Column<T> column(const ContainerReader& reader, std::string_view name, std::int64_t expected,
                 const std::shared_ptr<const void>& owner) {
  if (owner != nullptr) {
    if (const auto values = reader.view<T>(name, expected)) return Column<T>(*values, owner);
  }
  return Column<T>(reader.read<T>(name, expected));
}

}  // namespace

PreparedPair decode_prepared_pair(const ContainerReader& reader,
                                  const std::shared_ptr<const void>& owner) {
  if (reader.kind() != kPreparedPairKind) {
    throw TraceFormatError(
        reader.source() + ": holds a " + quote(reader.kind()) +
        ", expected a preprocessed pair (make one with `sysgym memtier preprocess`)");
  }
  PreparedPair pair;
  std::int64_t windows = 0;
  try {
    const nlohmann::json& meta = reader.meta();
    pair.options.mode = parse_window_mode(meta.at("mode").get<std::string>());
    pair.options.unit = parse_window_unit(meta.at("unit").get<std::string>());
    pair.options.window_len = meta.at("window_len").get<double>();
    pair.options.cpu_cycles_per_ms = meta.at("cpu_cycles_per_ms").get<double>();
    pair.options.page_size_bits = json_integer<int>(meta.at("page_size"));
    pair.ddr_source = meta.at("ddr_source").get<std::string>();
    pair.hbm_source = meta.at("hbm_source").get<std::string>();
    pair.time_base = meta.at("time_base").get<std::string>() == "nanoseconds"
                         ? TimeBase::kNanoseconds
                         : TimeBase::kCycles;
    pair.ticks_per_ms = meta.at("ticks_per_ms").get<double>();
    pair.ddr_samples = json_integer<std::uint64_t>(meta.at("ddr_samples"));
    pair.hbm_samples = json_integer<std::uint64_t>(meta.at("hbm_samples"));
    windows = json_integer<std::int64_t>(meta.at("windows"));
  } catch (const nlohmann::json::exception& e) {
    throw TraceFormatError(reader.source() + ": malformed prepared-pair meta: " + json_problem(e));
  } catch (const UnknownNameError& e) {
    throw TraceFormatError(reader.source() + ": " + e.what());
  }
  pair.ddr_ticks = reader.read<std::uint64_t>("ddr_ticks", windows);
  pair.hbm_ticks = reader.read<std::uint64_t>("hbm_ticks", windows);
  pair.phase = reader.read<std::uint32_t>("phase", windows);
  pair.flags = reader.read<std::uint8_t>("flags", windows);
  pair.entry_offset = reader.read<std::uint64_t>("entry_offset", windows + 1);
  pair.pages = column<std::uint64_t>(reader, "pages", -1, owner);
  pair.entry_page = column<std::uint32_t>(reader, "entry_page", -1, owner);
  pair.count_prefix = column<std::uint32_t>(
      reader, "entry_prefix", static_cast<std::int64_t>(pair.entry_page.size()) + 1, owner);
  pair.finalize(reader.source());
  return pair;
}

}  // namespace sysgym::memtier
