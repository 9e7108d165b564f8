// ShareGPT: reading the JSON list with line numbers, length filtering with GPT-2 token counts.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "dataset_error.h"
#include "sharegpt.h"

using namespace aiperf::dataset;

namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/datasets/";

std::string write_temp(const std::string& name, const std::string& content) {
  const auto dir = std::filesystem::temp_directory_path() / ("aiperf_sharegpt_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << content;
  return path;
}

std::string error_of(const std::string& path) {
  try {
    read_sharegpt(path);
  } catch (const DatasetFileError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("ShareGPT: first two messages of entries with >= 2 messages, and their lines", "[dataset][sharegpt]") {
  const auto entries = read_sharegpt(kData + "sharegpt_tiny.json");
  REQUIRE(entries.size() == 3);  // a3 has one message
  CHECK(entries[0].prompt == "Can you explain how a hash table resolves collisions in practice?");
  CHECK(entries[0].completion == "Most hash tables use separate chaining or open addressing to resolve collisions.");
  CHECK(entries[0].line == 2);
  CHECK(entries[1].prompt == "Hi");
  CHECK(entries[1].line == 9);
  CHECK(entries[2].line == 22);
}

TEST_CASE("ShareGPT: length rules keep what vLLM's benchmark keeps", "[dataset][sharegpt]") {
  const auto tokenizer = aiperf::tok::load_tokenizer(aiperf::tok::resolve_tokenizer_path("gpt2"));
  const std::string path = kData + "sharegpt_tiny.json";
  const auto entries = read_sharegpt(path);
  std::mt19937_64 rng(3);
  const auto convs = sharegpt_conversations(entries, *tokenizer, false, path, rng);
  REQUIRE(convs.size() == 2);  // "Hi" is 1 token: below the 4-token minimum
  CHECK(convs[0].turns(0).texts(0).name() == "text");
  CHECK(convs[0].turns(0).texts(0).contents(0) == entries[0].prompt);
  CHECK(convs[0].turns(0).max_tokens() == static_cast<int64_t>(tokenizer->count(entries[0].completion)));
  CHECK(convs[1].turns(0).texts(0).contents(0) == entries[2].prompt);
  CHECK(convs[1].turns(0).max_tokens() == static_cast<int64_t>(tokenizer->count(entries[2].completion)));

  // A short completion is kept when --osl is given; none passing is an error.
  std::vector<ShareGptEntry> shorty{{"A prompt that is long enough.", "Ok", 1}};
  CHECK(sharegpt_conversations(shorty, *tokenizer, true, path, rng).size() == 1);
  CHECK_THROWS_AS(sharegpt_conversations(shorty, *tokenizer, false, path, rng), DatasetFileError);
}

TEST_CASE("ShareGPT: a malformed file names file, line and field", "[dataset][sharegpt]") {
  const std::string corrupt = kData + "sharegpt_corrupt.json";
  CHECK(error_of(corrupt) == corrupt + ":3: field 'conversations[1].value': must be a string");
  const std::string bad_json = write_temp("bad.json", "[\n  {\"conversations\": []},\n  {\"conversations\" []}\n]\n");
  CHECK_THAT(error_of(bad_json), Catch::StartsWith(bad_json + ":3: invalid JSON"));
  const std::string not_list = write_temp("obj.json", "{\"conversations\": []}\n");
  CHECK(error_of(not_list) == not_list + ":1: the ShareGPT file must be a JSON list of entries");
  const std::string truncated = write_temp("cut.json", "[\n  {\"conversations\": []},\n");
  CHECK(error_of(truncated) == truncated + ":3: the JSON list is not closed (truncated file?)");
  CHECK(error_of(kData + "no_such.json") == kData + "no_such.json: cannot open the ShareGPT file");
}
