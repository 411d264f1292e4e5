#include "inline/llvm_attributes.hpp"

#include <algorithm>

#include "base/text_scan.hpp"
#include "inline/llvm_ir.hpp"

namespace sysgym::inlining {

std::vector<std::uint64_t> group_refs(std::string_view line, std::size_t from) {
  std::vector<std::uint64_t> out;
  for (std::size_t at = line.find(" #", from); at != std::string_view::npos;
       at = line.find(" #", at + 2)) {
    std::size_t end = at + 2;
    while (end < line.size() && line[end] >= '0' && line[end] <= '9')
      ++end;
    std::uint64_t id = 0;
    if (parse_decimal(line.substr(at + 2, end - at - 2), id)) out.push_back(id);
  }
  return out;
}

bool AttributeGroup::has(std::string_view word) const {
  return std::find(words.begin(), words.end(), word) != words.end();
}

AttributeGroup attribute_group(std::string_view body) {
  AttributeGroup g;
  std::size_t i = 0;
  while (i < body.size()) {
    if (body[i] == ' ') {
      ++i;
      continue;
    }
    if (body[i] != '"') {
      const std::size_t end = std::min(body.find(' ', i), body.size());
      g.words.emplace_back(body.substr(i, end - i));
      i = end;
      continue;
    }
    const std::size_t key_end = body.find('"', i + 1);
    if (key_end == std::string_view::npos) break;
    const std::string key(body.substr(i + 1, key_end - i - 1));
    i = key_end + 1;
    if (body.substr(i).starts_with("=\"")) {
      const std::size_t value_end = body.find('"', i + 2);
      if (value_end == std::string_view::npos) break;
      g.values[key] = std::string(body.substr(i + 2, value_end - i - 2));
      i = value_end + 1;
    } else {
      g.values[key] = "";
    }
  }
  return g;
}

bool target_compatible(const IrFunction& caller, const IrFunction& callee) {
  if (caller.target_cpu != callee.target_cpu) return false;
  const auto features = [](const std::string& list) {
    std::vector<std::string> on;
    for (std::string_view rest = list; !rest.empty();) {
      const std::size_t comma = std::min(rest.find(','), rest.size());
      if (rest.front() == '+') on.emplace_back(rest.substr(1, comma - 1));
      rest.remove_prefix(std::min(comma + 1, rest.size()));
    }
    std::sort(on.begin(), on.end());
    return on;
  };
  const std::vector<std::string> mine = features(caller.target_features);
  const std::vector<std::string> needed = features(callee.target_features);
  return std::includes(mine.begin(), mine.end(), needed.begin(), needed.end());
}

}  // namespace sysgym::inlining
