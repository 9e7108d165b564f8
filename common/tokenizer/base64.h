// Standard base64 decoding, for tiktoken rank files and tokenizer.json binary fields
// (Precompiled charsmaps).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace aiperf::tok {

inline int base64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Standard base64 with '=' padding; false on any malformed input.
inline bool base64_decode(std::string_view in, std::string& out) {
  out.clear();
  if (in.empty() || in.size() % 4 != 0) return false;
  uint32_t acc = 0;
  int bits = 0;
  size_t pad = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '=') {
      if (i < in.size() - 2) return false;
      ++pad;
      continue;
    }
    if (pad > 0) return false;
    int v = base64_value(static_cast<unsigned char>(in[i]));
    if (v < 0) return false;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return true;
}

}  // namespace aiperf::tok
