#include "validate_mooncake.h"

#include <cstdint>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "custom_dataset.h"
#include "dataset_error.h"
#include "mooncake_trace.h"

namespace aiperf::cli::validate {
namespace {

// The problem with one line, or "" when it is a valid mooncake row.
std::string check_line(const std::string& line) {
  nlohmann::json object;
  try {
    object = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception& e) {
    return std::string("invalid JSON: ") + e.what();
  }
  if (!object.is_object()) return "each line must be a JSON object";
  try {
    // The loader checks that input_length fits the hash_ids blocks of --isl-block-size; a row
    // has no block size, so keep only the first id (after checking them all) for the parse.
    auto ids = object.find("hash_ids");
    if (ids != object.end() && ids->is_array() && !ids->empty()) {
      for (const auto& id : *ids)
        if (!id.is_number_integer())
          throw dataset::FieldError{"hash_ids", "must be a list of integers, got " + id.dump()};
      *ids = nlohmann::json::array({ids->front()});
    }
    std::optional<dataset::PendingPrompt> pending;
    dataset::parse_mooncake_line(object, std::numeric_limits<uint32_t>::max(), 1.0, pending);
  } catch (const dataset::FieldError& e) {
    return (e.field.empty() ? "" : "field '" + e.field + "': ") + e.message;
  } catch (const nlohmann::json::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

Result validate_mooncake_file(const std::string& path, size_t max_errors) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the input file");
  Result result;
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r\n") == std::string::npos) continue;
    ++result.rows;
    const std::string problem = check_line(line);
    if (problem.empty()) continue;
    result.errors.push_back("Line " + std::to_string(number) + ": " + problem);
    if (result.errors.size() >= max_errors) break;
  }
  if (in.bad()) throw std::runtime_error(path + ": read error");
  return result;
}

}  // namespace aiperf::cli::validate
