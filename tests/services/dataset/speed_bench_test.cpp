// SPEED-Bench (speed_bench_* custom dataset types): the conversations of the fixture
// tests/data/datasets/speed_bench/qualitative.jsonl (coding and math rows, multi-message rows, a
// leading system message, an extra key), category filtering, the type table, detection, and
// file:line errors for bad rows (placeholder content included).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "custom_dataset.h"
#include "dataset_error.h"
#include "speed_bench.h"
#include "temp_file.h"

using namespace aiperf::dataset;
using aiperf::config::CustomDatasetType;

namespace {

const std::string kFixture = std::string(AIPERF_TEST_DATA) + "/datasets/speed_bench/qualitative.jsonl";

std::string temp_file(const std::string& name, const std::string& content) {
  return aiperf::testing::write_temp_file("aiperf_speed_bench_test_", name, content);
}

aiperf::config::InputConfig input(const std::string& path, const std::string& type) {
  aiperf::config::InputConfig in;
  in.input_file = path;
  in.custom_dataset_type = aiperf::config::enum_from_string<CustomDatasetType>(type, "type");
  return in;
}

CustomDataset load(const aiperf::config::InputConfig& in) {
  std::mt19937_64 rng(1);
  return load_custom_dataset(in, 1, rng);
}

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const DatasetFileError& e) {
    return e.what();
  }
  return "no error";
}

struct Message {
  std::string role, content;
  bool operator==(const Message&) const = default;
};

std::vector<Message> turns(const aiperf::proto::Conversation& c) {
  std::vector<Message> out;
  for (const auto& t : c.turns()) {
    REQUIRE(t.texts_size() == 1);
    CHECK(t.texts(0).name() == "text");
    REQUIRE(t.texts(0).contents_size() == 1);
    CHECK_FALSE(t.has_max_tokens());
    CHECK_FALSE(t.has_delay_ms());
    out.push_back({t.role(), t.texts(0).contents(0)});
  }
  return out;
}

const std::string kQ1 = "0c1f6a2e9b7d4e5f8a3b2c1d0e9f8a7b";  // coding, 2 user messages
const std::string kQ2 = "1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a";  // math, 1 message
const std::string kQ3 = "2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b";  // coding, system + user, extra "source"
const std::string kQ4 = "3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c";  // math, 3 user messages

const std::string kRow = R"({"question_id": "0c1f6a2e9b7d4e5f8a3b2c1d0e9f8a7b", "category": "math", )";

}  // namespace

TEST_CASE("speed_bench_qualitative: every row, one conversation per question_id, a turn per message",
          "[dataset][speed_bench]") {
  const CustomDataset ds = load(input(kFixture, "speed_bench_qualitative"));
  CHECK(ds.default_sampling == "sequential");
  CHECK_FALSE(ds.has_timestamps);
  CHECK(ds.pending.empty());
  REQUIRE(ds.conversations.size() == 4);
  CHECK(ds.conversations[0].session_id() == kQ1);
  CHECK(turns(ds.conversations[0]) ==
        std::vector<Message>{{"user", "Write a Python function that reverses a string."},
                             {"user", "Now make it keep combining characters attached to their base letter."}});
  CHECK(ds.conversations[1].session_id() == kQ2);
  CHECK(turns(ds.conversations[1]) ==
        std::vector<Message>{{"user", "What is the sum of the first 100 positive integers?"}});
  // A leading system message stays a turn of its own (AIPerf does not hoist it for SPEED-Bench).
  CHECK(ds.conversations[2].session_id() == kQ3);
  CHECK(turns(ds.conversations[2]) == std::vector<Message>{{"system", "You are a terse C++ expert."},
                                                           {"user", "Explain std::move in one sentence."}});
  CHECK(ds.conversations[3].session_id() == kQ4);
  CHECK(turns(ds.conversations[3]) == std::vector<Message>{{"user", "Solve x^2 - 5x + 6 = 0."},
                                                           {"user", "Check both roots by substituting them back."},
                                                           {"user", "Which root is larger?"}});
}

