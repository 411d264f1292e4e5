#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "base/error.hpp"
#include "inline/decisions.hpp"
#include "inline/extraction.hpp"

namespace sysgym::inlining {
namespace {

// tests/data/inline holds what clang 14 and opt printed for tiny.c (see tiny.c's neighbours).
std::string fixture(const std::string& name) {
  std::ifstream in(std::string(SYSGYM_TEST_DATA) + "/inline/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

template <typename Reader>
auto read_lines(const std::string& text) {
  Reader reader;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    reader.line(line);
  return reader.take();
}

UnitReports tiny_reports() {
  UnitReports r;
  r.unit = "tiny.c";
  r.ir = read_llvm_ir(fixture("tiny.never.ll"), "tiny.never.ll");
  r.costs = read_lines<InlineCostReader>(fixture("tiny.cost.txt"));
  r.properties = read_lines<FunctionPropertiesReader>(fixture("tiny.properties.txt"));
  return r;
}

// tiny.c as a program, with clang's decisions at -O2 and -Oz marked.
Program tiny_program(std::size_t* o2_elsewhere = nullptr) {
  Program p;
  p.name = "tiny";
  ExtractionCounts counts;
  add_unit(p, tiny_reports(), counts);
  std::size_t elsewhere = 0;
  for (std::size_t i : inlined_sites(p, 0, read_inline_remarks(fixture("tiny.o2.txt")), elsewhere))
    p.sites[i].o2 = true;
  if (o2_elsewhere != nullptr) *o2_elsewhere = elsewhere;
  for (std::size_t i : inlined_sites(p, 0, read_inline_remarks(fixture("tiny.oz.txt")), elsewhere))
    p.sites[i].oz = true;
  return p;
}

const CallSite& site(const Program& p, const std::string& location, const std::string& callee) {
  for (const CallSite& s : p.sites) {
    if (s.location == location && p.functions[s.callee].name == callee) return s;
  }
  throw std::runtime_error("no site " + location + " -> " + callee);
}

TEST(LlvmIr, ReadsFunctionsAndTheReplayKeysOfTheirCalls) {
  const IrModule m = read_llvm_ir(fixture("tiny.never.ll"), "tiny.never.ll");
  ASSERT_EQ(m.functions.size(), 7u);
  const IrFunction& twice = m.functions[m.find("twice")];
  EXPECT_TRUE(twice.local);  // static, its address taken
  EXPECT_FALSE(m.functions[m.find("main")].local);
  EXPECT_EQ(m.functions[m.find("clamp")].line, 8);
  EXPECT_GT(m.functions[m.find("main")].instructions, 30);
  std::vector<std::string> keys;
  std::size_t indirect = 0;
  for (const IrCall& c : m.calls) {
    if (c.callee.empty()) ++indirect;
    if (m.functions[c.caller].name == "sum_squares") keys.push_back(c.callee + "@" + c.location);
  }
  EXPECT_EQ(indirect, 1u);  // op(r), through a volatile pointer
  EXPECT_EQ(keys, (std::vector<std::string>{"square@sum_squares:2:47", "clamp@sum_squares:2:62"}));
}

TEST(LlvmIr, FollowsLexicalBlocksAndInlinedAtChains) {
  const std::string ir = R"(target triple = "x86_64-pc-linux-gnu"
define internal void @"odd name"() !dbg !3 {
entry:
  call void @g(), !dbg !7
  ret void
}
define void @g() !dbg !4 {
  tail call void @"odd name"() #1, !dbg !8
  ret void
}
!3 = distinct !DISubprogram(name: "odd name", scope: !1, line: 10, unit: !0)
!4 = distinct !DISubprogram(name: "g", linkageName: "_Z1gv", scope: !1, line: 20, unit: !0)
!5 = distinct !DILexicalBlock(scope: !3, file: !1, line: 11, column: 3)
!6 = !DILexicalBlockFile(scope: !5, file: !1, discriminator: 0)
!7 = !DILocation(line: 12, column: 5, scope: !6, inlinedAt: !8)
!8 = !DILocation(line: 21, column: 7, scope: !4)
)";
  const IrModule m = read_llvm_ir(ir, "snippet");
  ASSERT_EQ(m.calls.size(), 2u);
  EXPECT_EQ(m.calls[0].callee, "g");
  EXPECT_EQ(m.calls[0].location, "odd name:2:5 @ _Z1gv:1:7");
  EXPECT_EQ(m.calls[1].callee, "odd name");
  EXPECT_EQ(m.calls[1].location, "_Z1gv:1:7");
  EXPECT_TRUE(m.functions[0].local);
  EXPECT_EQ(m.functions[0].blocks, 1);
}

// The attribute groups come after the bodies, as clang writes them; the CLI test compiles the
// same cases from C.
TEST(LlvmIr, NamesWhyClangNeverInlinesAFunction) {
  const std::string ir = R"(target triple = "x86_64-pc-linux-gnu"
define internal void @va(i32 %0, ...) #0 {
  call void @llvm.va_start(i8* null)
  ret void
}
define internal i32 @jumps(i8* %p) #0 {
  indirectbr i8* %p, [label %a]
a:
  ret i32 1
}
define internal i32 @slow() #1 {
  ret i32 0
}
define internal i32 @guard() #0 {
  %1 = call i32 @_setjmp(i8* null) #3
  ret i32 %1
}
define internal i32 @wide() #2 {
  ret i32 0
}
define i32 @plain() #0 {
  ret i32 0
}
declare void @llvm.va_start(i8*) #4
declare i32 @_setjmp(i8*) #4
attributes #0 = { nounwind uwtable "target-cpu"="x86-64" "target-features"="+cx8,+sse2,+x87" }
attributes #1 = { noinline nounwind "target-cpu"="x86-64" }
attributes #2 = { nounwind "target-cpu"="x86-64" "target-features"="+avx2,+cx8,+sse2" }
attributes #3 = { returns_twice }
attributes #4 = { nounwind }
)";
  const IrModule m = read_llvm_ir(ir, "snippet");
  const auto why = [&](const char* name) { return m.functions[m.find(name)].never_inlined; };
  EXPECT_EQ(why("va"), "varargs");
  EXPECT_EQ(why("jumps"), "indirect branch");
  EXPECT_EQ(why("slow"), "noinline");
  EXPECT_EQ(why("guard"), "setjmp");
  EXPECT_EQ(why("wide"), "");
  EXPECT_EQ(why("plain"), "");
  const IrFunction& plain = m.functions[m.find("plain")];
  const IrFunction& wide = m.functions[m.find("wide")];
  EXPECT_EQ(plain.target_features, "+cx8,+sse2,+x87");
  EXPECT_FALSE(target_compatible(plain, wide));  // AVX2 code in a caller without it
  EXPECT_FALSE(target_compatible(wide, m.functions[m.find("va")]));  // wide lacks x87
  EXPECT_TRUE(target_compatible(plain, m.functions[m.find("guard")]));
}

