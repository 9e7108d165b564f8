#include "outputs_json.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/output_paths.h"

namespace aiperf::records {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

int64_t int_or_zero(const Json& entry, const char* key) {
  const auto it = entry.find(key);
  return it != entry.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

}  // namespace

OutputsJsonResult merge_output_fragments(const std::string& fragments_dir, const std::string& target) {
  OutputsJsonResult result;
  std::vector<fs::path> parts;
  std::error_code ec;
  if (fs::is_directory(fragments_dir, ec)) {
    for (const auto& entry : fs::directory_iterator(fragments_dir)) {
      if (entry.path().extension() == ".jsonl") parts.push_back(entry.path());
    }
  }
  if (parts.empty()) return result;
  std::sort(parts.begin(), parts.end());

  Json data = Json::array();
  for (const fs::path& part : parts) {
    std::ifstream in(part);
    if (!in) throw std::runtime_error("cannot open " + part.string());
    std::string line;
    while (std::getline(in, line)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      Json entry = Json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (!entry.is_object()) {
        ++result.skipped;
        continue;
      }
      data.push_back(std::move(entry));
    }
    if (in.bad()) throw std::runtime_error("cannot read " + part.string());
  }
  std::stable_sort(data.begin(), data.end(), [](const Json& a, const Json& b) {
    const int64_t sa = int_or_zero(a, "session_num"), sb = int_or_zero(b, "session_num");
    return sa != sb ? sa < sb : int_or_zero(a, "turn_index") < int_or_zero(b, "turn_index");
  });
  result.entries = data.size();
  Json doc = Json::object();
  doc["schema_version"] = "1.0";
  doc["data"] = std::move(data);
  util::write_file_atomically(target, doc.dump(2, ' ', false, Json::error_handler_t::replace));
  result.written = true;
  fs::remove_all(fragments_dir, ec);
  return result;
}

}  // namespace aiperf::records
