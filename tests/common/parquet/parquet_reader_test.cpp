// The Parquet reader against files pyarrow wrote (tests/data/parquet/, made by make_fixtures.py
// there): each file's rows must equal what pyarrow's to_pylist() gave, byte for byte once dumped;
// unsupported features are refused by name, and corrupt bytes never get past a ParquetError.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "parquet/column_chunk.h"
#include "parquet/parquet_reader.h"

using aiperf::parquet::ParquetError;
using nlohmann::json;

namespace {

const std::string kDir = std::string(AIPERF_TEST_DATA) + "/parquet/";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// make_fixtures.py's convention: bytes as {"$binary": base64}.
std::string base64(const std::vector<uint8_t>& b) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < b.size(); i += 3) {
    const uint32_t v = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
    out += {k[v >> 18], k[(v >> 12) & 63], k[(v >> 6) & 63], k[v & 63]};
  }
  if (i + 1 == b.size()) {
    const uint32_t v = b[i] << 16;
    out += {k[v >> 18], k[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == b.size()) {
    const uint32_t v = (b[i] << 16) | (b[i + 1] << 8);
    out += {k[v >> 18], k[(v >> 12) & 63], k[(v >> 6) & 63], '='};
  }
  return out;
}

json with_binary_marked(const json& v) {
  if (v.is_binary()) return json{{"$binary", base64(v.get_binary())}};
  if (v.is_array()) {
    json out = json::array();
    for (const auto& e : v) out.push_back(with_binary_marked(e));
    return out;
  }
  if (v.is_object()) {
    json out = json::object();
    for (const auto& [k, e] : v.items()) out[k] = with_binary_marked(e);
    return out;
  }
  return v;
}

// Reads `file` and compares each row's dump with the expected file's.
void check_fixture(const std::string& file, const std::string& expected_file) {
  INFO(file);
  const auto rows = aiperf::parquet::read_parquet_rows(kDir + file);
  const json expected = json::parse(slurp(kDir + expected_file));
  REQUIRE(rows.size() == expected.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    INFO("row " << i);
    CHECK(with_binary_marked(rows[i]).dump() == expected[i].dump());
  }
}

}  // namespace

TEST_CASE("parquet: every fixture reads as pyarrow's to_pylist()") {
  const json manifest = json::parse(slurp(kDir + "fixtures.json"));
  REQUIRE(manifest.size() == 21);
  for (const auto& [file, expected] : manifest.items()) check_fixture(file, expected.get<std::string>());
}

TEST_CASE("parquet: values keep pyarrow's types and exact numbers") {
  const auto rows = aiperf::parquet::read_parquet_rows(kDir + "flat_types.parquet");
  REQUIRE(rows.size() == 20);
  const json& r0 = rows[0];
  CHECK(r0["b"] == true);
  CHECK(r0["i32"].get<int64_t>() == -2147483648LL);
  CHECK(r0["u64"].get<uint64_t>() == 18446744073709551615ULL);
  CHECK(r0["u32"].get<uint64_t>() == 4294967295ULL);
  CHECK(r0["s"] == "0");
  CHECK(r0["all_null"].is_null());
  CHECK(rows[1]["f32"].get<double>() == static_cast<double>(0.1f));  // float32 widened, as Python does
  CHECK(rows[3]["s"].is_null());
  CHECK(rows[2]["s"] == "héllo ✓ héllo ✓ 2");
  CHECK(r0["bin"].is_binary());
  CHECK(std::vector<uint8_t>(r0["fixed"].get_binary()) == std::vector<uint8_t>{0, 0, 0, 0});
  CHECK(r0["date"] == 19000);
  CHECK(r0["ts_ms"] == 1700000000000LL);
  const auto t = aiperf::parquet::read_parquet_rows(kDir + "int96.parquet");
  REQUIRE(t.size() == 4);
  CHECK(t[1]["t"].get<int64_t>() == 1700000000123456789LL);
  CHECK(t[2]["t"].is_null());
  CHECK(t[3]["t"].get<int64_t>() == -86400000000001LL);
}

TEST_CASE("parquet: nested lists, structs and lists of structs") {
  const auto rows = aiperf::parquet::read_parquet_rows(kDir + "nested.parquet");
  REQUIRE(rows.size() == 5);
  CHECK(rows[0]["conversations"].dump() ==
        R"([{"content":"hi","role":"user"},{"content":"hello","role":"assistant"}])");
  CHECK(rows[1]["conversations"].dump() == "[]");
  CHECK(rows[2]["conversations"].is_null());
  CHECK(rows[3]["conversations"].dump() == R"([{"content":null,"role":"user"},null])");
  CHECK(rows[0]["image"]["path"] == "a.png");
  CHECK(std::vector<uint8_t>(rows[0]["image"]["bytes"].get_binary()) == std::vector<uint8_t>{0x89, 'P', 'N', 'G'});
  CHECK(rows[2]["image"].is_null());
  CHECK(rows[2]["matrix"].dump() == "[null,[4]]");
  CHECK(rows[3]["ints"].dump() == "[null,5]");
}

