#include "families/tensorplace/cbc_solver.hpp"

#include <Cbc_C_Interface.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <vector>

#include "base/error.hpp"
#include "files.hpp"
#include "temporaries.hpp"

namespace sysgym::cli {
namespace {

struct ModelDeleter {
  void operator()(Cbc_Model* model) const { Cbc_deleteModel(model); }
};

}  // namespace

tensorplace::SolveResult solve_with_cbc(const std::string& lp,
                                        const tensorplace::SolveOptions& options) {
  TemporaryFile file((std::filesystem::temp_directory_path() / "sysgym-ilp.lp").string());
  if (!file.created())
    throw IoError("cannot create a temporary file for the ILP in " +
                  std::filesystem::temp_directory_path().string());
  // CBC reads LP text from a file only: a temporary one, removed when done (or on a signal).
  write_all(file.fd(), {reinterpret_cast<const std::uint8_t*>(lp.data()), lp.size()}, file.path());
  file.close();
  std::unique_ptr<Cbc_Model, ModelDeleter> model(Cbc_newModel());
  Cbc_setLogLevel(model.get(), 0);
  if (Cbc_readLp(model.get(), file.path().c_str()) != 0)
    throw Error("CBC could not read the ILP (a bug in its LP text)");
  Cbc_setMaximumSeconds(model.get(), options.time_limit_s);
  Cbc_setAllowableFractionGap(model.get(), options.relative_gap);
  Cbc_setParameter(model.get(), "threads", "1");  // deterministic, and core counts vary
  // CBC 2.10.8's preprocessing crashes (CglPreProcess::postProcess) when the time limit stops it
  // mid-way; without it the zoo's models also solve faster (ResNet-50 at batch 64: 0.1 s, not 0.5).
  Cbc_setParameter(model.get(), "preprocess", "off");
  if (!options.start.empty()) {
    std::vector<const char*> names;
    std::vector<double> values;
    for (const auto& [name, value] : options.start) {
      names.push_back(name.c_str());
      values.push_back(value);
    }
    Cbc_setMIPStart(model.get(), static_cast<int>(names.size()), names.data(), values.data());
  }
  const auto start = std::chrono::steady_clock::now();
  Cbc_solve(model.get());
  tensorplace::SolveResult out;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int columns = Cbc_getNumCols(model.get());
  const double* solution = Cbc_getColSolution(model.get());
  out.bound = Cbc_getBestPossibleObjValue(model.get());
  if (Cbc_isProvenOptimal(model.get()) != 0) {
    out.status = "optimal";
  } else if (Cbc_isProvenInfeasible(model.get()) != 0) {
    out.status = "infeasible";
  } else if (Cbc_isSecondsLimitReached(model.get()) != 0) {
    out.status = "time limit";
  } else {
    out.status = "error: CBC stopped with status " + std::to_string(Cbc_status(model.get())) + "/" +
                 std::to_string(Cbc_secondaryStatus(model.get()));
  }
  out.has_solution = solution != nullptr && Cbc_numberSavedSolutions(model.get()) > 0;
  if (out.status == "optimal") out.has_solution = solution != nullptr;
  if (!out.has_solution) return out;
  out.objective = Cbc_getObjValue(model.get());
  std::vector<char> name(256);
  for (int c = 0; c < columns; ++c) {
    Cbc_getColName(model.get(), c, name.data(), name.size());
    out.values[name.data()] = solution[c];
  }
  return out;
}

}  // namespace sysgym::cli
