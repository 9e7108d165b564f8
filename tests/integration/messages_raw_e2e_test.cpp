// End-to-end: --endpoint-type messages (Anthropic Messages API) and raw against
// aiperf-mock-server, streaming and not: records succeed, the bodies the mock received match
// AIPerf's field by field, the headers carry x-api-key and anthropic-version, and token counts
// match what the mock scripted (its usage, read back from profile_export_raw.jsonl).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>

#include "process.h"

using nlohmann::json;
using Run = aiperf::test::CapturedRun;
using aiperf::test::check_clean;

namespace {

// The mock's usage for each request, keyed by x_request_id, from the raw responses.
std::map<std::string, std::pair<int64_t, int64_t>> mock_usage(const Run& run, bool streaming) {
  std::map<std::string, std::pair<int64_t, int64_t>> out;
  for (const json& r : run.lines("profile_export_raw.jsonl")) {
    int64_t input = -1, output = -1;
    for (const json& resp : r["responses"]) {
      if (!streaming) {
        const json body = json::parse(resp["text"].get<std::string>());
        input = body["usage"]["input_tokens"];
        output = body["usage"]["output_tokens"];
        continue;
      }
      for (const json& packet : resp["packets"]) {
        if (packet["name"] != "data") continue;
        const json event = json::parse(packet["value"].get<std::string>());
        if (event["type"] == "message_start") input = event["message"]["usage"]["input_tokens"];
        if (event["type"] == "message_delta") output = event["usage"]["output_tokens"];
      }
    }
    out[r["metadata"]["x_request_id"]] = {input, output};
  }
  return out;
}

}  // namespace

TEST_CASE("messages: Anthropic body, headers, thinking and text tokens, usage from the split events",
          "[e2e][endpoint_types]") {
  for (bool streaming : {false, true}) {
    INFO("streaming " << streaming);
    // The mock thinks for budget_tokens (4), then writes the rest of the 12 tokens as text.
    std::vector<std::string> args{"--model", "claude-mock", "--endpoint-type", "messages", "--request-count", "3",
                                  "--isl", "16", "--osl", "12", "--extra-inputs", "ignore_eos:true",
                                  "--extra-inputs", R"({"thinking": {"type": "enabled", "budget_tokens": 4}})",
                                  "--api-key", "sk-test", "--export-level", "raw"};
    if (streaming) args.push_back("--streaming");
    Run run = aiperf::test::run_captured(args);
    check_clean(run, 3);
    CHECK(run.out.find("NVIDIA AIPerf | LLM Metrics") != std::string::npos);
    for (const auto& r : run.requests) {
      CHECK(r.path == "/v1/messages");
      std::vector<std::string> keys;
      for (auto it = r.body.begin(); it != r.body.end(); ++it) keys.push_back(it.key());
      std::vector<std::string> want{"ignore_eos", "max_tokens", "messages", "model", "thinking"};
      if (streaming) want.insert(want.begin() + 4, "stream");
      CHECK(keys == want);  // nlohmann sorts keys: no system, no max_completion_tokens
      CHECK(r.body["model"] == "claude-mock");
      REQUIRE(r.body["messages"].size() == 1);
      CHECK(r.body["messages"][0]["role"] == "user");
      CHECK(r.body["messages"][0]["content"].is_string());
      CHECK(r.body["messages"][0].size() == 2);
      CHECK(r.body["max_tokens"] == 12);
      if (streaming) CHECK(r.body["stream"] == true);
    }
    const auto usage = mock_usage(run, streaming);
    REQUIRE(usage.size() == 3);
    for (const json& raw : run.lines("profile_export_raw.jsonl")) {
      const json& headers = raw["request_headers"];
      CHECK(headers["anthropic-version"] == "2023-06-01");
      CHECK(headers.contains("x-api-key"));
      CHECK_FALSE(headers.contains("Authorization"));
    }
    for (const json& record : run.records()) {
      const json& m = record["metrics"];
      const auto& [input, output] = usage.at(record["metadata"]["x_request_id"]);
      CHECK(output == 12);
      CHECK(m["usage_prompt_tokens"]["value"] == input);  // message_start's, kept past message_delta
      CHECK(m["usage_completion_tokens"]["value"] == 12);
      CHECK(m["reasoning_token_count"]["value"] == 4);
      CHECK(m["output_token_count"]["value"] == 8);
      CHECK(m["output_sequence_length"]["value"] == 12);
      CHECK(m["input_sequence_length"]["value"] == 16);
      CHECK(m.contains("time_to_first_token") == streaming);
    }
  }
}

