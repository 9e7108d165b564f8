#include "util/output_paths.h"

#include <cstdio>
#include <fstream>
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
  }
  return dir + "/" + std::string(name);
}

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot rename " + tmp + " to " + path);
}

}  // namespace aiperf::util