TEST(LlvmIr, RefusesWhatIsNotClangsIr) {
  EXPECT_THROW(read_llvm_ir("int main() { return 0; }\n", "a.c"), TraceFormatError);
  EXPECT_THROW(read_llvm_ir("define void @f() {\n  ret void\n", "cut.ll"), TraceFormatError);
  try {
    read_llvm_ir("define void @f() {\n  call void @f(), !dbg !9\n}\n", "nodbg.ll");
    FAIL();
  } catch (const TraceFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("nodbg.ll line 2: metadata !9"), std::string::npos)
        << e.what();
  }
}

TEST(LlvmReports, ReadCountersOfBothPrinters) {
  const auto costs = read_lines<InlineCostReader>(fixture("tiny.cost.txt"));
  ASSERT_EQ(costs.size(), 8u);
  EXPECT_EQ(costs[0].callee, "square");
  EXPECT_EQ(costs[0].caller, "sum_squares");
  EXPECT_EQ(count_of(costs[0].counts, "NumInstructions"), 2);
  EXPECT_GT(count_of(costs[0].counts, "Threshold"), 0);
  const auto props = read_lines<FunctionPropertiesReader>(fixture("tiny.properties.txt"));
  ASSERT_EQ(props.size(), 7u);
  EXPECT_EQ(props[0].function, "sum_squares");
  EXPECT_EQ(count_of(props[0].counts, "MaxLoopDepth"), 1);
  EXPECT_EQ(count_of(props[0].counts, "NoSuchCounter", -1), -1);
}

TEST(LlvmReports, ReadRemarksAndSizes) {
  const auto o2 = read_inline_remarks(fixture("tiny.o2.txt"));
  ASSERT_EQ(o2.size(), 7u);
  EXPECT_EQ(o2[0].callee, "square");
  EXPECT_EQ(o2[0].caller, "sum_squares");
  EXPECT_EQ(o2[0].location, "sum_squares:2:47");
  EXPECT_EQ(read_text_bytes("   text\t   data\t    bss\t    dec\t    hex\tfilename\n"
                            "   2432\t      0\t      0\t   2432\t    980\ta.o\n"
                            "    100\t      8\t      0\t    108\t     6c\tb.o\n",
                            "size"),
            2532);
  EXPECT_THROW(read_text_bytes("llvm-size: error: no such file\n", "size"), TraceFormatError);
}

