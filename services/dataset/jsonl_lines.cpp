#include "jsonl_lines.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "dataset_error.h"

namespace aiperf::dataset {

void for_each_json_line(const std::string& path,
                        const std::function<void(const nlohmann::json&, size_t)>& fn) {
  std::ifstream in(path);
  if (!in) throw DatasetFileError(path + ": cannot open the input file");
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r\n") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    nlohmann::json object;
    try {
      object = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range: a number overflows
      throw DatasetFileError(where + "invalid JSON: " + e.what());
    }
    if (!object.is_object()) throw DatasetFileError(where + "each line must be a JSON object");
    try {
      fn(object, number);
    } catch (const FieldError& e) {
      throw DatasetFileError(where + (e.field.empty() ? "" : "field '" + e.field + "': ") + e.message);
    } catch (const nlohmann::json::exception& e) {  // a value of an unexpected JSON type
      throw DatasetFileError(where + e.what());
    }
  }
  if (in.bad()) throw DatasetFileError(path + ": read error");
}

int64_t integer_field(const nlohmann::json& v, const std::string& name, std::optional<int64_t> minimum) {
  if (!v.is_number_integer() || (minimum && v.get<int64_t>() < *minimum)) {
    const std::string bound = minimum ? " >= " + std::to_string(*minimum) : "";
    throw FieldError{name, "must be an integer" + bound + ", got " + v.dump()};
  }
  return v.get<int64_t>();
}

}  // namespace aiperf::dataset
