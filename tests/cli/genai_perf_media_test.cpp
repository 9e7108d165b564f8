// GenAI-Perf front end: audio, image and session options mapped onto `aiperf profile` (exact
// arguments), echoed in input_config, refused where GenAI-Perf (or perf_analyzer) refuses them,
// and session rows written as GenAI-Perf and perf_analyzer write them.
#include <catch2/catch.hpp>
#include <limits>
#include <string>
#include <vector>

#include "genai_perf_export.h"
#include "genai_perf_metrics.h"
#include "genai_perf_options.h"

using namespace aiperf::cli::genai_perf;
using Words = std::vector<std::string>;
using J = nlohmann::ordered_json;

namespace {
// The value after `option` in `args` ("" when absent).
std::string after(const Words& args, const std::string& option) {
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == option) return args[i + 1];
  return "";
}
bool has(const Words& args, const std::string& option) {
  return std::find(args.begin(), args.end(), option) != args.end();
}
void refuses(const Words& w, const std::string& fragment) {
  try {
    parse_profile_args(w);
    FAIL("accepted: " << w.back());
  } catch (const GenAiPerfOptionError& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find(fragment) != std::string::npos);
  }
}
}  // namespace

TEST_CASE("genai-perf multimodal: images and audio go to the engine's chat requests", "[genai_perf]") {
  const ProfileArgs a = parse_profile_args({"-m",
                                            "m",
                                            "--endpoint-type",
                                            "multimodal",
                                            "--image-width-mean",
                                            "32",
                                            "--image-width-stddev",
                                            "4",
                                            "--image-height-mean",
                                            "24",
                                            "--image-format",
                                            "jpeg",
                                            "--batch-size-image",
                                            "2",
                                            "--audio-length-mean",
                                            "1.5",
                                            "--audio-length-stddev",
                                            "0.5",
                                            "--audio-format",
                                            "wav",
                                            "--audio-depths",
                                            "8",
                                            "16",
                                            "--audio-sample-rates",
                                            "16",
                                            "44.1",
                                            "--audio-num-channels",
                                            "2",
                                            "--batch-size-audio",
                                            "3",
                                            "--osl",
                                            "5",
                                            "-u",
                                            "http://h:1"});
  CHECK(artifact_directory(a) == "artifacts/m-openai-multimodal-concurrency1");
  CHECK(endpoint_path(a) == "v1/chat/completions");
  CHECK(service_kind(a) == "openai");
  const Words args = to_aiperf_args(a, "D");
  CHECK(after(args, "--endpoint-type") == "chat");
  CHECK(has(args, "--genai-perf-payloads"));
  CHECK(has(args, "--use-legacy-max-tokens"));  // GenAI-Perf's chat converter sends max_tokens
  CHECK(has(args, "--chat-content-parts"));     // its multimodal content is always a list
  const Words image{"--image-width-mean",    "32", "--image-width-stddev", "4",    "--image-height-mean", "24",
                    "--image-height-stddev", "0",  "--image-format",       "jpeg", "--batch-size-image",  "2"};
  const Words audio{"--audio-length-mean", "1.5",  "--audio-length-stddev", "0.5",       "--audio-format",       "wav",
                    "--audio-depths",      "8,16", "--audio-sample-rates",  "16.0,44.1", "--audio-num-channels", "2",
                    "--batch-size-audio",  "3"};
  const auto contains = [&](const Words& part) {
    return std::search(args.begin(), args.end(), part.begin(), part.end()) != args.end();
  };
  CHECK(contains(image));
  CHECK(contains(audio));

  // The echo: GenAI-Perf's layout, the given floats as floats.
  const J c = input_config(a);
  CHECK(c["endpoint"]["output_format"] == "openai_multimodal");
  CHECK(c["endpoint"]["type"] == "multimodal");
  CHECK(
      c["input"]["audio"].dump() ==
      R"({"batch_size":3,"length":{"mean":1.5,"stddev":0.5},"format":"wav","depths":[8,16],"sample_rates":[16.0,44.1],"num_channels":2})");
  CHECK(c["input"]["image"].dump() ==
        R"({"width":{"mean":32,"stddev":4},"height":{"mean":24,"stddev":0},"batch_size":2,"format":"jpeg"})");
  // Defaults, as GenAI-Perf echoes them.
  const J d = input_config(parse_profile_args({"-m", "m", "--endpoint-type", "chat"}));
  CHECK(
      d["input"]["audio"].dump() ==
      R"({"batch_size":1,"length":{"mean":0,"stddev":0},"format":"wav","depths":[16],"sample_rates":[16],"num_channels":1})");
  CHECK(d["input"]["image"].dump() ==
        R"({"width":{"mean":0,"stddev":0},"height":{"mean":0,"stddev":0},"batch_size":1,"format":"png"})");

  // vision is multimodal under its old name; chat and completions make the media but send text only.
  const ProfileArgs v = parse_profile_args(
      {"-m", "m", "--endpoint-type", "vision", "--image-width-mean", "10", "--image-height-mean", "10"});
  CHECK(artifact_directory(v) == "artifacts/m-openai-vision-concurrency1");
  CHECK(after(to_aiperf_args(v, "D"), "--image-format") == "png");  // GenAI-Perf's default format
  for (const char* type : {"chat", "completions"}) {
    const Words t = to_aiperf_args(parse_profile_args({"-m", "m", "--endpoint-type", type, "--image-width-mean", "10",
                                                       "--image-height-mean", "10", "--audio-length-mean", "1"}),
                                   "D");
    CHECK_FALSE(has(t, "--image-width-mean"));
    CHECK_FALSE(has(t, "--audio-length-mean"));
  }
  // Images need both sides; audio a length.
  const Words half =
      to_aiperf_args(parse_profile_args({"-m", "m", "--endpoint-type", "multimodal", "--image-width-mean", "10"}), "D");
  CHECK_FALSE(has(half, "--image-width-mean"));
  CHECK_FALSE(has(half, "--audio-length-mean"));
  // An empty --audio-depths keeps the default (argparse's nargs="*" gives [], which GenAI-Perf ignores).
  CHECK(parse_profile_args({"-m", "m", "--endpoint-type", "multimodal", "--audio-depths"}).audio_depths ==
        std::vector<int64_t>{16});
}

