// One column chunk of one row group, decoded: its definition and repetition levels and its
// non-null values as JSON, read page by page (dictionary, data page v1 and v2) through the
// chunk's codec. Every read is bounds-checked against the file; a problem throws ChunkError.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "parquet/parquet_metadata.h"

namespace aiperf::parquet {

// How a leaf's physical values become JSON (decided from the schema's annotations).
enum class ValueKind {
  kBool,
  kInt32,
  kUInt32,  // INT32 annotated unsigned (uint8/16/32)
  kInt64,
  kUInt64,   // INT64 annotated unsigned
  kInt96Ns,  // legacy INT96 timestamps: nanoseconds since the Unix epoch
  kFloat,
  kDouble,
  kString,  // BYTE_ARRAY annotated STRING/UTF8/ENUM/JSON: validated UTF-8
  kBinary,  // any other BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY
};

struct LeafDesc {
  std::string path;  // dotted, for messages
  PhysicalType type = PhysicalType::kBoolean;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY
  ValueKind kind = ValueKind::kBool;
  int max_def = 0;
  int max_rep = 0;
};

struct LeafData {
  // One entry per level (slot); empty when the leaf's maximum level is 0 (all at the maximum).
  std::vector<uint8_t> def, rep;
  size_t count = 0;                    // number of slots
  std::vector<nlohmann::json> values;  // the slots whose def == max_def, in order
};

struct ChunkError {
  std::string what;  // the problem, without file or column (the caller adds them)
};

// Decodes the chunk whose metadata is `meta` from the whole file `file` (footer excluded by
// `data_end`). `max_values` caps the chunk's slots (a guard against crafted headers).
LeafData read_column_chunk(std::string_view file, size_t data_end, const ColumnMetaData& meta, const LeafDesc& leaf,
                           uint64_t max_values);

// True when [p, p+n) is well-formed UTF-8 (no overlongs, no surrogates, <= U+10FFFF).
bool valid_utf8(const char* p, size_t n);

}  // namespace aiperf::parquet