TEST_CASE("speed_bench_<category> keeps that category's rows only", "[dataset][speed_bench]") {
  const CustomDataset coding = load(input(kFixture, "speed_bench_coding"));
  REQUIRE(coding.conversations.size() == 2);
  CHECK(coding.conversations[0].session_id() == kQ1);
  CHECK(coding.conversations[1].session_id() == kQ3);
  CHECK(coding.conversations[1].turns_size() == 2);
  const CustomDataset math = load(input(kFixture, "speed_bench_math"));
  REQUIRE(math.conversations.size() == 2);
  CHECK(math.conversations[0].session_id() == kQ2);
  CHECK(math.conversations[1].session_id() == kQ4);
  CHECK(math.conversations[1].turns_size() == 3);
  // A split type reads any file name; the category is compared exactly.
  const std::string tiers = temp_file(
      "tiers.jsonl",
      R"({"question_id": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "category": "low_entropy", "messages": [{"role": "user", "content": "sort 3 1 2"}]})"
      "\n"
      R"({"question_id": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "category": "mixed", "messages": [{"role": "user", "content": "find the needle"}]})"
      "\n");
  CHECK(load(input(tiers, "speed_bench_throughput_8k")).conversations.size() == 2);
  const CustomDataset mixed = load(input(tiers, "speed_bench_throughput_8k_mixed"));
  REQUIRE(mixed.conversations.size() == 1);
  CHECK(mixed.conversations[0].turns(0).texts(0).contents(0) == "find the needle");
}

TEST_CASE("speed_bench: a category no row has is an error naming the file's categories", "[dataset][speed_bench]") {
  CHECK(error_of([] { load(input(kFixture, "speed_bench_rag")); }) ==
        kFixture +
            ": no row of SPEED-Bench category 'rag' (--custom-dataset-type speed_bench_rag); the file's "
            "categories: coding, math");
  CHECK(error_of([] { load(input(kFixture, "speed_bench_throughput_1k_mixed")); }) ==
        kFixture +
            ": no row of SPEED-Bench category 'mixed' (--custom-dataset-type speed_bench_throughput_1k_mixed); "
            "the file's categories: coding, math");
  const std::string empty = temp_file("empty.jsonl", "\n");
  CHECK(error_of([&] { load(input(empty, "speed_bench_coding")); }) == empty + ": no entries");
}

TEST_CASE("speed_bench: rows sharing a question_id are one conversation; first-message mode",
          "[dataset][speed_bench]") {
  const std::string path = temp_file(
      "dup.jsonl",
      kRow + R"("messages": [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]})" + "\n" +
          R"({"question_id": "1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a", "category": "math", "messages": [{"role": "user", "content": "c"}]})" +
          "\n" + kRow + R"("messages": [{"role": "assistant", "content": "d", "name": "x"}]})" + "\n");
  const CustomDataset all = load(input(path, "speed_bench_math"));
  REQUIRE(all.conversations.size() == 2);
  CHECK(turns(all.conversations[0]) == std::vector<Message>{{"user", "a"}, {"user", "b"}, {"assistant", "d"}});
  CHECK(turns(all.conversations[1]) == std::vector<Message>{{"user", "c"}});
  CustomDataset first;
  load_speed_bench(input(path, "speed_bench_math"), first, /*all_messages=*/false);
  REQUIRE(first.conversations.size() == 2);
  CHECK(turns(first.conversations[0]) == std::vector<Message>{{"user", "a"}, {"assistant", "d"}});
}

TEST_CASE("speed_bench: the type table", "[dataset][speed_bench]") {
  auto variant = [](const std::string& name) {
    const auto v = speed_bench_variant(aiperf::config::enum_from_string<CustomDatasetType>(name, "type"));
    REQUIRE(v);
    return std::string(v->split) + "/" + std::string(v->category);
  };
  CHECK(variant("speed_bench_qualitative") == "qualitative/");
  CHECK(variant("speed_bench_summarization") == "qualitative/summarization");
  CHECK(variant("speed_bench_qa") == "qualitative/qa");
  CHECK(variant("speed_bench_throughput_16k") == "throughput_16k/");
  CHECK(variant("speed_bench_throughput_32k_high_entropy") == "throughput_32k/high_entropy");
  CHECK(variant("speed_bench_throughput_1k_low_entropy") == "throughput_1k/low_entropy");
  CHECK_FALSE(speed_bench_variant(CustomDatasetType::kMultiTurn));
  CHECK_FALSE(speed_bench_variant(CustomDatasetType::kNone));
  size_t n = 0;
  for (const auto& [value, name] : aiperf::config::enum_names(CustomDatasetType{}))
    n += speed_bench_variant(value) ? 1 : 0;
  CHECK(n == 32);  // 12 qualitative (the split and 11 categories), 5 throughput splits x (1 + 3 tiers)
  CHECK(speed_bench_types_for_file("/x/qualitative.jsonl").size() == 12);
  CHECK(speed_bench_types_for_file("throughput_2k.jsonl") ==
        std::vector<CustomDatasetType>{
            CustomDatasetType::kSpeedBenchThroughput2k, CustomDatasetType::kSpeedBenchThroughput2kLowEntropy,
            CustomDatasetType::kSpeedBenchThroughput2kMixed, CustomDatasetType::kSpeedBenchThroughput2kHighEntropy});
  CHECK(speed_bench_types_for_file("/x/other.jsonl").empty());
}

