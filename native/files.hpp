// File access for the CLI. Inputs are opened read-only and never modified; outputs are written
// to temporary files in their directories and renamed into place, so a failed or interrupted
// command leaves every previous file intact.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sysgym::cli {

// A whole input file mapped read-only (no copy; the file is never modified). Refuses anything
// but a regular file without blocking (a FIFO with no writer, /dev/zero). Remembers the file's
// identity for the rest of the process, so no output of the command can replace it. Throws
// IoError naming the path and the system's reason.
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

struct OutputFile {
  std::string path;
  std::span<const std::uint8_t> bytes;
};

// Writes a set of files that belong together (a trace pair and its mixed runs): every file goes
// to a temporary first, and only when all are complete are they renamed into place, under a lock
// on their directory that other sysgym processes also take, so two commands writing the same
// set never interleave their files. A destination that is a character device or a FIFO (e.g.
// /dev/null, /dev/stdout) is written directly, as the user asked; one that is a directory, a
// socket, a block device, or one of the files this process read is refused before anything is
// written. Throws IoError; the destinations are then all as they were.
void write_files_atomically(const std::vector<OutputFile>& files);

// Throws the IoError writing `path` would end in, as far as can be known before the work: its
// folder missing or not writable, a directory, socket or input of this command in its place.
void check_output_path(const std::string& path);
void write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes);
void write_file_atomically(const std::string& path, const std::string& text);

// Writes all of `bytes` to `fd` (retrying short and interrupted writes). Throws IoError naming
// `path`.
void write_all(int fd, std::span<const std::uint8_t> bytes, const std::string& path);

// Flushes standard output and throws IoError if anything written to it was lost (a full disk,
// /dev/full, a closed pipe).
void check_standard_output();

bool stderr_is_terminal();
bool stdout_is_terminal();

}  // namespace sysgym::cli
