// File access for the CLI. Inputs are opened read-only and never modified; outputs are written
// to a temporary file in the same directory and renamed into place, so a failed or interrupted
// command leaves any previous file intact.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sysgym::cli {

// A whole input file mapped read-only (no copy; the file is never modified). Throws IoError
// naming the path and the system's reason.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};
// Throws IoError; the destination is either the old file or the complete new one. A SIGINT,
// SIGTERM or SIGHUP during the write removes the temporary file (see remove_temporaries_on_signal).
void write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes);
void write_file_atomically(const std::string& path, const std::string& text);

// Handles SIGINT, SIGTERM and SIGHUP (unless ignored, as in a nohup job) by deleting the
// temporary files being written and then dying of the same signal, so the caller still sees an
// interrupted command and no .tmp- file is left next to an output.
void remove_temporaries_on_signal();

bool stderr_is_terminal();
bool stdout_is_terminal();

}  // namespace sysgym::cli
