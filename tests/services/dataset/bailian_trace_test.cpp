// bailian_trace: sessions from parent_chat_id links, turn order, seconds -> ms, block size 16.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "custom_dataset.h"
#include "dataset_error.h"

using namespace aiperf::dataset;

namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/datasets/";

std::string write_temp(const std::string& name, const std::string& content) {
  const auto dir = std::filesystem::temp_directory_path() / ("aiperf_bailian_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << content;
  return path;
}

CustomDataset load(const std::string& path) {
  aiperf::config::InputConfig in;
  in.input_file = path;
  in.custom_dataset_type = aiperf::config::CustomDatasetType::kBailianTrace;
  std::mt19937_64 rng(1);
  return load_custom_dataset(in, 1, rng);
}

}  // namespace

TEST_CASE("bailian_trace groups chats into sessions ordered by turn", "[dataset][bailian]") {
  const std::string path = kData + "bailian_trace.jsonl";
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(path)) == "bailian_trace");
  const CustomDataset d = load(path);
  CHECK(d.default_sampling == "sequential");
  CHECK(d.has_timestamps);
  REQUIRE(d.conversations.size() == 2);
  const auto& s159 = d.conversations[0];
  CHECK(s159.session_id() == "159");
  REQUIRE(s159.turns_size() == 2);
  CHECK(s159.turns(0).timestamp_ms() == 0.0);
  CHECK(s159.turns(0).max_tokens() == 6);
  CHECK(s159.turns(1).timestamp_ms() == 100.0);
  CHECK(s159.turns(1).max_tokens() == 5);
  const auto& s200 = d.conversations[1];
  CHECK(s200.session_id() == "200");
  REQUIRE(s200.turns_size() == 1);
  CHECK(s200.turns(0).timestamp_ms() == 50.0);

  // Every prompt is synthesized later from its hash_ids in 16-token blocks.
  REQUIRE(d.pending.size() == 3);
  CHECK(d.pending[0].conversation == 0);
  CHECK(d.pending[0].turn == 0);
  CHECK(d.pending[0].input_length == 40);
  CHECK(d.pending[0].hash_ids == std::vector<int64_t>{1, 2, 3});
  CHECK(d.pending[1].conversation == 0);
  CHECK(d.pending[1].turn == 1);
  CHECK(d.pending[1].hash_ids == std::vector<int64_t>{1, 2, 3, 4});
  CHECK(d.pending[2].conversation == 1);
  CHECK(d.pending[2].input_length == 20);

  aiperf::config::InputConfig in;
  in.custom_dataset_type = aiperf::config::CustomDatasetType::kBailianTrace;
  CHECK(trace_block_size(in) == 16);
  in.custom_dataset_type = aiperf::config::CustomDatasetType::kMooncakeTrace;
  CHECK(trace_block_size(in) == 512);
  in.isl_block_size = 32;
  CHECK(trace_block_size(in) == 32);
}

TEST_CASE("bailian_trace: out-of-order turns, deep chains, missing parents and defaults", "[dataset][bailian]") {
  const std::string path = write_temp("chain.jsonl",
      "{\"chat_id\": 3, \"parent_chat_id\": 2, \"timestamp\": 3, \"input_length\": 5, \"output_length\": 1, \"turn\": 3}\n"
      "{\"chat_id\": 1, \"timestamp\": 1, \"input_length\": 5, \"output_length\": 1}\n"
      "{\"chat_id\": 2, \"parent_chat_id\": 1, \"timestamp\": 2, \"input_length\": 5, \"output_length\": 1, \"turn\": 2}\n"
      "{\"chat_id\": 9, \"parent_chat_id\": 77, \"timestamp\": 4, \"input_length\": 5, \"output_length\": 1}\n");
  const CustomDataset d = load(path);
  REQUIRE(d.conversations.size() == 2);
  CHECK(d.conversations[0].session_id() == "1");  // found through 3 -> 2 -> 1
  REQUIRE(d.conversations[0].turns_size() == 3);
  CHECK(d.conversations[0].turns(0).timestamp_ms() == 1000.0);
  CHECK(d.conversations[0].turns(1).timestamp_ms() == 2000.0);
  CHECK(d.conversations[0].turns(2).timestamp_ms() == 3000.0);
  CHECK(d.conversations[1].session_id() == "9");  // unknown parent: its own root
  CHECK(d.pending[0].hash_ids.empty());           // no hash_ids: a plain prompt
}

TEST_CASE("bailian_trace errors name file, line and field", "[dataset][bailian]") {
  const std::string corrupt = kData + "bailian_corrupt.jsonl";
  CHECK_THROWS_WITH(load(corrupt), corrupt + ":2: field 'input_length': must be an integer >= 1, got \"many\"");
  const std::string missing = write_temp("missing.jsonl", "{\"chat_id\": 1, \"input_length\": 5, \"output_length\": 1}\n");
  CHECK_THROWS_WITH(load(missing), missing + ":1: field 'timestamp': is required");
  const std::string blocks = write_temp("blocks.jsonl",
      "{\"chat_id\": 1, \"timestamp\": 0, \"input_length\": 40, \"output_length\": 1, \"hash_ids\": [1, 2]}\n");
  CHECK_THROWS_WITH(load(blocks), Catch::StartsWith(blocks + ":1: field 'input_length': 40 does not fit 2 hash_ids "
                                                             "blocks of 16 tokens"));
}