TEST_CASE("parquet: column names and a projection of columns") {
  const std::string bytes = slurp(kDir + "text_snappy.parquet");
  CHECK(aiperf::parquet::parquet_column_names(bytes, "t") == std::vector<std::string>{"id", "prompt", "maybe"});
  aiperf::parquet::ReadOptions only;
  only.columns = {"maybe", "id", "absent"};
  const auto rows = aiperf::parquet::parse_parquet_rows(bytes, "t", only);
  REQUIRE(rows.size() == 120);
  CHECK(rows[5].dump() == R"({"id":5,"maybe":7.5})");
  CHECK(rows[4].dump() == R"({"id":4,"maybe":null})");
}

TEST_CASE("parquet: unsupported features are refused naming the file, column and feature") {
  const json refused = json::parse(slurp(kDir + "refused.json"));
  REQUIRE(refused.size() == 3);
  for (const auto& [file, message] : refused.items()) {
    INFO(file);
    try {
      aiperf::parquet::read_parquet_rows(kDir + file);
      FAIL("not refused");
    } catch (const ParquetError& e) {
      const std::string what = e.what();
      CHECK(what.rfind(kDir + file + ": ", 0) == 0);
      CHECK(what.find(message.get<std::string>()) != std::string::npos);
    }
  }
}

TEST_CASE("parquet: files that are not Parquet or are cut short") {
  auto message = [](const std::string& bytes) {
    try {
      aiperf::parquet::parse_parquet_rows(bytes, "f.parquet");
    } catch (const ParquetError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message("") == "f.parquet: not a Parquet file (too short)");
  CHECK(message("PAR1xxxxxxxxPAR2") == "f.parquet: not a Parquet file (no PAR1 magic)");
  CHECK(message(std::string("PAR1\xff\xff\x00\x00PAR1", 12)) ==
        "f.parquet: footer length beyond the file (truncated?)");
  CHECK(message(std::string("PAR1\x00\x00\x00\x00PARE", 12)) == "f.parquet: encrypted Parquet files are not supported");
  CHECK_THROWS_AS(aiperf::parquet::read_parquet_rows(kDir + "no-such-file.parquet"), ParquetError);
  const std::string good = slurp(kDir + "text_zstd.parquet");
  // The first half of a file, its footer kept: the column chunks point past the data.
  const uint32_t footer = static_cast<uint8_t>(good[good.size() - 8]) | static_cast<uint8_t>(good[good.size() - 7])
                                                                            << 8;
  const std::string cut = "PAR1" + good.substr(good.size() - 8 - footer);
  CHECK(message(cut).find("f.parquet: column id, row group 0: column chunk outside the file's data") == 0);
}

TEST_CASE("parquet: every single-byte corruption is read or refused, never crashes") {
  // Under ASan (deploy/test.sh) an out-of-bounds read fails this test; the fuzz target
  // (tests/fuzz/parquet_fuzz.cpp) explores further.
  aiperf::parquet::ReadOptions guard;
  guard.max_values_per_chunk = 1 << 16;
  // The fuzz seeds: pyarrow's files without the embedded Arrow schema (whose bytes the reader
  // skips), one per code path, a few hundred bytes each.
  const std::string seeds = std::string(AIPERF_TEST_DATA) + "/../fuzz/corpus/parquet/";
  for (const char* file : {"flat_dict_snappy.parquet", "flat_plain_v2_gzip.parquet", "nested_zstd.parquet",
                           "delta_bss.parquet", "legacy_lists.parquet"}) {
    const std::string good = slurp(seeds + file);
    size_t refused = 0, read = 0;
    for (size_t i = 0; i < good.size(); ++i) {
      for (const uint8_t flip : {0xffu, 0x01u, 0x80u}) {
        std::string bad = good;
        bad[i] = static_cast<char>(static_cast<uint8_t>(bad[i]) ^ flip);
        try {
          aiperf::parquet::parse_parquet_rows(bad, "x", guard);
          ++read;
        } catch (const ParquetError& e) {
          CHECK(std::string(e.what()).rfind("x: ", 0) == 0);
          ++refused;
        }
      }
    }
    INFO(file << " read " << read << " refused " << refused);
    CHECK(refused > 0);
    CHECK(read + refused == good.size() * 3);
  }
}

TEST_CASE("parquet: UTF-8 validation of string values") {
  using aiperf::parquet::valid_utf8;
  auto ok = [](const std::string& s) { return valid_utf8(s.data(), s.size()); };
  CHECK(ok("plain ascii, long enough for the fast path"));
  CHECK(ok("h\xc3\xa9llo \xe2\x9c\x93 \xf0\x9f\x98\x80"));
  CHECK_FALSE(ok("\xc3"));              // cut short
  CHECK_FALSE(ok("\xc0\xaf"));          // overlong
  CHECK_FALSE(ok("\xed\xa0\x80"));      // surrogate
  CHECK_FALSE(ok("\xf4\x90\x80\x80"));  // above U+10FFFF
  CHECK_FALSE(ok("abcdefgh\xff"));
}