TEST(Extraction, SitesCarryTheCompilersDecisionsAndFeatures) {
  Program bare;
  ExtractionCounts counts;
  add_unit(bare, tiny_reports(), counts);
  EXPECT_EQ(counts.sites, 8u);
  EXPECT_EQ(counts.indirect_calls, 1u);
  EXPECT_EQ(counts.external_calls, 4u);  // atoi, malloc, printf, free
  std::size_t elsewhere = 0;
  const Program p = tiny_program(&elsewhere);
  EXPECT_EQ(p.sites.size(), 8u);
  EXPECT_EQ(elsewhere, 1u);  // atoi: glibc's inline body, gone by the end of -O2
  const CallSite& sum = site(p, "main:6:41", "sum_squares");
  EXPECT_TRUE(sum.o2);
  EXPECT_FALSE(sum.oz);  // -Oz keeps the exported function's call
  EXPECT_EQ(sum.id, "tiny.c|main:6:41|sum_squares");
  const CallSite& fib = site(p, "main:7:36", "fib");
  EXPECT_FALSE(fib.o2);
  EXPECT_TRUE(site(p, "sum_squares:2:47", "square").oz);
  EXPECT_EQ(p.functions[fib.callee].calls_in, 2);  // main's and its own
  EXPECT_EQ(count_of(p.functions[sum.callee].properties, "MaxLoopDepth"), 1);
  EXPECT_NE(count_of(sum.features, "Threshold"), 0);
}

