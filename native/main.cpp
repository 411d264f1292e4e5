// The sysgym command-line tool. Exit codes: 0 success, 1 a sysgym error (bad input, bad
// config, out of memory, output lost; the message says what and where), 2 a command-line usage
// error. Killed by any catchable signal it dies of that signal after removing its temporary files.
#include "app.hpp"
#include "temporaries.hpp"
#ifdef SYSGYM_HAVE_MPI
#include "distributed/collective.hpp"
#include "distributed/mpi_collective.hpp"
#endif

int main(int argc, char** argv) {
  sysgym::cli::remove_temporaries_on_signal();
#ifdef SYSGYM_HAVE_MPI
  // Only the tool links MPI: the Python module and the tests share the native library without it.
  sysgym::cli::set_collective_factory(&sysgym::cli::open_mpi_collective,
                                      &sysgym::cli::abort_mpi_job);
#endif
  return sysgym::cli::run_command_line(std::vector<std::string>(argv + 1, argv + argc));
}
