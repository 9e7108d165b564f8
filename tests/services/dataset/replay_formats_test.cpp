// burst_gpt_trace (CSV), raw_payload (file and directory) and inputs_json: the fixtures under
// tests/data/datasets/ read with exact values, auto-detection, and file:line:field errors.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "custom_dataset.h"
#include "dataset_error.h"
#include "sagemaker_capture.h"
#include "temp_file.h"

using namespace aiperf::dataset;
using nlohmann::json;

namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/datasets/";

std::string temp_file(const std::string& name, const std::string& content) {
  return aiperf::testing::write_temp_file("aiperf_replay_test_", name, content);
}

aiperf::config::InputConfig input(const std::string& path, const std::string& type) {
  aiperf::config::InputConfig in;
  in.input_file = path;
  in.custom_dataset_type = aiperf::config::enum_from_string<aiperf::config::CustomDatasetType>(type, "type");
  return in;
}

CustomDataset load(const aiperf::config::InputConfig& in) {
  std::mt19937_64 rng(1);
  return load_custom_dataset(in, 1, rng);
}

std::string error_of(const aiperf::config::InputConfig& in) {
  try {
    load(in);
  } catch (const DatasetFileError& e) {
    return e.what();
  }
  return "no error";
}

std::string detect_error(const std::string& path) {
  try {
    return "detected " + aiperf::config::to_string(detect_custom_dataset_type(path));
  } catch (const DatasetFileError& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("burst_gpt_trace: one request per row, seconds to ms, unparsable rows skipped", "[dataset][replay]") {
  const std::string path = kData + "burst_gpt.csv";
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(path)) == "burst_gpt_trace");
  const CustomDataset d = load(input(path, "burst_gpt_trace"));
  REQUIRE(d.conversations.size() == 3);  // the row with an empty Response tokens is skipped
  CHECK(d.default_sampling == "sequential");
  CHECK(d.has_timestamps);
  const double stamps[] = {0, 500, 2000};
  const int64_t osl[] = {3, 4, 2};
  const uint32_t isl[] = {20, 30, 25};
  REQUIRE(d.pending.size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    const auto& conv = d.conversations[i];
    REQUIRE(conv.turns_size() == 1);
    CHECK(conv.session_id().size() == 36);  // a fresh uuid per row
    CHECK(conv.turns(0).timestamp_ms() == stamps[i]);
    CHECK(conv.turns(0).max_tokens() == osl[i]);
    CHECK(d.pending[i].conversation == i);
    CHECK(d.pending[i].turn == 0);
    CHECK(d.pending[i].input_length == isl[i]);
    CHECK(d.pending[i].hash_ids.empty());
  }
  CHECK(d.conversations[0].session_id() != d.conversations[1].session_id());
}

TEST_CASE("burst_gpt_trace: columns in any order, quoted fields, fixed-schedule window", "[dataset][replay]") {
  const std::string path = temp_file("reordered.csv",
      "Model,\"Response tokens\",Log Type,Request tokens,Timestamp\r\n"
      "\"GPT-4, turbo\",7,x,11,1.5\r\n"
      "ChatGPT,9,x,12,4\r\n"
      "ChatGPT,1,x,13,12.25\r\n");
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(path)) == "burst_gpt_trace");
  auto in = input(path, "burst_gpt_trace");
  in.fixed_schedule = true;
  in.fixed_schedule_start_offset = 1500;
  in.fixed_schedule_end_offset = 4000;
  const CustomDataset d = load(in);
  REQUIRE(d.conversations.size() == 2);
  CHECK(d.conversations[0].turns(0).timestamp_ms() == 1500);
  CHECK(d.conversations[0].turns(0).max_tokens() == 7);
  CHECK(d.pending[0].input_length == 11);
  CHECK(d.conversations[1].turns(0).timestamp_ms() == 4000);
  CHECK(d.pending[1].input_length == 12);
}

TEST_CASE("burst_gpt_trace errors name the file, line and column", "[dataset][replay]") {
  const std::string no_col = temp_file("nocol.csv", "Timestamp,Request tokens\n0,5\n");
  CHECK(error_of(input(no_col, "burst_gpt_trace")) ==
        no_col + ":1: the BurstGPT CSV header lacks the column(s) 'Response tokens' "
                 "(needs Timestamp, Request tokens, Response tokens)");
  const std::string zero = temp_file("zero.csv", "Timestamp,Request tokens,Response tokens\n0,5,2\n1,6,0\n");
  CHECK(error_of(input(zero, "burst_gpt_trace")) ==
        zero + ":3: field 'Response tokens': must be >= 1 (a max_tokens), got 0; drop such rows "
               "(e.g. failed requests) from the trace");
  const std::string negative = temp_file("neg.csv", "Timestamp,Request tokens,Response tokens\n0,-5,2\n");
  CHECK(error_of(input(negative, "burst_gpt_trace")) == negative + ":2: field 'Request tokens': must be >= 0, got -5");
  // Only unparsable rows: nothing left.
  const std::string junk = temp_file("junk.csv", "Timestamp,Request tokens,Response tokens\nx,1.5,2\n");
  CHECK(error_of(input(junk, "burst_gpt_trace")) == junk + ": no entries");
  // Not a BurstGPT CSV and not JSON: detection names the choices.
  const std::string other = temp_file("other.csv", "a,b,c\n1,2,3\n");
  CHECK(detect_error(other).find(other + ":1: invalid JSON") == 0);
}

