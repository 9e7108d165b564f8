#include "parquet/thrift_compact.h"

#include <cstring>

namespace aiperf::parquet {

uint8_t ThriftReader::byte() {
  if (p_ >= end_) throw ThriftError{"truncated Thrift structure"};
  return *p_++;
}

uint64_t ThriftReader::varint() {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    const uint8_t b = byte();
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return v;
  }
  throw ThriftError{"varint longer than 10 bytes"};
}

static int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

void ThriftReader::enter() {
  if (++depth_ > kMaxDepth) throw ThriftError{"Thrift structures nested too deeply"};
}

bool ThriftReader::next_field(int16_t& last_id, int16_t& id, ThriftType& type) {
  const uint8_t b = byte();
  type = static_cast<ThriftType>(b & 0x0f);
  if (type == ThriftType::kStop) return false;
  const int delta = b >> 4;
  if (delta != 0) {
    id = static_cast<int16_t>(last_id + delta);
  } else {
    const int64_t raw = unzigzag(varint());
    if (raw < INT16_MIN || raw > INT16_MAX) throw ThriftError{"field id out of range"};
    id = static_cast<int16_t>(raw);
  }
  last_id = id;
  return true;
}

void ThriftReader::list_header(ThriftType& elem, uint32_t& count) {
  const uint8_t b = byte();
  elem = static_cast<ThriftType>(b & 0x0f);
  uint64_t n = b >> 4;
  if (n == 15) n = varint();
  // Each element takes at least one byte (bools in a list included), so a count beyond the
  // bytes left is corrupt; this also bounds every reserve() a caller makes from it.
  if (n > static_cast<uint64_t>(end_ - p_)) throw ThriftError{"list longer than its bytes"};
  count = static_cast<uint32_t>(n);
}

int64_t ThriftReader::read_i64() { return unzigzag(varint()); }

int32_t ThriftReader::read_i32() {
  const int64_t v = read_i64();
  if (v < INT32_MIN || v > INT32_MAX) throw ThriftError{"i32 field out of range"};
  return static_cast<int32_t>(v);
}

int8_t ThriftReader::read_i8() { return static_cast<int8_t>(byte()); }

bool ThriftReader::read_bool(ThriftType field_type) { return field_type == ThriftType::kTrue; }

bool ThriftReader::read_list_bool() { return byte() == 1; }

std::string_view ThriftReader::read_binary() {
  const uint64_t n = varint();
  if (n > static_cast<uint64_t>(end_ - p_)) throw ThriftError{"binary field longer than its bytes"};
  std::string_view s(reinterpret_cast<const char*>(p_), static_cast<size_t>(n));
  p_ += n;
  return s;
}

double ThriftReader::read_double() {
  if (end_ - p_ < 8) throw ThriftError{"truncated double"};
  double d;
  std::memcpy(&d, p_, 8);
  p_ += 8;
  return d;
}

void ThriftReader::skip(ThriftType type, int depth) {
  if (depth > kMaxDepth) throw ThriftError{"Thrift structures nested too deeply"};
  switch (type) {
    case ThriftType::kTrue:
    case ThriftType::kFalse:
      return;
    case ThriftType::kByte:
      byte();
      return;
    case ThriftType::kI16:
    case ThriftType::kI32:
    case ThriftType::kI64:
      varint();
      return;
    case ThriftType::kDouble:
      read_double();
      return;
    case ThriftType::kBinary:
      read_binary();
      return;
    case ThriftType::kList:
    case ThriftType::kSet: {
      ThriftType elem;
      uint32_t n;
      list_header(elem, n);
      for (uint32_t i = 0; i < n; ++i) {
        if (elem == ThriftType::kTrue || elem == ThriftType::kFalse) byte();
        else skip(elem, depth + 1);
      }
      return;
    }
    case ThriftType::kMap: {
      const uint64_t n = varint();
      if (n == 0) return;
      if (n > static_cast<uint64_t>(end_ - p_)) throw ThriftError{"map longer than its bytes"};
      const uint8_t kv = byte();
      const auto kt = static_cast<ThriftType>(kv >> 4), vt = static_cast<ThriftType>(kv & 0x0f);
      for (uint64_t i = 0; i < n; ++i) {
        if (kt == ThriftType::kTrue || kt == ThriftType::kFalse) byte();
        else skip(kt, depth + 1);
        if (vt == ThriftType::kTrue || vt == ThriftType::kFalse) byte();
        else skip(vt, depth + 1);
      }
      return;
    }
    case ThriftType::kStruct: {
      int16_t last = 0, id;
      ThriftType t;
      while (next_field(last, id, t)) skip(t, depth + 1);
      return;
    }
    default:
      throw ThriftError{"unknown Thrift type " + std::to_string(static_cast<int>(type))};
  }
}

}  // namespace aiperf::parquet
