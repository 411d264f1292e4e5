#include "distributed/collective.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <span>
#include <string>

#include "app.hpp"
#include "base/error.hpp"
#include "base/quote.hpp"
#include "base/units.hpp"

namespace sysgym::cli {
namespace {

CollectiveFactory factory = nullptr;
CollectiveAbort abort_job = nullptr;

// A JSON value as the user wrote it on the command line, for a message.
std::string shown(const nlohmann::json* value) {
  if (value == nullptr) return "nothing";
  return quote(value->is_string() ? value->get<std::string>() : value->dump());
}

// A flattened key ("/env configs/0/bins") as the setting it is ("env configs[0].bins").
std::string setting_name(const std::string& pointer) {
  std::string name;
  std::size_t at = 1;
  while (at <= pointer.size()) {
    const std::size_t end = std::min(pointer.find('/', at), pointer.size());
    const std::string part = pointer.substr(at, end - at);
    const bool index = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
    name += name.empty() ? part : index ? "[" + part + "]" : "." + part;
    at = end + 1;
  }
  return name;
}

}  // namespace

void set_collective_factory(CollectiveFactory f, CollectiveAbort abort) {
  factory = f;
  abort_job = abort;
}

std::unique_ptr<agents::Collective> open_collective() {
  if (factory == nullptr) {
    throw ConfigError(
        "--distributed needs MPI, and this sysgym was built without it: install Debian's "
        "libopenmpi-dev and openmpi-bin (./sysgym.sh setup does) and rebuild, then run "
        "`mpirun -np N sysgym train ... --distributed`");
  }
  return factory();
}

void fail_ranks(agents::Collective& collective, const std::exception_ptr& error) {
  if (collective.size() == 1 || abort_job == nullptr) std::rethrow_exception(error);
  print_error(error, "rank " + std::to_string(collective.rank()) + ": ");
  std::fflush(stderr);
  abort_job(1);
  std::abort();  // abort_job does not return
}

void check_ranks_match(agents::Collective& collective, const nlohmann::json& job) {
  // Each rank's text ends with a NUL, which dump() never writes (it escapes control characters).
  const std::string mine = job.dump() + '\0';
  std::vector<std::byte> all;
  collective.gather(std::as_bytes(std::span(mine.data(), mine.size())), 0, all);
  std::array<double, 1> verdict{1};
  if (collective.rank() == 0) {
    const std::string texts(reinterpret_cast<const char*>(all.data()), all.size());
    const nlohmann::json ours = job.flatten();
    std::size_t at = 0;
    for (int rank = 0; rank < collective.size(); ++rank) {
      const std::size_t end = texts.find('\0', at);
      const nlohmann::json theirs = nlohmann::json::parse(texts.substr(at, end - at)).flatten();
      at = end + 1;
      nlohmann::json keys = ours;
      keys.update(theirs);
      for (const auto& item : keys.items()) {
        const std::string& key = item.key();
        const nlohmann::json* a = ours.contains(key) ? &ours[key] : nullptr;
        const nlohmann::json* b = theirs.contains(key) ? &theirs[key] : nullptr;
        if (a != nullptr && b != nullptr && *a == *b) continue;
        throw ConfigError("the ranks were started with different settings: rank " +
                          std::to_string(rank) + " has " + setting_name(key) + " = " + shown(b) +
                          ", rank 0 has " + shown(a) +
                          " (every rank of a --distributed job takes the same arguments)");
      }
    }
  }
  collective.broadcast(verdict, 0);
}

void check_ranks_agree(agents::Collective& collective, const agents::Trainer& trainer) {
  // Every rank runs the same binary, so std::hash of the same text is the same number.
  const std::uint64_t hash = std::hash<std::string>{}(trainer.policy().network.to_json().dump());
  // Sums of the hash's four 16-bit parts and of their squares equal size x (part, part^2) on
  // every rank only when every rank's parts are the same (zero variance); each sum is exact.
  std::array<double, 8> sums{};
  for (int i = 0; i < 4; ++i) {
    const auto part = static_cast<double>((hash >> (16 * i)) & 0xFFFF);
    sums[static_cast<std::size_t>(i)] = part;
    sums[4 + static_cast<std::size_t>(i)] = part * part;
  }
  const std::array<double, 8> own = sums;
  collective.sum(sums);
  for (std::size_t i = 0; i < sums.size(); ++i) {
    if (sums[i] != own[i] * collective.size()) {
      throw Error("the ranks finished with different weights (rank " +
                  std::to_string(collective.rank()) + " has " + format_hex(hash) +
                  "): distributed training lost its synchrony");
    }
  }
}

}  // namespace sysgym::cli
