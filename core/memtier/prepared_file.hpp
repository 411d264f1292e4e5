// A preprocessed pair in the binary container (kind "prepared-pair"). Meta holds the window
// options and provenance; blocks hold the PreparedPair columns. Loading re-checks every column
// (PreparedPair::finalize), so a damaged file fails with a message, never undefined behaviour.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "memtier/prepared_pair.hpp"
#include "traces/container.hpp"

namespace sysgym::memtier {

inline constexpr const char* kPreparedPairKind = "prepared-pair";

std::vector<std::uint8_t> encode_prepared_pair(const PreparedPair& pair);
// Throws TraceFormatError naming reader.source().
PreparedPair decode_prepared_pair(const ContainerReader& reader);

}  // namespace sysgym::memtier
