#include "parquet/column_chunk.h"

#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>

#include "parquet/thrift_compact.h"

namespace aiperf::parquet {
namespace {

enum Codec : int32_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4 = 5,
  kZstd = 6,
  kLz4Raw = 7
};
enum Encoding : int32_t {
  kPlain = 0,
  kPlainDictionary = 2,
  kRle = 3,
  kBitPacked = 4,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
};

const char* codec_name(int32_t c) {
  switch (c) {
    case kLzo:
      return "LZO";
    case kBrotli:
      return "BROTLI";
    case kLz4:
      return "LZ4";
    case kLz4Raw:
      return "LZ4_RAW";
    default:
      return "unknown";
  }
}

std::string encoding_name(int32_t e) {
  switch (e) {
    case kBitPacked:
      return "BIT_PACKED";
    case kDeltaBinaryPacked:
      return "DELTA_BINARY_PACKED";
    case kDeltaLengthByteArray:
      return "DELTA_LENGTH_BYTE_ARRAY";
    case kDeltaByteArray:
      return "DELTA_BYTE_ARRAY";
    case kByteStreamSplit:
      return "BYTE_STREAM_SPLIT";
    default:
      return "encoding " + std::to_string(e);
  }
}

// A decompressed page larger than this many times its compressed size is refused: real pages
// stay far below it (zstd and gzip top out near 1000:1 on constant data) and it keeps a crafted
// header from allocating gigabytes.
constexpr int64_t kMaxRatio = 1 << 15;
constexpr int64_t kMaxPageBytes = int64_t{1} << 30;

// Decompresses `in` into exactly `out_size` bytes, or throws.
std::string decompress(int32_t codec, std::string_view in, int64_t out_size) {
  if (out_size < 0 || out_size > kMaxPageBytes || out_size > (static_cast<int64_t>(in.size()) + 1024) * kMaxRatio)
    throw ChunkError{"implausible uncompressed page size " + std::to_string(out_size)};
  std::string out(static_cast<size_t>(out_size), '\0');
  switch (codec) {
    case kSnappy: {
      size_t len = 0;
      if (snappy_uncompressed_length(in.data(), in.size(), &len) != SNAPPY_OK || len != out.size())
        throw ChunkError{"corrupt Snappy page"};
      if (snappy_uncompress(in.data(), in.size(), out.data(), &len) != SNAPPY_OK || len != out.size())
        throw ChunkError{"corrupt Snappy page"};
      return out;
    }
    case kGzip: {
      z_stream zs{};
      if (inflateInit2(&zs, 15 + 32) != Z_OK) throw ChunkError{"zlib initialisation failed"};
      zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
      zs.avail_in = static_cast<uInt>(in.size());
      zs.next_out = reinterpret_cast<Bytef*>(out.data());
      zs.avail_out = static_cast<uInt>(out.size());
      const int rc = inflate(&zs, Z_FINISH);
      const uLong produced = zs.total_out;
      inflateEnd(&zs);
      if (rc != Z_STREAM_END || produced != out.size()) throw ChunkError{"corrupt GZIP page"};
      return out;
    }
    case kZstd: {
      const size_t n = ZSTD_decompress(out.data(), out.size(), in.data(), in.size());
      if (ZSTD_isError(n) || n != out.size()) throw ChunkError{"corrupt ZSTD page"};
      return out;
    }
    default:
      throw ChunkError{std::string("unsupported compression codec ") + codec_name(codec)};
  }
}

int bit_width(int max_value) {
  int w = 0;
  while (max_value > 0) {
    ++w;
    max_value >>= 1;
  }
  return w;
}

uint32_t read_u32le(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// Decodes `n` values of the RLE / bit-packed hybrid encoding from [p, end) into out[0..n).
// Throws when the data ends before n values (bit width <= 32).
template <class T>
void decode_hybrid(const uint8_t* p, const uint8_t* end, int width, size_t n, T* out) {
  const size_t value_bytes = static_cast<size_t>((width + 7) / 8);
  const uint64_t mask = width == 0 ? 0 : (width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1);
  size_t done = 0;
  while (done < n) {
    uint64_t header = 0;
    for (int shift = 0;; shift += 7) {
      if (p >= end || shift > 35) throw ChunkError{"truncated RLE/bit-packed run"};
      const uint8_t b = *p++;
      header |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) break;
    }
    if (header & 1) {  // bit-packed: (header >> 1) groups of 8 values, `width` bytes per group
      const uint64_t values = (header >> 1) * 8;
      const size_t avail = static_cast<size_t>(end - p);
      const uint64_t bytes = (header >> 1) * static_cast<uint64_t>(width);
      const size_t take = static_cast<size_t>(std::min<uint64_t>(values, n - done));
      // The last run may be cut short by a writer; only the values actually needed must be there.
      if ((static_cast<uint64_t>(take) * width + 7) / 8 > avail) throw ChunkError{"truncated bit-packed run"};
      for (size_t i = 0; i < take; ++i) {
        const uint64_t bit = static_cast<uint64_t>(i) * width;
        const size_t byte = static_cast<size_t>(bit >> 3);
        uint64_t window = 0;
        std::memcpy(&window, p + byte, std::min<size_t>(8, avail - byte));
        out[done + i] = static_cast<T>((window >> (bit & 7)) & mask);
      }
      done += take;
      p += std::min<uint64_t>(bytes, avail);
    } else {  // RLE: (header >> 1) repeats of one value in ceil(width/8) bytes
      const uint64_t count = header >> 1;
      if (static_cast<size_t>(end - p) < value_bytes) throw ChunkError{"truncated RLE run"};
      uint64_t v = 0;
      std::memcpy(&v, p, value_bytes);
      p += value_bytes;
      if (count == 0) continue;
      const size_t take = static_cast<size_t>(std::min<uint64_t>(count, n - done));
      std::fill(out + done, out + done + take, static_cast<T>(v & mask));
      done += take;
    }
  }
}

// A v1 data page's level section: a 4-byte length, then the hybrid runs.
const uint8_t* read_v1_levels(const uint8_t* p, const uint8_t* end, int max_level, size_t n, uint8_t* out) {
  if (end - p < 4) throw ChunkError{"truncated level length"};
  const uint32_t len = read_u32le(p);
  p += 4;
  if (len > static_cast<size_t>(end - p)) throw ChunkError{"level data longer than the page"};
  decode_hybrid(p, p + len, bit_width(max_level), n, out);
  return p + len;
}

void check_levels(const uint8_t* v, size_t n, int max_level, const char* what) {
  for (size_t i = 0; i < n; ++i)
    if (v[i] > max_level) throw ChunkError{std::string(what) + " level above the column's maximum"};
}

// Appends one value of a plain-encoded byte string.
void push_bytes(std::vector<nlohmann::json>& out, const char* p, size_t n, ValueKind kind) {
  if (kind == ValueKind::kString) {
    if (!valid_utf8(p, n)) throw ChunkError{"invalid UTF-8 in a string value"};
    out.emplace_back(std::string(p, n));
  } else {
    out.emplace_back(nlohmann::json::binary_t(std::vector<uint8_t>(p, p + n)));
  }
}

template <class T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// Decodes `n` PLAIN values from [p, end) onto `out`.
void decode_plain(const uint8_t* p, const uint8_t* end, size_t n, const LeafDesc& leaf,
                  std::vector<nlohmann::json>& out) {
  const size_t avail = static_cast<size_t>(end - p);
  auto need = [&](uint64_t width) {
    if (width != 0 && n > avail / width) throw ChunkError{"page holds fewer values than it declares"};
  };
  switch (leaf.type) {
    case PhysicalType::kBoolean:
      if ((n + 7) / 8 > avail) throw ChunkError{"page holds fewer values than it declares"};
      for (size_t i = 0; i < n; ++i) out.emplace_back(((p[i >> 3] >> (i & 7)) & 1) != 0);
      return;
    case PhysicalType::kInt32:
      need(4);
      for (size_t i = 0; i < n; ++i) {
        const int32_t v = load<int32_t>(p + 4 * i);
        if (leaf.kind == ValueKind::kUInt32) out.emplace_back(static_cast<uint32_t>(v));
        else out.emplace_back(v);
      }
      return;
    case PhysicalType::kInt64:
      need(8);
      for (size_t i = 0; i < n; ++i) {
        const int64_t v = load<int64_t>(p + 8 * i);
        if (leaf.kind == ValueKind::kUInt64) out.emplace_back(static_cast<uint64_t>(v));
        else out.emplace_back(v);
      }
      return;
    case PhysicalType::kInt96:
      need(12);
      for (size_t i = 0; i < n; ++i) {
        // Nanoseconds within the day, then the Julian day number (2440588 is 1970-01-01).
        const int64_t nanos = load<int64_t>(p + 12 * i);
        const int32_t julian = load<int32_t>(p + 12 * i + 8);
        const int64_t days = static_cast<int64_t>(julian) - 2440588;
        out.emplace_back(
            static_cast<int64_t>(static_cast<uint64_t>(days) * 86400000000000ULL + static_cast<uint64_t>(nanos)));
      }
      return;
    case PhysicalType::kFloat:
      need(4);
      for (size_t i = 0; i < n; ++i) out.emplace_back(static_cast<double>(load<float>(p + 4 * i)));
      return;
    case PhysicalType::kDouble:
      need(8);
      for (size_t i = 0; i < n; ++i) out.emplace_back(load<double>(p + 8 * i));
      return;
    case PhysicalType::kByteArray:
      for (size_t i = 0; i < n; ++i) {
        if (end - p < 4) throw ChunkError{"page holds fewer values than it declares"};
        const uint32_t len = read_u32le(p);
        p += 4;
        if (len > static_cast<size_t>(end - p)) throw ChunkError{"byte array longer than its page"};
        push_bytes(out, reinterpret_cast<const char*>(p), len, leaf.kind);
        p += len;
      }
      return;
    case PhysicalType::kFixedLenByteArray: {
      const auto width = static_cast<uint64_t>(leaf.type_length);
      need(width);
      for (size_t i = 0; i < n; ++i)
        push_bytes(out, reinterpret_cast<const char*>(p + width * i), static_cast<size_t>(width), leaf.kind);
      return;
    }
  }
  throw ChunkError{"unknown physical type"};
}

// Run-length encoded booleans (pyarrow writes them so in v2 data pages): a 4-byte length, then
// hybrid runs of width 1.
void decode_rle_bool(const uint8_t* p, const uint8_t* end, size_t n, std::vector<nlohmann::json>& out) {
  if (end - p < 4) throw ChunkError{"truncated boolean run length"};
  const uint32_t len = read_u32le(p);
  p += 4;
  if (len > static_cast<size_t>(end - p)) throw ChunkError{"boolean runs longer than the page"};
  std::vector<uint8_t> bits(n);
  decode_hybrid(p, p + len, 1, n, bits.data());
  for (size_t i = 0; i < n; ++i) out.emplace_back(bits[i] != 0);
}

void decode_dict_indices(const uint8_t* p, const uint8_t* end, size_t n, const std::vector<nlohmann::json>& dict,
                         std::vector<nlohmann::json>& out) {
  if (n == 0) return;
  if (p >= end) throw ChunkError{"missing dictionary index width"};
  const int width = *p++;
  if (width > 32) throw ChunkError{"dictionary index width above 32"};
  std::vector<uint32_t> idx(n);
  decode_hybrid(p, end, width, n, idx.data());
  for (size_t i = 0; i < n; ++i) {
    if (idx[i] >= dict.size()) throw ChunkError{"dictionary index out of range"};
    out.push_back(dict[idx[i]]);
  }
}

// LEB128 varint from [p, end), advancing p.
uint64_t read_uleb(const uint8_t*& p, const uint8_t* end) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p >= end) throw ChunkError{"truncated DELTA header"};
    const uint8_t b = *p++;
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return v;
  }
  throw ChunkError{"varint longer than 10 bytes"};
}

