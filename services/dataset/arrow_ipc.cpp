#include "arrow_ipc.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "dataset_error.h"

namespace aiperf::dataset {
namespace {

using nlohmann::json;

struct Bad : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Bounds-checked little-endian reads over the whole file, and FlatBuffers tables on top.
class Bytes {
 public:
  explicit Bytes(std::string data) : d_(std::move(data)) {}
  size_t size() const { return d_.size(); }
  template <typename T>
  T get(size_t pos) const {
    if (pos > d_.size() || d_.size() - pos < sizeof(T)) throw Bad("truncated file (read at byte " + std::to_string(pos) + ")");
    T v;
    std::memcpy(&v, d_.data() + pos, sizeof(T));
    return v;
  }
  std::string str(size_t pos, size_t n) const {
    if (pos > d_.size() || d_.size() - pos < n) throw Bad("truncated file (string at byte " + std::to_string(pos) + ")");
    return d_.substr(pos, n);
  }

 private:
  std::string d_;
};

// A FlatBuffers table at `pos`: field i is present when its vtable slot is non-zero.
struct Table {
  const Bytes* b = nullptr;
  size_t pos = 0;
  size_t field(int i) const {
    const size_t vt = pos - static_cast<size_t>(b->get<int32_t>(pos));
    const uint16_t vt_size = b->get<uint16_t>(vt);
    if (4 + 2 * static_cast<size_t>(i) >= vt_size) return 0;
    const uint16_t off = b->get<uint16_t>(vt + 4 + 2 * i);
    return off ? pos + off : 0;
  }
  template <typename T>
  T scalar(int i, T fallback) const {
    const size_t p = field(i);
    return p ? b->get<T>(p) : fallback;
  }
  size_t ref(int i) const {  // the object a uoffset field points to; 0 when absent
    const size_t p = field(i);
    return p ? p + b->get<uint32_t>(p) : 0;
  }
  Table table(int i) const {
    const size_t p = ref(i);
    if (!p) throw Bad("a required table is missing");
    return {b, p};
  }
  // A vector field: {count, first element position}.
  std::pair<uint32_t, size_t> vec(int i) const {
    const size_t p = ref(i);
    if (!p) return {0, 0};
    return {b->get<uint32_t>(p), p + 4};
  }
  std::string string(int i) const {
    const size_t p = ref(i);
    return p ? b->str(p + 4, b->get<uint32_t>(p)) : std::string();
  }
};

Table root(const Bytes& b, size_t pos) { return {&b, pos + b.get<uint32_t>(pos)}; }

enum TypeId : uint8_t { kNull = 1, kInt = 2, kFloat = 3, kUtf8 = 5, kBool = 6, kList = 12, kLargeUtf8 = 20, kLargeList = 21 };

struct Field {
  std::string name;
  uint8_t type = 0;
  int bits = 0;
  bool is_signed = true;
  std::vector<Field> children;
};

Field read_field(const Table& f, int depth = 0) {
  if (depth > 8) throw Bad("columns nested deeper than 8 levels are not supported");
  Field out;
  out.name = f.string(0);
  out.type = f.scalar<uint8_t>(2, 0);
  if (f.ref(4)) throw Bad("column '" + out.name + "': dictionary-encoded columns are not supported");
  if (out.type == kInt) {
    const Table t = f.table(3);
    out.bits = t.scalar<int32_t>(0, 0);
    out.is_signed = t.scalar<uint8_t>(1, 0) != 0;
  } else if (out.type == kFloat) {
    const int16_t precision = f.table(3).scalar<int16_t>(0, 0);
    if (precision != 1 && precision != 2) throw Bad("column '" + out.name + "': half floats are not supported");
    out.bits = precision == 2 ? 64 : 32;
  } else if (out.type != kNull && out.type != kUtf8 && out.type != kLargeUtf8 && out.type != kBool &&
             out.type != kList && out.type != kLargeList) {
    throw Bad("column '" + out.name + "': Arrow type id " + std::to_string(out.type) +
              " is not supported (integers, floats, booleans, strings and lists of them are)");
  }
  const auto [n, at] = f.vec(5);
  for (uint32_t i = 0; i < n; ++i) {
    const size_t p = at + 4 * i;
    out.children.push_back(read_field({f.b, p + f.b->get<uint32_t>(p)}, depth + 1));
  }
  if ((out.type == kList || out.type == kLargeList) && out.children.size() != 1)
    throw Bad("column '" + out.name + "': a list needs one child");
  return out;
}

// One record batch: its nodes and buffers consumed in schema order (depth first).
struct Batch {
  const Bytes* b;
  size_t body;  // file position of the body
  std::vector<std::pair<int64_t, int64_t>> nodes, buffers;
  size_t next_node = 0, next_buffer = 0;

