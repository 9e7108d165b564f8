// Bad input everywhere: each row of the table is one invalid option value or input file. A
// real run (not --dry-run) must refuse it before anything starts: exit 2, a message that names
// the option (and, for files, file:line and field), and no artifact directory.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.h"

using aiperf::test::Process;

namespace {

struct BadInput {
  std::vector<std::string> args;
  std::string expected;  // in stderr; "{dir}" stands for the directory of the input files
};

std::string replace_all(std::string s, const std::string& what, const std::string& with) {
  for (size_t at = 0; (at = s.find(what, at)) != std::string::npos; at += with.size()) s.replace(at, what.size(), with);
  return s;
}

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

}  // namespace

TEST_CASE("every bad option value or input file is refused before anything starts: exit 2, named, nothing written",
          "[e2e]") {
  const std::string dir = aiperf::test::make_temp_dir();
  write(dir + "/text_type.jsonl", "{\"text\": \"hi\"}\n{\"text\": 5}\n");
  write(dir + "/not_json.jsonl", "{\"text\": \"hi\"}\nnot json\n");
  write(dir + "/no_turns.jsonl", "{\"session_id\": \"a\", \"text\": \"x\"}\n");
  write(dir + "/trace.jsonl",
        "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5}\n"
        "{\"timestamp\": 1, \"input_length\": -3, \"output_length\": 5}\n");
  write(dir + "/stamped.jsonl", "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5}\n");
  write(dir + "/same_blocks.jsonl",
        "{\"input_length\": 600, \"hash_ids\": [1, 2]}\n"
        "{\"input_length\": 600, \"hash_ids\": [1, 2]}\n");
  write(dir + "/baseten.jsonl",
        "{\"timestamp_start_unix_ms\": 1700000001000, \"prompt\": \"hello\", "
        "\"input_tokens\": 3, \"output_tokens\": 5, \"provided_session_id\": \"a\"}\n");
  const std::vector<BadInput> table{
      // Numbers: range and type, with the rule and the value as given.
      {{"--concurrency", "0"}, "Error: --concurrency: must be a number > 0, got '0'"},
      {{"--concurrency", "many"}, "Error: --concurrency: must be a number > 0, got 'many'"},
      {{"--osl", "-5"}, "Error: --osl: must be a number > 0, got '-5'"},
      {{"--isl", "abc"}, "Error: --isl: must be a number >= 0, got 'abc'"},
      {{"--request-rate", "-1"}, "Error: --request-rate: must be a number > 0, got '-1'"},
      {{"--benchmark-duration", "-1"}, "Error: --benchmark-duration: must be a number > 0, got '-1'"},
      {{"--request-cancellation-rate", "150"},
       "Error: --request-cancellation-rate: must be a percentage from 0 to 100, got '150'"},
      {{"--random-seed", "x"}, "Error: --random-seed: invalid value 'x'"},
      // Video input: AIPerf's limits and refusals, and the trial encode (a codec WebM refuses).
      {{"--video-width", "0"}, "Error: --video-width: must be an integer >= 1, got '0'"},
      {{"--video-synth-type", "bogus"}, "Error: --video-synth-type: bogus not in {moving_shapes,grid_clock,noise}"},
      {{"--video-width", "16", "--video-height", "16", "--video-audio-codec", "aac"},
       "Error: --video-audio-codec 'aac' is set but --video-audio-num-channels is 0 (audio disabled)."},
      {{"--video-width", "16", "--video-height", "16", "--video-codec", "libx264"},
       "Error: --video-codec libx264 with --video-format webm: FFmpeg failed to create video: FFmpeg process failed"},
      {{"--trajectory-start-min-ratio", "0.9", "--trajectory-start-max-ratio", "0.1"},
       "Error: --trajectory-start-min-ratio (0.9) must be <= --trajectory-start-max-ratio (0.1)."},
      {{"--trajectory-start-min-ratio", "0.9"},
       "Error: --trajectory-start-min-ratio (0.9) must be <= --trajectory-start-max-ratio (0.75)."},
      {{"--system-idle-gap-cap-seconds", "-1"},
       "Error: --system-idle-gap-cap-seconds: must be a number >= 0, got '-1'"},
      {{"--failed-request-threshold", "1.5"},
       "Error: --failed-request-threshold: must be a number from 0 to 1, got '1.5'"},
      {{"--network-latency-mean", "-1"}, "Error: --network-latency-mean: must be a number >= 0, got '-1'"},
      {{"--network-latency-automatic", "--network-latency-mean", "2"},
       "Error: Cannot use both --network-latency-automatic and --network-latency-mean together."},
      {{"--network-latency-ping-interval", "0.5"},
       "Error: --network-latency-ping-interval only applies when --network-latency-automatic is set"},
      {{"--request-rate-series", "{dir}/missing_series.json"},
       "Error: --request-rate-series: Cannot read request-rate series JSON '{dir}/missing_series.json'"},
      {{"--workers-max", "-1"}, "Error: --workers-max: invalid value '-1'"},
      // Choices and unknown options.
      {{"--endpoint-type", "nope"}, "Error: --endpoint-type: invalid value 'nope'; valid: chat,"},
      {{"--endpoint-type", "raw"},
       "Error: --endpoint-type raw: sends request bodies verbatim and needs them from --input-file"},
      {{"--arrival-pattern", "nope"}, "Error: --arrival-pattern: nope not in {constant,poisson,gamma"},
      {{"--ui-type", "nope"}, "Error: --ui-type: nope not in {dashboard,simple,none}"},
      {{"--bogus-option", "1"}, "Error: The following arguments were not expected"},
      // Structured values.
      {{"--extra-inputs", "foo"}, "Error: --extra-inputs: expected key:value, got 'foo'"},
      {{"--header", "nocolon"}, "Error: --header: expected key:value, got 'nocolon'"},
      {{"--goodput", "time_to_first_token:abc"}, "value 'abc' of 'time_to_first_token' is not a number"},
      {{"--url", "ftp://host"}, "Error: --url: unsupported scheme 'ftp' in 'ftp://host' (http, https, grpc or grpcs)"},
      {{"--url", "http://host:99999"}, "Error: --url: 'http://host:99999' is not a valid URL"},
      // Options that need others, or exclude each other.
      {{"--benchmark-grace-period", "5"}, "--benchmark-grace-period"},
      {{"--request-count", "5", "--conversation-num", "5"}, "--conversation-num"},
      // Input files: file, line and field.
      {{"--input-file", "{dir}/missing.jsonl"}, "Error: --input-file: '{dir}/missing.jsonl' does not exist"},
      {{"--input-file", "{dir}/text_type.jsonl", "--custom-dataset-type", "single_turn"},
       "Error: --input-file: {dir}/text_type.jsonl:2: field 'text': must be a string, got number"},
      {{"--input-file", "{dir}/not_json.jsonl", "--custom-dataset-type", "single_turn"},
       "Error: --input-file: {dir}/not_json.jsonl:2: invalid JSON"},
      {{"--input-file", "{dir}/no_turns.jsonl", "--custom-dataset-type", "multi_turn"},
       "Error: --input-file: {dir}/no_turns.jsonl:1: field 'turns'"},
      {{"--input-file", "{dir}/trace.jsonl", "--custom-dataset-type", "mooncake_trace"},
       "Error: --input-file: {dir}/trace.jsonl:2: field 'input_length': must be an integer >= 1, got -3"},
      // A timestamped trace switches to --fixed-schedule by itself; a rate mode would be dropped.
      {{"--input-file", "{dir}/stamped.jsonl", "--custom-dataset-type", "mooncake_trace", "--request-rate", "5"},
       "Error: --input-file: '{dir}/stamped.jsonl' has per-record timestamps and would be auto-promoted to "
       "--fixed-schedule, which --request-rate cannot be combined with; drop it, or pass --no-fixed-schedule"},
      {{"--input-file", "{dir}/stamped.jsonl", "--custom-dataset-type", "raw_payload"},
       "Error: --input-file: {dir}/stamped.jsonl:1: field 'messages': a raw_payload line needs a 'messages' array"},
      // Trace synthesis: the CLI's ranges, the file dataset's, baseten_trace's refusal, the synthesizer's.
      {{"--synthesis-prefix-root-multiplier", "0"},
       "Error: --synthesis-prefix-root-multiplier: must be an integer >= 1, got '0'"},
      {{"--input-file", "{dir}/stamped.jsonl", "--synthesis-speedup-ratio", "0"},
       "Error: --synthesis-speedup-ratio: must be > 0 for a file dataset, got 0"},
      {{"--input-file", "{dir}/stamped.jsonl", "--custom-dataset-type", "baseten_trace",
        "--synthesis-prompt-len-multiplier", "2"},
       "Error: --synthesis-prompt-len-multiplier is not supported with --custom-dataset-type baseten_trace: it "
       "replays recorded prompts verbatim"},
      {{"--input-file", "{dir}/same_blocks.jsonl", "--synthesis-output-len-multiplier", "2"},
       "Error: --input-file: {dir}/same_blocks.jsonl: trace synthesis: input_len (600) < prefix_len (1024)"},
      {{"--input-file", "{dir}/baseten.jsonl", "--synthesis-max-osl", "5"},
       "Error: --synthesis-*: trace synthesis is implemented for mooncake_trace, bailian_trace and burst_gpt_trace, "
       "not baseten_trace"},
      // Where the results would go.
      {{"--artifact-dir", "{dir}/text_type.jsonl/run"},
       "Error: --artifact-dir: cannot create {dir}/text_type.jsonl/run"},
  };
  int i = 0;
  for (const auto& row : table) {
    const std::string artifacts = dir + "/artifacts" + std::to_string(i);
    std::vector<std::string> args{"profile", "--model", "m", "--url", "http://127.0.0.1:9", "--tokenizer", "gpt2"};
    bool own_dir = false;
    for (const auto& a : row.args) {
      args.push_back(replace_all(a, "{dir}", dir));
      own_dir = own_dir || a == "--artifact-dir";
    }
    if (!own_dir) args.insert(args.end(), {"--artifact-dir", artifacts});
    Process p(std::string(AIPERF_BIN_DIR) + "/aiperf", args, dir, "bad" + std::to_string(i++));
    const auto rc = p.wait(60);
    const std::string expected = replace_all(row.expected, "{dir}", dir);
    INFO(row.args.front() << " => stderr: " << p.err());
    REQUIRE(rc.has_value());
    CHECK(*rc == 2);
    CHECK(p.err().find(expected) != std::string::npos);
    CHECK(p.out().find("LLM Metrics") == std::string::npos);
    CHECK_FALSE(std::filesystem::exists(artifacts));
  }
}
