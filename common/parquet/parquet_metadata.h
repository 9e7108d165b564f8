// Parquet's footer (FileMetaData) and page headers as this reader needs them, decoded from the
// Thrift compact protocol. Field numbers follow parquet-format's parquet.thrift; fields the
// reader does not use are skipped.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aiperf::parquet {

enum class PhysicalType : int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};

enum class Repetition : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2 };

// parquet.thrift's ConvertedType (the legacy annotation; pyarrow writes both it and LogicalType).
namespace converted {
constexpr int kUtf8 = 0, kMap = 1, kMapKeyValue = 2, kList = 3, kEnum = 4, kDecimal = 5, kDate = 6, kTimeMillis = 7,
              kTimeMicros = 8, kTimestampMillis = 9, kTimestampMicros = 10, kUint8 = 11, kUint16 = 12, kUint32 = 13,
              kUint64 = 14, kInt8 = 15, kInt16 = 16, kInt32 = 17, kInt64 = 18, kJson = 19, kBson = 20, kInterval = 21;
}

// The LogicalType union member present (parquet.thrift's field id), 0 when absent.
namespace logical {
constexpr int kNone = 0, kString = 1, kMap = 2, kList = 3, kEnum = 4, kDecimal = 5, kDate = 6, kTime = 7,
              kTimestamp = 8, kInteger = 10, kNull = 11, kJson = 12, kBson = 13, kUuid = 14, kFloat16 = 15,
              kVariant = 16, kGeometry = 17, kGeography = 18;
}

struct SchemaElement {
  std::optional<PhysicalType> type;  // absent for groups
  int32_t type_length = 0;
  std::optional<Repetition> repetition;  // absent for the root
  std::string name;
  int32_t num_children = 0;
  std::optional<int32_t> converted_type;
  int logical_type = logical::kNone;
  int int_bit_width = 0;  // LogicalType INTEGER
  bool int_signed = true;
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::kBoolean;
  std::vector<std::string> path_in_schema;
  int32_t codec = 0;
  int64_t num_values = 0;
  int64_t total_compressed_size = 0;
  int64_t data_page_offset = 0;
  std::optional<int64_t> dictionary_page_offset;
  // Statistics min/max (min_value/max_value, or the deprecated min/max): the plain-encoded bytes.
  std::optional<std::string> stat_min, stat_max;
};

struct ColumnChunk {
  bool has_file_path = false;  // data in another file: refused
  bool encrypted = false;
  std::optional<ColumnMetaData> meta_data;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t num_rows = 0;
};

struct FileMetaData {
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  bool encrypted = false;
};

enum class PageType : int32_t { kDataPage = 0, kIndexPage = 1, kDictionaryPage = 2, kDataPageV2 = 3 };

struct PageHeader {
  int32_t type = -1;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  // DataPageHeader (v1), DataPageHeaderV2, DictionaryPageHeader: whichever the type uses.
  int32_t num_values = 0;
  int32_t encoding = 0;
  int32_t def_level_encoding = 0;
  int32_t rep_level_encoding = 0;
  int32_t num_nulls = 0, num_rows = 0;  // v2
  int32_t def_levels_byte_length = 0;   // v2
  int32_t rep_levels_byte_length = 0;   // v2
  bool is_compressed = true;            // v2
  bool has_data_header = false, has_v2_header = false, has_dict_header = false;
};

// Both throw ThriftError on malformed input. decode_page_header reports the header's length.
FileMetaData decode_file_metadata(const uint8_t* data, size_t size);
PageHeader decode_page_header(const uint8_t* data, size_t size, size_t& header_len);

}  // namespace aiperf::parquet
