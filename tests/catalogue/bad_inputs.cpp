#include "catalogue/bad_inputs.hpp"

#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "agents/policy_file.hpp"
#include "base/json_text.hpp"
#include "base/numbers.hpp"
#include "env/episode.hpp"
#include "memtier/capture/capture.hpp"
#include "memtier/estimator.hpp"
#include "memtier/memtier_env.hpp"
#include "memtier/policy.hpp"
#include "memtier/prepared_file.hpp"
#include "memtier/prepared_pair.hpp"
#include "memtier/traces/csv_reader.hpp"
#include "memtier/traces/load.hpp"
#include "memtier/traces/perf_reader.hpp"
#include "memtier/traces/synth.hpp"
#include "memtier/traces/trace_file.hpp"
#include "support/small_source.hpp"

namespace sysgym::catalogue {
namespace {

using nlohmann::json;

// ---- traces ---------------------------------------------------------------------------------

void csv(std::string_view text) {
  memtier::read_csv_trace(text, "run.ddr.csv");
}

void perf(std::string_view text) {
  memtier::read_perf_script_trace(text, "perf.txt");
}

std::string long_line() {
  return std::string(2u << 20, '7');
}

// A valid 20-sample binary trace; the rows below damage it in one way each.
std::vector<std::uint8_t> binary_trace() {
  memtier::SynthOptions o;
  o.samples = 20;
  return memtier::encode_trace(memtier::synthesize_pair(o).ddr);
}

void put_u32(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint32_t value) {
  std::memcpy(bytes.data() + at, &value, sizeof value);
}

// Recomputes the trailing checksum, so the damage reaches the checks behind it.
std::vector<std::uint8_t> resealed(std::vector<std::uint8_t> bytes) {
  const std::uint64_t sum = XXH3_64bits(bytes.data(), bytes.size() - 8);
  std::memcpy(bytes.data() + bytes.size() - 8, &sum, sizeof sum);
  return bytes;
}

// Replaces `from` by `to` in the JSON header; the header's space padding absorbs the growth.
std::vector<std::uint8_t> edited_header(std::string_view from, std::string_view to) {
  std::vector<std::uint8_t> bytes = binary_trace();
  std::uint32_t size = 0;
  std::memcpy(&size, bytes.data() + 12, sizeof size);
  std::string header(reinterpret_cast<const char*>(bytes.data()) + 16, size);
  header.replace(header.find(from), from.size(), to);
  header.resize(size, ' ');
  std::memcpy(bytes.data() + 16, header.data(), size);
  return resealed(std::move(bytes));
}

void load(const std::vector<std::uint8_t>& bytes) {
  memtier::load_trace(bytes, "run.ddr.bin");
}

void lackey(std::string_view line) {
  capture::CaptureBuilder builder({});
  builder.add_line(line);
  builder.finish("prog");
}

// ---- envs, policies, episodes ---------------------------------------------------------------

json with_trace(json config) {
  if (!config.contains("trace")) config["trace"] = testing::kSmallTrace;
  return config;
}

void env_config(const json& config) {
  memtier::MemtierEnv env(with_trace(config), testing::small_source());
  env.reset(1);
}

void step(const json& config, std::vector<double> action) {
  memtier::MemtierEnv env(with_trace(config), testing::small_source());
  env.reset(1);
  env.step(action);
}

json shipped_policy() {
  std::ifstream in(SYSGYM_SOURCE_DIR "/data/policies/memtier/dqn-per-bin.json");
  return json::parse(in);
}

void policy(const json& j) {
  agents::PolicyFile file = agents::PolicyFile::from_json(j);
  memtier::MemtierEnv env(with_trace({{"bins", 16}}), testing::small_source());
  file.bind(env);
}

// A short recorded episode of the static oracle on the small trace.
json recording() {
  memtier::MemtierEnv env(with_trace({{"episode_length", 6}}), testing::small_source());
  PolicyRegistry registry;
  memtier::register_memtier_policies(registry);
  auto oracle = registry.make("static-oracle", env.id());
  return episode_to_json(run_episode(env, *oracle, "static-oracle", 3, true), env);
}

void replay(const json& episode) {
  memtier::MemtierEnv env(with_trace(episode.value("config", json::object())),
                          testing::small_source());
  replay_episode(env, episode);
}

std::string nested(int depth) {
  return std::string(static_cast<std::size_t>(depth), '[') +
         std::string(static_cast<std::size_t>(depth), ']');
}

}  // namespace

json edited(json j, const json::json_pointer& at, json value) {
  j[at] = std::move(value);
  return j;
}

std::vector<BadInput> bad_inputs() {
  const std::string csv_head = "Timestamp,Vaddr\n";
  std::vector<BadInput> rows = {
      {"MemAI CSV", "empty file", [] { csv(""); }},
      {"MemAI CSV", "only blank lines", [] { csv("\n  \n\n"); }},
      {"MemAI CSV", "header without a Vaddr column", [] { csv("Timestamp,Addr\n1,2\n"); }},
      {"MemAI CSV", "header and no samples", [=] { csv(csv_head); }},
      {"MemAI CSV", "a word where a number belongs", [=] { csv(csv_head + "ten,0x10\n"); }},
      {"MemAI CSV", "an address that is not hex", [=] { csv(csv_head + "1,0xzz\n"); }},
      {"MemAI CSV", "a negative timestamp", [=] { csv(csv_head + "-1,16\n"); }},
      {"MemAI CSV", "a row with a missing field", [] { csv("Timestamp,Instrs,Vaddr\n1,2\n"); }},
      {"MemAI CSV", "timestamps going back", [=] { csv(csv_head + "5,1\n4,2\n"); }},
      {"MemAI CSV", "a phase beyond 32 bits",
       [] { csv("Timestamp,Vaddr,Phase\n1,2,5000000000\n"); }},
      {"MemAI CSV", "a 2 MiB header line", [] { csv(long_line() + "\n1\n"); }},
      {"MemAI CSV", "a 2 MiB data line", [=] { csv(csv_head + "1," + long_line() + "\n"); }},
      {"MemAI CSV", "timestamps 0 and 2^64-1 (a span no tick sum can hold)",
       [=] { csv(csv_head + "0,16\n18446744073709551615,32\n"); }},
      {"MemAI CSV", "CR-only line endings", [] { csv("Timestamp,Vaddr\r1,16\r2,32\r"); }},
      {"MemAI CSV", "a set id with a space",
       [=] { csv("# sysgym-set: a b\n" + csv_head + "1,16\n"); }},
      {"perf script", "comments only", [] { perf("# perf script\n# no samples\n"); }},
      {"perf script", "a line without a time field", [] { perf("prog 12 [000] cycles: 7f00\n"); }},
      {"perf script", "a time beyond 2^64 nanoseconds",
       [] { perf("prog 12 [000] 99999999999999999999.5: cycles: 7f00\n"); }},
      {"perf script", "no address after the event",
       [] { perf("prog 1 [000] 12.5: mem-loads: zz\n"); }},
      {"perf script", "time going back",
       [] { perf("p 1 [0] 12.5: mem-loads: 7f00\np 1 [0] 11.0: mem-loads: 7f08\n"); }},
      {"perf script", "a 2 MiB line",
       [] { perf("p 1 [0] 12.5: mem-loads: " + long_line() + "\n"); }},
      {"any trace", "text that is no trace format",
       [] {
         memtier::load_trace(std::vector<std::uint8_t>{'h', 'i', '\n'}, "notes.txt");
       }},
      {"binary trace", "the magic alone",
       [] {
         auto b = binary_trace();
         b.resize(8);
         load(b);
       }},
      {"binary trace", "one byte changed",
       [] {
         auto b = binary_trace();
         b[b.size() / 2] ^= 0x20;
         load(b);
       }},
      {"binary trace", "format version 2",
       [] {
         auto b = binary_trace();
         put_u32(b, 8, 2);
         load(b);
       }},
      {"binary trace", "header length of 4 GiB",
       [] {
         auto b = binary_trace();
         put_u32(b, 12, 0xfffffff8u);
         load(resealed(b));
       }},
      {"binary trace", "header claiming 10^15 samples",
       [] { load(edited_header("\"count\":20", "\"count\":1000000000000000")); }},
      {"binary trace", "a block count of 1.8e23",
       [] { load(edited_header("\"count\":20", "\"count\":1.8e23")); }},
      {"binary trace", "a block of unknown type",
       [] { load(edited_header("\"u64\"", "\"u63\"")); }},
      {"binary trace", "header JSON nested 100 deep",
       [] { load(edited_header("{\"blocks\"", nested(100) + "{\"blocks\"")); }},
      {"prepared pair", "a raw trace instead",
       [] {
         const auto bytes = binary_trace();
         memtier::decode_prepared_pair(ContainerReader(bytes, "pair.bin"));
       }},
      {"prepared pair", "window ticks of 2^64-1 behind a valid checksum",
       [] {
         memtier::WindowOptions w;
         w.mode = memtier::WindowMode::kAligned;
         memtier::PreparedPair pair =
             memtier::prepare_pair(memtier::synthesize_pair(memtier::SynthOptions{}), w);
         pair.ddr_ticks.back() = UINT64_MAX;
         const auto bytes = memtier::encode_prepared_pair(pair);
         memtier::decode_prepared_pair(ContainerReader(bytes, "pair.bin"));
       }},
      {"trace pair", "DDR and HBM files of two different captures",
       [] {
         memtier::TracePair pair;
         pair.ddr =
             memtier::read_csv_trace("# sysgym-set: run1\nTimestamp,Vaddr\n1,2\n", "a.ddr.csv");
         pair.hbm =
             memtier::read_csv_trace("# sysgym-set: run2\nTimestamp,Vaddr\n1,2\n", "a.hbm.csv");
         memtier::validate_pair(pair);
       }},
      {"trace pair", "DDR and HBM runs with different phases",
       [] {
         memtier::TracePair pair;
         pair.ddr = memtier::read_csv_trace("Timestamp,Vaddr,Phase\n1,2,0\n", "a.ddr.csv");
         pair.hbm = memtier::read_csv_trace("Timestamp,Vaddr,Phase\n1,2,1\n", "a.hbm.csv");
         memtier::validate_pair(pair);
       }},
      {"lackey stream", "an unknown access kind", [] { lackey(" X 0401ab70,3"); }},
      {"lackey stream", "an access of 0 bytes", [] { lackey(" L 0401ab70,0"); }},
      {"lackey stream", "an access of 8 KiB", [] { lackey(" L 0401ab70,8192"); }},
      {"lackey stream", "a program that touches no memory", [] { lackey("==12== Lackey"); }},
      {"JSON text", "not JSON", [] { parse_json_text("{bins: 4}", "--config"); }},
      {"JSON text", "nested 100 levels deep", [] { parse_json_text(nested(100), "--config"); }},
      {"JSON text", "a number of 1e400", [] { parse_json_text("{\"bins\": 1e400}", "--config"); }},
      {"numeric flag", "--seed -1", [] { parse_integer("-1", "--seed", kSeedRange); }},
      {"numeric flag", "--seed 2^64",
       [] { parse_integer("18446744073709551616", "--seed", kSeedRange); }},
      {"numeric flag", "--seed abc", [] { parse_integer("abc", "--seed", kSeedRange); }},
      {"numeric flag", "--samples 1e3",
       [] { parse_integer("1e3", "--samples", memtier::kSynthSamplesRange); }},
      {"numeric flag", "--cpu-cycles-per-ms 1e-300",
       [] { parse_number("1e-300", "--cpu-cycles-per-ms", memtier::kCpuCyclesPerMsRange); }},
      {"numeric flag", "--hbm-factor nan",
       [] { parse_number("nan", "--hbm-factor", memtier::kHbmFactorRange); }},
      {"env config", "a misspelt key",
       [] {
         env_config({{"hbm_capacty", "10%"}});
       }},
      {"env config", "0 bins",
       [] {
         env_config({{"bins", 0}});
       }},
      {"env config", "a capacity that is no size",
       [] {
         env_config({{"hbm_capacity", "lots"}});
       }},
      {"env config", "a capacity of 0 bytes",
       [] {
         env_config({{"hbm_capacity", "0B"}});
       }},
      {"env config", "a capacity of 150% of the footprint",
       [] {
         env_config({{"hbm_capacity", "150%"}});
       }},
      {"env config", "a capacity range from 5% down to 3%",
       [] {
         env_config({{"hbm_capacity", {"5%", "3%"}}});
       }},
      {"env config", "an unknown window mode",
       [] {
         env_config({{"window_mode", "fast"}});
       }},
      {"env config", "windows that would number in billions",
       [] {
         env_config({{"window_mode", "memai"}, {"window_len", 1e-9}});
       }},
      {"env config", "a key 1 MB long (quoted short, no suggestion search)",
       [] {
         env_config({{std::string(1 << 20, 'k'), 1}});
       }},
      {"env config", "a trace name with terminal escapes",
       [] {
         env_config({{"trace", "\x1b]0;owned\x07\x1b[2J"}});
       }},
      {"env config", "cpu_cycles_per_ms of 1e-300",
       [] {
         env_config({{"window_mode", "memai"}, {"cpu_cycles_per_ms", 1e-300}});
       }},
      {"env config", "an unknown trace",
       [] {
         env_config({{"trace", "nowhere"}});
       }},
      {"env config", "a synthetic trace of 10^12 samples",
       [] {
         env_config({{"trace", "synth:random:1000000000000"}});
       }},
      {"env config", "a synthetic trace of 'many' samples",
       [] {
         env_config({{"trace", "synth:random:many"}});
       }},
      {"action", "a step before reset",
       [] {
         memtier::MemtierEnv env(with_trace({}), testing::small_source());
         env.step(std::vector<double>(64, 0.0));
       }},
      {"action", "too few values",
       [] {
         step({{"bins", 8}}, {1, 0});
       }},
      {"action", "a 2 in a MultiBinary action",
       [] {
         step({{"bins", 2}}, {2, 0});
       }},
      {"action", "NaN in a MultiBinary action",
       [] {
         step({{"bins", 2}}, {std::numeric_limits<double>::quiet_NaN(), 0});
       }},
      {"action", "an index past a Discrete space",
       [] {
         step({{"bins", 2}, {"action_mode", "discrete"}}, {5});
       }},
      {"policy file", "another kind of JSON",
       [] {
         policy({{"kind", "sysgym-episode"}});
       }},
      {"policy file", "schema version 99",
       [] { policy(edited(shipped_policy(), "/schema_version"_json_pointer, 99)); }},
      {"policy file", "a network of 65536-wide layers",
       [] {
         policy(edited(shipped_policy(), "/network/sizes"_json_pointer, {11, 65536, 65536, 2}));
       }},
      {"policy file", "weights missing from a layer",
       [] { policy(edited(shipped_policy(), "/network/layers/0/w"_json_pointer, json::array())); }},
      {"policy file", "trained for 64 bins, used with 16", [] { policy(shipped_policy()); }},
      {"episode", "a policy file instead", [] { replay(shipped_policy()); }},
      {"episode", "\"kind\" is a number",
       [] {
         replay({{"kind", 7}});
       }},
      {"episode", "an empty step",
       [] { replay(edited(recording(), "/steps/2"_json_pointer, json::object())); }},
      {"episode", "a reward changed by hand",
       [] { replay(edited(recording(), "/steps/3/reward"_json_pointer, 1.5)); }},
      {"episode", "a step cut off the end",
       [] {
         json episode = recording();
         episode["steps"].erase(episode["steps"].size() - 1);
         replay(episode);
       }},
  };
  for (BadInput& row : inline_bad_inputs())
    rows.push_back(std::move(row));
  for (BadInput& row : family_bad_inputs())
    rows.push_back(std::move(row));
  return rows;
}

}  // namespace sysgym::catalogue