int64_t read_zigzag(const uint8_t*& p, const uint8_t* end) {
  const uint64_t v = read_uleb(p, end);
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

// `width` bits (<= 64) at bit offset `bit` of p[0..avail), least significant bit first.
uint64_t read_bits(const uint8_t* p, size_t avail, uint64_t bit, int width) {
  uint64_t v = 0;
  int got = 0;
  while (got < width) {
    const uint64_t at = bit + static_cast<uint64_t>(got);
    const size_t byte = static_cast<size_t>(at >> 3);
    if (byte >= avail) throw ChunkError{"truncated DELTA miniblock"};
    const int off = static_cast<int>(at & 7);
    const int take = std::min(8 - off, width - got);
    const uint64_t bits = (static_cast<uint64_t>(p[byte]) >> off) & ((uint64_t{1} << take) - 1);
    v |= bits << got;
    got += take;
  }
  return v;
}

// DELTA_BINARY_PACKED: `n` integers into out (wrapping arithmetic, as the format specifies;
// 32-bit columns wrap at 32 bits). Returns where the encoded values end.
const uint8_t* decode_delta_binary(const uint8_t* p, const uint8_t* end, size_t n, bool is32,
                                   std::vector<int64_t>& out) {
  const uint64_t block = read_uleb(p, end);
  const uint64_t miniblocks = read_uleb(p, end);
  const uint64_t total = read_uleb(p, end);
  uint64_t value = static_cast<uint64_t>(read_zigzag(p, end));
  if (block == 0 || miniblocks == 0 || block % miniblocks != 0 || (block / miniblocks) % 8 != 0 || block > (1u << 20))
    throw ChunkError{"malformed DELTA_BINARY_PACKED header"};
  if (total < n) throw ChunkError{"DELTA_BINARY_PACKED holds fewer values than the page declares"};
  const uint64_t per_mini = block / miniblocks;
  auto emit = [&](uint64_t v) {
    out.push_back(is32 ? static_cast<int64_t>(static_cast<int32_t>(v)) : static_cast<int64_t>(v));
  };
  out.clear();
  out.reserve(n);
  if (n == 0) return p;
  emit(value);
  std::vector<uint8_t> widths(static_cast<size_t>(miniblocks));
  while (out.size() < n) {
    const auto min_delta = static_cast<uint64_t>(read_zigzag(p, end));
    if (static_cast<uint64_t>(end - p) < miniblocks) throw ChunkError{"truncated DELTA block header"};
    std::copy(p, p + miniblocks, widths.begin());
    p += miniblocks;
    for (uint64_t m = 0; m < miniblocks && out.size() < n; ++m) {
      const int w = widths[static_cast<size_t>(m)];
      if (w > 64) throw ChunkError{"DELTA miniblock wider than 64 bits"};
      const size_t avail = static_cast<size_t>(end - p);
      const uint64_t take = std::min<uint64_t>(per_mini, n - out.size());
      for (uint64_t i = 0; i < take; ++i) {
        value += min_delta + read_bits(p, avail, i * static_cast<uint64_t>(w), w);
        emit(value);
      }
      // A miniblock takes its full width even when its values run out (the writer pads it);
      // a writer that cut the padding of the last one is tolerated.
      p += std::min<uint64_t>(per_mini * static_cast<uint64_t>(w) / 8, avail);
    }
  }
  return p;
}

void push_int(std::vector<nlohmann::json>& out, int64_t v, const LeafDesc& leaf) {
  if (leaf.kind == ValueKind::kUInt32) out.emplace_back(static_cast<uint32_t>(v));
  else if (leaf.kind == ValueKind::kUInt64) out.emplace_back(static_cast<uint64_t>(v));
  else out.emplace_back(v);
}

// Lengths (DELTA_BINARY_PACKED), checked >= 0; returns where they end.
const uint8_t* decode_lengths(const uint8_t* p, const uint8_t* end, size_t n, std::vector<int64_t>& lengths) {
  p = decode_delta_binary(p, end, n, true, lengths);
  for (int64_t len : lengths)
    if (len < 0) throw ChunkError{"negative length in a DELTA byte array"};
  return p;
}

void check_fixed(const LeafDesc& leaf, size_t len) {
  if (leaf.type == PhysicalType::kFixedLenByteArray && len != static_cast<size_t>(leaf.type_length))
    throw ChunkError{"value length differs from the column's fixed length"};
}

void decode_delta(int32_t encoding, const uint8_t* p, const uint8_t* end, size_t n, const LeafDesc& leaf,
                  std::vector<nlohmann::json>& out) {
  if (encoding == kDeltaBinaryPacked) {
    if (leaf.type != PhysicalType::kInt32 && leaf.type != PhysicalType::kInt64)
      throw ChunkError{"DELTA_BINARY_PACKED outside an integer column"};
    std::vector<int64_t> values;
    decode_delta_binary(p, end, n, leaf.type == PhysicalType::kInt32, values);
    for (int64_t v : values) push_int(out, v, leaf);
    return;
  }
  if (leaf.type != PhysicalType::kByteArray && leaf.type != PhysicalType::kFixedLenByteArray)
    throw ChunkError{encoding_name(encoding) + " outside a byte-array column"};
  if (encoding == kDeltaLengthByteArray) {
    std::vector<int64_t> lengths;
    p = decode_lengths(p, end, n, lengths);
    for (int64_t len : lengths) {
      if (static_cast<uint64_t>(len) > static_cast<uint64_t>(end - p))
        throw ChunkError{"byte array longer than its page"};
      check_fixed(leaf, static_cast<size_t>(len));
      push_bytes(out, reinterpret_cast<const char*>(p), static_cast<size_t>(len), leaf.kind);
      p += len;
    }
    return;
  }
  // DELTA_BYTE_ARRAY: each value is a prefix of the previous one plus its own suffix.
  std::vector<int64_t> prefixes, suffixes;
  p = decode_lengths(p, end, n, prefixes);
  p = decode_lengths(p, end, n, suffixes);
  std::string prev, cur;
  for (size_t i = 0; i < n; ++i) {
    const auto pre = static_cast<uint64_t>(prefixes[i]), suf = static_cast<uint64_t>(suffixes[i]);
    if (pre > prev.size()) throw ChunkError{"DELTA_BYTE_ARRAY prefix longer than the previous value"};
    if (suf > static_cast<uint64_t>(end - p)) throw ChunkError{"byte array longer than its page"};
    cur.assign(prev, 0, static_cast<size_t>(pre));
    cur.append(reinterpret_cast<const char*>(p), static_cast<size_t>(suf));
    p += suf;
    check_fixed(leaf, cur.size());
    push_bytes(out, cur.data(), cur.size(), leaf.kind);
    prev.swap(cur);
  }
}

// BYTE_STREAM_SPLIT: byte k of value i is at k * n + i; regathered, then decoded as PLAIN.
void decode_byte_stream_split(const uint8_t* p, const uint8_t* end, size_t n, const LeafDesc& leaf,
                              std::vector<nlohmann::json>& out) {
  size_t width;
  switch (leaf.type) {
    case PhysicalType::kFloat:
    case PhysicalType::kInt32:
      width = 4;
      break;
    case PhysicalType::kDouble:
    case PhysicalType::kInt64:
      width = 8;
      break;
    case PhysicalType::kFixedLenByteArray:
      width = static_cast<size_t>(leaf.type_length);
      break;
    default:
      throw ChunkError{"BYTE_STREAM_SPLIT outside a fixed-width column"};
  }
  if (width != 0 && n > static_cast<size_t>(end - p) / width)
    throw ChunkError{"page holds fewer values than it declares"};
  std::vector<uint8_t> plain(n * width);
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < width; ++k) plain[i * width + k] = p[k * n + i];
  decode_plain(plain.data(), plain.data() + plain.size(), n, leaf, out);
}

}  // namespace

