#include "parquet/parquet_metadata.h"

#include "parquet/thrift_compact.h"

namespace aiperf::parquet {
namespace {

// Runs `on_field(id, type)` for every field of the struct at the reader's position; the callback
// returns false for a field it did not consume, which is then skipped.
template <class F>
void for_each_field(ThriftReader& r, F&& on_field) {
  r.enter();
  int16_t last = 0, id = 0;
  ThriftType t;
  while (r.next_field(last, id, t)) {
    if (!on_field(id, t)) r.skip(t);
  }
  r.leave();
}

// Integer fields are zigzag varints whatever their declared width (i8 aside).
bool is_int(ThriftType t) { return t == ThriftType::kI16 || t == ThriftType::kI32 || t == ThriftType::kI64; }
bool is_bool(ThriftType t) { return t == ThriftType::kTrue || t == ThriftType::kFalse; }

// Calls on_elem() once per element of a list whose elements must be `want`.
template <class F>
void for_each_elem(ThriftReader& r, ThriftType want, F&& on_elem) {
  ThriftType elem;
  uint32_t n;
  r.list_header(elem, n);
  if (n > 0 && elem != want) throw ThriftError{"unexpected list element type"};
  for (uint32_t i = 0; i < n; ++i) on_elem();
}

void decode_logical_type(ThriftReader& r, SchemaElement& e) {
  // A union: one field set, each member an (often empty) struct.
  for_each_field(r, [&](int16_t id, ThriftType t) {
    if (t != ThriftType::kStruct) return false;
    e.logical_type = id;
    if (id != logical::kInteger) return false;
    for_each_field(r, [&](int16_t fid, ThriftType ft) {
      if (fid == 1 && ft == ThriftType::kByte) {
        e.int_bit_width = static_cast<uint8_t>(r.read_i8());  // 8, 16, 32 or 64
        return true;
      }
      if (fid == 2 && is_bool(ft)) {
        e.int_signed = r.read_bool(ft);
        return true;
      }
      return false;
    });
    return true;
  });
}

SchemaElement decode_schema_element(ThriftReader& r) {
  SchemaElement e;
  for_each_field(r, [&](int16_t id, ThriftType t) {
    switch (id) {
      case 1:
        if (!is_int(t)) return false;
        e.type = static_cast<PhysicalType>(r.read_i32());
        return true;
      case 2:
        if (!is_int(t)) return false;
        e.type_length = r.read_i32();
        return true;
      case 3:
        if (!is_int(t)) return false;
        e.repetition = static_cast<Repetition>(r.read_i32());
        return true;
      case 4:
        if (t != ThriftType::kBinary) return false;
        e.name = std::string(r.read_binary());
        return true;
      case 5:
        if (!is_int(t)) return false;
        e.num_children = r.read_i32();
        return true;
      case 6:
        if (!is_int(t)) return false;
        e.converted_type = r.read_i32();
        return true;
      case 10:
        if (t != ThriftType::kStruct) return false;
        decode_logical_type(r, e);
        return true;
      default:
        return false;
    }
  });
  return e;
}

void decode_statistics(ThriftReader& r, ColumnMetaData& m) {
  std::optional<std::string> old_min, old_max;
  for_each_field(r, [&](int16_t id, ThriftType t) {
    if (t != ThriftType::kBinary) return false;
    switch (id) {
      case 1:
        old_max = std::string(r.read_binary());
        return true;
      case 2:
        old_min = std::string(r.read_binary());
        return true;
      case 5:
        m.stat_max = std::string(r.read_binary());
        return true;
      case 6:
        m.stat_min = std::string(r.read_binary());
        return true;
      default:
        return false;
    }
  });
  // The deprecated min/max (signed order) stand in only when the new ones are absent.
  if (!m.stat_min && !m.stat_max) {
    m.stat_min = old_min;
    m.stat_max = old_max;
  }
}

ColumnMetaData decode_column_meta(ThriftReader& r) {
  ColumnMetaData m;
  for_each_field(r, [&](int16_t id, ThriftType t) {
    switch (id) {
      case 1:
        if (!is_int(t)) return false;
        m.type = static_cast<PhysicalType>(r.read_i32());
        return true;
      case 3:
        if (t != ThriftType::kList) return false;
        for_each_elem(r, ThriftType::kBinary, [&] { m.path_in_schema.emplace_back(r.read_binary()); });
        return true;
      case 4:
        if (!is_int(t)) return false;
        m.codec = r.read_i32();
        return true;
      case 5:
        if (!is_int(t)) return false;
        m.num_values = r.read_i64();
        return true;
      case 7:
        if (!is_int(t)) return false;
        m.total_compressed_size = r.read_i64();
        return true;
      case 9:
        if (!is_int(t)) return false;
        m.data_page_offset = r.read_i64();
        return true;
      case 11:
        if (!is_int(t)) return false;
        m.dictionary_page_offset = r.read_i64();
        return true;
      case 12:
        if (t != ThriftType::kStruct) return false;
        decode_statistics(r, m);
        return true;
      default:
        return false;
    }
  });
  return m;
}

ColumnChunk decode_column_chunk(ThriftReader& r) {
  ColumnChunk c;
  for_each_field(r, [&](int16_t id, ThriftType t) {
    switch (id) {
      case 1:
        if (t != ThriftType::kBinary) return false;
        c.has_file_path = !r.read_binary().empty();
        return true;
      case 3:
        if (t != ThriftType::kStruct) return false;
        c.meta_data = decode_column_meta(r);
        return true;
      case 8:  // crypto_metadata
      case 9:  // encrypted_column_metadata
        c.encrypted = true;
        return false;
      default:
        return false;
    }
  });
  return c;
}

RowGroup decode_row_group(ThriftReader& r) {
  RowGroup g;
  for_each_field(r, [&](int16_t id, ThriftType t) {
    switch (id) {
      case 1:
        if (t != ThriftType::kList) return false;
        for_each_elem(r, ThriftType::kStruct, [&] { g.columns.push_back(decode_column_chunk(r)); });
        return true;
      case 3:
        if (!is_int(t)) return false;
        g.num_rows = r.read_i64();
        return true;
      default:
        return false;
    }
  });
  return g;
}

}  // namespace

FileMetaData decode_file_metadata(const uint8_t* data, size_t size) {
  ThriftReader r(data, size);
  FileMetaData f;
  for_each_field(r, [&](int16_t id, ThriftType t) {
    switch (id) {
      case 2:
        if (t != ThriftType::kList) return false;
        for_each_elem(r, ThriftType::kStruct, [&] { f.schema.push_back(decode_schema_element(r)); });
        return true;
      case 3:
        if (!is_int(t)) return false;
        f.num_rows = r.read_i64();
        return true;
      case 4:
        if (t != ThriftType::kList) return false;
        for_each_elem(r, ThriftType::kStruct, [&] { f.row_groups.push_back(decode_row_group(r)); });
        return true;
      case 8:  // encryption_algorithm (plaintext footer of an encrypted file)
        f.encrypted = true;
        return false;
      default:
        return false;
    }
  });
  return f;
}

PageHeader decode_page_header(const uint8_t* data, size_t size, size_t& header_len) {
  ThriftReader r(data, size);
  PageHeader h;
  auto int_field = [&](ThriftType t, int32_t& out) {
    if (!is_int(t)) return false;
    out = r.read_i32();
    return true;
  };
  for_each_field(r, [&](int16_t id, ThriftType t) {
    switch (id) {
      case 1:
        return int_field(t, h.type);
      case 2:
        return int_field(t, h.uncompressed_page_size);
      case 3:
        return int_field(t, h.compressed_page_size);
      case 5:  // DataPageHeader
        if (t != ThriftType::kStruct) return false;
        h.has_data_header = true;
        for_each_field(r, [&](int16_t fid, ThriftType ft) {
          switch (fid) {
            case 1:
              return int_field(ft, h.num_values);
            case 2:
              return int_field(ft, h.encoding);
            case 3:
              return int_field(ft, h.def_level_encoding);
            case 4:
              return int_field(ft, h.rep_level_encoding);
            default:
              return false;
          }
        });
        return true;
      case 7:  // DictionaryPageHeader
        if (t != ThriftType::kStruct) return false;
        h.has_dict_header = true;
        for_each_field(r, [&](int16_t fid, ThriftType ft) {
          switch (fid) {
            case 1:
              return int_field(ft, h.num_values);
            case 2:
              return int_field(ft, h.encoding);
            default:
              return false;
          }
        });
        return true;
      case 8:  // DataPageHeaderV2
        if (t != ThriftType::kStruct) return false;
        h.has_v2_header = true;
        for_each_field(r, [&](int16_t fid, ThriftType ft) {
          switch (fid) {
            case 1:
              return int_field(ft, h.num_values);
            case 2:
              return int_field(ft, h.num_nulls);
            case 3:
              return int_field(ft, h.num_rows);
            case 4:
              return int_field(ft, h.encoding);
            case 5:
              return int_field(ft, h.def_levels_byte_length);
            case 6:
              return int_field(ft, h.rep_levels_byte_length);
            case 7:
              if (!is_bool(ft)) return false;
              h.is_compressed = r.read_bool(ft);
              return true;
            default:
              return false;
          }
        });
        return true;
      default:
        return false;
    }
  });
  header_len = r.consumed();
  return h;
}

}  // namespace aiperf::parquet
