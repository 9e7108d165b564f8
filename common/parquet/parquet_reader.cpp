// File layout, then per row group: decode the needed column chunks, then assemble rows from
// their levels (Dremel record assembly, as pyarrow does).
#include "parquet/parquet_reader.h"

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <unordered_set>

#include "parquet/column_chunk.h"
#include "parquet/parquet_metadata.h"
#include "parquet/schema_tree.h"
#include "parquet/thrift_compact.h"

namespace aiperf::parquet {
namespace {

struct Footer {
  FileMetaData meta;
  size_t data_end = 0;  // where the footer starts: column data lies before it
};

Footer read_footer(const std::string& bytes, const std::string& name) {
  // "PAR1" <data> <footer> <footer length: 4 bytes LE> "PAR1"
  if (bytes.size() < 12) throw ParquetError(name + ": not a Parquet file (too short)");
  if (bytes.compare(0, 4, "PAR1") != 0 || bytes.compare(bytes.size() - 4, 4, "PAR1") != 0) {
    if (bytes.compare(bytes.size() - 4, 4, "PARE") == 0)
      throw ParquetError(name + ": encrypted Parquet files are not supported");
    throw ParquetError(name + ": not a Parquet file (no PAR1 magic)");
  }
  uint32_t len;
  std::memcpy(&len, bytes.data() + bytes.size() - 8, 4);
  if (len > bytes.size() - 12) throw ParquetError(name + ": footer length beyond the file (truncated?)");
  Footer f;
  f.data_end = bytes.size() - 8 - len;
  try {
    f.meta = decode_file_metadata(reinterpret_cast<const uint8_t*>(bytes.data()) + f.data_end, len);
  } catch (const ThriftError& e) {
    throw ParquetError(name + ": corrupt footer (" + e.what + ")");
  }
  if (f.meta.encrypted) throw ParquetError(name + ": encrypted Parquet files are not supported");
  return f;
}

SchemaTree schema_of(const Footer& f, const std::string& name) {
  try {
    return build_schema_tree(f.meta.schema);
  } catch (const SchemaError& e) {
    throw ParquetError(name + ": " + e.what);
  }
}

// Reads one row group's rows from its decoded leaves, keeping a cursor per leaf.
class Assembler {
 public:
  Assembler(const std::vector<LeafDesc>& descs, std::vector<LeafData>& leaves)
      : descs_(descs), leaves_(leaves), pos_(leaves.size(), 0), vpos_(leaves.size(), 0) {}

  bool at_row_start(const FieldNode& n) const {
    const LeafData& l = leaves_[n.first_leaf];
    const size_t p = pos_[n.first_leaf];
    return p < l.count && (l.rep.empty() || l.rep[p] == 0);
  }

  nlohmann::json read(const FieldNode& n) {
    const int li = n.first_leaf;
    const LeafData& l = leaves_[li];
    const size_t p = pos_[li];
    if (p >= l.count) fail(li, "fewer values than rows");
    const int d = l.def.empty() ? descs_[li].max_def : l.def[p];
    if (n.nullable && d < n.present_def) {
      skip(n);
      return nullptr;
    }
    switch (n.kind) {
      case FieldNode::Kind::kLeaf: {
        if (d != descs_[li].max_def) fail(li, "a required value is missing");
        if (vpos_[li] >= leaves_[li].values.size()) fail(li, "fewer values than levels");
        ++pos_[li];
        return std::move(leaves_[li].values[vpos_[li]++]);
      }
      case FieldNode::Kind::kStruct: {
        if (d < n.present_def) fail(li, "a required group is missing");
        nlohmann::json obj = nlohmann::json::object();
        for (const FieldNode& c : n.children) obj[c.name] = read(c);
        return obj;
      }
      case FieldNode::Kind::kList: {
        if (d < n.present_def) fail(li, "a required list is missing");
        nlohmann::json arr = nlohmann::json::array();
        if (d < n.elem_def) {
          skip(n);
          return arr;
        }
        const FieldNode& elem = n.children[0];
        for (;;) {
          arr.push_back(read(elem));
          const size_t q = pos_[li];
          if (q >= l.count || l.rep.empty() || l.rep[q] != n.rep_level) break;
        }
        return arr;
      }
    }
    return nullptr;
  }

  // After the row group's rows: every slot of every decoded leaf must have been used.
  void check_consumed(const FieldNode& n) const {
    for (int li = n.first_leaf; li < n.leaf_end; ++li)
      if (pos_[li] != leaves_[li].count || vpos_[li] != leaves_[li].values.size()) fail(li, "more values than rows");
  }

  [[noreturn]] void fail(int leaf, const std::string& what) const {
    throw ChunkError{"column " + descs_[leaf].path + ": " + what};
  }

 private:
  // A null or empty node takes exactly one slot in each leaf beneath it.
  void skip(const FieldNode& n) {
    for (int li = n.first_leaf; li < n.leaf_end; ++li) {
      if (pos_[li] >= leaves_[li].count) fail(li, "fewer values than rows");
      const LeafData& l = leaves_[li];
      if (!l.def.empty() && l.def[pos_[li]] == descs_[li].max_def) fail(li, "a value under a null parent");
      ++pos_[li];
    }
  }

