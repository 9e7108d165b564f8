#include "accuracy/csv_rows.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include "accuracy/hf_dataset.h"

namespace aiperf::accuracy {

namespace {

struct CsvRecord {
  std::vector<std::string> fields;
  size_t line = 0;  // where the record starts (1-based)
};

// RFC 4180 records with pandas' leniency: a quote opens a quoted run anywhere in a field.
std::vector<CsvRecord> parse_records(const std::string& text, const std::string& path) {
  std::vector<CsvRecord> out;
  size_t i = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
  size_t line = 1;
  while (i < text.size()) {
    CsvRecord rec;
    rec.line = line;
    std::string field;
    bool in_quotes = false, any = false;
    for (; i < text.size(); ++i) {
      const char c = text[i];
      if (in_quotes) {
        if (c == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            field += '"';
            ++i;
          } else {
            in_quotes = false;
          }
        } else {
          if (c == '\n') ++line;
          field += c;
        }
        continue;
      }
      if (c == '"') {
        in_quotes = any = true;
      } else if (c == ',') {
        rec.fields.push_back(std::move(field));
        field.clear();
        any = true;
      } else if (c == '\n' || c == '\r') {
        if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
        ++i;
        ++line;
        break;
      } else {
        field += c;
        any = true;
      }
    }
    if (in_quotes) throw DatasetError(path + ":" + std::to_string(rec.line) + ": a quoted field is never closed");
    if (!any) continue;  // a blank line
    rec.fields.push_back(std::move(field));
    out.push_back(std::move(rec));
  }
  return out;
}

bool is_na(const std::string& v) {
  static const char* const kNa[] = {"",     "#N/A",   "#N/A N/A", "#NA",  "-1.#IND", "-1.#QNAN", "-NaN",
                                    "-nan", "1.#IND", "1.#QNAN",  "<NA>", "N/A",     "NA",       "NULL",
                                    "NaN",  "None",   "n/a",      "nan",  "null"};
  for (const char* na : kNa)
    if (v == na) return true;
  return false;
}

std::optional<long long> as_int(const std::string& v) {
  if (v.empty()) return std::nullopt;
  size_t k = v[0] == '-' || v[0] == '+' ? 1 : 0;
  if (k == v.size()) return std::nullopt;
  for (size_t j = k; j < v.size(); ++j)
    if (v[j] < '0' || v[j] > '9') return std::nullopt;
  errno = 0;
  const long long n = std::strtoll(v.c_str(), nullptr, 10);
  if (errno == ERANGE) return std::nullopt;
  return n;
}

std::optional<double> as_float(const std::string& v) {
  if (v.empty() || v.find_first_of(" \t") != std::string::npos) return std::nullopt;
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (end != v.c_str() + v.size()) return std::nullopt;
  return d;
}

}  // namespace

std::vector<nlohmann::json> read_csv_rows(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DatasetError(path + ": cannot be read");
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse_csv_rows(buf.str(), path);
}

std::vector<nlohmann::json> parse_csv_rows(const std::string& text, const std::string& path) {
  const std::vector<CsvRecord> records = parse_records(text, path);
  std::vector<nlohmann::json> rows;
  if (records.empty()) return rows;
  const std::vector<std::string>& header = records[0].fields;
  const size_t columns = header.size();
  for (size_t r = 1; r < records.size(); ++r)
    if (records[r].fields.size() > columns)
      throw DatasetError(path + ":" + std::to_string(records[r].line) + ": " +
                         std::to_string(records[r].fields.size()) + " fields, the header names " +
                         std::to_string(columns));
  // pandas' per-column type: integers, else floats, else strings (an integer column with a
  // missing value becomes floats).
  enum class Kind { kInt, kFloat, kString };
  std::vector<Kind> kinds(columns, Kind::kInt);
  for (size_t c = 0; c < columns; ++c) {
    bool any_value = false, any_na = false;
    for (size_t r = 1; r < records.size(); ++r) {
      if (c >= records[r].fields.size() || is_na(records[r].fields[c])) {
        any_na = true;
        continue;
      }
      any_value = true;
      const std::string& v = records[r].fields[c];
      if (kinds[c] == Kind::kInt && !as_int(v)) kinds[c] = Kind::kFloat;
      if (kinds[c] == Kind::kFloat && !as_float(v)) kinds[c] = Kind::kString;
    }
    if (!any_value) kinds[c] = Kind::kString;  // all missing: nulls
    else if (kinds[c] == Kind::kInt && any_na) kinds[c] = Kind::kFloat;
  }
  for (size_t r = 1; r < records.size(); ++r) {
    nlohmann::json row = nlohmann::json::object();
    for (size_t c = 0; c < columns; ++c) {
      const bool missing = c >= records[r].fields.size() || is_na(records[r].fields[c]);
      if (missing) {
        row[header[c]] = nullptr;
        continue;
      }
      const std::string& v = records[r].fields[c];
      switch (kinds[c]) {
        case Kind::kInt:
          row[header[c]] = *as_int(v);
          break;
        case Kind::kFloat:
          row[header[c]] = *as_float(v);
          break;
        case Kind::kString:
          row[header[c]] = v;
          break;
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace aiperf::accuracy
