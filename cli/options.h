// The `aiperf profile` options, one registration function per AIPerf option group (each in
// its own options_<group>.cpp), parsed into ProfileOptions, then validated and resolved into
// one immutable RunConfig by build_run_config().
#pragma once
#include <cctype>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "config/run_config.h"
#include "search_spec.h"
#include "sweep_plan.h"

namespace aiperf::cli {

// A user error in the options: printed as "Error: <message>", exit code 2.
class OptionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ProfileOptions {
  config::RunConfig config;  // fields parsed directly
  const CLI::App* app = nullptr;  // the parsed command: which options were given (input_config)
  // --dry-run (ours): every option parsed and validated as for a real run, then nothing is
  // started and nothing written (no artifact directory, no log file, no IPC directory, no
  // download). What only a download could check is listed in dry_run_notes instead.
  bool dry_run = false;
  std::vector<std::string> local_address_items;  // --local-address as given
  std::string transport;  // --transport as given: http, grpc (ours) or empty (from the URL scheme)
  std::vector<std::string> dry_run_notes;
  // Raw values needing parsing or cross-checks, one struct per option group; each group's
  // options_<group>.cpp owns its struct and its finalize function.
  struct Input {
    std::vector<std::string> extra_inputs;  // raw key:value / JSON items
    std::vector<std::string> headers;
    bool num_dataset_entries_given = false;     // --user-context-prompt-length needs it
    std::vector<std::string> rankings_options;  // the --rankings-* options given
    bool no_fixed_schedule = false;             // --no-fixed-schedule: no automatic trace replay
    bool custom_dataset_type_given = false;     // --custom-dataset-type named, not detected
    // The baseten_trace-only options with their names for messages (count() > 0: given).
    std::vector<std::pair<CLI::Option*, std::string>> baseten_only_options;
    // --dataset-filter items and --[no-]allow-dataset-wrap (options_agentic_trace.cpp).
    std::vector<std::string> dataset_filters;
    std::string hf_weka_dataset;  // --hf-weka-dataset: selects --public-dataset weka_hf
    bool allow_dataset_wrap = false;
    CLI::Option* max_context_length = nullptr;
    // Prompt shaping options as given (options_prompt_shaping.cpp resolves them).
    struct Shaping {
      std::optional<std::string> random_range_ratio, system_prompt, system_prompt_file;
    } shaping;
  } input;
  struct Output {
    std::optional<std::string> artifact_dir;
    bool auto_plot = false;      // --auto-plot: `aiperf plot` on the artifacts after the run
    bool plot_required = false;  // --plot-required: a plot failure makes the run fail (exit 1)
  } output;
  struct Load {
    std::optional<config::ArrivalPattern> arrival_pattern;
    std::optional<double> arrival_smoothness;
    std::optional<double> grace_period;
    std::optional<uint32_t> prefill_concurrency;
    std::optional<double> request_cancellation_delay;
    // --warmup-* values; unset ones default to the profiling value.
    std::optional<uint32_t> warmup_concurrency;
    std::optional<uint32_t> warmup_prefill_concurrency;
    std::optional<double> warmup_request_rate;
    std::optional<config::ArrivalPattern> warmup_arrival_pattern;
    std::optional<double> concurrency_ramp, prefill_ramp, rate_ramp;
    std::optional<double> warmup_concurrency_ramp, warmup_prefill_ramp, warmup_rate_ramp;
    std::optional<std::string> rate_series;  // --request-rate-series file (read by finalize)
    // Agentic replay controls (unset: AIPerf's defaults, or what --scenario fills in).
    std::optional<double> trajectory_start_min_ratio, trajectory_start_max_ratio, system_idle_gap_cap;
  } load;
  // --scenario, --unsafe-override, --agentic-cache-warmup-duration, --agentic-warmup-grace-period
  // (options_scenario.cpp).
  struct Scenario {
    std::optional<std::string> name;
    bool unsafe_override = false;
    std::optional<double> cache_warmup_duration, warmup_grace_period;
    const CLI::App* app = nullptr;  // which options were given (the lock keeps explicit values)
  } scenario;
  struct NetworkLatency {  // --network-latency-* as given (options_network_latency.cpp)
    bool automatic = false;
    std::optional<double> mean_ms, ping_interval;
  } network_latency;
  // Remote exports of the Output section (options_remote_export.cpp, remote_export.h).
  struct RemoteExport {
    std::optional<std::string> otel_url;  // as given; normalized into otel_endpoint
    std::vector<std::string> stream, otel_resource_attributes;
    std::optional<std::string> gen_ai_provider;
    std::optional<std::string> mlflow_tracking_uri, mlflow_experiment, mlflow_run_name, mlflow_parent_run_id;
    std::vector<std::string> mlflow_tags, mlflow_artifact_globs;
    std::optional<std::string> wandb_project, wandb_entity, wandb_run_name;
    std::vector<std::string> wandb_tags;
    CLI::Option* stream_opt = nullptr;
    CLI::Option* attrs_opt = nullptr;
    CLI::Option* tags_opt = nullptr;
    CLI::Option* globs_opt = nullptr;
    CLI::Option* wandb_tags_opt = nullptr;
    // Resolved by finalize_remote_export_options.
    std::string otel_endpoint;  // "" = no OTLP export
    bool stream_metrics = true, stream_timing = true;
    std::vector<std::pair<std::string, std::string>> resource_attributes;
  } remote_export;
  struct Telemetry {
    std::vector<std::string> gpu_items;          // --gpu-telemetry values (may be none)
    CLI::Option* gpu_option = nullptr;           // count() > 0: the flag was given
    bool no_gpu = false;
    std::vector<std::string> server_metrics;     // --server-metrics values
    CLI::Option* server_metrics_option = nullptr;
    bool no_server_metrics = false;
    std::vector<std::string> formats;            // --server-metrics-formats
  } telemetry;
  struct Service {
    std::optional<uint32_t> workers_max;
    std::optional<uint32_t> record_processors;
    uint32_t workers_min = 0;  // local workers the concurrency needs (finalize_connection_plan)
    int verbosity = 0;  // -v = 1 (DEBUG), -vv or --extra-verbose = 2 (TRACE)
    bool extra_verbose = false;
    std::optional<config::UiType> ui_type;  // --ui-type; unset: finalize picks by terminal and -v
  } service;
  // Readiness probe and control hooks (options_control.cpp): which options were given.
  struct Control {
    CLI::Option* mode_opt = nullptr;
    CLI::Option* interval_opt = nullptr;
    CLI::Option* reset_path_opt = nullptr;
    CLI::Option* start_path_opt = nullptr;
    CLI::Option* stop_path_opt = nullptr;
    std::optional<double> stats_interval;  // accepted, no effect (docs/user-guide.md)
    bool zmq_dual_bind = false;            // accepted, no effect (docs/user-guide.md)
  } control;
  // The text and tokenizer options an endpoint type without text tokens refuses
  // (non_text_options.h): each option with the spelling its refusal names.
  struct NonText {
    std::vector<std::pair<const CLI::Option*, std::string>> text, prefix, tokenizer;
  } non_text;
  // Multi-Run: repeated trials of the same benchmark (cli/multi_run.h).
  struct MultiRun {
    uint32_t num_runs = 1;
    double cooldown_seconds = 0;
    double confidence_level = 0.95;
    bool disable_warmup_after_first = true;
    bool set_consistent_seed = true;
    bool vary_seed_per_trial = false;
    std::optional<std::string> convergence_metric;
    std::string convergence_stat = "avg";
    std::optional<double> convergence_threshold;
    std::string convergence_mode = "ci_width";
    // Parameter sweeps (cli/sweep.h): how comma lists on the sweepable options combine and run.
    sweep::SweepType sweep_type = sweep::SweepType::kGrid;
    sweep::ParameterSweepMode parameter_sweep_mode = sweep::ParameterSweepMode::kRepeated;
    double parameter_sweep_cooldown_seconds = 0;
    bool parameter_sweep_same_seed = false;
    bool no_sweep_table = false;
    std::vector<std::string> variants;  // --variant / --sweep-variant (options_multi_run.cpp)
    bool enabled() const { return num_runs > 1 || convergence_metric.has_value(); }
  } multi_run;
  // Adaptive searches and recipes (cli/search_options.cpp): the raw options and, once
  // finalized, the search they describe.
  struct Search {
    std::vector<std::string> space, sla, sla_tier;
    std::optional<std::string> metric, stat, direction, planner, recipe, style;
    std::optional<int> max_iterations, initial_points;
    std::optional<long long> random_seed;
    std::optional<std::string> optuna_sampler, optuna_acquisition, optuna_terminator, percentile_pooling,
        bo_constraint_mode;
    std::optional<double> ttft_sla_ms, itl_sla_ms, tpot_sla_ms, e2e_sla_ms, error_rate_sla, slo_attainment_fraction;
    std::optional<std::string> isl_osl_pairs, degradation_metric_tag, degradation_stat;
    std::optional<double> degradation_threshold;
    std::optional<int> isl_min, isl_max, isl_steps, osl_min, osl_max, osl_steps;
    std::optional<int> concurrency_min, concurrency_max, concurrency_steps;
    std::optional<search::Spec> spec;  // set by finalize_search_options when a search runs
    std::optional<search::GridRecipe> grid;  // a grid recipe (concurrency-ramp): a sweep + post-process
  } search;
  // Accuracy (options_accuracy.cpp): which flags were given (AIPerf refuses them without a benchmark).
  struct Accuracy {
    bool tasks_given = false;
    bool enable_cot_value = false;
    CLI::Option* enable_cot = nullptr;
    CLI::Option* verbose = nullptr;
  } accuracy;
};

void add_endpoint_options(CLI::App& app, ProfileOptions& o);
void add_input_options(CLI::App& app, ProfileOptions& o);
void add_output_options(CLI::App& app, ProfileOptions& o);
// --otel-*, --stream, --gen-ai-provider, --mlflow-*, --wandb-* (options_remote_export.cpp):
// registration (called by add_output_options) and AIPerf's checks (by finalize_output_options).
void add_remote_export_options(CLI::App& app, ProfileOptions& o);
void finalize_remote_export_options(ProfileOptions& o);
// After a single run: the OTLP and MLflow exports of what it wrote (cli/remote_export.h); never
// fails the run. AIPERF_OTEL_REQUEST_TIMEOUT_SECONDS (default 10) bounds each request.
void send_remote_exports(const ProfileOptions& o, const config::RunConfig& c, int64_t start_unix_ns);
double remote_export_timeout_s();
void add_load_options(CLI::App& app, ProfileOptions& o);
// --scenario / --unsafe-override and the agentic warmup options (options_scenario.cpp), added by
// add_load_options. apply_scenario runs after finalize_input_options (the dataset type is known)
// and before finalize_load_options: AIPerf 0.13's lock (auto-fills, violations, the outcome).
void add_scenario_options(CLI::App& app, ProfileOptions& o);
void apply_scenario(ProfileOptions& o);
void add_service_options(CLI::App& app, ProfileOptions& o);
void add_telemetry_options(CLI::App& app, ProfileOptions& o);
void add_multi_run_options(CLI::App& app, ProfileOptions& o);
void add_control_options(CLI::App& app, ProfileOptions& o);  // --wait-for-model-*, --reset-kv-cache*, ...
// --network-latency-* (options_network_latency.cpp): registration and the checks AIPerf makes
// (automatic and mean exclude each other; the ping interval needs automatic).
void add_network_latency_options(CLI::App& app, ProfileOptions& o);
void finalize_network_latency_options(ProfileOptions& o);
// --prompt-corpus, --random-range-ratio, --random-corpus-style, --system-prompt(-file),
// --cache-bust, --image-source(-sampling) (options_prompt_shaping.cpp): registered by
// add_input_options, checked at the end of finalize_input_options.
void add_prompt_shaping_options(CLI::App& app, ProfileOptions& o);
void finalize_prompt_shaping_options(ProfileOptions& o);
// baseten_trace replay controls (options_trace_replay.cpp), added by add_input_options.
void add_trace_replay_options(CLI::App& app, ProfileOptions& o);
// AIPerf's refusals: a baseten_trace-only option without an --input-file of that type (before
// detection), and an --extra-inputs key the loader overwrites per turn (after detection).
void check_baseten_only_options(const ProfileOptions& o);
void read_trace_replay_environment(ProfileOptions& o);  // AIPERF_DATASET_BASETEN_SESSION_COLUMN
void read_tracelab_environment(ProfileOptions& o);      // AIPERF_DATASET_TRACELAB_* (before the file is loaded)
void check_baseten_extra_inputs(const ProfileOptions& o);
// Weka trace replay options (options_agentic_trace.cpp), added by add_input_options; the check
// runs after the input file's type is known (AIPerf's refusals: exclusive delay flags,
// --max-context-length on a dataset that is not a Weka trace, --dataset-filter without a public dataset).
void add_agentic_trace_options(CLI::App& app, ProfileOptions& o);
void check_agentic_trace_options(const ProfileOptions& o, bool type_given);
// --synthesis-* (options_synthesis.cpp), added by add_input_options: ranges and the baseten_trace
// refusals before the input file is read, the dataset types we do not synthesize after.
void add_synthesis_options(CLI::App& app, ProfileOptions& o);
void check_synthesis_options(const ProfileOptions& o);
void check_synthesis_dataset_type(const ProfileOptions& o);
// --video-* (options_video.cpp), added by add_input_options and checked by finalize_input_options:
// AIPerf's limits and refusals, then ffmpeg on PATH and a trial encode when clips are made.
void add_video_options(CLI::App& app, ProfileOptions& o);
void finalize_video_options(ProfileOptions& o);

// Per-group validation and derived defaults, run in this order by build_run_config. Each
// throws OptionError naming the option.
void finalize_endpoint_options(ProfileOptions& o);
void finalize_input_options(ProfileOptions& o);
void finalize_load_options(ProfileOptions& o);     // timing mode (spec §2.4)
void finalize_service_options(ProfileOptions& o);  // workers, record processors, log level
void finalize_telemetry_options(ProfileOptions& o);  // GPU telemetry and server-metrics URLs
void finalize_output_options(ProfileOptions& o);   // artifact directory (spec §7.1), prefix
void finalize_multi_run_options(ProfileOptions& o);  // convergence checks, the consistent seed
// One --variant: its name (unset: AIPerf names it v<index>) and its key=value pairs as typed.
struct Variant {
  std::optional<std::string> name;
  std::vector<std::pair<std::string, std::string>> pairs;
};
// Throws OptionError with AIPerf's message for a malformed variant.
Variant parse_variant(const std::string& s);
// --search-* and --search-recipe (cli/search_options.cpp), registered by add_multi_run_options and
// finalized by finalize_multi_run_options: validates them and sets o.search.spec.
void add_search_options(CLI::App& app, ProfileOptions& o);
void finalize_search_options(ProfileOptions& o);
void finalize_control_options(ProfileOptions& o);  // after finalize_endpoint_options
// --wait-for-model-timeout: polls the server until it is ready (progress on stderr); throws
// control::ReadinessTimeout (exit 1, as the reference) when it is not. No-op at timeout 0.
void wait_for_model(const config::RunConfig& config);
// Ours: --local-address, and the workers and source addresses a concurrency needs (after
// finalize_load_options, before finalize_service_options; reads AIPERF_HTTP_CONNECTION_LIMIT
// and AIPERF_HTTP_SSL_VERIFY).
void add_connection_options(CLI::App& app, ProfileOptions& o);
void finalize_connection_plan(ProfileOptions& o);
// --accuracy-* (options_accuracy.cpp): AIPerf's checks, the benchmarks and graders refused here,
// and a pre-flight read of the benchmark's dataset (after finalize_input_options).
void add_accuracy_options(CLI::App& app, ProfileOptions& o);
void finalize_accuracy_options(ProfileOptions& o);

// Runs every finalize step, resolves the tokenizer, the IPC directory and the echoed command.
config::RunConfig build_run_config(ProfileOptions& o, const std::vector<std::string>& argv);

// A choice check that takes AIPerf's spellings of an enum value: its help lists them hyphenated
// ("round-robin") and it accepts '-' or '_' in any case. The value becomes ours ("round_robin").
inline std::string enum_spelling(std::string s) {
  for (char& c : s) c = c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
inline CLI::IsMember choice(std::vector<std::string> values) { return CLI::IsMember(std::move(values), enum_spelling); }

// Optional-valued option: set only when given.
template <typename T>
CLI::Option* add_optional(CLI::App& app, const std::string& names, std::optional<T>& target,
                          const std::string& description) {
  return app.add_option_function<T>(names, [&target](const T& v) { target = v; }, description);
}

// A closed-choice option stored as its config enum: the text is parsed as a string (same help)
// and the validator chained on the option (choice(), IsMember) checks and normalizes it as
// before, so the accepted spellings and errors are unchanged; the callback stores the value.
template <config::ConfigEnum E>
CLI::Option* add_enum_option(CLI::App& app, const std::string& names, E& target, const std::string& description) {
  return app.add_option_function<std::string>(
      names, [&target](const std::string& v) { target = config::enum_from_string<E>(v, "option"); }, description);
}
template <config::ConfigEnum E>
CLI::Option* add_enum_option(CLI::App& app, const std::string& names, std::optional<E>& target,
                             const std::string& description) {
  return app.add_option_function<std::string>(
      names, [&target](const std::string& v) { target = config::enum_from_string<E>(v, "option"); }, description);
}

}  // namespace aiperf::cli
