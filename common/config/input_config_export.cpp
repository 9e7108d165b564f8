// input_config as AIPerf 0.13 writes it in profile_export_aiperf.json (and the timeslice and
// server-metrics exports): its BenchmarkConfig dumped with exclude_unset, i.e. the sections its
// CLI converter builds, each holding what the user set plus the few fields the converter always
// fills (urls, artifacts.dir, the telemetry switches). Section and key order follow the
// reference's models. "Set" is RunConfig::given_options (the long names of the options given,
// on the command line or through --config), so a value equal to its default still shows when
// it was typed, as in the reference.
#include <sstream>

#include "config/run_config.h"
#include "util/redact.h"

namespace aiperf::config {
namespace {

using OJ = nlohmann::ordered_json;

class Given {
 public:
  explicit Given(const std::vector<std::string>& names) : names_(names) {}
  bool operator()(const char* name) const {
    for (const std::string& n : names_)
      if (n == name) return true;
    return false;
  }

 private:
  const std::vector<std::string>& names_;
};

std::string with_scheme(const std::string& url) { return url.find("://") == std::string::npos ? "http://" + url : url; }

// "--goodput 'request_latency:250 inter_token_latency:10'" -> {"request_latency": 250.0, ...}.
OJ slos_of(const std::string& spec) {
  OJ out = OJ::object();
  std::istringstream words(spec);
  for (std::string w; words >> w;) {
    const size_t sep = w.find_first_of(":=");
    if (sep == std::string::npos) continue;
    try {
      out[w.substr(0, sep)] = std::stod(w.substr(sep + 1));
    } catch (const std::exception&) {
      // parse_goodput refused it before the run; nothing to show
    }
  }
  return out;
}

OJ models_section(const RunConfig& c, const Given& given) {
  OJ items = OJ::array();
  for (const std::string& m : c.endpoint.model_names) items.push_back({{"name", m}});
  OJ m{{"items", items}};
  if (given("model-selection-strategy")) m["strategy"] = c.endpoint.model_selection_strategy;
  return m;
}

OJ endpoint_section(const RunConfig& c, const Given& given) {
  const EndpointConfig& e = c.endpoint;
  OJ urls = OJ::array();
  for (const std::string& u : e.urls) urls.push_back(with_scheme(u));
  OJ j{{"urls", urls}};
  if (given("endpoint-type")) j["type"] = e.type;
  if (given("endpoint") || given("custom-endpoint")) j["path"] = e.custom_endpoint;
  if (given("api-key")) j["api_key"] = "<redacted>";
  if (given("request-timeout-seconds")) j["timeout"] = e.timeout_seconds;
  if (given("streaming") || !c.loadgen.scenario.name.empty()) j["streaming"] = e.streaming;  // a scenario locks it
  if (given("connection-reuse-strategy")) j["connection_reuse"] = e.connection_reuse_strategy;
  if (given("use-legacy-max-tokens")) j["use_legacy_max_tokens"] = e.use_legacy_max_tokens;
  if (given("use-server-token-count")) j["use_server_token_count"] = e.use_server_token_count;
  if (given("per-chunk-usage")) j["per_chunk_usage"] = e.per_chunk_usage;
  if (given("header") && !c.input.headers.empty()) {
    OJ h = OJ::object();
    for (const auto& [name, value] : c.input.headers)
      h[name] = util::is_sensitive_header(name) ? std::string(util::kRedacted) : value;
    j["headers"] = h;
  }
  if (given("extra-inputs") && !c.input.extra_inputs.empty()) j["extra"] = OJ::parse(c.input.extra_inputs.dump());
  if (given("download-video-content")) j["download_video_content"] = e.download_video_content;
  // Given, or filled in for a form-data endpoint type (cli/options_control.cpp), as the reference.
  if (e.request_content_type != RequestContentType::kNone) j["request_content_type"] = e.request_content_type;
  if (given("session-header")) j["session_header"] = e.session_header;
  if (given("uuid-and-strip")) j["uuid_and_strip"] = e.uuid_and_strip;
  if (given("wait-for-model-timeout")) j["wait_for_model_timeout"] = e.wait_for_model_timeout;
  if (given("wait-for-model-interval")) j["wait_for_model_interval"] = e.wait_for_model_interval;
  if (given("wait-for-model-mode")) j["wait_for_model_mode"] = e.wait_for_model_mode;
  if (e.reset_kv_cache || given("reset-kv-cache-timeout-seconds") || given("reset-kv-cache-path")) {
    OJ r = OJ::object();
    if (e.reset_kv_cache_timeout_seconds) r["timeout_seconds"] = *e.reset_kv_cache_timeout_seconds;
    if (!e.reset_kv_cache_path.empty()) r["path"] = e.reset_kv_cache_path;
    j["reset_kv_cache"] = r;
  }
  if (e.server_profiler || given("server-profiler-timeout-seconds") || given("server-profiler-start-path") ||
      given("server-profiler-stop-path")) {
    OJ p = OJ::object();
    if (e.server_profiler_timeout_seconds) p["timeout_seconds"] = *e.server_profiler_timeout_seconds;
    if (!e.server_profiler_start_path.empty()) p["start_path"] = e.server_profiler_start_path;
    if (!e.server_profiler_stop_path.empty()) p["stop_path"] = e.server_profiler_stop_path;
    j["server_profiler"] = p;
  }
  return j;
}

// {"mean": m, "stddev": s} with whichever of the two options was given.
OJ mean_stddev(const Given& given, const char* mean_opt, double mean, const char* stddev_opt, double stddev) {
  OJ o = OJ::object();
  if (given(mean_opt)) o["mean"] = mean;
  if (given(stddev_opt)) o["stddev"] = stddev;
  return o;
}

// The dataset's entry count when the user named one: --num-dataset-entries, else the number
// of sessions, else the request count (the reference's _resolve_entries).
std::optional<uint64_t> entries_of(const RunConfig& c, const Given& given) {
  if (given("num-dataset-entries")) return c.input.num_dataset_entries;
  if (given("num-sessions") && c.loadgen.conversation_num) return *c.loadgen.conversation_num;
  if (given("request-count") && c.loadgen.request_count) return *c.loadgen.request_count;
  return std::nullopt;
}

// --osl with a file or public dataset: the per-record fallback, {"mean"[, "stddev"]}.
OJ file_osl(const RunConfig& c, const Given& given) {
  if (!given("output-tokens-mean") || !c.input.osl_mean) return OJ::object();
  OJ osl{{"mean", *c.input.osl_mean}};
  if (given("output-tokens-stddev")) osl["stddev"] = c.input.osl_stddev;
  return osl;
}

// The trace-replay fields of a file or public dataset that were given, in the reference's
// FileDataset order (the routes of its _VERBATIM_DATASET_FIELDS and _apply_trace_delay_flags).
void trace_fields(OJ& d, const RunConfig& c, const Given& given, bool file) {
  const TraceReplayConfig& r = c.input.trace_replay;
  const AgenticTraceConfig& a = c.input.agentic_trace;
  if (file) {
    if (given("trace-session-sample-ratio") && r.trace_session_sample_ratio)
      d["trace_session_sample_ratio"] = *r.trace_session_sample_ratio;
    if (given("inter-turn-delay-cap-seconds") && r.inter_turn_delay_cap_seconds)
      d["inter_turn_delay_cap_seconds"] = *r.inter_turn_delay_cap_seconds;
    if (given("max-idle-gap-cap-seconds") && r.max_idle_gap_cap_seconds)
      d["max_idle_gap_cap_seconds"] = *r.max_idle_gap_cap_seconds;
    if (given("replay-speedup") && r.replay_speedup) d["replay_speedup"] = *r.replay_speedup;
    if (given("open-loop-replay")) d["open_loop_replay"] = r.open_loop_replay;
    if (given("open-loop-strict")) d["open_loop_strict"] = r.open_loop_strict;
    if (given("omit-kv-hints")) d["omit_kv_hints"] = r.omit_kv_hints;
    if (given("force-min-tokens")) d["force_min_tokens"] = r.force_min_tokens;
    if (OJ osl = file_osl(c, given); !osl.empty()) d["osl"] = osl;
  }
  if (given("trace-idle-gap-cap-seconds") && a.trace_idle_gap_cap_seconds)
    d["trace_idle_gap_cap_seconds"] = *a.trace_idle_gap_cap_seconds;
  if (given("ignore-trace-delays")) d["ignore_trace_delays"] = a.ignore_trace_delays;
  if (given("use-think-time-only")) d["use_think_time_only"] = a.use_think_time_only;
  if (given("max-context-length") && a.max_context_length) d["max_context_length"] = *a.max_context_length;
}

OJ dataset_section(const RunConfig& c, const Given& given) {
  const InputConfig& in = c.input;
  OJ d{{"name", "main"}};
  const std::optional<uint64_t> entries = entries_of(c, given);
  if (!in.public_dataset.empty()) {
    d["type"] = "public";
    d["dataset"] = in.public_dataset;
    if (entries) d["entries"] = *entries;
    if (given("random-seed") && in.random_seed) d["random_seed"] = *in.random_seed;
    if (given("hf-subset") && in.hf_subset) d["hf_subset"] = *in.hf_subset;
    trace_fields(d, c, given, false);
    if (OJ osl = file_osl(c, given); !osl.empty()) d["osl"] = osl;
    return d;
  }
  if (!in.input_file.empty()) {
    d["type"] = "file";
    d["path"] = in.input_file;
    if (given("custom-dataset-type")) d["format"] = in.custom_dataset_type;
    if (given("dataset-sampling-strategy") && !in.dataset_sampling_strategy.empty())
      d["sampling"] = in.dataset_sampling_strategy;
    if (entries) d["entries"] = *entries;
    if (given("random-seed") && in.random_seed) d["random_seed"] = *in.random_seed;
    trace_fields(d, c, given, true);
    return d;
  }
  d["type"] = "synthetic";
  if (entries) d["entries"] = *entries;
  if (given("random-seed") && in.random_seed) d["random_seed"] = *in.random_seed;
  if (given("dataset-sampling-strategy") && !in.dataset_sampling_strategy.empty())
    d["sampling"] = in.dataset_sampling_strategy;
  OJ prompts = OJ::object();
  OJ isl =
      mean_stddev(given, "synthetic-input-tokens-mean", in.isl_mean, "synthetic-input-tokens-stddev", in.isl_stddev);
  if (!isl.contains("mean")) isl["mean"] = in.isl_mean;  // the converter's default, always set
  prompts["isl"] = isl;
  if (in.osl_mean) {
    OJ osl = mean_stddev(given, "output-tokens-mean", *in.osl_mean, "output-tokens-stddev", in.osl_stddev);
    if (!osl.empty()) prompts["osl"] = osl;
  }
  if (given("prompt-batch-size") || given("batch-size-text")) prompts["batch_size"] = in.batch_size;
  d["prompts"] = prompts;
  if (given("session-turns-mean") || given("session-turns-stddev"))
    d["turns"] = {{"mean", in.turn_mean}, {"stddev", in.turn_stddev}};
  if (given("session-turn-delay-mean") || given("session-turn-delay-stddev"))
    d["turn_delay"] = {{"mean", in.turn_delay_mean}, {"stddev", in.turn_delay_stddev}};
  if (given("session-delay-ratio")) d["turn_delay_ratio"] = in.turn_delay_ratio;
  OJ images = OJ::object();
  OJ width = mean_stddev(given, "image-width-mean", in.image_width_mean, "image-width-stddev", in.image_width_stddev);
  OJ height =
      mean_stddev(given, "image-height-mean", in.image_height_mean, "image-height-stddev", in.image_height_stddev);
  if (!width.empty() || !height.empty() || given("image-batch-size") || given("batch-size-image")) {
    images["batch_size"] = in.image_batch_size;
    if (!width.empty()) images["width"] = width;
    if (!height.empty()) images["height"] = height;
    if (given("image-format")) images["format"] = in.image_format;
    d["images"] = images;
  }
  OJ length =
      mean_stddev(given, "audio-length-mean", in.audio_length_mean, "audio-length-stddev", in.audio_length_stddev);
  if (!length.empty() || given("audio-batch-size") || given("batch-size-audio")) {
    OJ audio{{"batch_size", in.audio_batch_size}};
    if (!length.empty()) audio["length"] = length;
    if (given("audio-format")) audio["format"] = in.audio_format;
    d["audio"] = audio;
  }
  return d;
}

const char* phase_type(const RunConfig& c, std::optional<double> rate, ArrivalPattern pattern) {
  if (c.input.fixed_schedule) return "fixed_schedule";
  if (c.loadgen.user_centric_rate) return "user_centric";
  if (!rate && c.loadgen.profiling.request_rate_series.empty()) return "concurrency";
  if (pattern == ArrivalPattern::kGamma) return "gamma";
  if (pattern == ArrivalPattern::kConstant) return "constant";
  return "poisson";
}

OJ warmup_phase(const RunConfig& c, const Given& given) {
  const LoadConfig& l = c.loadgen;
  const std::optional<double> rate = given("warmup-request-rate") ? l.warmup.request_rate : l.request_rate;
  OJ w{{"name", "warmup"}, {"kind", "warmup"}};
  w["type"] = rate ? phase_type(c, rate, l.warmup.arrival_pattern) : "concurrency";
  w["exclude_from_results"] = true;
  if (l.warmup_request_count) w["requests"] = *l.warmup_request_count;
  if (l.warmup_duration) w["duration"] = *l.warmup_duration;
  if (l.num_warmup_sessions) w["sessions"] = *l.num_warmup_sessions;
  const std::optional<uint32_t> conc = given("warmup-concurrency") ? l.warmup.concurrency : l.concurrency;
  if (conc || !rate) w["concurrency"] = conc.value_or(1);
  if (rate) w["rate"] = *rate;
  return w;
}

OJ profiling_phase(const RunConfig& c, const Given& given) {
  const LoadConfig& l = c.loadgen;
  const std::optional<double> rate = l.user_centric_rate ? l.user_centric_rate : l.request_rate;
  OJ p{{"name", "profiling"}, {"kind", "profiling"}};
  p["type"] = phase_type(c, rate, l.arrival_pattern);
  if (given("request-count") && l.request_count) p["requests"] = *l.request_count;
  else if (c.input.fixed_schedule && c.fixed_schedule_records) p["requests"] = *c.fixed_schedule_records;
  if (l.benchmark_duration) p["duration"] = *l.benchmark_duration;
  if (given("num-sessions") && l.conversation_num) p["sessions"] = *l.conversation_num;
  if (given("concurrency") && l.concurrency) p["concurrency"] = *l.concurrency;
  if (l.benchmark_duration) p["grace_period"] = l.benchmark_grace_period;
  const AgenticReplayConfig& agentic = l.agentic_replay;
  if (agentic.enabled) p["timing_mode"] = "agentic_replay";
  if (l.failed_request_threshold) p["failed_request_threshold"] = *l.failed_request_threshold;
  if (agentic.enabled) {
    p["trajectory_start_min_ratio"] = agentic.trajectory_start_min_ratio;
    p["trajectory_start_max_ratio"] = agentic.trajectory_start_max_ratio;
  }
  if (given("burst-phase-starts")) p["burst_phase_starts"] = l.burst_phase_starts;
  if (agentic.system_idle_gap_cap_seconds) p["system_idle_gap_cap_seconds"] = *agentic.system_idle_gap_cap_seconds;
  if (agentic.cache_warmup_duration) p["agentic_cache_warmup_duration"] = *agentic.cache_warmup_duration;
  if (agentic.warmup_grace_period) p["agentic_warmup_grace_period"] = *agentic.warmup_grace_period;
  if (rate && p["type"] != "fixed_schedule") p["rate"] = *rate;
  if (given("num-users") && l.num_users) p["users"] = *l.num_users;
  return p;
}

OJ phases_section(const RunConfig& c, const Given& given) {
  OJ phases = OJ::array();
  const LoadConfig& l = c.loadgen;
  if (l.warmup_request_count || l.warmup_duration || l.num_warmup_sessions) phases.push_back(warmup_phase(c, given));
  phases.push_back(profiling_phase(c, given));
  return phases;
}

OJ artifacts_section(const RunConfig& c, const Given& given) {
  const OutputConfig& o = c.output;
  OJ a{{"dir", o.artifact_dir}};
  if (given("profile-export-prefix")) a["prefix"] = o.profile_export_prefix;
  if (given("export-level")) {  // summary: no records; records: the JSONL; raw: and the raw exchanges
    if (o.export_level == ExportLevel::kSummary) a["records"] = false;
    else a["records"] = OJ::array({"jsonl"});
    a["raw"] = o.export_level == ExportLevel::kRaw;
  }
  if (given("export-http-trace")) a["trace"] = o.export_http_trace;
  if (given("slice-duration") && o.slice_duration) a["slice_duration"] = *o.slice_duration;
  if (given("show-trace-timing")) a["show_trace_timing"] = o.show_trace_timing;
  a["auto_plot"] = given("auto-plot");  // recorded only when on (build_run_config.cpp)
  a["plot_required"] = given("plot-required");
  if (given("export-outputs-json")) a["export_outputs_json"] = o.export_outputs_json;
  return a;
}

OJ tokenizer_section(const RunConfig& c, const Given& given) {
  OJ t{{"name", c.tokenizer.name}};
  if (given("tokenizer-revision")) t["revision"] = c.tokenizer.revision;
  if (given("tokenizer-trust-remote-code")) t["trust_remote_code"] = c.tokenizer.trust_remote_code;
  if (given("apply-chat-template")) t["apply_chat_template"] = c.tokenizer.apply_chat_template;
  return t;
}

OJ gpu_telemetry_section(const RunConfig& c) {
  const TelemetryConfig& t = c.telemetry;
  OJ g{{"enabled", t.gpu_enabled}};
  if (!t.gpu_urls.empty()) {
    OJ urls = OJ::array();
    for (const std::string& u : t.gpu_urls) urls.push_back(with_scheme(u));
    g["urls"] = urls;
    g["collector"] = "dcgm";
    g["mode"] = "summary";
  }
  return g;
}

OJ server_metrics_section(const RunConfig& c) {
  const TelemetryConfig& t = c.telemetry;
  OJ urls = OJ::array();
  for (const std::string& u : t.server_metrics_urls) urls.push_back(with_scheme(u));
  return {{"enabled", t.server_metrics_enabled}, {"urls", urls}, {"formats", t.server_metrics_formats}};
}

// Automatic probing is "mean_ms": null (a dump that keeps nulls shows it), a fixed RTT its mean.
OJ network_latency_section(const RunConfig& c, const Given& given, bool keep_nulls) {
  const NetworkLatencyConfig& n = c.network_latency;
  OJ j{{"enabled", n.enabled}};
  if (!n.enabled) return j;
  if (n.mean_ms) {
    j["mean_ms"] = *n.mean_ms;
    return j;
  }
  if (keep_nulls) j["mean_ms"] = nullptr;
  if (given("network-latency-ping-interval")) j["ping_interval"] = n.ping_interval_s;
  return j;
}

OJ accuracy_section(const RunConfig& c, const Given& given) {
  const AccuracyConfig& a = c.accuracy;
  OJ j = OJ::object();
  if (given("accuracy-benchmark") && a.benchmark) j["benchmark"] = *a.benchmark;
  if (given("accuracy-tasks")) j["tasks"] = a.tasks;
  if (given("accuracy-n-shots") && a.n_shots) j["n_shots"] = *a.n_shots;
  if (given("accuracy-enable-cot") && a.enable_cot) j["enable_cot"] = *a.enable_cot;
  if (given("accuracy-grader") && a.grader) j["grader"] = *a.grader;
  if (given("accuracy-system-prompt") && a.system_prompt) j["system_prompt"] = *a.system_prompt;
  if (given("accuracy-verbose")) j["verbose"] = a.verbose;
  return j;
}

}  // namespace

nlohmann::ordered_json input_config_json(const RunConfig& c, bool keep_nulls) {
  const Given given(c.given_options);
  OJ j;
  j["models"] = models_section(c, given);
  j["endpoint"] = endpoint_section(c, given);
  j["datasets"] = OJ::array({dataset_section(c, given)});
  j["phases"] = phases_section(c, given);
  j["artifacts"] = artifacts_section(c, given);
  if (c.output.goodput) j["slos"] = slos_of(*c.output.goodput);
  j["tokenizer"] = tokenizer_section(c, given);
  j["gpu_telemetry"] = gpu_telemetry_section(c);
  j["server_metrics"] = server_metrics_section(c);
  j["network_latency"] = network_latency_section(c, given, keep_nulls);
  j["otel"] = OJ::object();
  j["mlflow"] = OJ::object();
  j["wandb"] = OJ::object();
  j["runtime"] = {{"ui", c.service.ui_type}};
  if (OJ acc = accuracy_section(c, given); !acc.empty()) j["accuracy"] = acc;
  if (!c.loadgen.scenario.name.empty()) j["scenario"] = c.loadgen.scenario.name;
  if (given("unsafe-override")) j["unsafe_override"] = c.loadgen.scenario.unsafe_override;
  return j;
}

}  // namespace aiperf::config