  std::pair<int64_t, int64_t> node() {
    if (next_node >= nodes.size()) throw Bad("record batch has fewer field nodes than the schema");
    return nodes[next_node++];
  }
  std::pair<size_t, int64_t> buffer() {  // {file position, length}
    if (next_buffer >= buffers.size()) throw Bad("record batch has fewer buffers than the schema");
    const auto [off, len] = buffers[next_buffer++];
    if (off < 0 || len < 0 || body > b->size() || static_cast<uint64_t>(off) > b->size() - body ||
        static_cast<uint64_t>(len) > b->size() - body - static_cast<size_t>(off))
      throw Bad("a buffer lies outside the file");
    return {body + static_cast<size_t>(off), len};
  }
};

bool valid(const Bytes& b, std::pair<size_t, int64_t> validity, int64_t i) {
  if (validity.second == 0) return true;
  return (b.get<uint8_t>(validity.first + static_cast<size_t>(i / 8)) >> (i % 8)) & 1;
}

json number(const Bytes& b, const Field& f, size_t data, int64_t i) {
  if (f.type == kFloat) return f.bits == 64 ? json(b.get<double>(data + 8 * i)) : json(b.get<float>(data + 4 * i));
  const size_t at = data + static_cast<size_t>(i) * (f.bits / 8);
  switch (f.bits) {
    case 8: return f.is_signed ? json(b.get<int8_t>(at)) : json(b.get<uint8_t>(at));
    case 16: return f.is_signed ? json(b.get<int16_t>(at)) : json(b.get<uint16_t>(at));
    case 32: return f.is_signed ? json(b.get<int32_t>(at)) : json(b.get<uint32_t>(at));
    case 64: return f.is_signed ? json(b.get<int64_t>(at)) : json(b.get<uint64_t>(at));
  }
  throw Bad("column '" + f.name + "': " + std::to_string(f.bits) + "-bit integers are not supported");
}

// The column's values (length = its node's length).
std::vector<json> read_column(Batch& batch, const Field& f) {
  const Bytes& b = *batch.b;
  const int64_t length = batch.node().first;
  // Every row costs at least one byte somewhere in a real trace: a larger count is corrupt.
  if (length < 0 || static_cast<uint64_t>(length) > b.size() * 8) throw Bad("column '" + f.name + "': bad length");
  std::vector<json> out(static_cast<size_t>(length));
  if (f.type == kNull) return out;  // no buffers
  const auto validity = batch.buffer();
  if (f.type == kInt || f.type == kFloat || f.type == kBool) {
    const auto data = batch.buffer();
    for (int64_t i = 0; i < length; ++i) {
      if (!valid(b, validity, i)) continue;
      out[i] = f.type == kBool ? json(((b.get<uint8_t>(data.first + i / 8) >> (i % 8)) & 1) != 0)
                               : number(b, f, data.first, i);
    }
    return out;
  }
  const bool large = f.type == kLargeUtf8 || f.type == kLargeList;
  const auto offsets = batch.buffer();
  auto offset = [&](int64_t i) -> int64_t {
    return large ? b.get<int64_t>(offsets.first + 8 * i) : b.get<int32_t>(offsets.first + 4 * i);
  };
  if (f.type == kUtf8 || f.type == kLargeUtf8) {
    const auto data = batch.buffer();
    for (int64_t i = 0; i < length; ++i) {
      if (!valid(b, validity, i)) continue;
      const int64_t from = offset(i), to = offset(i + 1);
      if (from < 0 || to < from || to > data.second) throw Bad("column '" + f.name + "': bad string offsets");
      out[i] = b.str(data.first + from, static_cast<size_t>(to - from));
    }
    return out;
  }
  const std::vector<json> child = read_column(batch, f.children[0]);
  for (int64_t i = 0; i < length; ++i) {
    if (!valid(b, validity, i)) continue;
    const int64_t from = offset(i), to = offset(i + 1);
    if (from < 0 || to < from || static_cast<size_t>(to) > child.size()) throw Bad("column '" + f.name + "': bad list offsets");
    out[i] = json::array();
    for (int64_t k = from; k < to; ++k) out[i].push_back(child[k]);
  }
  return out;
}

std::vector<json> read_rows(const Bytes& b) {
  static const std::string kMagic("ARROW1", 6);
  if (b.size() < 18 || b.str(0, 6) != kMagic || b.str(b.size() - 6, 6) != kMagic)
    throw Bad("not an Arrow IPC file (no ARROW1 magic at both ends)");
  const int32_t footer_len = b.get<int32_t>(b.size() - 10);
  if (footer_len <= 0 || static_cast<size_t>(footer_len) > b.size() - 18) throw Bad("bad footer length");
  const Table footer = root(b, b.size() - 10 - static_cast<size_t>(footer_len));
  const Table schema = footer.table(1);
  std::vector<Field> fields;
  const auto [nfields, fat] = schema.vec(1);
  for (uint32_t i = 0; i < nfields; ++i) {
    const size_t p = fat + 4 * i;
    fields.push_back(read_field({&b, p + b.get<uint32_t>(p)}));
  }
  std::vector<json> rows;
  const auto [nbatches, bat] = footer.vec(3);
  for (uint32_t k = 0; k < nbatches; ++k) {
    const size_t block = bat + 24 * k;
    const auto offset = static_cast<size_t>(b.get<int64_t>(block));
    const auto meta_len = static_cast<size_t>(b.get<int32_t>(block + 8));
    const size_t fb = b.get<uint32_t>(offset) == 0xFFFFFFFFu ? offset + 8 : offset + 4;
    const Table message = root(b, fb);
    if (message.scalar<uint8_t>(1, 0) != 3) throw Bad("block " + std::to_string(k) + " is not a record batch");
    const Table rb = message.table(2);
    if (rb.ref(3)) throw Bad("compressed record batches are not supported (write with compression=None)");
    Batch batch{&b, offset + meta_len, {}, {}};
    const auto [nn, nat] = rb.vec(1);
    for (uint32_t i = 0; i < nn; ++i) batch.nodes.emplace_back(b.get<int64_t>(nat + 16 * i), b.get<int64_t>(nat + 16 * i + 8));
    const auto [nb, bufat] = rb.vec(2);
    for (uint32_t i = 0; i < nb; ++i)
      batch.buffers.emplace_back(b.get<int64_t>(bufat + 16 * i), b.get<int64_t>(bufat + 16 * i + 8));
    const int64_t declared = rb.scalar<int64_t>(0, 0);
    if (declared < 0 || static_cast<uint64_t>(declared) > b.size() * 8) throw Bad("bad record batch length");
    const auto length = static_cast<size_t>(declared);
    const size_t first = rows.size();
    rows.resize(first + length, json::object());
    for (const Field& f : fields) {
      const std::vector<json> column = read_column(batch, f);
      if (column.size() != length) throw Bad("column '" + f.name + "' length differs from its batch's");
      for (size_t i = 0; i < length; ++i) rows[first + i][f.name] = column[i];
    }
  }
  return rows;
}

}  // namespace

std::vector<json> read_arrow_ipc_rows(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DatasetFileError(path + ": cannot open the file");
  return parse_arrow_ipc_rows(std::string(std::istreambuf_iterator<char>(in), {}), path);
}

std::vector<json> parse_arrow_ipc_rows(std::string data, const std::string& name) {
  const Bytes bytes(std::move(data));
  try {
    return read_rows(bytes);
  } catch (const Bad& e) {
    throw DatasetFileError(name + ": " + e.what());
  }
}

}  // namespace aiperf::dataset
