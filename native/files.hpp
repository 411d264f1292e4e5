// File access for the CLI. Inputs are opened read-only and never modified; outputs are written
// to a temporary file in the same directory and renamed into place, so a failed or interrupted
// command leaves any previous file intact.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sysgym::cli {

// The whole file in one read. Throws IoError naming the path and the system's reason.
std::vector<std::uint8_t> read_file(const std::string& path);
// Throws IoError; the destination is either the old file or the complete new one.
void write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes);
void write_file_atomically(const std::string& path, const std::string& text);

bool stderr_is_terminal();
bool stdout_is_terminal();

}  // namespace sysgym::cli
