#include "inline/llvm_ir.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "base/text_scan.hpp"
#include "inline/llvm_attributes.hpp"

namespace sysgym::inlining {
namespace {

// The debug-info nodes a call-site key is made of.
struct DebugNode {
  enum class Kind { kLocation, kSubprogram, kBlock, kOther } kind = Kind::kOther;
  std::int64_t line = 0;
  std::int64_t column = 0;
  std::uint64_t scope = 0;       // location, block: the enclosing scope's node
  std::uint64_t inlined_at = 0;  // location: the call it was inlined at (0: none)
  std::string name;              // subprogram: linkage name, else name
};

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '$' || c == '-';
}

// An IR name at `at` (after its sigil): plain or "quoted". Returns the end, npos when none.
std::size_t read_name(std::string_view s, std::size_t at, std::string& out) {
  if (at < s.size() && s[at] == '"') {
    const std::size_t close = s.find('"', at + 1);
    if (close == std::string_view::npos) return close;
    out.assign(s.substr(at + 1, close - at - 1));
    return close + 1;
  }
  std::size_t end = at;
  while (end < s.size() && is_name_char(s[end]))
    ++end;
  if (end == at) return std::string_view::npos;
  out.assign(s.substr(at, end - at));
  return end;
}

// The fields of "!DIKind(a: 1, b: !2, name: "x, y")" as (key, value) views.
std::vector<std::pair<std::string_view, std::string_view>> fields_of(std::string_view body) {
  std::vector<std::pair<std::string_view, std::string_view>> out;
  std::size_t start = 0;
  bool quoted = false;
  int depth = 0;
  for (std::size_t i = 0; i <= body.size(); ++i) {
    const char c = i < body.size() ? body[i] : ',';
    if (c == '"' && (i == 0 || body[i - 1] != '\\')) quoted = !quoted;
    if (quoted) continue;
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c != ',' || depth > 0) continue;
    const std::string_view field = trim(body.substr(start, i - start));
    const std::size_t colon = field.find(':');
    if (colon != std::string_view::npos)
      out.emplace_back(field.substr(0, colon), trim(field.substr(colon + 1)));
    start = i + 1;
  }
  return out;
}

std::int64_t number_of(std::string_view v) {
  std::uint64_t n = 0;
  const bool negative = !v.empty() && v.front() == '-';
  if (!parse_decimal(negative ? v.substr(1) : v, n)) return 0;
  return negative ? -static_cast<std::int64_t>(n) : static_cast<std::int64_t>(n);
}

std::uint64_t ref_of(std::string_view v) {
  std::uint64_t n = 0;
  if (v.size() < 2 || v.front() != '!' || !parse_decimal(v.substr(1), n)) return 0;
  return n;
}

// "!12 = distinct !DILocation(...)" as (12, node); nullopt for other metadata.
std::optional<std::pair<std::uint64_t, DebugNode>> debug_node(std::string_view line) {
  const std::size_t eq = line.find(" = ");
  std::uint64_t id = 0;
  if (eq == std::string_view::npos || !parse_decimal(line.substr(1, eq - 1), id)) return {};
  std::string_view rest = line.substr(eq + 3);
  if (rest.starts_with("distinct ")) rest.remove_prefix(9);
  const std::size_t open = rest.find('(');
  if (!rest.starts_with("!DI") || open == std::string_view::npos || !rest.ends_with(")")) return {};
  const std::string_view kind = rest.substr(1, open - 1);
  DebugNode node;
  if (kind == "DILocation") {
    node.kind = DebugNode::Kind::kLocation;
  } else if (kind == "DISubprogram") {
    node.kind = DebugNode::Kind::kSubprogram;
  } else if (kind == "DILexicalBlock" || kind == "DILexicalBlockFile") {
    node.kind = DebugNode::Kind::kBlock;
  } else {
    return {};
  }
  std::string linkage;
  for (const auto& [key, value] : fields_of(rest.substr(open + 1, rest.size() - open - 2))) {
    if (key == "line") node.line = number_of(value);
    if (key == "column") node.column = number_of(value);
    if (key == "scope") node.scope = ref_of(value);
    if (key == "inlinedAt") node.inlined_at = ref_of(value);
    const bool text = value.size() >= 2 && value.front() == '"';
    if (key == "name" && text) node.name.assign(value.substr(1, value.size() - 2));
    if (key == "linkageName" && text) linkage.assign(value.substr(1, value.size() - 2));
  }
  if (!linkage.empty()) node.name = linkage;
  return std::make_pair(id, std::move(node));
}

