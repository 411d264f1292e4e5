// Attribute groups of textual LLVM IR ("attributes #3 = { noinline "target-cpu"="x86-64" }"),
// which say of a function what decides whether clang may inline it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sysgym::inlining {

struct IrFunction;

// A group's words and "key"="value" pairs, as written between its braces.
struct AttributeGroup {
  std::vector<std::string> words;
  std::unordered_map<std::string, std::string> values;
  bool has(std::string_view word) const;
};

AttributeGroup attribute_group(std::string_view body);

// The attribute groups ("#12") a line refers to after `from`.
std::vector<std::uint64_t> group_refs(std::string_view line, std::size_t from);

// Whether clang may inline a body compiled for the callee's target into the caller's: the same
// CPU, and the callee's "+feature"s a subset of the caller's.
bool target_compatible(const IrFunction& caller, const IrFunction& callee);

}  // namespace sysgym::inlining
