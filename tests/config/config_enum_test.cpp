// The closed-choice config enums (common/config/config_enum.h): each spelling round-trips through
// JSON exactly as the string fields did, an unknown spelling is refused, and a RunConfig carrying
// one (the configure command, a trial's run_config.json) fails to load.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "config/run_config.h"

using namespace aiperf::config;
using nlohmann::json;

namespace {

// Every value serializes to its spelling, reads back to itself, and the spellings are exactly
// `expected` (in declaration order); an unknown spelling and a non-string throw.
template <typename E>
void check_enum(const std::vector<std::string>& expected) {
  const auto names = enum_names(E{});
  REQUIRE(names.size() == expected.size());
  for (size_t i = 0; i < names.size(); ++i) {
    const E value = names[i].value;
    CHECK(static_cast<size_t>(value) == i);  // every enumerator listed once, in order
    CHECK(to_string(value) == expected[i]);
    const json j = value;
    CHECK(j == json(expected[i]));
    CHECK(j.get<E>() == value);
    CHECK(parse_enum<E>(expected[i]) == value);
  }
  CHECK_FALSE(parse_enum<E>("no_such_value").has_value());
  CHECK_THROWS_AS(json("no_such_value").get<E>(), std::invalid_argument);
  CHECK_THROWS_AS(json(1).get<E>(), std::invalid_argument);
}

}  // namespace

TEST_CASE("config enums keep their spellings on the wire") {
  check_enum<ExportLevel>({"summary", "records", "raw"});
  check_enum<UiType>({"dashboard", "simple", "none"});
  check_enum<ModelSelectionStrategy>({"round_robin", "random"});
  check_enum<ConnectionReuseStrategy>({"pooled", "never", "sticky-user-sessions"});
  check_enum<WaitForModelMode>({"models", "inference", "both"});
  check_enum<RequestContentType>({"", "application/json", "multipart/form-data"});
  check_enum<ArrivalPattern>(
      {"constant", "poisson", "gamma", "concurrency_burst", "fixed_schedule", "user_centric_rate"});
  check_enum<CustomDatasetType>({"",
                                 "single_turn",
                                 "multi_turn",
                                 "random_pool",
                                 "mooncake_trace",
                                 "bailian_trace",
                                 "burst_gpt_trace",
                                 "raw_payload",
                                 "inputs_json",
                                 "sagemaker_data_capture",
                                 "baseten_trace",
                                 "weka_trace",
                                 "dag_jsonl",
                                 "tracelab",
                                 "speed_bench_qualitative",
                                 "speed_bench_coding",
                                 "speed_bench_humanities",
                                 "speed_bench_math",
                                 "speed_bench_multilingual",
                                 "speed_bench_qa",
                                 "speed_bench_rag",
                                 "speed_bench_reasoning",
                                 "speed_bench_roleplay",
                                 "speed_bench_stem",
                                 "speed_bench_summarization",
                                 "speed_bench_writing",
                                 "speed_bench_throughput_1k",
                                 "speed_bench_throughput_2k",
                                 "speed_bench_throughput_8k",
                                 "speed_bench_throughput_16k",
                                 "speed_bench_throughput_32k",
                                 "speed_bench_throughput_1k_low_entropy",
                                 "speed_bench_throughput_1k_mixed",
                                 "speed_bench_throughput_1k_high_entropy",
                                 "speed_bench_throughput_2k_low_entropy",
                                 "speed_bench_throughput_2k_mixed",
                                 "speed_bench_throughput_2k_high_entropy",
                                 "speed_bench_throughput_8k_low_entropy",
                                 "speed_bench_throughput_8k_mixed",
                                 "speed_bench_throughput_8k_high_entropy",
                                 "speed_bench_throughput_16k_low_entropy",
                                 "speed_bench_throughput_16k_mixed",
                                 "speed_bench_throughput_16k_high_entropy",
                                 "speed_bench_throughput_32k_low_entropy",
                                 "speed_bench_throughput_32k_mixed",
                                 "speed_bench_throughput_32k_high_entropy"});
  check_enum<AudioFormat>({"wav", "mp3"});
  check_enum<ImageFormat>({"png", "jpeg", "random"});
  check_enum<PromptCorpus>({"sonnet", "coding", "random"});
  check_enum<RandomCorpusStyle>({"vllm", "sglang"});
  check_enum<CacheBust>({"none", "system-prefix", "system-suffix", "first-turn-prefix", "first-turn-suffix",
                         "warmup-isolation-system", "warmup-isolation-first-turn"});
  check_enum<ImageSourceSampling>({"random-with-replacement", "shuffle-cycle", "sequential-cycle"});
  check_enum<VideoSynthType>({"moving_shapes", "grid_clock", "noise"});
  check_enum<VideoFormat>({"mp4", "webm"});
  check_enum<VideoAudioCodec>({"aac", "libvorbis", "libopus"});
}

TEST_CASE("config enum messages name the field and the choices") {
  CHECK(enum_choices<ExportLevel>() == "summary, records or raw");
  try {
    json("verbose").get<ExportLevel>();
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "export_level: unknown value 'verbose' (expected summary, records or raw)");
  }
}

