// Parquet's flattened schema as the tree pyarrow reads from it: which groups are lists (3-level,
// legacy 2-level, bare repeated fields), which are structs, and where each leaf column sits,
// with the definition and repetition levels that mark each node present, null or empty.
#pragma once
#include <string>
#include <vector>

#include "parquet/column_chunk.h"
#include "parquet/parquet_metadata.h"

namespace aiperf::parquet {

struct FieldNode {
  enum class Kind { kLeaf, kStruct, kList };
  Kind kind = Kind::kLeaf;
  std::string name;
  bool nullable = false;
  int present_def = 0;               // definition level at or above which the node is not null
  int elem_def = 0;                  // lists: level at or above which the list has an element
  int rep_level = 0;                 // lists: repetition level of a following element of this list
  int leaf = 0;                      // leaves: the column index
  int first_leaf = 0, leaf_end = 0;  // the columns under this node
  std::vector<FieldNode> children;   // struct fields, or a list's one element
};

struct SchemaTree {
  std::vector<FieldNode> fields;  // top-level columns
  std::vector<LeafDesc> leaves;   // in column-chunk order
};

struct SchemaError {
  std::string what;
};

// Throws SchemaError naming the column for malformed or unsupported schemas.
SchemaTree build_schema_tree(const std::vector<SchemaElement>& schema);

}  // namespace aiperf::parquet