// The callee of a call or invoke instruction ("" when indirect), or nullopt when `inst` is
// neither: the value called is the first @name or %name followed directly by its arguments.
std::optional<std::string> callee_of(std::string_view inst) {
  std::size_t at = std::string_view::npos;
  for (const char* op : {"call ", "invoke "}) {
    for (std::size_t p = inst.find(op); p != std::string_view::npos; p = inst.find(op, p + 1)) {
      if (p == 0 || inst[p - 1] == ' ') {
        at = std::min(at, p);
        break;
      }
    }
  }
  if (at == std::string_view::npos) return std::nullopt;
  // Only an instruction's own opcode counts: "= call", "tail call", or the line's start.
  const std::string_view before = trim(inst.substr(0, at));
  if (!before.empty() && !before.ends_with("=") && !before.ends_with("tail") &&
      !before.ends_with("notail"))
    return std::nullopt;
  for (std::size_t i = at; i < inst.size(); ++i) {
    if (inst[i] != '@' && inst[i] != '%') continue;
    std::string name;
    const std::size_t end = read_name(inst, i + 1, name);
    if (end == std::string_view::npos) continue;
    if (end < inst.size() && inst[end] == '(') return inst[i] == '@' ? name : std::string();
    i = end - 1;
  }
  return std::string();
}

std::uint64_t dbg_ref(std::string_view line) {
  const std::size_t at = line.rfind("!dbg !");
  if (at == std::string_view::npos) return 0;
  std::size_t end = at + 6;
  while (end < line.size() && line[end] >= '0' && line[end] <= '9')
    ++end;
  return ref_of(line.substr(at + 5, end - at - 5));
}

struct PendingCall {
  std::size_t function = 0;
  std::string callee;
  std::uint64_t location = 0;
  std::size_t line = 0;               // of the text, for errors
  std::vector<std::uint64_t> groups;  // the call's own attribute groups
};

class Reader {
 public:
  explicit Reader(const std::string& what) : what_(what) {}

  void read(std::string_view text) {
    LineCursor cursor(text);
    std::string_view line;
    bool in_body = false;
    while (cursor.next(line)) {
      if (in_body) {
        in_body = body_line(line, cursor.line_number());
      } else if (line.starts_with("define ")) {
        define_line(line, cursor.line_number());
        in_body = !line.ends_with("}");
      } else if (line.starts_with("declare ")) {
        declare_line(line);
      } else if (line.starts_with("attributes #")) {
        attributes_line(line);
      } else if (line.starts_with("!")) {
        if (auto node = debug_node(line)) nodes_.insert(std::move(*node));
      }
      note_block_addresses(line);
    }
    if (in_body) fail(cursor.line_number(), "the last function's body has no closing '}'");
  }

  IrModule finish() {
    mark_never_inlined();
    for (PendingCall& p : pending_) {
      IrCall call{p.function, std::move(p.callee), "", 0};
      if (p.location != 0) {
        call.location = location_key(p.location, p.line);
        call.line = nodes_.at(p.location).line;
      }
      module_.calls.push_back(std::move(call));
    }
    for (std::size_t i = 0; i < module_.functions.size(); ++i) {
      if (subprograms_[i] == 0) continue;
      const auto it = nodes_.find(subprograms_[i]);
      if (it != nodes_.end()) module_.functions[i].line = it->second.line;
    }
    return std::move(module_);
  }