bool valid_utf8(const char* s, size_t n) {
  const auto* p = reinterpret_cast<const uint8_t*>(s);
  const uint8_t* end = p + n;
  while (p < end) {
    // ASCII fast path, eight bytes at a time.
    while (end - p >= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      if (w & 0x8080808080808080ULL) break;
      p += 8;
    }
    if (p >= end) break;
    const uint8_t c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    size_t len;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (static_cast<size_t>(end - p) < len) return false;
    for (size_t i = 1; i < len; ++i) {
      if ((p[i] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (p[i] & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    p += len;
  }
  return true;
}

LeafData read_column_chunk(std::string_view file, size_t data_end, const ColumnMetaData& meta, const LeafDesc& leaf,
                           uint64_t max_values) {
  if (meta.codec != kUncompressed && meta.codec != kSnappy && meta.codec != kGzip && meta.codec != kZstd)
    throw ChunkError{std::string("unsupported compression codec ") + codec_name(meta.codec)};
  if (meta.num_values < 0 || static_cast<uint64_t>(meta.num_values) > max_values)
    throw ChunkError{"implausible value count " + std::to_string(meta.num_values)};
  // An empty chunk (a 0-row group) may carry a dictionary page and no data page offset.
  if (meta.num_values == 0) return {};
  int64_t start = meta.data_page_offset;
  if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0 && *meta.dictionary_page_offset < start)
    start = *meta.dictionary_page_offset;
  if (start < 4 || meta.total_compressed_size < 0 || static_cast<uint64_t>(start) > data_end ||
      static_cast<uint64_t>(meta.total_compressed_size) > data_end - static_cast<uint64_t>(start))
    throw ChunkError{"column chunk outside the file's data"};

  const auto* base = reinterpret_cast<const uint8_t*>(file.data());
  const uint8_t* pos = base + start;
  const uint8_t* chunk_end = pos + meta.total_compressed_size;
  const auto total = static_cast<size_t>(meta.num_values);

  LeafData out;
  std::vector<nlohmann::json> dict;
  bool have_dict = false;

  while (out.count < total) {
    if (pos >= chunk_end) throw ChunkError{"fewer values than the metadata declares"};
    size_t header_len = 0;
    PageHeader h;
    try {
      h = decode_page_header(pos, static_cast<size_t>(chunk_end - pos), header_len);
    } catch (const ThriftError& e) {
      throw ChunkError{"corrupt page header (" + e.what + ")"};
    }
    pos += header_len;
    if (h.compressed_page_size < 0 || h.compressed_page_size > chunk_end - pos)
      throw ChunkError{"page longer than its column chunk"};
    const std::string_view raw(reinterpret_cast<const char*>(pos), static_cast<size_t>(h.compressed_page_size));
    pos += h.compressed_page_size;

    if (h.type == static_cast<int32_t>(PageType::kIndexPage)) continue;
    if (h.type == static_cast<int32_t>(PageType::kDictionaryPage)) {
      if (!h.has_dict_header) throw ChunkError{"dictionary page without its header"};
      if (have_dict) throw ChunkError{"second dictionary page in a column chunk"};
      if (h.encoding != kPlain && h.encoding != kPlainDictionary)
        throw ChunkError{"unsupported dictionary page " + encoding_name(h.encoding)};
      if (h.num_values < 0) throw ChunkError{"negative dictionary size"};
      const std::string body =
          meta.codec == kUncompressed ? std::string(raw) : decompress(meta.codec, raw, h.uncompressed_page_size);
      const auto* b = reinterpret_cast<const uint8_t*>(body.data());
      // Each plain value takes at least one bit: a count beyond the page's bits is corrupt.
      if (static_cast<uint64_t>(h.num_values) > body.size() * 8 + 8)
        throw ChunkError{"dictionary larger than its page"};
      dict.reserve(static_cast<size_t>(h.num_values));
      decode_plain(b, b + body.size(), static_cast<size_t>(h.num_values), leaf, dict);
      have_dict = true;
      continue;
    }
    const bool v2 = h.type == static_cast<int32_t>(PageType::kDataPageV2);
    if (!v2 && h.type != static_cast<int32_t>(PageType::kDataPage))
      throw ChunkError{"unknown page type " + std::to_string(h.type)};
    if ((v2 && !h.has_v2_header) || (!v2 && !h.has_data_header)) throw ChunkError{"data page without its header"};
    if (h.num_values < 0 || static_cast<size_t>(h.num_values) > total - out.count)
      throw ChunkError{"page holds more values than the column chunk declares"};
    const auto n = static_cast<size_t>(h.num_values);

    // Levels: v1 keeps them inside the (compressed) page, each with a length prefix; v2 puts
    // them uncompressed before the values, with their lengths in the header.
    std::string body;
    const uint8_t* p;
    const uint8_t* end;
    out.def.resize(leaf.max_def > 0 ? out.count + n : 0);
    out.rep.resize(leaf.max_rep > 0 ? out.count + n : 0);
    uint8_t* def = leaf.max_def > 0 ? out.def.data() + out.count : nullptr;
    uint8_t* rep = leaf.max_rep > 0 ? out.rep.data() + out.count : nullptr;
    if (!v2) {
      body = meta.codec == kUncompressed ? std::string(raw) : decompress(meta.codec, raw, h.uncompressed_page_size);
      p = reinterpret_cast<const uint8_t*>(body.data());
      end = p + body.size();
      if (rep) {
        if (h.rep_level_encoding != kRle) throw ChunkError{"unsupported level " + encoding_name(h.rep_level_encoding)};
        p = read_v1_levels(p, end, leaf.max_rep, n, rep);
      }
      if (def) {
        if (h.def_level_encoding != kRle) throw ChunkError{"unsupported level " + encoding_name(h.def_level_encoding)};
        p = read_v1_levels(p, end, leaf.max_def, n, def);
      }
    } else {
      if (h.rep_levels_byte_length < 0 || h.def_levels_byte_length < 0 ||
          static_cast<int64_t>(h.rep_levels_byte_length) + h.def_levels_byte_length > static_cast<int64_t>(raw.size()))
        throw ChunkError{"level lengths beyond the page"};
      const auto* lv = reinterpret_cast<const uint8_t*>(raw.data());
      if (rep) decode_hybrid(lv, lv + h.rep_levels_byte_length, bit_width(leaf.max_rep), n, rep);
      lv += h.rep_levels_byte_length;
      if (def) decode_hybrid(lv, lv + h.def_levels_byte_length, bit_width(leaf.max_def), n, def);
      lv += h.def_levels_byte_length;
      const size_t levels = static_cast<size_t>(h.rep_levels_byte_length) + h.def_levels_byte_length;
      const std::string_view values_raw = raw.substr(levels);
      if (meta.codec != kUncompressed && h.is_compressed) {
        body = decompress(meta.codec, values_raw,
                          static_cast<int64_t>(h.uncompressed_page_size) - static_cast<int64_t>(levels));
      } else {
        body = std::string(values_raw);
      }
      p = reinterpret_cast<const uint8_t*>(body.data());
      end = p + body.size();
    }
    if (rep) check_levels(rep, n, leaf.max_rep, "repetition");
    size_t present = n;
    if (def) {
      check_levels(def, n, leaf.max_def, "definition");
      present = 0;
      for (size_t i = 0; i < n; ++i) present += def[i] == leaf.max_def;
    }
    out.count += n;
    // Grown geometrically (an exact reserve per page would copy the values once per page).
    if (out.values.capacity() < out.values.size() + present)
      out.values.reserve(std::max(out.values.size() + present, 2 * out.values.capacity()));
    switch (h.encoding) {
      case kPlain:
        decode_plain(p, end, present, leaf, out.values);
        break;
      case kPlainDictionary:
      case kRleDictionary:
        if (!have_dict) throw ChunkError{"dictionary-encoded page without a dictionary"};
        decode_dict_indices(p, end, present, dict, out.values);
        break;
      case kRle:
        if (leaf.type != PhysicalType::kBoolean) throw ChunkError{"RLE values outside a boolean column"};
        decode_rle_bool(p, end, present, out.values);
        break;
      case kDeltaBinaryPacked:
      case kDeltaLengthByteArray:
      case kDeltaByteArray:
        decode_delta(h.encoding, p, end, present, leaf, out.values);
        break;
      case kByteStreamSplit:
        decode_byte_stream_split(p, end, present, leaf, out.values);
        break;
      default:
        throw ChunkError{"unsupported value " + encoding_name(h.encoding)};
    }
  }
  return out;
}

}  // namespace aiperf::parquet