TEST_CASE("raw_payload file: one verbatim body per line, key order kept", "[dataset][replay]") {
  const std::string path = kData + "raw_payload.jsonl";
  const CustomDataset d = load(input(path, "raw_payload"));
  REQUIRE(d.conversations.size() == 2);
  CHECK(d.default_sampling == "sequential");
  CHECK_FALSE(d.has_timestamps);
  CHECK(d.pending.empty());
  const auto& t0 = d.conversations[0].turns(0);
  CHECK(t0.raw_payload() ==
        R"({"model":"m","messages":[{"role":"user","content":"Say hello."}],"max_tokens":4,"temperature":0.5})");
  CHECK(t0.role() == "user");
  CHECK(t0.max_tokens() == 4);
  const auto& t1 = d.conversations[1].turns(0);
  CHECK(t1.raw_payload().rfind(R"({"messages":[{"role":"system")", 0) == 0);
  CHECK(t1.max_tokens() == 2);  // max_completion_tokens
  CHECK(d.conversations[0].session_id() != d.conversations[1].session_id());
}

TEST_CASE("raw_payload directory: each *.jsonl file one conversation, in name order", "[dataset][replay]") {
  const std::string dir = kData + "raw_payload_dir";
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(dir)) == "raw_payload");
  const CustomDataset d = load(input(dir, "raw_payload"));
  REQUIRE(d.conversations.size() == 2);  // notes.txt is not a .jsonl file
  REQUIRE(d.conversations[0].turns_size() == 2);  // a.jsonl
  CHECK(json::parse(d.conversations[0].turns(1).raw_payload())["messages"][2]["content"] == "second turn");
  REQUIRE(d.conversations[1].turns_size() == 1);  // b.jsonl
  CHECK(json::parse(d.conversations[1].turns(0).raw_payload())["messages"][0]["content"] == "second session");
  // A random_pool directory is still one.
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(kData + "random_pool")) == "random_pool");
}

TEST_CASE("raw_payload: a bare messages line is ambiguous with mooncake_trace, as in AIPerf", "[dataset][replay]") {
  CHECK(detect_error(kData + "raw_payload.jsonl") ==
        kData + "raw_payload.jsonl:1: the line fits several dataset types (mooncake_trace, raw_payload); set "
                "--custom-dataset-type (" + std::string(kCustomDatasetTypes) + ")");
  const std::string bad = temp_file("raw_bad.jsonl", "{\"messages\": []}\n{\"model\": \"m\"}\n");
  CHECK(error_of(input(bad, "raw_payload")) ==
        bad + ":2: field 'messages': a raw_payload line needs a 'messages' array");
  const std::string list = temp_file("raw_list.jsonl", "[1, 2]\n");
  CHECK(error_of(input(list, "raw_payload")) == list + ":1: a raw_payload line must be a JSON object");
}

TEST_CASE("inputs_json: sessions, ids and payloads kept verbatim", "[dataset][replay]") {
  const std::string path = kData + "inputs_json.json";
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(path)) == "inputs_json");
  const CustomDataset d = load(input(path, "inputs_json"));
  REQUIRE(d.conversations.size() == 2);
  CHECK(d.default_sampling == "sequential");
  CHECK(d.conversations[0].session_id() == "s-alpha");
  REQUIRE(d.conversations[0].turns_size() == 2);
  CHECK(d.conversations[0].turns(0).raw_payload() ==
        R"({"messages":[{"role":"user","content":"one"}],"model":"m","stream":false,"max_tokens":3})");
  CHECK(d.conversations[0].turns(1).max_tokens() == 2);
  CHECK(d.conversations[1].session_id() == "s-beta");
  CHECK_FALSE(d.conversations[1].turns(0).has_max_tokens());
  // One line holding the whole file is recognised too.
  const std::string one_line = temp_file("inputs_one_line.jsonl",
                                         R"({"data": [{"session_id": "x", "payloads": [{"messages": []}]}]})" "\n");
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(one_line)) == "inputs_json");
}

TEST_CASE("inputs_json errors name data[i] and the key", "[dataset][replay]") {
  const std::string dup = temp_file("dup.json",
      R"({"data": [{"session_id": "a", "payloads": [{}]}, {"session_id": "a", "payloads": [{}]}]})");
  CHECK(error_of(input(dup, "inputs_json")) ==
        dup + ": data[1]: duplicate session_id 'a' (already data[0]); each session_id must be unique");
  const std::string no_id = temp_file("noid.json", R"({"data": [{"payloads": [{}]}]})");
  CHECK(error_of(input(no_id, "inputs_json")) == no_id + ": data[0]: missing required key 'session_id'");
  const std::string empty = temp_file("empty.json", R"({"data": [{"session_id": "a", "payloads": []}]})");
  CHECK(error_of(input(empty, "inputs_json")) ==
        empty + ": data[0].payloads: must be a non-empty list of request bodies");
  const std::string scalar = temp_file("scalar.json", R"({"data": [{"session_id": "a", "payloads": [3]}]})");
  CHECK(error_of(input(scalar, "inputs_json")) == scalar + ": data[0].payloads[0]: must be a JSON object");
  const std::string no_data = temp_file("nodata.json", R"({"rows": []})");
  CHECK(error_of(input(no_data, "inputs_json")).find(no_data + ": field 'data': ") == 0);
}

