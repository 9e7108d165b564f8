// CSV data files of HuggingFace datasets (Idavidrein/gpqa's gpqa_diamond.csv), read into rows as
// `datasets` returns them: its CSV builder runs pandas.read_csv with the defaults, so the first
// line names the columns, quoted fields may hold commas, doubled quotes and newlines, blank lines
// are skipped, pandas' NA spellings ("", "NA", "N/A", "null", "NaN", ...) become null, and a
// column whose every other value is an integer (a float) holds numbers. A UTF-8 BOM is skipped.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::accuracy {

// Throws DatasetError (hf_dataset.h) naming the file and line of a row with more fields than
// the header, an unterminated quote, or a file that cannot be read.
std::vector<nlohmann::json> read_csv_rows(const std::string& path);
// The same from the file's bytes; `label` names it in errors.
std::vector<nlohmann::json> parse_csv_rows(const std::string& text, const std::string& label);

}  // namespace aiperf::accuracy
