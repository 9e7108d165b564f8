// A native reader for Apache Parquet files, enough for the files AIPerf 0.13 reads through
// pyarrow / HuggingFace `datasets`: traces (Baseten), public datasets and accuracy benchmarks as
// the HuggingFace Hub stores them. Debian ships no Parquet library; this reads flat and nested
// (list / struct) columns of the common physical types with the encodings and codecs pyarrow
// writes by default, and refuses anything else naming the file, the column and the feature.
//
// Values as pyarrow's Table.to_pylist() gives them, with these representations:
//  - BOOLEAN, INT32/INT64 (signed or unsigned by their annotation), FLOAT, DOUBLE: JSON numbers;
//  - STRING/UTF8 (and ENUM, JSON) byte arrays: strings (invalid UTF-8 is refused);
//    other BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY: json::binary;
//  - DATE, TIME and TIMESTAMP: the stored integer (days, or units since midnight / the epoch as
//    the column declares), not a date object; legacy INT96 timestamps: nanoseconds since the epoch;
//  - LIST (3-level and legacy 2-level) and bare repeated fields: arrays; groups: objects.
// Refused: DECIMAL, FLOAT16, INTERVAL, MAP, encrypted files, codecs other than UNCOMPRESSED,
// SNAPPY, GZIP and ZSTD. Value encodings: PLAIN, dictionary, RLE booleans, DELTA_BINARY_PACKED,
// DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT (all of parquet-format's).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::parquet {

// Thrown for an unreadable, corrupt or unsupported file; what() is "<name>: <problem>".
struct ParquetError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ReadOptions {
  // Top-level columns to read (the others are not decoded); empty reads every column. A name
  // the file lacks is simply absent from the rows (see parquet_column_names).
  std::vector<std::string> columns;
  // Refuses a column chunk declaring more level slots than this: a guard against crafted
  // headers (an RLE run of a billion nulls takes three bytes). The fuzz target lowers it.
  uint64_t max_values_per_chunk = uint64_t{1} << 31;
};

// Every row of every row group as a JSON object {column: value}, in file order, as pyarrow's
// Table.to_pylist() gives it: null for a null slot, lists as arrays, structs as objects,
// UTF-8 strings as strings, other BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY as json::binary.
std::vector<nlohmann::json> read_parquet_rows(const std::string& path);
std::vector<nlohmann::json> read_parquet_rows(const std::string& path, const ReadOptions& options);
// The same over a file's bytes already in memory; `name` prefixes the messages.
std::vector<nlohmann::json> parse_parquet_rows(const std::string& bytes, const std::string& name);
std::vector<nlohmann::json> parse_parquet_rows(const std::string& bytes, const std::string& name,
                                               const ReadOptions& options);

// The top-level column names in schema order (the footer alone is decoded).
std::vector<std::string> parquet_column_names(const std::string& bytes, const std::string& name);
// Reads a whole file into memory; throws ParquetError "<path>: cannot read ..." on failure.
std::string read_parquet_file(const std::string& path);

}  // namespace aiperf::parquet
