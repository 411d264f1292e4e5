#include "machine.hpp"

#include <sys/utsname.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>

namespace sysgym::cli {
namespace {

// The first "model name" of /proc/cpuinfo; "unknown" where there is none (some ARM kernels).
std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (!line.starts_with("model name")) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    const std::size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "unknown" : line.substr(start);
  }
  return "unknown";
}

std::string system_name() {
  utsname names{};
  if (uname(&names) != 0) return "unknown";
  return std::string(names.sysname) + " " + names.release + " " + names.machine;
}

std::string today_utc() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof(text), "%Y-%m-%d", &utc);
  return text;
}

}  // namespace

nlohmann::json run_facts() {
  return {{"date", today_utc()},
          {"machine",
           {{"cpu", cpu_model()},
            {"cores", std::thread::hardware_concurrency()},
            {"system", system_name()}}}};
}

}  // namespace sysgym::cli