 private:
  void define_line(std::string_view line, std::size_t n) {
    const std::size_t at = line.find('@');
    IrFunction f;
    if (at == std::string_view::npos || read_name(line, at + 1, f.name) == std::string_view::npos)
      fail(n, "a define without a function name");
    const std::string_view head = line.substr(0, at);
    f.local = head.find(" internal ") != std::string_view::npos ||
              head.find(" private ") != std::string_view::npos;
    const std::size_t params_end = line.rfind(')');
    groups_of_[f.name] = group_refs(line, params_end);
    module_.functions.push_back(std::move(f));
    body_flags_.push_back(0);
    subprograms_.push_back(dbg_ref(line.substr(params_end)));
  }

  void declare_line(std::string_view line) {
    const std::size_t at = line.find('@');
    std::string name;
    if (at == std::string_view::npos || read_name(line, at + 1, name) == std::string_view::npos)
      return;
    groups_of_[name] = group_refs(line, line.rfind(')'));
  }

  void attributes_line(std::string_view line) {
    std::uint64_t id = 0;
    const std::size_t eq = line.find(" = {");
    if (eq == std::string_view::npos || !line.ends_with("}") ||
        !parse_decimal(line.substr(12, eq - 12), id))
      return;
    groups_[id] = attribute_group(trim(line.substr(eq + 4, line.size() - eq - 5)));
  }

  // A block whose address is taken ("blockaddress(@f, %bb)", computed goto) cannot be copied.
  void note_block_addresses(std::string_view line) {
    for (std::size_t at = line.find("blockaddress(@"); at != std::string_view::npos;
         at = line.find("blockaddress(@", at + 1)) {
      std::string name;
      if (read_name(line, at + 14, name) != std::string_view::npos)
        block_addressed_.push_back(std::move(name));
    }
  }

  bool any_group_has(const std::vector<std::uint64_t>& refs, std::string_view word) const {
    return std::any_of(refs.begin(), refs.end(), [&](std::uint64_t id) {
      const auto it = groups_.find(id);
      return it != groups_.end() && it->second.has(word);
    });
  }

  const std::vector<std::uint64_t>& groups_of(const std::string& name) const {
    static const std::vector<std::uint64_t> none;
    const auto it = groups_of_.find(name);
    return it == groups_of_.end() ? none : it->second;
  }

  // The attribute groups come after the bodies, so the reasons are settled at the end.
  void mark_never_inlined() {
    const auto mark = [](IrFunction& f, const char* why) {
      if (f.never_inlined.empty()) f.never_inlined = why;
    };
    for (IrFunction& f : module_.functions) {
      const auto& refs = groups_of(f.name);
      if (any_group_has(refs, "noinline")) mark(f, "noinline");
      if (any_group_has(refs, "optnone")) mark(f, "optnone");
      for (std::uint64_t id : refs) {
        const auto it = groups_.find(id);
        if (it == groups_.end()) continue;
        const auto value = [&](const char* key) {
          const auto v = it->second.values.find(key);
          return v == it->second.values.end() ? std::string() : v->second;
        };
        if (f.target_cpu.empty()) f.target_cpu = value("target-cpu");
        if (f.target_features.empty()) f.target_features = value("target-features");
      }
    }
    for (std::size_t i = 0; i < module_.functions.size(); ++i) {
      if ((body_flags_[i] & kVaStart) != 0) mark(module_.functions[i], "varargs");
      if ((body_flags_[i] & kIndirectBranch) != 0) mark(module_.functions[i], "indirect branch");
    }
    for (const std::string& name : block_addressed_) {
      const std::size_t i = module_.find(name);
      if (i != std::string_view::npos) mark(module_.functions[i], "block address taken");
    }
    for (const PendingCall& p : pending_) {
      if (any_group_has(p.groups, "returns_twice") ||
          any_group_has(groups_of(p.callee), "returns_twice"))
        mark(module_.functions[p.function], "setjmp");
    }
  }