TEST_CASE("sagemaker_data_capture: JSON and base64 captures, zero-aligned and time-ordered", "[dataset][replay]") {
  const std::string path = kData + "sagemaker_capture.jsonl";
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(path)) == "sagemaker_data_capture");
  const CustomDataset d = load(input(path, "sagemaker_data_capture"));
  REQUIRE(d.conversations.size() == 3);
  CHECK(d.default_sampling == "sequential");
  CHECK(d.pending.empty());  // the captured messages are replayed, nothing synthesized
  const auto& t0 = d.conversations[0].turns(0);  // ev-1, 00:03:18Z
  CHECK(t0.timestamp_ms() == 0);
  CHECK(t0.raw_messages() == R"([{"role":"system","content":"Be brief."},{"role":"user","content":"Hello"}])");
  CHECK(t0.max_tokens() == 3);
  const auto& t1 = d.conversations[1].turns(0);  // ev-2, base64, 750 ms later
  CHECK(t1.timestamp_ms() == 750);
  CHECK(t1.max_tokens() == 4);  // max_completion_tokens
  const auto& t2 = d.conversations[2].turns(0);  // ev-3, 02:03:20.5+02:00
  CHECK(t2.timestamp_ms() == 2500);
  CHECK_FALSE(t2.has_max_tokens());
  CHECK(t2.raw_tools() == R"([{"type":"function","function":{"name":"f"}}])");
  // A directory of captures (recursive) is detected too.
  const auto dir = std::filesystem::temp_directory_path() / ("aiperf_capture_dir_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "2026" / "04");
  std::filesystem::copy_file(path, dir / "2026" / "04" / "capture.jsonl",
                             std::filesystem::copy_options::overwrite_existing);
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(dir.string())) == "sagemaker_data_capture");
  CHECK(load(input(dir.string(), "sagemaker_data_capture")).conversations.size() == 3);
}

TEST_CASE("sagemaker_data_capture: ISO 8601 times and errors naming the field", "[dataset][replay]") {
  CHECK(parse_iso8601_ms("1970-01-01T00:00:01Z") == 1000.0);
  CHECK(parse_iso8601_ms("1970-01-02") == 86400000.0);
  CHECK(parse_iso8601_ms("1970-01-01 01:00:00.25+01:00") == 250.0);
  CHECK(parse_iso8601_ms("2026-04-29T00:03:18Z") == 1777420998000.0);  // AIPerf's documented example
  CHECK_FALSE(parse_iso8601_ms("yesterday"));
  CHECK_FALSE(parse_iso8601_ms("2026-13-01T00:00:00Z"));
  CHECK_FALSE(parse_iso8601_ms("2026-04-29T00:03:18Q"));

  const std::string no_time = temp_file("cap_notime.jsonl",
      R"({"captureData": {"endpointInput": {"data": "{}", "encoding": "JSON"}}, "eventMetadata": {"eventId": "x"}})" "\n");
  CHECK(error_of(input(no_time, "sagemaker_data_capture")) ==
        no_time + ":1: field 'eventMetadata.inferenceTime': is required");
  const std::string no_messages = temp_file("cap_nomsg.jsonl",
      R"({"captureData": {"endpointInput": {"data": "{\"prompt\": \"x\"}", "encoding": "JSON"}}, )"
      R"("eventMetadata": {"inferenceTime": "2026-04-29T00:03:18Z"}})" "\n");
  CHECK(error_of(input(no_messages, "sagemaker_data_capture")) ==
        no_messages + ":1: field 'captureData.endpointInput': the captured request has no 'messages'; only "
                      "OpenAI-compatible chat endpoints are supported");
  const std::string bad_b64 = temp_file("cap_b64.jsonl",
      R"({"captureData": {"endpointInput": {"data": "@@@"}}, "eventMetadata": {"inferenceTime": "2026-04-29T00:03:18Z"}})" "\n");
  CHECK(error_of(input(bad_b64, "sagemaker_data_capture")) ==
        bad_b64 + ":1: field 'captureData.endpointInput.data': is not valid base64");
  const std::string bad_time = temp_file("cap_time.jsonl",
      R"({"captureData": {"endpointInput": {"data": "{}", "encoding": "JSON"}}, "eventMetadata": {"inferenceTime": 5}})" "\n");
  CHECK(error_of(input(bad_time, "sagemaker_data_capture")) ==
        bad_time + ":1: field 'eventMetadata.inferenceTime': must be an ISO 8601 time, got 5");
}
