// A reader for Arrow IPC files ("ARROW1" file format, Arrow columnar format v5), enough for
// flat traces: columns of Null, Int (8-64 bit, signed or not), FloatingPoint (32/64), Bool,
// Utf8 / LargeUtf8 and List / LargeList of those. Uncompressed bodies, no dictionary columns
// (pyarrow.ipc.new_file's default output); anything else is refused naming the column.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::dataset {

// Every row of every record batch as a JSON object {column: value} (null for a null slot), in
// file order. Throws DatasetFileError "<path>: <problem>".
std::vector<nlohmann::json> read_arrow_ipc_rows(const std::string& path);
// The same over a file's bytes already in memory; `name` prefixes the messages.
std::vector<nlohmann::json> parse_arrow_ipc_rows(std::string bytes, const std::string& name);

}  // namespace aiperf::dataset
