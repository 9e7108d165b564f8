// outputs.json from the record processors' fragment files (--export-outputs-json).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "outputs_json.h"

namespace fs = std::filesystem;
using aiperf::records::merge_output_fragments;

namespace {

fs::path fresh_dir() {
  fs::path dir = fs::temp_directory_path() / ("outputs_json_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "output_fragments");
  return dir;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("outputs.json: fragments of every processor, sorted by session then turn, indented as the reference") {
  const fs::path dir = fresh_dir();
  write(dir / "output_fragments/output_fragments_rp_1.jsonl",
        "{\"session_num\":2,\"turn_index\":0,\"metrics\":{},\"response_text\":\"b\"}\n"
        "{\"session_num\":1,\"turn_index\":1,\"metrics\":{\"request_latency\":1.5},\"response_text\":null}\n");
  write(dir / "output_fragments/output_fragments_rp_0.jsonl",
        "{\"session_num\":1,\"turn_index\":0,\"metrics\":{},\"response_text\":\"a\"}\n"
        "{\"session_num\":3,\"tur");  // a processor killed mid-line
  const auto r = merge_output_fragments((dir / "output_fragments").string(), (dir / "outputs.json").string());
  CHECK(r.written);
  CHECK(r.entries == 3);
  CHECK(r.skipped == 1);
  CHECK_FALSE(fs::exists(dir / "output_fragments"));
  CHECK(read(dir / "outputs.json") == R"({
  "schema_version": "1.0",
  "data": [
    {
      "session_num": 1,
      "turn_index": 0,
      "metrics": {},
      "response_text": "a"
    },
    {
      "session_num": 1,
      "turn_index": 1,
      "metrics": {
        "request_latency": 1.5
      },
      "response_text": null
    },
    {
      "session_num": 2,
      "turn_index": 0,
      "metrics": {},
      "response_text": "b"
    }
  ]
})");
  fs::remove_all(dir);
}

TEST_CASE("outputs.json: no fragment file, no outputs.json (as the reference)") {
  const fs::path dir = fresh_dir();
  fs::remove_all(dir / "output_fragments");
  const auto r = merge_output_fragments((dir / "output_fragments").string(), (dir / "outputs.json").string());
  CHECK_FALSE(r.written);
  CHECK_FALSE(fs::exists(dir / "outputs.json"));
  fs::remove_all(dir);
}
