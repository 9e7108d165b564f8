#include "parquet/schema_tree.h"

namespace aiperf::parquet {
namespace {

constexpr int kMaxNesting = 100;  // levels are stored in a byte

struct Builder {
  const std::vector<SchemaElement>& schema;
  SchemaTree tree;
  size_t next = 1;  // index of the next element to consume (0 is the root)

  const SchemaElement& take(const std::string& where) {
    if (next >= schema.size()) throw SchemaError{"schema ends inside " + where};
    return schema[next++];
  }

  static bool is_list(const SchemaElement& e) {
    return e.logical_type == logical::kList || e.converted_type == converted::kList;
  }
  static bool is_map(const SchemaElement& e) {
    return e.logical_type == logical::kMap || e.converted_type == converted::kMap ||
           e.converted_type == converted::kMapKeyValue;
  }

  ValueKind leaf_kind(const SchemaElement& e, const std::string& path) {
    const int ct = e.converted_type.value_or(-1);
    const int lt = e.logical_type;
    if (lt == logical::kDecimal || ct == converted::kDecimal)
      throw SchemaError{"column " + path + ": DECIMAL is not supported"};
    if (lt == logical::kFloat16) throw SchemaError{"column " + path + ": FLOAT16 is not supported"};
    if (ct == converted::kInterval) throw SchemaError{"column " + path + ": INTERVAL is not supported"};
    const bool unsigned_int = (lt == logical::kInteger && !e.int_signed) || ct == converted::kUint8 ||
                              ct == converted::kUint16 || ct == converted::kUint32 || ct == converted::kUint64;
    switch (*e.type) {
      case PhysicalType::kBoolean:
        return ValueKind::kBool;
      case PhysicalType::kInt32:
        return unsigned_int ? ValueKind::kUInt32 : ValueKind::kInt32;
      case PhysicalType::kInt64:
        return unsigned_int ? ValueKind::kUInt64 : ValueKind::kInt64;
      case PhysicalType::kInt96:
        return ValueKind::kInt96Ns;
      case PhysicalType::kFloat:
        return ValueKind::kFloat;
      case PhysicalType::kDouble:
        return ValueKind::kDouble;
      case PhysicalType::kByteArray:
        if (lt == logical::kString || lt == logical::kEnum || lt == logical::kJson || ct == converted::kUtf8 ||
            ct == converted::kEnum || ct == converted::kJson)
          return ValueKind::kString;
        return ValueKind::kBinary;
      case PhysicalType::kFixedLenByteArray:
        if (e.type_length <= 0) throw SchemaError{"column " + path + ": FIXED_LEN_BYTE_ARRAY without a length"};
        return ValueKind::kBinary;
    }
    throw SchemaError{"column " + path + ": unknown physical type " + std::to_string(static_cast<int>(*e.type))};
  }

  // The element `e` (already consumed) with its subtree, as a node whose own optional/required
  // status is `rep` (a repeated element read as a list's element is required).
  FieldNode build(const SchemaElement& e, Repetition rep, int parent_def, int parent_rep,
                  const std::string& parent_path, int depth) {
    // Names become JSON keys: they must be UTF-8 like any string value.
    if (!valid_utf8(e.name.data(), e.name.size()))
      throw SchemaError{"a column name is not valid UTF-8" +
                        (parent_path.empty() ? std::string() : " (under " + parent_path + ")")};
    const std::string path = parent_path.empty() ? e.name : parent_path + "." + e.name;
    if (depth > kMaxNesting || parent_def >= kMaxNesting) throw SchemaError{"column " + path + ": nested too deeply"};
    if (rep == Repetition::kRepeated) {
      // A bare repeated field (not under a LIST annotation): a list of required elements.
      FieldNode list;
      list.kind = FieldNode::Kind::kList;
      list.name = e.name;
      list.nullable = false;
      list.present_def = parent_def;
      list.elem_def = parent_def + 1;
      list.rep_level = parent_rep + 1;
      list.first_leaf = static_cast<int>(tree.leaves.size());
      list.children.push_back(build(e, Repetition::kRequired, parent_def + 1, parent_rep + 1, parent_path, depth + 1));
      list.children[0].name = "element";
      list.leaf_end = static_cast<int>(tree.leaves.size());
      return list;
    }
    FieldNode node;
    node.name = e.name;
    node.nullable = rep == Repetition::kOptional;
    node.present_def = parent_def + (node.nullable ? 1 : 0);
    node.first_leaf = static_cast<int>(tree.leaves.size());
    if (e.num_children < 0) throw SchemaError{"column " + path + ": negative child count"};
    if (e.num_children == 0) {
      if (!e.type) throw SchemaError{"column " + path + ": a group without fields"};
      node.kind = FieldNode::Kind::kLeaf;
      node.leaf = static_cast<int>(tree.leaves.size());
      LeafDesc leaf;
      leaf.path = path;
      leaf.type = *e.type;
      leaf.type_length = e.type_length;
      leaf.kind = leaf_kind(e, path);
      leaf.max_def = node.present_def;
      leaf.max_rep = parent_rep;
      tree.leaves.push_back(std::move(leaf));
    } else if (is_map(e)) {
      throw SchemaError{"column " + path + ": MAP columns are not supported"};
    } else if (is_list(e)) {
      node.kind = FieldNode::Kind::kList;
      if (e.num_children != 1) throw SchemaError{"column " + path + ": a LIST group must have one field"};
      const SchemaElement& r = take(path);
      if (r.repetition != Repetition::kRepeated)
        throw SchemaError{"column " + path + ": a LIST group's field must be repeated"};
      node.elem_def = node.present_def + 1;
      node.rep_level = parent_rep + 1;
      const std::string rpath = path + "." + r.name;
      // pyarrow's backward-compatibility rules (parquet-format LogicalTypes.md): a repeated
      // primitive, a repeated group of several fields, or one named "array" / "<list>_tuple" is
      // itself the element (2-level); otherwise its one field is the element (3-level).
      if (r.num_children == 0 || r.num_children > 1 || r.name == "array" || r.name == e.name + "_tuple") {
        node.children.push_back(build(r, Repetition::kRequired, node.elem_def, node.rep_level, path, depth + 1));
      } else {
        const SchemaElement& elem = take(rpath);
        node.children.push_back(build(elem, elem.repetition.value_or(Repetition::kRequired), node.elem_def,
                                      node.rep_level, rpath, depth + 1));
      }
      node.children[0].name = "element";
    } else {
      node.kind = FieldNode::Kind::kStruct;
      for (int32_t i = 0; i < e.num_children; ++i) {
        const SchemaElement& c = take(path);
        node.children.push_back(
            build(c, c.repetition.value_or(Repetition::kRequired), node.present_def, parent_rep, path, depth + 1));
      }
    }
    node.leaf_end = static_cast<int>(tree.leaves.size());
    return node;
  }
};

}  // namespace

SchemaTree build_schema_tree(const std::vector<SchemaElement>& schema) {
  if (schema.empty()) throw SchemaError{"empty schema"};
  if (schema[0].num_children < 0) throw SchemaError{"negative child count at the root"};
  Builder b{schema, {}, 1};
  for (int32_t i = 0; i < schema[0].num_children; ++i) {
    const SchemaElement& e = b.take("the root");
    b.tree.fields.push_back(b.build(e, e.repetition.value_or(Repetition::kRequired), 0, 0, "", 0));
  }
  if (b.next != schema.size()) throw SchemaError{"schema has elements outside the root's fields"};
  return std::move(b.tree);
}

}  // namespace aiperf::parquet