TEST_CASE("speed_bench: detection refuses as AIPerf does, with the types to choose from", "[dataset][speed_bench]") {
  // A split's own file fits the split and each of its categories (AIPerf: "Multiple loaders").
  const std::string named = error_of([] { detect_custom_dataset_type(kFixture); });
  CHECK_THAT(named, Catch::StartsWith(kFixture + ":1: the line fits several dataset types (speed_bench_qualitative, "
                                                 "speed_bench_coding, speed_bench_humanities,"));
  CHECK_THAT(named, Catch::Contains("speed_bench_writing); set --custom-dataset-type ("));
  // Any other name: no format claims the row (not mooncake_trace nor raw_payload for its messages).
  const std::string other =
      temp_file("prompts.jsonl", kRow + R"("messages": [{"role": "user", "content": "a"}]})" + "\n");
  CHECK_THAT(
      error_of([&] { detect_custom_dataset_type(other); }),
      Catch::StartsWith(other + ":1: a SPEED-Bench row (question_id, category, messages): its split and "
                                "category are not detected; set --custom-dataset-type (") &&
          Catch::Contains("speed_bench_qualitative, speed_bench_<category>, speed_bench_throughput_<1k|2k|8k|16k|"
                          "32k>[_<low_entropy|mixed|high_entropy>])"));
}

TEST_CASE("speed_bench: a bad row is an error naming file, line and field", "[dataset][speed_bench]") {
  struct Case {
    std::string row, message;
  };
  const std::string ok = R"("messages": [{"role": "user", "content": "a"}]})";
  const std::vector<Case> cases{
      {R"({"question_id": "short", "category": "math", )" + ok,
       "field 'question_id': must be a string of 32 characters, got \"short\""},
      {R"({"question_id": 12345, "category": "math", )" + ok,
       "field 'question_id': must be a string of 32 characters, got 12345"},
      {R"({"category": "math", )" + ok, "field 'question_id': must be a string of 32 characters, missing"},
      {R"({"question_id": "0c1f6a2e9b7d4e5f8a3b2c1d0e9f8a7b", "category": "", )" + ok,
       "field 'category': must be a non-empty string, got \"\""},
      {kRow + R"("messages": []})", "field 'messages': must be a non-empty list of {\"role\", \"content\"} objects"},
      {kRow + R"("messages": "hi"})", "field 'messages': must be a non-empty list of {\"role\", \"content\"} objects"},
      {kRow + R"("messages": [{"role": "user", "content": "a"}, "b"]})",
       "field 'messages[1]': must be an object with role and content, got \"b\""},
      {kRow + R"("messages": [{"role": " ", "content": "a"}]})",
       "field 'messages[0].role': must be a non-blank string, got \" \""},
      {kRow + R"("messages": [{"content": "a"}]})", "field 'messages[0].role': must be a non-blank string, missing"},
      {kRow + R"("messages": [{"role": "user", "content": ["a"]}]})",
       "field 'messages[0].content': must be a non-blank string, got [\"a\"]"},
      {kRow + R"("messages": [{"role": "user", "content": "a"}, {"role": "user", "content": ")" +
           std::string(kSpeedBenchPlaceholder) + R"("}]})",
       "field 'messages[1].content': is SPEED-Bench's placeholder \"" + std::string(kSpeedBenchPlaceholder) +
           "\": this row's prompts are not in the published dataset; prepare the file with specdec_bench, which "
           "fetches them"},
  };
  for (const auto& c : cases) {
    const std::string path = temp_file("bad.jsonl", "\n" + kRow + ok + "\n" + c.row + "\n");
    INFO(c.row);
    CHECK(error_of([&] { load(input(path, "speed_bench_qualitative")); }) == path + ":3: " + c.message);
  }
  // A bad row fails even when its category is filtered out (AIPerf validates every row first).
  const std::string path = temp_file(
      "bad_other_category.jsonl",
      R"({"question_id": "0c1f6a2e9b7d4e5f8a3b2c1d0e9f8a7b", "category": "coding", "messages": [{"role": "user", "content": ")" +
          std::string(kSpeedBenchPlaceholder) + R"("}]})" + "\n");
  CHECK_THAT(error_of([&] { load(input(path, "speed_bench_math")); }),
             Catch::StartsWith(path + ":1: field 'messages[0].content': is SPEED-Bench's placeholder"));
  CHECK_THAT(error_of([&] { load(input(temp_file("broken.jsonl", "{\"question_id\": \n"), "speed_bench_qa")); }),
             Catch::Contains("broken.jsonl:1: "));
}