TEST_CASE("genai-perf media options: GenAI-Perf's refusals, with its messages", "[genai_perf]") {
  const Words base{"-m", "m", "--endpoint-type", "multimodal"};
  const auto with = [&](Words extra) {
    Words w = base;
    w.insert(w.end(), extra.begin(), extra.end());
    return w;
  };
  refuses(with({"--image-width-mean", "-3"}),
          "argument --image-width-mean: User Config: -3 exceeds lower bounds ({'lower': 0})");
  refuses(with({"--audio-length-stddev", "-1"}),
          "argument --audio-length-stddev: User Config: -1.0 exceeds lower bounds ({'lower': 0})");
  refuses(with({"--audio-num-channels", "3"}), "argument --audio-num-channels: invalid choice: 3 (choose from 1, 2)");
  refuses(with({"--audio-format", "ogg"}), "argument --audio-format: invalid choice: 'ogg' (choose from 'wav', 'mp3')");
  refuses(with({"--image-format", "gif"}),
          "argument --image-format: invalid choice: 'gif' (choose from 'png', 'jpeg')");
  refuses(with({"--audio-length-mean", "0.05"}), "Mean value (0.05) must be greater than min_value (0.1)");
  refuses(with({"--audio-length-mean", "1", "--audio-depths", "12"}),
          "Unsupported bit depth: 12. Supported bit depths are: [8, 16, 24, 32]");
  refuses(with({"--audio-length-mean", "1", "--audio-format", "mp3", "--audio-sample-rates", "7"}),
          "MP3 format only supports the following sample rates (in Hz): [8000, 11025, 12000, 16000, 22050, 24000, "
          "32000, 44100, 48000]. Got 7000 Hz. Please choose a supported rate from the list.");
  refuses(with({"--batch-size-text", "2"}), "The --batch-size-text flag is not supported for openai_multimodal.");
  refuses({"-m", "m", "--endpoint-type", "chat", "-b", "2"},
          "The --batch-size-text flag is not supported for openai_chat_completions.");
  // The depth is only checked when clips are made (as GenAI-Perf checks it while making one).
  CHECK(parse_profile_args(with({"--audio-depths", "12"})).audio_depths == std::vector<int64_t>{12});
}