TEST_CASE("messages: an error event mid-stream fails the request as SSEResponseError 502", "[e2e][endpoint_types]") {
  // The mock's own mock_error_after extra replaces the third delta with Anthropic's error event.
  Run run = aiperf::test::run_captured({"--model", "claude-mock", "--endpoint-type", "messages", "--streaming",
                                        "--request-count", "2", "--isl", "16", "--osl", "8", "--extra-inputs",
                                        "ignore_eos:true", "--extra-inputs", "mock_error_after:2"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);  // no request succeeded
  CHECK(run.requests.size() == 2);
  const auto records = run.records();
  REQUIRE(records.size() == 2);
  for (const json& r : records) {
    REQUIRE(r.contains("error"));
    CHECK(r["error"]["code"] == 502);
    CHECK(r["error"]["type"] == "SSEResponseError");
    CHECK(r["error"]["message"].get<std::string>().find("overloaded_error") != std::string::npos);
  }
}

TEST_CASE("raw: raw_payload lines sent verbatim to --endpoint, responses auto-detected", "[e2e][endpoint_types]") {
  const std::string dir = aiperf::test::make_temp_dir();
  const std::string file = dir + "/payloads.jsonl";
  for (bool streaming : {false, true}) {
    INFO("streaming " << streaming);
    std::vector<json> lines;
    for (int i = 0; i < 2; ++i) {
      lines.push_back({{"model", "verbatim-model"},
                       {"messages", json::array({{{"role", "user"}, {"content", "line " + std::to_string(i) + " says hi"}}})},
                       {"max_tokens", 5 + i},
                       {"ignore_eos", true},
                       {"stream", streaming},
                       {"custom_field", {{"kept", i}}}});
    }
    {
      std::ofstream out(file);
      for (const json& l : lines) out << l.dump() << "\n";
    }
    std::vector<std::string> args{"--model", "m", "--endpoint-type", "raw", "--endpoint", "/v1/chat/completions",
                                  "--custom-dataset-type", "raw_payload", "--input-file", file,
                                  "--request-count", "2", "--dataset-sampling-strategy", "sequential"};
    if (streaming) args.push_back("--streaming");
    Run run = aiperf::test::run_captured(args);
    check_clean(run, 2);
    REQUIRE(run.requests.size() == 2);
    for (size_t i = 0; i < 2; ++i) {
      CHECK(run.requests[i].path == "/v1/chat/completions");
      CHECK(run.requests[i].body == lines[i]);  // every field as written, nothing added
    }
    std::multiset<int> osl;
    for (const json& record : run.records()) osl.insert(record["metrics"]["output_sequence_length"]["value"].get<int>());
    CHECK(osl == std::multiset<int>{5, 6});
  }
}

TEST_CASE("raw with an input file of plain prompts: the run is refused with AIPerf's reason", "[e2e][endpoint_types]") {
  // Without --input-file the command line refuses raw (bad_inputs_e2e_test); a file of prompts
  // reaches the dataset service, which has no body to send.
  const std::string file = aiperf::test::make_temp_dir() + "/prompts.jsonl";
  std::ofstream(file) << R"({"text": "hello there"})" << "\n";
  Run run = aiperf::test::run_captured({"--model", "m", "--endpoint-type", "raw", "--request-count", "1",
                                        "--input-file", file, "--custom-dataset-type", "single_turn"});
  CHECK(run.exit_code == 1);
  CHECK(run.requests.empty());
  CHECK((run.out + run.err).find("has no raw_payload set") != std::string::npos);
}
