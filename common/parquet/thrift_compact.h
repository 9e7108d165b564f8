// A bounds-checked reader for the Thrift compact protocol, the encoding of Parquet's footer and
// page headers. Only what Parquet's structures use: structs, lists, binaries and integers; any
// other field is skipped by type, so footers written by newer writers still read.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace aiperf::parquet {

// Compact-protocol field and element types (Thrift's TCompactProtocol numbering).
enum class ThriftType : uint8_t {
  kStop = 0,
  kTrue = 1,
  kFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

// Reads from [data, data+size). Every read checks the bounds and throws ThriftError on a short
// or malformed input; nothing is read past the end. Nesting deeper than kMaxDepth is refused, so
// a crafted header cannot exhaust the stack.
class ThriftReader {
 public:
  static constexpr int kMaxDepth = 64;

  ThriftReader(const uint8_t* data, size_t size) : p_(data), end_(data + size), begin_(data) {}

  size_t consumed() const { return static_cast<size_t>(p_ - begin_); }

  // The next field of the current struct: false at its STOP. `last_id` is the previous field's
  // id (0 at the start of a struct); the compact protocol encodes ids as deltas from it.
  bool next_field(int16_t& last_id, int16_t& id, ThriftType& type);
  // A list or set header: element type and count.
  void list_header(ThriftType& elem, uint32_t& count);

  int64_t read_i64();                     // any integer field (i8/i16/i32/i64): zigzag varint or a single byte
  int32_t read_i32();                     // as read_i64, refused when it does not fit 32 bits
  int8_t read_i8();                       // an i8 field: one raw byte in the compact protocol
  bool read_bool(ThriftType field_type);  // a bool field: its value is in the type nibble
  bool read_list_bool();                  // a bool inside a list: one byte
  std::string_view read_binary();
  double read_double();
  // Skips one value of `type` (structs, lists and maps recursively).
  void skip(ThriftType type, int depth = 0);

  // Struct nesting of the caller's own decoding (the footer's structs call enter/leave).
  void enter();
  void leave() { --depth_; }

 private:
  uint64_t varint();
  uint8_t byte();

  const uint8_t* p_;
  const uint8_t* end_;
  const uint8_t* begin_;
  int depth_ = 0;
};

struct ThriftError {
  std::string what;
};

}  // namespace aiperf::parquet