TEST_CASE("genai-perf sessions: perf_analyzer's session concurrency mode on our multi-turn engine", "[genai_perf]") {
  const ProfileArgs a = parse_profile_args({"-m",
                                            "m",
                                            "--endpoint-type",
                                            "chat",
                                            "--num-sessions",
                                            "5",
                                            "--session-concurrency",
                                            "2",
                                            "--session-turns-mean",
                                            "3",
                                            "--session-turns-stddev",
                                            "1",
                                            "--session-turn-delay-mean",
                                            "40",
                                            "--session-turn-delay-stddev",
                                            "10",
                                            "--session-delay-ratio",
                                            "0.5",
                                            "--request-count",
                                            "100",
                                            "--warmup-request-count",
                                            "4",
                                            "--concurrency",
                                            "7",
                                            "--isl",
                                            "20",
                                            "--osl",
                                            "4"});
  CHECK(artifact_directory(a) == "artifacts/m-openai-chat-session_concurrency2");
  const Words args = to_aiperf_args(a, "D");
  const Words sessions{"--concurrency",
                       "2",
                       "--conversation-num",
                       "5",
                       "--num-dataset-entries",
                       "5",
                       "--dataset-sampling-strategy",
                       "sequential",
                       "--session-turns-mean",
                       "3",
                       "--session-turns-stddev",
                       "1",
                       "--session-turn-delay-mean",
                       "40",
                       "--session-turn-delay-stddev",
                       "10"};
  CHECK(std::search(args.begin(), args.end(), sessions.begin(), sessions.end()) != args.end());
  // Every session once: no request count, no warmup, one --concurrency, no ratio (payload files only).
  CHECK_FALSE(has(args, "--request-count"));
  CHECK_FALSE(has(args, "--warmup-request-count"));
  CHECK(std::count(args.begin(), args.end(), "--concurrency") == 1);
  CHECK(std::count(args.begin(), args.end(), "--num-dataset-entries") == 1);
  CHECK_FALSE(has(args, "--session-delay-ratio"));

  const J c = input_config(a);
  CHECK(c["perf_analyzer"]["stimulus"].dump() == R"({"session_concurrency":2})");
  CHECK(c["input"]["sessions"].dump() ==
        R"({"num":5,"turns":{"mean":3,"stddev":1},"turn_delay":{"mean":40,"ratio":0.5,"stddev":10}})");
  CHECK(input_config(parse_profile_args({"-m", "m", "--endpoint-type", "chat"}))["input"]["sessions"].dump() ==
        R"({"num":0,"turns":{"mean":1,"stddev":0},"turn_delay":{"mean":0,"ratio":1.0,"stddev":0}})");

  // What perf_analyzer refuses is a valid GenAI-Perf command line: parsed, then refused before
  // the run (perf_analyzer's words).
  const auto pa_refusal = [](const Words& w) { return perf_analyzer_refusal(parse_profile_args(w)); };
  CHECK(pa_refusal({"-m", "m", "--endpoint-type", "chat"}).empty());
  CHECK(perf_analyzer_refusal(a).empty());
  CHECK(
      pa_refusal({"-m", "m", "--endpoint-type", "chat", "--num-sessions", "3"})
          .rfind(
              "Failed to init manager inputs: The input or output 'session_id' is not found in the model configuration",
              0) == 0);
  CHECK(pa_refusal({"-m", "m", "--endpoint-type", "chat", "--session-concurrency", "2"})
            .rfind("The input data file contains 0 unique session IDs", 0) == 0);
  CHECK(pa_refusal({"-m", "m", "--endpoint-type", "chat", "--num-sessions", "1", "--session-concurrency", "2"}) ==
        "The input data file contains 1 unique session IDs, which is fewer than the required session concurrency "
        "level of 2. Please add more unique session IDs to the file or lower the session concurrency level.");
  CHECK(pa_refusal({"-m", "m", "--num-sessions", "2", "--session-concurrency", "2"}) ==
        "Session concurrency mode is only supported with OpenAI service kind.");
  CHECK(pa_refusal({"-m", "m", "--endpoint-type", "completions", "--num-sessions", "2", "--session-concurrency", "2"})
            .rfind("Request body must be an object and it must have a 'messages' field that is an array.", 0) == 0);
  // Such a run maps as an ordinary one (for --dry-run only): no sessions.
  const Words refused = to_aiperf_args(parse_profile_args({"-m", "m", "--endpoint-type", "chat", "--num-sessions", "1",
                                                           "--session-concurrency", "2", "--concurrency", "3"}),
                                       "D");
  CHECK_FALSE(has(refused, "--conversation-num"));
  CHECK(after(refused, "--concurrency") == "3");
  refuses({"-m", "m", "--endpoint-type", "chat", "--num-sessions", "-1"},
          "argument --num-sessions: User Config: -1 exceeds lower bounds ({'lower': 0})");
  // 0 is GenAI-Perf's "unset": the default stays.
  CHECK(parse_profile_args({"-m", "m", "--endpoint-type", "chat", "--session-turns-mean", "0"}).session_turns_mean ==
        1);
}

