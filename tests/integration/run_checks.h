// Small checks several end-to-end tests share (header-only, so only its includers rebuild).
#pragma once
#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

#include "process.h"

namespace aiperf::test {

// The run wrote `count` records and none of them is an error.
inline void expect_no_errors(const ProfileRun& run, size_t count) {
  const auto records = run.records();
  CHECK(records.size() == count);
  for (const auto& r : records) CHECK_FALSE(r.contains("error"));
}

// Standard base64 (RFC 4648) back to bytes; stops at the first '='.
inline std::string base64_decode(const std::string& text) {
  static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  uint32_t buf = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    buf = (buf << 6) | static_cast<uint32_t>(alphabet.find(c));
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buf >> bits) & 0xff));
    }
  }
  return out;
}

}  // namespace aiperf::test
