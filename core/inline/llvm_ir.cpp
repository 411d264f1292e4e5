#include "inline/llvm_ir.hpp"

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "base/text_scan.hpp"

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
  std::size_t line = 0;  // of the text, for errors
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
      } else if (line.starts_with("!")) {
        if (auto node = debug_node(line)) nodes_.insert(std::move(*node));
      }
    }
    if (in_body) fail(cursor.line_number(), "the last function's body has no closing '}'");
  }

  IrModule finish() {
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
    module_.functions.push_back(std::move(f));
    subprograms_.push_back(dbg_ref(line.substr(line.rfind(')'))));
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
    std::optional<std::string> callee = callee_of(trim(line));
    if (!callee) return true;
    if (callee->starts_with("llvm.")) return true;  // intrinsics: never bodies to inline
    pending_.push_back({module_.functions.size() - 1, std::move(*callee), dbg_ref(line), n});
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

  std::string what_;
  IrModule module_;
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
