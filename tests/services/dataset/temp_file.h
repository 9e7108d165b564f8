// Test inputs written to disk: a file under the system temp directory, in a folder per process
// and `tag` (so test files of one binary never share a folder), parent folders created.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace aiperf::testing {

// Writes `content` to <tmp>/<tag><pid>/<name> and returns that path.
inline std::string write_temp_file(const std::string& tag, const std::string& name, const std::string& content) {
  const auto file = std::filesystem::temp_directory_path() / (tag + std::to_string(::getpid())) / name;
  std::filesystem::create_directories(file.parent_path());
  const std::string path = file.string();
  std::ofstream(path) << content;
  return path;
}

}  // namespace aiperf::testing