  // Returns whether the body goes on.
  bool body_line(std::string_view line, std::size_t n) {
    if (line == "}") return false;
    IrFunction& f = module_.functions.back();
    if (line.empty() || line.front() == ';') return true;
    if (line.front() != ' ') {  // a label ("7:", "for.body:") starts a block
      ++f.blocks;
      return true;
    }
    if (f.blocks == 0) f.blocks = 1;
    ++f.instructions;
    const std::string_view inst = trim(line);
    if (inst.starts_with("indirectbr ")) body_flags_.back() |= kIndirectBranch;
    std::optional<std::string> callee = callee_of(inst);
    if (!callee) return true;
    if (*callee == "llvm.va_start") body_flags_.back() |= kVaStart;
    if (callee->starts_with("llvm.")) return true;  // intrinsics: never bodies to inline
    pending_.push_back({module_.functions.size() - 1, std::move(*callee), dbg_ref(line), n,
                        group_refs(line, line.rfind(')'))});
    return true;
  }

  const DebugNode& node(std::uint64_t id, std::size_t n, const char* expected) const {
    const auto it = nodes_.find(id);
    if (it == nodes_.end())
      fail(n, "metadata !" + std::to_string(id) + " (" + expected + ") is not in the module");
    return it->second;
  }

  const DebugNode& subprogram_of(std::uint64_t scope, std::size_t n) const {
    for (int depth = 0; depth < 10000; ++depth) {
      const DebugNode& s = node(scope, n, "a scope");
      if (s.kind == DebugNode::Kind::kSubprogram) return s;
      if (s.kind != DebugNode::Kind::kBlock || s.scope == 0)
        fail(n, "scope !" + std::to_string(scope) + " is no block or subprogram");
      scope = s.scope;
    }
    fail(n, "a cycle of scopes");
  }

  // As clang formats it (InlineAdvisor's formatCallSiteLocation): the line offset is unsigned.
  std::string location_key(std::uint64_t id, std::size_t n) const {
    std::string key;
    for (int depth = 0; id != 0; ++depth) {
      if (depth > 10000) fail(n, "a cycle of inlinedAt locations");
      const DebugNode& loc = node(id, n, "a DILocation");
      if (loc.kind != DebugNode::Kind::kLocation)
        fail(n, "!dbg !" + std::to_string(id) + " is no DILocation");
      const DebugNode& sp = subprogram_of(loc.scope, n);
      if (!key.empty()) key += " @ ";
      key += sp.name + ":" + std::to_string(static_cast<std::uint32_t>(loc.line - sp.line)) + ":" +
             std::to_string(loc.column);
      id = loc.inlined_at;
    }
    return key;
  }

  [[noreturn]] void fail(std::size_t line, const std::string& problem) const {
    throw TraceFormatError(what_ + " line " + std::to_string(line) + ": " + problem);
  }

  static constexpr unsigned kVaStart = 1, kIndirectBranch = 2;

  std::string what_;
  IrModule module_;
  std::vector<unsigned> body_flags_;  // per function: kVaStart | kIndirectBranch
  std::unordered_map<std::string, std::vector<std::uint64_t>> groups_of_;  // defined or declared
  std::unordered_map<std::uint64_t, AttributeGroup> groups_;
  std::vector<std::string> block_addressed_;
  std::vector<std::uint64_t> subprograms_;  // per function, its !dbg node (0: none)
  std::vector<PendingCall> pending_;
  std::unordered_map<std::uint64_t, DebugNode> nodes_;
};

}  // namespace

std::size_t IrModule::find(std::string_view name) const {
  for (std::size_t i = 0; i < functions.size(); ++i) {
    if (functions[i].name == name) return i;
  }
  return std::string_view::npos;
}

IrModule read_llvm_ir(std::string_view text, const std::string& what) {
  if (text.find("define ") == std::string_view::npos &&
      text.find("target triple") == std::string_view::npos)
    throw TraceFormatError(what + ": not textual LLVM IR (no 'define' and no 'target triple')");
  Reader reader(what);
  reader.read(text);
  return reader.finish();
}

}  // namespace sysgym::inlining
