// What the inline family reads from a module of textual LLVM IR (clang -S -emit-llvm, compiled
// with -gline-tables-only): the functions, and every direct call with the key under which clang's
// inliner names the call site in its remarks and reads it back in replay
// (-cgscc-inline-replay): "CALLER:LINE_OFFSET:COLUMN", the line counted from the line of the
// caller's subprogram, and " @ OUTER:..." appended for a call that came from an inlined body.
// That key is what makes a decision per call site stable from one build to the next.
//
// Only what the family needs is parsed: define and declare lines, instruction lines of bodies,
// attribute groups, and the DILocation, DISubprogram and DILexicalBlock(File) metadata nodes. A
// call through a pointer or a cast has no callee here (not a decision the inliner can take).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "inline/llvm_attributes.hpp"

namespace sysgym::inlining {

struct IrFunction {
  std::string name;
  bool local = false;  // internal or private linkage: deleted once no call is left
  std::int64_t instructions = 0;
  std::int64_t blocks = 0;
  std::int64_t line = 0;  // of its subprogram (0 without debug info)
  // Why clang's inliner never inlines it ("" when it may), as LLVM 14's isInlineViable and its
  // attribute checks say: "varargs" (it calls va_start: inlined, that would read the caller's
  // arguments), "noinline", "optnone", "indirect branch", "block address taken", "setjmp" (it
  // calls a returns_twice function). Replay would force such a call regardless.
  std::string never_inlined;
  std::string target_cpu;       // its "target-cpu" attribute ("" none)
  std::string target_features;  // its "target-features" attribute ("" none)
};

struct IrCall {
  std::size_t caller = 0;  // index into IrModule::functions
  std::string callee;      // "" for an indirect call
  std::string location;    // the replay key's call-site part; "" without a debug location
  std::int64_t line = 0;   // absolute source line of the call (0 without a location)
};

struct IrModule {
  std::vector<IrFunction> functions;  // defined functions, in the module's order
  std::vector<IrCall> calls;          // in each caller's instruction order, callers in order
  // Index of the defined function `name`, or npos.
  std::size_t find(std::string_view name) const;
};

// Throws TraceFormatError naming `what` and the line for text that is not LLVM IR as clang
// writes it (an unterminated body, a call whose !dbg node is missing).
IrModule read_llvm_ir(std::string_view text, const std::string& what);

}  // namespace sysgym::inlining
