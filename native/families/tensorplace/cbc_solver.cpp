#include "families/tensorplace/cbc_solver.hpp"

#include <Cbc_C_Interface.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "base/error.hpp"
#include "files.hpp"
#include "temporaries.hpp"

namespace sysgym::cli {
namespace {

using Clock = std::chrono::steady_clock;
using tensorplace::deadline_after;
using tensorplace::seconds_until;

// CBC checks its time limit between the nodes of its search: the root LP of a large model runs
// on past it (a 2,500-kernel chain: 3.4 s with 1.6 s left). A solve under a deadline runs in a
// child process killed this long after the deadline (time to hand back the best solution when
// CBC stops on time).
double grace_seconds(const tensorplace::SolveOptions& options) {
  return 1.0 + 0.05 * options.time_limit_s;
}

struct ModelDeleter {
  void operator()(Cbc_Model* model) const { Cbc_deleteModel(model); }
};

tensorplace::SolveResult out_of_time() {
  tensorplace::SolveResult out;
  out.status = "time limit";
  return out;
}

// CBC on the LP file at `path`, for at most the time limit and what is left to the deadline
// once the file is read.
tensorplace::SolveResult solve_file(const std::string& path,
                                    const tensorplace::SolveOptions& options,
                                    std::optional<Clock::time_point> deadline) {
  std::unique_ptr<Cbc_Model, ModelDeleter> model(Cbc_newModel());
  Cbc_setLogLevel(model.get(), 0);
  if (Cbc_readLp(model.get(), path.c_str()) != 0)
    throw Error("CBC could not read the ILP (a bug in its LP text)");
  const double seconds =
      deadline ? std::min(options.time_limit_s, seconds_until(*deadline)) : options.time_limit_s;
  if (seconds <= 0) return out_of_time();
  Cbc_setMaximumSeconds(model.get(), seconds);
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
  Cbc_solve(model.get());
  tensorplace::SolveResult out;
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

// The result as the child sends it to the parent (CBOR).
std::vector<std::uint8_t> result_bytes(const tensorplace::SolveResult& r) {
  return nlohmann::json::to_cbor({{"status", r.status},
                                  {"has_solution", r.has_solution},
                                  {"objective", r.objective},
                                  {"bound", r.bound},
                                  {"values", r.values}});
}

tensorplace::SolveResult result_from(const std::vector<std::uint8_t>& bytes) {
  const nlohmann::json j = nlohmann::json::from_cbor(bytes);
  tensorplace::SolveResult r;
  r.status = j.at("status").get<std::string>();
  r.has_solution = j.at("has_solution").get<bool>();
  r.objective = j.at("objective").get<double>();
  r.bound = j.at("bound").get<double>();
  r.values = j.at("values").get<std::map<std::string, double>>();
  return r;
}

// solve_file in a child process, killed grace_seconds() past the deadline.
tensorplace::SolveResult solve_file_until(const std::string& path,
                                          const tensorplace::SolveOptions& options,
                                          Clock::time_point deadline) {
  if (seconds_until(deadline) <= 0) return out_of_time();
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) throw IoError("cannot make a pipe for the ILP solver");
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(ends[0]);
    ::close(ends[1]);
    throw IoError("cannot start a process for the ILP solver");
  }
  if (pid == 0) {
    ::close(ends[0]);
    std::vector<std::uint8_t> bytes;
    try {
      bytes = result_bytes(solve_file(path, options, deadline));
    } catch (const std::exception& e) {
      tensorplace::SolveResult failed;
      failed.status = std::string("error: ") + e.what();
      bytes = result_bytes(failed);
    }
    try {
      write_all(ends[1], bytes, "the ILP solver's pipe");
    } catch (const std::exception&) {
      ::_exit(1);  // the parent reports the exit status
    }
    ::_exit(0);  // no destructors, no atexit: the parent owns every file and stream
  }
  ::close(ends[1]);
  std::vector<std::uint8_t> bytes;
  bool killed = false;
  std::uint8_t buffer[1 << 16];
  while (true) {
    const double left = seconds_until(deadline) + grace_seconds(options);
    pollfd ready{ends[0], POLLIN, 0};
    const int polled = left > 0 ? ::poll(&ready, 1, static_cast<int>(left * 1000) + 1) : 0;
    if (polled < 0 && errno == EINTR) continue;
    if (polled <= 0) {
      ::kill(pid, SIGKILL);
      killed = true;
      break;
    }
    const ssize_t n = ::read(ends[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    bytes.insert(bytes.end(), buffer, buffer + n);
  }
  ::close(ends[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (killed) return out_of_time();
  if (!WIFEXITED(status) || bytes.empty()) {
    tensorplace::SolveResult failed;
    failed.status = "error: the solver's process ended with " +
                    (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                         : "exit status " + std::to_string(WEXITSTATUS(status)));
    return failed;
  }
  return result_from(bytes);
}

tensorplace::SolveResult solve(const std::string& lp, const tensorplace::SolveOptions& options,
                               std::optional<Clock::time_point> deadline) {
  const auto start = Clock::now();
  TemporaryFile file((std::filesystem::temp_directory_path() / "sysgym-ilp.lp").string());
  if (!file.created())
    throw IoError("cannot create a temporary file for the ILP in " +
                  std::filesystem::temp_directory_path().string());
  // CBC reads LP text from a file only: a temporary one, removed when done (or on a signal).
  write_all(file.fd(), {reinterpret_cast<const std::uint8_t*>(lp.data()), lp.size()}, file.path());
  file.close();
  tensorplace::SolveResult out = deadline ? solve_file_until(file.path(), options, *deadline)
                                          : solve_file(file.path(), options, std::nullopt);
  // Writing and reading the model count: they are part of what the time limit covers.
  out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return out;
}

}  // namespace

tensorplace::SolveResult solve_with_cbc(const std::string& lp,
                                        const tensorplace::SolveOptions& options) {
  return solve(lp, options, std::nullopt);
}

tensorplace::IlpSolver cbc_until(std::optional<Clock::time_point> deadline) {
  return [deadline](const std::string& lp, const tensorplace::SolveOptions& options) {
    const Clock::time_point own = deadline_after(options.time_limit_s);
    return solve(lp, options, deadline ? std::min(*deadline, own) : own);
  };
}

}  // namespace sysgym::cli