  const std::vector<LeafDesc>& descs_;
  std::vector<LeafData>& leaves_;
  std::vector<size_t> pos_, vpos_;
};

}  // namespace

std::string read_parquet_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParquetError(path + ": cannot open (" + std::strerror(errno) + ")");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw ParquetError(path + ": read error");
  return bytes;
}

std::vector<std::string> parquet_column_names(const std::string& bytes, const std::string& name) {
  const Footer f = read_footer(bytes, name);
  const SchemaTree tree = schema_of(f, name);
  std::vector<std::string> names;
  for (const FieldNode& n : tree.fields) names.push_back(n.name);
  return names;
}

std::vector<nlohmann::json> parse_parquet_rows(const std::string& bytes, const std::string& name,
                                               const ReadOptions& options) {
  const Footer f = read_footer(bytes, name);
  const SchemaTree tree = schema_of(f, name);
  const std::unordered_set<std::string> wanted(options.columns.begin(), options.columns.end());
  std::vector<const FieldNode*> fields;
  for (const FieldNode& n : tree.fields)
    if (wanted.empty() || wanted.count(n.name)) fields.push_back(&n);

  // The rows' objects are maps sorted by name: filling them in that order is cheapest. A
  // duplicate top-level name keeps the last column, as a dict built in schema order would.
  std::vector<const FieldNode*> by_name = fields;
  std::stable_sort(by_name.begin(), by_name.end(),
                   [](const FieldNode* a, const FieldNode* b) { return a->name < b->name; });

  std::vector<nlohmann::json> rows;
  for (size_t g = 0; g < f.meta.row_groups.size(); ++g) {
    const RowGroup& rg = f.meta.row_groups[g];
    if (rg.columns.size() != tree.leaves.size())
      throw ParquetError(name + ": row group " + std::to_string(g) + " has " + std::to_string(rg.columns.size()) +
                         " columns, the schema " + std::to_string(tree.leaves.size()));
    if (rg.num_rows < 0) throw ParquetError(name + ": row group " + std::to_string(g) + " has a negative row count");
    std::vector<LeafData> leaves(tree.leaves.size());
    try {
      for (const FieldNode* field : fields) {
        for (int li = field->first_leaf; li < field->leaf_end; ++li) {
          const LeafDesc& desc = tree.leaves[li];
          const ColumnChunk& cc = rg.columns[li];
          if (cc.encrypted)
            throw ParquetError(name + ": column " + desc.path + ": encrypted columns are not supported");
          if (cc.has_file_path)
            throw ParquetError(name + ": column " + desc.path + ": data in another file is not supported");
          if (!cc.meta_data) throw ParquetError(name + ": column " + desc.path + ": no column metadata");
          if (cc.meta_data->type != desc.type)
            throw ParquetError(name + ": column " + desc.path + ": chunk type differs from the schema's");
          try {
            leaves[li] = read_column_chunk(bytes, f.data_end, *cc.meta_data, desc, options.max_values_per_chunk);
          } catch (const ChunkError& e) {
            throw ParquetError(name + ": column " + desc.path + ", row group " + std::to_string(g) + ": " + e.what);
          }
        }
      }
      if (fields.empty()) {
        // No column asked for: rows are empty objects, as many as the row group declares (capped
        // by the chunk guard, since no data backs the count).
        if (static_cast<uint64_t>(rg.num_rows) > options.max_values_per_chunk)
          throw ParquetError(name + ": implausible row count");
        rows.insert(rows.end(), static_cast<size_t>(rg.num_rows), nlohmann::json::object());
        continue;
      }
      Assembler as(tree.leaves, leaves);
      // Every row of the group has at least one slot in the first column, so its slot count
      // bounds what the declared row count may reserve.
      const size_t slots = leaves[fields[0]->first_leaf].count;
      if (static_cast<uint64_t>(rg.num_rows) > slots)
        throw ParquetError(name + ": row group " + std::to_string(g) + " declares more rows than its columns hold");
      const size_t need = rows.size() + static_cast<size_t>(rg.num_rows);
      if (rows.capacity() < need) rows.reserve(std::max(need, 2 * rows.capacity()));
      for (int64_t r = 0; r < rg.num_rows; ++r) {
        nlohmann::json row = nlohmann::json::object();
        auto& obj = row.get_ref<nlohmann::json::object_t&>();
        // Fields in name order: each key goes in at the end of the map, no search.
        for (const FieldNode* field : by_name) {
          if (!as.at_row_start(*field)) as.fail(field->first_leaf, "levels do not start a row");
          obj.insert_or_assign(obj.end(), field->name, as.read(*field));
        }
        rows.push_back(std::move(row));
      }
      for (const FieldNode* field : fields) as.check_consumed(*field);
    } catch (const ChunkError& e) {
      throw ParquetError(name + ": row group " + std::to_string(g) + ": " + e.what);
    }
  }
  return rows;
}

std::vector<nlohmann::json> parse_parquet_rows(const std::string& bytes, const std::string& name) {
  return parse_parquet_rows(bytes, name, ReadOptions{});
}

std::vector<nlohmann::json> read_parquet_rows(const std::string& path, const ReadOptions& options) {
  return parse_parquet_rows(read_parquet_file(path), path, options);
}

std::vector<nlohmann::json> read_parquet_rows(const std::string& path) {
  return read_parquet_rows(path, ReadOptions{});
}

}  // namespace aiperf::parquet
