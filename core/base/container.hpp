// The sysgym binary container: one versioned, checksummed file format for raw traces and
// preprocessed pairs. Layout (all integers little-endian):
//
//   offset 0   8 bytes   magic "\x89SYSGYM\n" (high bit and newline catch text-mode damage)
//   offset 8   u32       format version (kContainerVersion)
//   offset 12  u32       header length H in bytes (a multiple of 8)
//   offset 16  H bytes   JSON header, space padded: {"kind": ..., "meta": {...},
//                        "blocks": [{"name", "type": "u8|u32|u64|f64", "count", "offset"}]}
//   ...        blocks    each at its 8-aligned absolute offset
//   end - 8    u64       XXH3-64 of every byte before it
//
// A file loads with one read (natively) or from an ArrayBuffer (browser); the reader checks the
// magic, version, checksum and every block's bounds before anything is decoded.
#pragma once

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sysgym {

inline constexpr std::uint32_t kContainerVersion = 1;
inline constexpr char kContainerMagic[8] = {'\x89', 'S', 'Y', 'S', 'G', 'Y', 'M', '\n'};

bool has_container_magic(std::span<const std::uint8_t> bytes);

template <typename T>
constexpr const char* element_type_name();
template <>
constexpr const char* element_type_name<std::uint8_t>() {
  return "u8";
}
template <>
constexpr const char* element_type_name<std::uint32_t>() {
  return "u32";
}
template <>
constexpr const char* element_type_name<std::uint64_t>() {
  return "u64";
}
template <>
constexpr const char* element_type_name<double>() {
  return "f64";
}

class ContainerWriter {
 public:
  explicit ContainerWriter(std::string kind) : kind_(std::move(kind)) {}
  nlohmann::json& meta() { return meta_; }

  template <typename T>
  void add(std::string name, std::span<const T> values) {
    std::vector<std::uint8_t> bytes(values.size_bytes());
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    blocks_.push_back({std::move(name), element_type_name<T>(), values.size(), std::move(bytes)});
  }
  template <typename T>
  void add(std::string name, const std::vector<T>& values) {
    add(std::move(name), std::span<const T>(values));
  }

  std::vector<std::uint8_t> finish() const;

 private:
  struct Block {
    std::string name;
    std::string type;
    std::size_t count;
    std::vector<std::uint8_t> bytes;
  };
  std::string kind_;
  nlohmann::json meta_ = nlohmann::json::object();
  std::vector<Block> blocks_;
};

class ContainerReader {
 public:
  // Validates the whole file; throws TraceFormatError naming `source` and what is wrong.
  ContainerReader(std::span<const std::uint8_t> bytes, std::string source);

  const std::string& kind() const { return kind_; }
  const nlohmann::json& meta() const { return meta_; }
  const std::string& source() const { return source_; }
  std::uint32_t version() const { return version_; }
  std::uint64_t checksum() const { return checksum_; }
  bool has(std::string_view name) const;

  // The values of block `name` in place, or an empty optional when the bytes are not aligned
  // for T (then use read()). Same checks as read().
  template <typename T>
  std::optional<std::span<const T>> view(std::string_view name,
                                         std::int64_t expected_count = -1) const {
    const Block& block = find(name, element_type_name<T>(), expected_count);
    const std::uint8_t* at = bytes_.data() + block.offset;
    if (reinterpret_cast<std::uintptr_t>(at) % alignof(T) != 0) return std::nullopt;
    return std::span<const T>(reinterpret_cast<const T*>(at), block.count);
  }

  // A copy of block `name`; throws TraceFormatError when it is missing, of another type, or
  // (when expected_count is given) of another length.
  template <typename T>
  std::vector<T> read(std::string_view name, std::int64_t expected_count = -1) const {
    const Block& block = find(name, element_type_name<T>(), expected_count);
    std::vector<T> out(block.count);
    if (block.count > 0)
      std::memcpy(out.data(), bytes_.data() + block.offset, block.count * sizeof(T));
    return out;
  }

 private:
  struct Block {
    std::string name;
    std::string type;
    std::size_t count = 0;
    std::size_t offset = 0;
  };
  const Block& find(std::string_view name, std::string_view type, std::int64_t expected) const;
  [[noreturn]] void fail(const std::string& problem) const;

  std::span<const std::uint8_t> bytes_;
  std::string source_;
  std::string kind_;
  std::uint32_t version_ = 0;
  std::uint64_t checksum_ = 0;
  nlohmann::json meta_;
  std::vector<Block> blocks_;
};

}  // namespace sysgym
