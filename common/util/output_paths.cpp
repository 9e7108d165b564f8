#include "util/output_paths.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace aiperf::util {

std::string artifact_file(const config::RunConfig& config, std::string_view name) {
  const std::string& dir = config.output.artifact_dir;
  const std::string& prefix = config.output.profile_export_prefix;
  if (!prefix.empty()) {
    if (name == "profile_export_aiperf.json") return dir + "/" + prefix + ".json";
    if (name == "profile_export_aiperf.csv") return dir + "/" + prefix + ".csv";
    if (name == "profile_export.jsonl") return dir + "/" + prefix + ".jsonl";
    if (name == "profile_export_raw.jsonl") return dir + "/" + prefix + "_raw.jsonl";
    if (name == "profile_export_aiperf_timeslices.csv") return dir + "/" + prefix + "_timeslices.csv";
    if (name == "profile_export_aiperf_timeslices.json") return dir + "/" + prefix + "_timeslices.json";
    if (name == "profile_export_console.txt") return dir + "/" + prefix + "_console.txt";
    if (name == "accuracy_export.jsonl") return dir + "/" + prefix + "_accuracy.jsonl";
  }
  return dir + "/" + std::string(name);
}

void write_file_atomically(const std::string& path, std::string_view content) {
  auto fail = [](const std::string& what, const std::string& p) {
    throw std::runtime_error(what + " " + p + ": " + std::strerror(errno));
  };
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) fail("cannot create", tmp);
  const bool written = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) {
    std::remove(tmp.c_str());
    fail("cannot write", tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    fail("cannot rename onto", path);
  }
}

}  // namespace aiperf::util
