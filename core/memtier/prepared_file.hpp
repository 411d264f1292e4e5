// A preprocessed pair in the binary container (kind "prepared-pair"). Meta holds the window
// options and provenance; blocks hold the PreparedPair columns (entry counts as the running
// prefix "entry_prefix", so nothing needs computing on load). Loading re-checks every column
// (PreparedPair::finalize), so a damaged file fails with a message, never undefined behaviour.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/container.hpp"
#include "memtier/prepared_pair.hpp"

namespace sysgym::memtier {

inline constexpr const char* kPreparedPairKind = "prepared-pair";

std::vector<std::uint8_t> encode_prepared_pair(const PreparedPair& pair);
// Throws TraceFormatError naming reader.source(). With an `owner` that keeps the reader's bytes
// alive (a mapped file), the large columns view those bytes instead of copying them.
PreparedPair decode_prepared_pair(const ContainerReader& reader,
                                  const std::shared_ptr<const void>& owner = nullptr);

}  // namespace sysgym::memtier
