#include "distributed/collective.hpp"

#include <array>
#include <functional>
#include <string>

#include "base/error.hpp"
#include "base/units.hpp"

namespace sysgym::cli {
namespace {

CollectiveFactory factory = nullptr;

}  // namespace

void set_collective_factory(CollectiveFactory f) {
  factory = f;
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
