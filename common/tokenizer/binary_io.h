// The tokenizer cache's binary form (tokenizer_cache.cpp, BpeModel::save/load): native-endian
// fixed-width integers and length-prefixed strings. The cache is a per-machine file, so no
// byte-order conversion.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace aiperf::tok::binary {

template <typename T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

inline void put_string(std::string& out, std::string_view s) {
  put<uint64_t>(out, s.size());
  out.append(s);
}

// Reads what put()/put_string() wrote; every getter returns false once the data runs short.
class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}
  template <typename T>
  bool get(T& v) {
    if (data_.size() < sizeof v) return false;
    std::memcpy(&v, data_.data(), sizeof v);
    data_.remove_prefix(sizeof v);
    return true;
  }
  bool get_string(std::string_view& s) {
    uint64_t n = 0;
    if (!get(n) || data_.size() < n) return false;
    s = data_.substr(0, n);
    data_.remove_prefix(n);
    return true;
  }
  // What is left unread.
  std::string_view rest() const { return data_; }
  bool done() const { return data_.empty(); }

 private:
  std::string_view data_;
};

}  // namespace aiperf::tok::binary
