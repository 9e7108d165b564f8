// `aiperf validate mooncake-trace`: each row checked with the mooncake loader's line parser.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "validate_mooncake.h"

using aiperf::cli::validate::validate_mooncake_file;
namespace fs = std::filesystem;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("aiperf-validate-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace

TEST_CASE("validate counts the non-blank rows of a valid trace", "[validate]") {
  // hash_ids are not checked against a block size (1500 tokens in 3 blocks is fine).
  const auto r = validate_mooncake_file(write_temp(
      "ok.jsonl",
      "{\"input_length\": 1500, \"hash_ids\": [1, 2, 3], \"output_length\": 4}\n\n"
      "{\"text_input\": \"hi\", \"timestamp\": 3}\n{\"messages\": [{\"role\": \"user\", \"content\": \"x\"}]}\n"));
  CHECK(r.rows == 3);
  CHECK(r.errors.empty());
}

TEST_CASE("validate reports each bad line with its number", "[validate]") {
  const auto r = validate_mooncake_file(write_temp(
      "bad.jsonl",
      "{\"input_length\": 5}\n{\"bad json\n{\"text_input\": \"x\", \"hash_ids\": [1]}\n[1]\n"
      "{\"input_length\": 5, \"text_input\": \"y\"}\n{\"input_length\": 5, \"hash_ids\": [1, \"a\"]}\n"
      "{\"output_length\": 3}\n"));
  CHECK(r.rows == 7);
  REQUIRE(r.errors.size() == 6);
  CHECK(r.errors[0].rfind("Line 2: invalid JSON: ", 0) == 0);
  CHECK(r.errors[1] == "Line 3: field 'hash_ids': only allowed with 'input_length'");
  CHECK(r.errors[2] == "Line 4: each line must be a JSON object");
  CHECK(r.errors[3] == "Line 5: exactly one of 'input_length', 'text_input' or 'messages' is required");
  CHECK(r.errors[4] == "Line 6: field 'hash_ids': must be a list of integers, got \"a\"");
  CHECK(r.errors[5] == "Line 7: exactly one of 'input_length', 'text_input' or 'messages' is required");
}

TEST_CASE("validate stops after max_errors errors", "[validate]") {
  std::string text;
  for (int i = 0; i < 15; ++i) text += "{}\n";
  const auto r = validate_mooncake_file(write_temp("many.jsonl", text), 10);
  CHECK(r.errors.size() == 10);
  CHECK(r.rows == 10);
  CHECK(r.errors.back().rfind("Line 10: ", 0) == 0);
}