TEST_CASE("a RunConfig round-trips its enums and refuses an unknown spelling") {
  RunConfig c;
  c.output.export_level = ExportLevel::kRaw;
  c.service.ui_type = UiType::kSimple;
  c.endpoint.model_selection_strategy = ModelSelectionStrategy::kRandom;
  c.endpoint.connection_reuse_strategy = ConnectionReuseStrategy::kNever;
  c.endpoint.wait_for_model_mode = WaitForModelMode::kBoth;
  c.endpoint.request_content_type = RequestContentType::kFormData;
  c.loadgen.arrival_pattern = ArrivalPattern::kGamma;
  c.loadgen.warmup.arrival_pattern = ArrivalPattern::kConstant;
  c.input.custom_dataset_type = CustomDatasetType::kMooncakeTrace;
  c.input.audio_format = AudioFormat::kMp3;
  c.input.prompt_shaping.random_corpus_style = RandomCorpusStyle::kSglang;
  c.input.prompt_shaping.cache_bust = CacheBust::kWarmupIsolationFirstTurn;
  c.input.prompt_shaping.image_source_sampling = ImageSourceSampling::kShuffleCycle;
  c.input.video.synth_type = VideoSynthType::kGridClock;
  c.input.video.format = VideoFormat::kMp4;
  c.input.video.audio_codec = VideoAudioCodec::kLibopus;
  c.input.video.width = 64;
  const json j = to_json(c);
  CHECK(j["output"]["export_level"] == "raw");
  CHECK(j["service"]["ui_type"] == "simple");
  CHECK(j["endpoint"]["model_selection_strategy"] == "random");
  CHECK(j["endpoint"]["connection_reuse_strategy"] == "never");
  CHECK(j["endpoint"]["wait_for_model_mode"] == "both");
  CHECK(j["endpoint"]["request_content_type"] == "multipart/form-data");
  CHECK(j["loadgen"]["arrival_pattern"] == "gamma");
  CHECK(j["loadgen"]["warmup"]["arrival_pattern"] == "constant");
  CHECK(j["input"]["custom_dataset_type"] == "mooncake_trace");
  CHECK(j["input"]["audio_format"] == "mp3");
  CHECK(j["input"]["prompt_shaping"]["random_corpus_style"] == "sglang");
  CHECK(j["input"]["prompt_shaping"]["cache_bust"] == "warmup-isolation-first-turn");
  CHECK(j["input"]["prompt_shaping"]["image_source_sampling"] == "shuffle-cycle");
  CHECK(j["input"]["video"]["synth_type"] == "grid_clock");
  CHECK(j["input"]["video"]["format"] == "mp4");
  CHECK(j["input"]["video"]["audio_codec"] == "libopus");
  CHECK(j["input"]["video"]["width"] == 64);
  CHECK(j["input"]["video"]["height"].is_null());
  CHECK(to_json(run_config_from_json(j)) == j);

  // The defaults, as the string fields had them.
  const json d = to_json(RunConfig{});
  CHECK(d["output"]["export_level"] == "records");
  CHECK(d["service"]["ui_type"] == "none");
  CHECK(d["endpoint"]["model_selection_strategy"] == "round_robin");
  CHECK(d["endpoint"]["connection_reuse_strategy"] == "pooled");
  CHECK(d["endpoint"]["wait_for_model_mode"] == "inference");
  CHECK(d["endpoint"]["request_content_type"] == "");
  CHECK(d["loadgen"]["arrival_pattern"] == "concurrency_burst");
  CHECK(d["loadgen"]["profiling"]["arrival_pattern"] == "concurrency_burst");
  CHECK(d["input"]["custom_dataset_type"] == "");
  CHECK(d["input"]["audio_format"] == "wav");
  CHECK(d["input"]["image_format"] == "png");
  CHECK(d["input"]["prompt_shaping"]["prompt_corpus"] == "sonnet");
  CHECK(d["input"]["prompt_shaping"]["random_corpus_style"] == "vllm");
  CHECK(d["input"]["prompt_shaping"]["cache_bust"] == "none");
  CHECK(d["input"]["prompt_shaping"]["image_source_sampling"] == "random-with-replacement");

  json bad = j;
  bad["loadgen"]["profiling"]["arrival_pattern"] = "bursty";
  CHECK_THROWS_AS(run_config_from_json(bad), std::invalid_argument);
  bad = j;
  bad["input"]["custom_dataset_type"] = "csv";
  CHECK_THROWS_AS(run_config_from_json(bad), std::invalid_argument);
  // The config file's underscored spellings (and other cases) are not the wire's: they do not load.
  for (const auto& [field, spelling] :
       std::vector<std::pair<std::string, std::string>>{{"random_corpus_style", "vLLM"},
                                                        {"cache_bust", "system_prefix"},
                                                        {"image_source_sampling", "random_with_replacement"}}) {
    bad = j;
    bad["input"]["prompt_shaping"][field] = spelling;
    CHECK_THROWS_AS(run_config_from_json(bad), std::invalid_argument);
  }
}
