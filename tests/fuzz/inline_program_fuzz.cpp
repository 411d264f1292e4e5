// inline program files (`sysgym inline extract`, the env's `program` key) and decision files
// (`--decisions`, the `decisions` policy): the input is a program file, or a decision file read
// against the shipped "kernels" program.
#include "fuzz_support.hpp"
#include "inline/decisions.hpp"
#include "inline/embedded_program.hpp"
#include "inline/program.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym::inlining;
  static const Program kernels =
      program_from_json(nlohmann::json::parse(embedded_kernels_program()), "kernels");
  return sysgym::fuzz::expecting_errors([&] {
    const nlohmann::json j = nlohmann::json::parse(sysgym::fuzz::text(data, size));
    if (j.is_object() && j.contains("sites")) {
      const Program program = program_from_json(j, "fuzz");
      (void)program_to_json(program);
      for (const std::string& name : decision_set_names())
        (void)decision_set(program, name);
      return;
    }
    const Decisions decisions = decisions_from_json(kernels, j, "fuzz");
    (void)decisions_to_json(kernels, decisions);
  });
}
