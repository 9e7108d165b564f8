// Input, ISL/OSL, prompt and conversation groups (spec §2.1).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "custom_dataset.h"
#include "dataset_error.h"
#include "environment.h"
#include "hf_text_datasets.h"
#include "public_dataset_loader.h"
#include "public_datasets.h"
#include "key_value.h"
#include "options.h"
#include "validators.h"
#include "seq_dist.h"
#include "sharegpt.h"
#include "speed_bench.h"
#include "synthetic_dataset.h"
#include "synthetic_media.h"

namespace aiperf::cli {

namespace {

// Prefix prompt, rankings, image and audio groups (spec §2.1).
void add_synthetic_options(CLI::App& app, ProfileOptions& o) {
  auto& in = o.config.input;
  const char* p = "Prefix Prompt";
  app.add_option("--prefix-prompt-pool-size,--prompt-prefix-pool-size,--num-prefix-prompts", in.prefix_pool_size,
                 "Prefixes in the pool; each first turn starts with a random one")->group(p);
  app.add_option("--prefix-prompt-length,--prompt-prefix-length", in.prefix_length, "Tokens per prefix")->group(p);
  app.add_option("--shared-system-prompt-length", in.shared_system_prompt_length,
                 "Tokens of one system prompt shared by every conversation")->check(kPositive)->group(p);
  app.add_option("--user-context-prompt-length", in.user_context_prompt_length,
                 "Tokens of a user-context prompt unique to each conversation")->check(kPositive)->group(p);

  const char* r = "Rankings";
  auto rankings = [&](const std::string& name, double& target, const std::string& help) {
    app.add_option(name, target, help)->check(kNonNegative)->group(r)->each(
        [&o, name](const std::string&) { o.input.rankings_options.push_back(name); });
  };
  rankings("--rankings-passages-mean", in.rankings_passages_mean, "Mean passages per query");
  rankings("--rankings-passages-stddev", in.rankings_passages_stddev, "Passages per query std-dev");
  rankings("--rankings-passages-prompt-token-mean", in.rankings_passage_tokens_mean, "Mean tokens per passage");
  rankings("--rankings-passages-prompt-token-stddev", in.rankings_passage_tokens_stddev, "Passage tokens std-dev");
  rankings("--rankings-query-prompt-token-mean", in.rankings_query_tokens_mean, "Mean tokens per query");
  rankings("--rankings-query-prompt-token-stddev", in.rankings_query_tokens_stddev, "Query tokens std-dev");

  const char* i = "Image Input";
  app.add_option("--image-width-mean", in.image_width_mean, "Mean width (px); images need width and height > 0")
      ->check(kNonNegative)->group(i);
  app.add_option("--image-width-stddev", in.image_width_stddev, "")->check(kNonNegative)->group(i);
  app.add_option("--image-height-mean", in.image_height_mean, "Mean height (px)")->check(kNonNegative)->group(i);
  app.add_option("--image-height-stddev", in.image_height_stddev, "")->check(kNonNegative)->group(i);
  app.add_option("--image-batch-size,--batch-size-image", in.image_batch_size, "Images per request")->group(i);
  add_enum_option(app, "--image-format", in.image_format, "png, jpeg or random (per image)")
      ->transform(choice({"png", "jpeg", "random"}))
      ->group(i);

  const char* a = "Audio Input";
  app.add_option("--audio-batch-size,--batch-size-audio", in.audio_batch_size, "Audio clips per request")->group(a);
  app.add_option("--audio-length-mean", in.audio_length_mean, "Mean clip length (s); 0 = no audio")
      ->check(kNonNegative)->group(a);
  app.add_option("--audio-length-stddev", in.audio_length_stddev, "")->check(kNonNegative)->group(a);
  add_enum_option(app, "--audio-format", in.audio_format, "wav or mp3")->transform(choice({"wav", "mp3"}))->group(a);
  app.add_option("--audio-depths", in.audio_depths, "Bit depths to draw from (8, 16, 24, 32)")
      ->delimiter(',')->check(CLI::IsMember({8, 16, 24, 32}))->group(a);
  app.add_option("--audio-sample-rates", in.audio_sample_rates, "Sample rates (kHz) to draw from")
      ->delimiter(',')->check(kPositive)->group(a);
  app.add_option("--audio-num-channels", in.audio_num_channels, "1 or 2")->check(CLI::Range(1, 2))->group(a);
}

}  // namespace

void add_input_options(CLI::App& app, ProfileOptions& o) {
  auto& in = o.config.input;
  const char* g = "Input";
  app.add_option("--extra-inputs", o.input.extra_inputs, "Extra payload fields: key:value or JSON")->group(g);
  app.add_option("-H,--header", o.input.headers, "Extra HTTP headers: Name:Value or JSON")->group(g);
  add_optional(app, "--random-seed", in.random_seed, "Seed for reproducible data and sampling")->group(g);
  app.add_option("--isl,--synthetic-input-tokens-mean,--prompt-input-tokens-mean", in.isl_mean, "Mean input tokens")
      ->check(kNonNegative)->group("Input Sequence Length (ISL)");
  app.add_option("--isl-stddev,--synthetic-input-tokens-stddev,--prompt-input-tokens-stddev", in.isl_stddev,
                 "Input tokens std-dev")->check(kNonNegative)->group("Input Sequence Length (ISL)");
  add_optional(app, "--osl,--output-tokens-mean,--prompt-output-tokens-mean", in.osl_mean, "Mean output tokens (max tokens)")
      ->check(kPositive)->group("Output Sequence Length (OSL)");
  app.add_option("--osl-stddev,--output-tokens-stddev,--prompt-output-tokens-stddev", in.osl_stddev, "Output tokens std-dev")
      ->check(kNonNegative)->group("Output Sequence Length (OSL)");
  app.add_option("-b,--batch-size,--batch-size-text,--prompt-batch-size", in.batch_size, "Texts per request")
      ->check(kPositive)->group("Prompt");
  const char* c = "Conversation Input";
  app.add_option("--num-dataset-entries,--num-prompts", in.num_dataset_entries, "Unique synthetic conversations")
      ->check(kPositive)->group(c)->each([&o](const std::string&) { o.input.num_dataset_entries_given = true; });
  add_optional(app, "--conversation-num,--num-conversations,--num-sessions", o.config.loadgen.conversation_num,
               "Sessions to run")->check(kPositive)->group(c);
  app.add_option("--conversation-turn-mean,--session-turns-mean", in.turn_mean, "Mean turns per conversation")
      ->check(kPositive)->group(c);
  app.add_option("--conversation-turn-stddev,--session-turns-stddev", in.turn_stddev, "")->group(c);
  app.add_option("--conversation-turn-delay-mean,--session-turn-delay-mean", in.turn_delay_mean,
                 "Mean think time (ms) before each non-first turn")->check(kNonNegative)->group(c);
  app.add_option("--conversation-turn-delay-stddev,--session-turn-delay-stddev", in.turn_delay_stddev,
                 "Think time std-dev (ms)")->check(kNonNegative)->group(c);
  app.add_option("--conversation-turn-delay-ratio,--session-delay-ratio", in.turn_delay_ratio,
                 "Multiplier applied to every delay, including file delays")->check(kNonNegative)->group(c);

  app.add_option("--input-file", in.input_file, "JSONL file (or random_pool directory) with a custom dataset")->group(g);
  std::vector<std::string> dataset_types;  // every spelling but kNone's ""
  for (const auto& [value, name] : config::enum_names(config::CustomDatasetType{}))
    if (!name.empty()) dataset_types.emplace_back(name);
  add_enum_option(app, "--custom-dataset-type", in.custom_dataset_type,
                  "single_turn, multi_turn, random_pool, mooncake_trace, bailian_trace, burst_gpt_trace, raw_payload, "
                  "inputs_json, sagemaker_data_capture, baseten_trace, weka_trace, dag_jsonl, tracelab, "
                  "speed_bench_qualitative, speed_bench_<category> or speed_bench_throughput_<isl>[_<tier>] (default: "
                  "auto-detect)")
      ->transform(choice(std::move(dataset_types)))
      ->group(g);
  add_trace_replay_options(app, o);
  add_agentic_trace_options(app, o);
  add_synthesis_options(app, o);
  std::vector<std::string> public_names;  // every name AIPerf registers; the unsupported are refused later
  for (const auto& d : dataset::public_datasets()) public_names.emplace_back(d.name);
  app.add_option("--public-dataset", in.public_dataset,
                 "sharegpt or spec_bench: read from --input-file, else AIPerf's cache .cache/aiperf/datasets/ "
                 "(downloaded once); the HuggingFace ones (aimo, spec_al_*, instruct_coder, blazedit_*, ...) from "
                 "./<org>/<name> or the HuggingFace cache, offline")
      ->transform(choice(std::move(public_names)))
      ->group(g);
  app.add_option_function<std::string>(
         "--hf-subset", [&in](const std::string& v) { in.hf_subset = v; },
         "HuggingFace config of a --public-dataset (overrides the dataset's own)")
      ->group(g);
  app.add_option("--hf-weka-dataset", o.input.hf_weka_dataset,
                 "HuggingFace repo of a Weka trace corpus (selects --public-dataset weka_hf)")
      ->group(g);
  app.add_option("--dataset-sampling-strategy", in.dataset_sampling_strategy, "sequential, random or shuffle")
      ->transform(choice({"sequential", "random", "shuffle"}))->group(g);
  app.add_flag("--fixed-schedule", in.fixed_schedule, "Replay the dataset's timestamps")->group(g);
  app.add_flag("--no-fixed-schedule", o.input.no_fixed_schedule,
               "Keep the chosen load mode for a trace with timestamps (no automatic --fixed-schedule)")->group(g);
  app.add_flag("--fixed-schedule-auto-offset", in.fixed_schedule_auto_offset,
               "Shift timestamps so the first is 0")->group(g);
  add_optional(app, "--fixed-schedule-start-offset", in.fixed_schedule_start_offset,
               "Skip entries stamped before this (ms); also time zero")->group(g);
  add_optional(app, "--fixed-schedule-end-offset", in.fixed_schedule_end_offset,
               "Skip entries stamped after this (ms)")->group(g);
  add_optional(app, "--isl-block-size,--synthetic-input-tokens-block-size,--prompt-input-tokens-block-size",
               in.isl_block_size, "Tokens per hash_id block of traces (mooncake: 512, bailian: 16)")
      ->check(kPositive)->group("Input Sequence Length (ISL)");
  app.add_option("--seq-dist,--sequence-distribution", in.seq_dist,
                 "Mixed (ISL,OSL) pairs: \"256,128:40;512|20,256:60\", bracket or JSON form")
      ->group("Input Sequence Length (ISL)");
  add_synthetic_options(app, o);
  add_video_options(app, o);
  add_prompt_shaping_options(app, o);
}

namespace {

// Options that only make sense with others, spec §2.5.
void check_fixed_schedule(const config::InputConfig& in) {
  if (!in.fixed_schedule) {
    if (in.fixed_schedule_auto_offset) throw OptionError("--fixed-schedule-auto-offset requires --fixed-schedule");
    if (in.fixed_schedule_start_offset) throw OptionError("--fixed-schedule-start-offset requires --fixed-schedule");
    if (in.fixed_schedule_end_offset) throw OptionError("--fixed-schedule-end-offset requires --fixed-schedule");
  }
  if (in.fixed_schedule_auto_offset && in.fixed_schedule_start_offset)
    throw OptionError("--fixed-schedule-auto-offset and --fixed-schedule-start-offset cannot both be set");
  if (in.fixed_schedule_start_offset && in.fixed_schedule_end_offset &&
      *in.fixed_schedule_start_offset > *in.fixed_schedule_end_offset)
    throw OptionError("--fixed-schedule-start-offset (" + std::to_string(*in.fixed_schedule_start_offset) +
                      ") cannot be greater than --fixed-schedule-end-offset (" +
                      std::to_string(*in.fixed_schedule_end_offset) + ")");
}

// Prefix pool vs shared/user-context prompts, rankings options, --seq-dist, media (spec §2.5).
void check_synthetic(const ProfileOptions& o) {
  const auto& in = o.config.input;
  const bool pool = in.prefix_pool_size > 0 || in.prefix_length > 0;
  if (pool && (in.shared_system_prompt_length > 0 || in.user_context_prompt_length > 0))
    throw OptionError("--shared-system-prompt-length / --user-context-prompt-length cannot be combined with "
                      "--prefix-prompt-pool-size / --prefix-prompt-length");
  if (in.user_context_prompt_length > 0 && !o.input.num_dataset_entries_given)
    throw OptionError("--user-context-prompt-length requires --num-dataset-entries");
  if (!o.input.rankings_options.empty() && !dataset::is_rankings_endpoint(o.config.endpoint.type))
    throw OptionError(o.input.rankings_options.front() + " requires a rankings --endpoint-type "
                      "(nim_rankings, cohere_rankings, hf_tei_rankings), got '" + o.config.endpoint.type + "'");
  if (!in.seq_dist.empty()) {
    try {
      dataset::SeqDist::parse(in.seq_dist);
    } catch (const std::invalid_argument& e) {
      throw OptionError("--seq-dist '" + in.seq_dist + "': " + e.what());
    }
  }
  if (in.audio_format == config::AudioFormat::kMp3 && in.audio_length_mean > 0) {
    if (!dataset::mp3_supported())
      throw OptionError("--audio-format mp3 is not supported by this build (libmp3lame missing); use wav");
    for (double khz : in.audio_sample_rates) {
      const long hz = std::lround(khz * 1000);
      if (hz != 8000 && hz != 11025 && hz != 12000 && hz != 16000 && hz != 22050 && hz != 24000 && hz != 32000 &&
          hz != 44100 && hz != 48000)
        throw OptionError("--audio-sample-rates " + std::to_string(khz) + ": MP3 supports 8, 11.025, 12, 16, "
                          "22.05, 24, 32, 44.1 and 48 kHz");
    }
  }
}

// A --public-dataset other than sharegpt: refused when this build does not load its family;
// otherwise read once here (from ./<org>/<name> or the HuggingFace cache, or Spec-Bench's file),
// so a missing or bad dataset exits 2 before anything is spawned.
void check_other_public_dataset(ProfileOptions& o) {
  auto& in = o.config.input;
  const std::string flag = "--public-dataset " + in.public_dataset;
  const dataset::PublicDatasetInfo* info = dataset::find_public_dataset(in.public_dataset);
  if (!info) throw OptionError(flag + ": unknown public dataset");
  if (!info->supported)
    throw OptionError(flag + ": not loaded by this native aiperf yet (its " +
                      (info->family == dataset::PublicFamily::kWekaTrace  ? std::string("Weka trace")
                       : info->family == dataset::PublicFamily::kExgentic ? std::string("Exgentic trace")
                       : info->family == dataset::PublicFamily::kAsr      ? std::string("audio")
                                                                          : std::string("image/video")) +
                      " family is not implemented); supported: " + dataset::supported_public_datasets());
  if (info->family == dataset::PublicFamily::kSpecBench && in.hf_subset)
    throw OptionError("--hf-subset applies only to HuggingFace-backed public datasets, not " + in.public_dataset);
  namespace fs = std::filesystem;
  if (info->family == dataset::PublicFamily::kWekaTrace) {
    in.hf_weka_dataset = o.input.hf_weka_dataset;
    if (info->repo.empty() && in.hf_weka_dataset.empty())
      throw OptionError("--public-dataset weka_hf requires a non-empty --hf-weka-dataset HuggingFace repo");
  }
  if (info->family == dataset::PublicFamily::kSpecBench) {  // a file AIPerf downloads from GitHub into its cache
    if (!in.input_file.empty()) {
      if (!fs::is_regular_file(in.input_file))
        throw OptionError("--input-file: '" + in.input_file + "' is not a Spec-Bench JSON Lines file");
      in.public_dataset_file = fs::absolute(in.input_file).string();
      in.input_file.clear();
    } else {
      in.public_dataset_file = dataset::spec_bench_cache_path();
      if (!fs::exists(in.public_dataset_file)) {
        if (o.dry_run) {
          o.dry_run_notes.push_back(flag + ": " + in.public_dataset_file + " is not cached; a run downloads it");
          return;
        }
        int timeout = 300;  // AIPERF_DATASET_PUBLIC_DATASET_TIMEOUT (AIPerf's), seconds
        if (const char* t = std::getenv("AIPERF_DATASET_PUBLIC_DATASET_TIMEOUT")) timeout = std::max(1, std::atoi(t));
        try {
          dataset::download_spec_bench(in.public_dataset_file, timeout);
        } catch (const dataset::DatasetFileError& e) {
          throw OptionError(flag + ": " + e.what());
        }
      }
    }
  } else {
    if (!in.input_file.empty())
      throw OptionError("--input-file cannot be used with " + flag + " (it is read from ./" + std::string(info->repo) +
                        " or the HuggingFace cache)");
    in.hf_local_root = fs::current_path().string();
    in.hf_hub_cache = hub_env().hub_cache;
  }
  if (o.dry_run && info->family != dataset::PublicFamily::kSpecBench) {
    // What only a download could fix is a note in a dry run, as for sharegpt's cache.
    try {
      accuracy::dataset_root(info->repo.empty() ? in.hf_weka_dataset : std::string(info->repo),
                             {in.hf_local_root, in.hf_hub_cache});
    } catch (const accuracy::DatasetError& e) {
      o.dry_run_notes.push_back(flag + ": " + e.what() + " (not checked)");
      return;
    }
  }
  try {
    std::mt19937_64 rng(0);
    dataset::public_dataset_conversations(in, rng);
  } catch (const dataset::DatasetFileError& e) {
    throw OptionError(flag + ": " + e.what());
  }
}

// --public-dataset sharegpt: the local file (--input-file, else the cache, downloaded once
// into it) is read whole here, so a bad file fails before anything is spawned.
void check_public_dataset(ProfileOptions& o) {
  auto& in = o.config.input;
  if (!o.input.hf_weka_dataset.empty()) {  // AIPerf: the repo flag selects weka_hf on its own
    if (!in.public_dataset.empty() && in.public_dataset != "weka_hf")
      throw OptionError("--hf-weka-dataset can only be used with --public-dataset weka_hf (got " + in.public_dataset +
                        ")");
    if (in.custom_dataset_type != config::CustomDatasetType::kNone)
      throw OptionError("--hf-weka-dataset and --custom-dataset-type cannot both be set");
    in.public_dataset = "weka_hf";
  }
  if (in.public_dataset.empty()) {
    if (in.hf_subset) throw OptionError("--hf-subset applies only with a HuggingFace-backed --public-dataset");
    return;
  }
  if (in.custom_dataset_type != config::CustomDatasetType::kNone)
    throw OptionError("--public-dataset and --custom-dataset-type cannot both be set");
  if (in.fixed_schedule) throw OptionError("--fixed-schedule needs an --input-file with timestamps, not --public-dataset");
  if (in.public_dataset != "sharegpt") return check_other_public_dataset(o);
  namespace fs = std::filesystem;
  try {
    if (!in.input_file.empty()) {
      if (!fs::is_regular_file(in.input_file))
        throw OptionError("--input-file: '" + in.input_file + "' is not a ShareGPT JSON file");
      in.public_dataset_file = fs::absolute(in.input_file).string();
      in.input_file.clear();  // the file is the public dataset, not a custom one
    } else {
      in.public_dataset_file = dataset::sharegpt_cache_path();
      if (!fs::exists(in.public_dataset_file)) {
        if (o.dry_run) {
          o.dry_run_notes.push_back("--public-dataset sharegpt: " + in.public_dataset_file +
                                    " is not cached; a run downloads it (not checked)");
          return;
        }
        // AIPERF_DATASET_PUBLIC_DATASET_TIMEOUT (AIPerf's), seconds; default 300.
        int timeout = 300;
        if (const char* t = std::getenv("AIPERF_DATASET_PUBLIC_DATASET_TIMEOUT")) timeout = std::max(1, std::atoi(t));
        dataset::download_sharegpt(in.public_dataset_file, timeout);
      }
    }
    dataset::read_sharegpt(in.public_dataset_file);
  } catch (const dataset::DatasetFileError& e) {
    throw OptionError(std::string("--public-dataset sharegpt: ") + e.what());
  }
}

// Detects the format and loads the whole file once, so a bad line fails here (exit 2) with
// file:line and field rather than in the dataset service after everything was spawned.
void check_input_file(ProfileOptions& o) {
  auto& in = o.config.input;
  if (in.input_file.empty()) {
    if (const auto speed_bench = dataset::speed_bench_variant(in.custom_dataset_type))
      throw OptionError("--custom-dataset-type " + config::to_string(in.custom_dataset_type) +
                        " requires --input-file: pass SPEED-Bench's " + std::string(speed_bench->split) +
                        " split as JSONL (" + std::string(speed_bench->split) +
                        ".jsonl, prepared by specdec_bench; nothing is downloaded)");
    if (in.custom_dataset_type != config::CustomDatasetType::kNone)
      throw OptionError("--custom-dataset-type requires --input-file");
    if (in.fixed_schedule) throw OptionError("--fixed-schedule requires --input-file with timestamps");
    return;
  }
  namespace fs = std::filesystem;
  if (!fs::exists(in.input_file)) throw OptionError("--input-file: '" + in.input_file + "' does not exist");
  in.input_file = fs::absolute(in.input_file).string();  // services may resolve paths elsewhere
  try {
    // AIPerf promotes a trace to its timestamps only when --custom-dataset-type names it: a detected
    // trace runs in the chosen (or default) load mode.
    using config::CustomDatasetType;
    const bool type_given = in.custom_dataset_type != CustomDatasetType::kNone;
    o.input.custom_dataset_type_given = type_given;
    if (!type_given) in.custom_dataset_type = dataset::detect_custom_dataset_type(in.input_file);
    std::mt19937_64 rng(0);  // validation only: the dataset service draws with the run's seed
    const auto dataset = dataset::load_custom_dataset(in, 1, rng);
    // AIPerf replays a named trace's timestamps without being asked.
    // Not burst_gpt_trace: AIPerf looks for a JSON "timestamp" in the first line, which a CSV lacks.
    const bool trace = type_given && (in.custom_dataset_type == CustomDatasetType::kMooncakeTrace ||
                                      in.custom_dataset_type == CustomDatasetType::kBailianTrace ||
                                      in.custom_dataset_type == CustomDatasetType::kBasetenTrace ||
                                      in.custom_dataset_type == CustomDatasetType::kTracelab);
    if (trace && dataset.has_timestamps && !in.fixed_schedule && !o.input.no_fixed_schedule) {
      // AIPerf refuses a rate-paced mode it would silently replace by the trace's schedule.
      const auto& l = o.config.loadgen;
      std::vector<std::string> conflicts;
      if (l.request_rate) conflicts.push_back("--request-rate");
      if (l.user_centric_rate) conflicts.push_back("--user-centric-rate");
      if (l.num_users) conflicts.push_back("--num-users");
      if (o.load.arrival_smoothness) conflicts.push_back("--arrival-smoothness");
      if (!conflicts.empty()) {
        std::string names;
        for (const auto& c : conflicts) names += (names.empty() ? "" : ", ") + c;
        throw OptionError("--input-file: '" + in.input_file + "' has per-record timestamps and would be "
                          "auto-promoted to --fixed-schedule, which " + names + " cannot be combined with; drop " +
                          (conflicts.size() > 1 ? "them" : "it") + ", or pass --no-fixed-schedule to keep that "
                          "timing mode and ignore the trace timestamps");
      }
      in.fixed_schedule = true;
    }
    if (in.fixed_schedule && !dataset.has_timestamps)
      throw OptionError("--fixed-schedule: '" + in.input_file + "' has no timestamps");
  } catch (const dataset::DatasetFileError& e) {
    throw OptionError(std::string("--input-file: ") + e.what());
  }
}

}  // namespace

void finalize_input_options(ProfileOptions& o) {
  o.config.input.extra_inputs = parse_extra_inputs(o.input.extra_inputs);
  o.config.input.headers = parse_headers(o.input.headers);
  check_fixed_schedule(o.config.input);
  check_synthetic(o);
  finalize_video_options(o);
  check_baseten_only_options(o);
  check_agentic_trace_options(o, o.config.input.custom_dataset_type != config::CustomDatasetType::kNone);
  check_public_dataset(o);
  check_synthesis_options(o);
  read_tracelab_environment(o);
  check_input_file(o);
  check_synthesis_dataset_type(o);
  check_baseten_extra_inputs(o);
  read_trace_replay_environment(o);
  finalize_prompt_shaping_options(o);
}

}  // namespace aiperf::cli