// lz4's LZ4_hashPosition is always_inline: its call to LZ4_read32 has a copy in each caller
// ("LZ4_hashPosition:7:22 @ g:75:23"), and clang decides it once, where it was written.
TEST(Extraction, ARemarkNamesEveryCopyOfACallInAlwaysInlineBodies) {
  Program p;
  p.units = {"lz4.c"};
  for (const char* name : {"g", "h", "LZ4_read32"}) {
    Function f;
    f.name = name;
    p.functions.push_back(f);
  }
  const auto copy = [&](std::size_t caller, const std::string& location) {
    CallSite s;
    s.caller = caller;
    s.callee = 2;
    s.location = location;
    s.id = site_id("lz4.c", location, "LZ4_read32");
    return s;
  };
  p.sites = {copy(0, "LZ4_hashPosition:7:22 @ g:75:23"), copy(1, "LZ4_hashPosition:7:22 @ h:3:9"),
             copy(1, "h:4:2")};
  EXPECT_EQ(base_location(p.sites[0].location), "LZ4_hashPosition:7:22");
  EXPECT_EQ(base_location("h:4:2"), "h:4:2");
  std::size_t elsewhere = 0;
  const std::vector<InlinedSite> remarks = {
      {"LZ4_read32", "LZ4_hashPosition", "LZ4_hashPosition:7:22"},
      {"LZ4_read32", "g", "LZ4_hashPosition:7:22 @ g:75:23"},
      {"LZ4_read32", "x", "x:1:1"}};
  EXPECT_EQ(inlined_sites(p, 0, remarks, elsewhere), (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(elsewhere, 1u);
}

TEST(Extraction, RefusesACostReportThatDoesNotFollowTheIr) {
  UnitReports r = tiny_reports();
  r.costs.pop_back();
  Program p;
  ExtractionCounts counts;
  EXPECT_THROW(add_unit(p, r, counts), TraceFormatError);
  r = tiny_reports();
  std::swap(r.costs[0], r.costs[1]);
  EXPECT_THROW(add_unit(p, r, counts), TraceFormatError);
}

TEST(ProgramFile, RoundTripsAndNamesWhatIsWrong) {
  Program p = tiny_program();
  p.run.args = {"1000"};
  p.reference["O2"] = {2432, 1.5e6};
  const nlohmann::json j = program_to_json(p);
  const Program back = program_from_json(j, "tiny.json");
  EXPECT_EQ(program_to_json(back), j);
  EXPECT_EQ(back.sites.size(), p.sites.size());
  EXPECT_EQ(back.reference.at("O2").text_bytes, 2432);

  const auto message = [](const nlohmann::json& bad) {
    try {
      program_from_json(bad, "bad.json");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({{"kind", "sysgym-policy"}}).find("not a sysgym-inline-program"),
            std::string::npos);
  nlohmann::json bad = j;
  bad["schema_version"] = 3;
  EXPECT_NE(message(bad).find("'schema_version'"), std::string::npos);
  bad["schema_version"] = 1;  // before sites clang never inlines were marked
  EXPECT_NE(message(bad).find("extract the program again"), std::string::npos);
  bad = j;
  bad["sites"][0]["never"] = "varargs";
  bad["sites"][0]["o2"] = true;  // clang inlined it: a contradiction
  EXPECT_NE(message(bad).find("'never'"), std::string::npos);
  bad["sites"][0]["o2"] = false;
  bad["sites"][0]["oz"] = false;
  EXPECT_EQ(program_from_json(bad, "never.json").sites[0].never, "varargs");
  bad = j;
  bad["sites"][0]["callee"] = 99;
  EXPECT_NE(message(bad).find("bad.json site 0"), std::string::npos);
  bad = j;
  bad["sites"][1] = bad["sites"][0];
  EXPECT_NE(message(bad).find("appears twice"), std::string::npos);
  bad = j;
  bad["sites"][0]["id"] = "tiny.c|main:0:1|fib";
  EXPECT_NE(message(bad).find("'id'"), std::string::npos);
  bad = j;
  bad["sitez"] = 1;
  EXPECT_NE(message(bad).find("sitez"), std::string::npos);
}

// As callgrind 3.19 writes a profile with --compress-strings=no --compress-pos=no (cut down).
constexpr const char* kProfile = R"(# callgrind format
version: 1
positions: line
events: Ir
summary: 7724099

fl=tiny.c
fn=main
37 11
cfn=sum_squares
calls=50 22
37 120
cfn=square
calls=25 6
37 250
cfn=square
calls=25 6
37 250
fn=fib
20 8
cfn=fib'2
calls=985 20
20 150635

totals: 7724099
)";

TEST(Callgrind, CountsCallsPerCallerCalleeAndLine) {
  const CallgrindProfile p = read_callgrind(kProfile, "cg.out");
  EXPECT_EQ(p.instructions, 7724099);
  EXPECT_EQ(p.calls.at({"main", "square", 37}), 50);
  EXPECT_EQ(p.calls.at({"fib", "fib", 20}), 985);  // recursion levels are the function
  EXPECT_THROW(read_callgrind("fn=(1) main\n", "compressed"), TraceFormatError);
  EXPECT_THROW(read_callgrind("events: Ir\ncalls=3 4\nfn=x\ntotals: 5\n", "cut"), TraceFormatError);
}

TEST(Callgrind, SitesOnOneLineShareTheirCount) {
  Program p = tiny_program();
  const std::size_t called = attach_calls(p, read_callgrind(kProfile, "cg.out"));
  EXPECT_EQ(site(p, "main:6:61", "square").calls, 50);
  EXPECT_EQ(site(p, "main:6:41", "sum_squares").calls, 50);
  EXPECT_EQ(site(p, "fib:0:44", "fib").calls, 985);
  EXPECT_EQ(site(p, "main:7:36", "fib").calls, 0);  // not in this cut-down profile
  EXPECT_EQ(called, 3u);
}

TEST(Decisions, NamedSetsAndFilesNameWhatIsWrong) {
  const Program p = tiny_program();
  const Decisions o2 = decision_set(p, "O2");
  EXPECT_EQ(std::count(o2.begin(), o2.end(), true), 6);
  const Decisions always = decision_set(p, "always");
  EXPECT_EQ(std::count(always.begin(), always.end(), true), 8);
  EXPECT_THROW(decision_set(p, "O3"), UnknownNameError);
  const nlohmann::json j = decisions_to_json(p, o2);
  EXPECT_EQ(decisions_from_json(p, j, "d.json"), o2);
  const auto message = [&](const nlohmann::json& bad) {
    try {
      decisions_from_json(p, bad, "d.json");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  nlohmann::json bad = j;
  bad["inline"].push_back("tiny.c|main:6:62|square");
  EXPECT_NE(message(bad).find("did you mean 'tiny.c|main:6:61|square'"), std::string::npos)
      << message(bad);
  bad = j;
  bad["inline"].push_back(bad["inline"][0]);
  EXPECT_NE(message(bad).find("listed twice"), std::string::npos);
  bad = j;
  bad["program"] = "lua";
  EXPECT_NE(message(bad).find("another program"), std::string::npos);
  EXPECT_NE(message({{"kind", "sysgym-inline-program"}}).find("not a sysgym-inline-decisions"),
            std::string::npos);
}

}  // namespace
}  // namespace sysgym::inlining
