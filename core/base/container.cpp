#include "base/container.hpp"

#include <bit>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/quote.hpp"

namespace sysgym {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the container format is little-endian; big-endian hosts need byte swapping");

constexpr std::size_t kPreambleSize = 16;
constexpr std::size_t kChecksumSize = 8;
constexpr std::size_t kMaxHeaderSize = 16u << 20;

std::size_t align8(std::size_t n) {
  return (n + 7) & ~std::size_t{7};
}

std::size_t element_size(std::string_view type) {
  if (type == "u8") return 1;
  if (type == "u32") return 4;
  if (type == "u64" || type == "f64") return 8;
  return 0;
}

template <typename T>
void put(std::vector<std::uint8_t>& out, std::size_t offset, T value) {
  std::memcpy(out.data() + offset, &value, sizeof(T));
}

template <typename T>
T get(std::span<const std::uint8_t> bytes, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

}  // namespace

bool has_container_magic(std::span<const std::uint8_t> bytes) {
  return bytes.size() >= sizeof(kContainerMagic) &&
         std::memcmp(bytes.data(), kContainerMagic, sizeof(kContainerMagic)) == 0;
}

std::vector<std::uint8_t> ContainerWriter::finish() const {
  // Block offsets depend on the header length, which depends on the offsets' digits: lay out
  // with a provisional header, then pad the final header to the provisional length.
  nlohmann::json header = {{"kind", kind_}, {"meta", meta_}, {"blocks", nlohmann::json::array()}};
  for (const Block& block : blocks_) {
    header["blocks"].push_back(
        {{"name", block.name}, {"type", block.type}, {"count", block.count}, {"offset", 0}});
  }
  const std::size_t provisional = header.dump().size() + 24 * blocks_.size();
  const std::size_t header_size = align8(provisional);
  std::size_t offset = kPreambleSize + header_size;
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    header["blocks"][i]["offset"] = offset;
    offset = align8(offset + blocks_[i].bytes.size());
  }
  std::string text = header.dump();
  text.resize(header_size, ' ');  // the offsets grew by less than the 24-byte allowance

  std::vector<std::uint8_t> out(offset + kChecksumSize, 0);
  std::memcpy(out.data(), kContainerMagic, sizeof(kContainerMagic));
  put<std::uint32_t>(out, 8, kContainerVersion);
  put<std::uint32_t>(out, 12, static_cast<std::uint32_t>(header_size));
  std::memcpy(out.data() + kPreambleSize, text.data(), text.size());
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    const std::size_t at = header["blocks"][i]["offset"].get<std::size_t>();
    if (!blocks_[i].bytes.empty()) {
      std::memcpy(out.data() + at, blocks_[i].bytes.data(), blocks_[i].bytes.size());
    }
  }
  put<std::uint64_t>(out, offset, XXH3_64bits(out.data(), offset));
  return out;
}

void ContainerReader::fail(const std::string& problem) const {
  throw TraceFormatError(source_ + ": " + problem);
}

ContainerReader::ContainerReader(std::span<const std::uint8_t> bytes, std::string source)
    : bytes_(bytes), source_(std::move(source)) {
  if (!has_container_magic(bytes)) {
    const std::string kind = json_file_kind(bytes);
    fail(kind.empty() ? "not a sysgym binary file (bad magic)"
                      : kind + ", not a sysgym binary file (bad magic)");
  }
  if (bytes.size() < kPreambleSize + kChecksumSize) fail("truncated sysgym binary file");
  version_ = get<std::uint32_t>(bytes, 8);
  if (version_ != kContainerVersion) {
    fail("binary format version " + std::to_string(version_) +
         " is not supported (this build reads " + std::to_string(kContainerVersion) + ")");
  }
  const std::size_t body = bytes.size() - kChecksumSize;
  checksum_ = get<std::uint64_t>(bytes, body);
  if (XXH3_64bits(bytes.data(), body) != checksum_) {
    fail("checksum mismatch: the file is corrupted or truncated");
  }
  const std::size_t header_size = get<std::uint32_t>(bytes, 12);
  if (header_size > kMaxHeaderSize || kPreambleSize + header_size > body) {
    fail("header length " + std::to_string(header_size) + " exceeds the file");
  }
  nlohmann::json header;
  try {
    const char* text = reinterpret_cast<const char*>(bytes.data() + kPreambleSize);
    header = parse_json_text(std::string_view(text, header_size), "header");
    kind_ = header.at("kind").get<std::string>();
    meta_ = header.at("meta");
    for (const auto& b : header.at("blocks")) {
      blocks_.push_back({b.at("name").get<std::string>(), b.at("type").get<std::string>(),
                         json_integer<std::size_t>(b.at("count")),
                         json_integer<std::size_t>(b.at("offset"))});
    }
  } catch (const ConfigError& e) {
    fail(std::string("malformed ") + e.what());
  } catch (const nlohmann::json::exception& e) {
    fail("malformed header: " + json_problem(e));
  }
  for (const Block& block : blocks_) {
    const std::size_t size = element_size(block.type);
    if (size == 0) fail("block " + quote(block.name) + " has unknown type " + quote(block.type));
    const bool fits = block.offset >= kPreambleSize + header_size && block.offset % 8 == 0 &&
                      block.offset <= body && block.count <= (body - block.offset) / size;
    if (!fits) fail("block " + quote(block.name) + " lies outside the file");
  }
}

bool ContainerReader::has(std::string_view name) const {
  for (const Block& block : blocks_) {
    if (block.name == name) return true;
  }
  return false;
}

const ContainerReader::Block& ContainerReader::find(std::string_view name, std::string_view type,
                                                    std::int64_t expected) const {
  for (const Block& block : blocks_) {
    if (block.name != name) continue;
    if (block.type != type) {
      fail("block " + quote(block.name) + " has type " + block.type + ", expected " +
           std::string(type));
    }
    if (expected >= 0 && block.count != static_cast<std::size_t>(expected)) {
      fail("block " + quote(block.name) + " has " + std::to_string(block.count) +
           " values, expected " + std::to_string(expected));
    }
    return block;
  }
  fail("missing block " + quote(name) + " in a " + quote(kind_) + " file");
}

}  // namespace sysgym
