// Runs our genai-perf front end as a user would: the `genai-perf` symlink, or `aiperf genai-perf`.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "process.h"

namespace aiperf::test {

struct GenAiPerfRun {
  int exit_code = -1;
  std::string out, err;
};

// `args` start with the subcommand (profile, analyze, config, ...); fails the test if the
// process does not end within `timeout_s`.
inline GenAiPerfRun run_genai_perf(const std::string& tmp, const std::vector<std::string>& args, const std::string& name,
                                   bool through_aiperf, int timeout_s) {
  std::vector<std::string> full;
  if (through_aiperf) full.push_back("genai-perf");
  full.insert(full.end(), args.begin(), args.end());
  Process p(std::string(AIPERF_BIN_DIR) + (through_aiperf ? "/aiperf" : "/genai-perf"), full, tmp, name);
  const auto rc = p.wait(timeout_s);
  REQUIRE(rc.has_value());
  return {*rc, p.out(), p.err()};
}

// Every regular file under `dir`, as paths relative to it, sorted.
inline std::vector<std::string> files_under(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out.push_back(fs::relative(e.path(), dir).string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace aiperf::test