TEST_CASE("genai-perf session rows: inputs.json and profile_export.json as GenAI-Perf and perf_analyzer write them",
          "[genai_perf]") {
  // Our engine's inputs.json: each session with its payloads and each turn's delay before it.
  const J ours = J::parse(R"({"data": [
    {"session_id": "s1", "payloads": [{"messages": [1]}, {"messages": [2]}, {"messages": [3]}],
     "genai_perf_turn_delays_ms": [0, 40, 25]},
    {"session_id": "s2", "payloads": [{"messages": [4]}]}]})");
  CHECK(session_delays(ours) == std::map<std::string, std::vector<int64_t>>{{"s1", {40, 25}}});
  // Each row: the payload, its session and, but on a session's last turn, the delay after it.
  CHECK(genai_inputs(ours, true).dump() ==
        R"({"data":[{"payload":[{"messages":[1]}],"session_id":["s1"],"delay":[40]},)"
        R"({"payload":[{"messages":[2]}],"session_id":["s1"],"delay":[25]},)"
        R"({"payload":[{"messages":[3]}],"session_id":["s1"]},)"
        R"({"payload":[{"messages":[4]}],"session_id":["s2"]}]})");
  // Without sessions the rows are the payloads alone.
  CHECK(genai_inputs(ours).dump().find("session_id") == std::string::npos);

  PaRequest r;
  r.timestamp = 100;
  r.payload = "{}";
  r.response_timestamps = {150};
  r.response_outputs = {"x"};
  r.session_id = "s1";
  r.delay_ms = 40;
  PaRequest last = r;
  last.delay_ms.reset();
  const J pa = pa_profile_export({r, last}, "request_rate", J(0.0), "openai", "v1/chat/completions", "0.0.16");
  CHECK(pa["experiments"][0]["experiment"].dump() == R"({"mode":"request_rate","value":0.0})");
  CHECK(pa["experiments"][0]["requests"][0]["request_inputs"].dump() ==
        R"({"payload":"{}","session_id":"s1","delay":40})");
  CHECK(pa["experiments"][0]["requests"][1]["request_inputs"].dump() == R"({"payload":"{}","session_id":"s1"})");
}
