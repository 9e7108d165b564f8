// Load generator group (spec §2.1 "Load Generator"), timing-mode resolution (§2.4) and its
// cross-option validations (§2.5).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "dag_jsonl.h"
#include "log/log.h"
#include "options.h"
#include "rate_series.h"
#include "tracelab_trace.h"
#include "validators.h"

namespace aiperf::cli {

void add_load_options(CLI::App& app, ProfileOptions& o) {
  auto& l = o.config.loadgen;
  auto& r = o.load;
  const char* g = "Load Generator";
  const auto positive = kPositive;
  add_optional(app, "--concurrency", l.concurrency, "Max concurrent sessions")->check(positive)->group(g);
  add_optional(app, "--prefill-concurrency", r.prefill_concurrency, "Max requests awaiting their first token")
      ->check(positive)->group(g);
  add_optional(app, "--request-count,--num-requests", l.request_count, "Requests in the profiling phase")
      ->check(positive)->group(g);
  add_optional(app, "--benchmark-duration", l.benchmark_duration, "Seconds to send requests")->check(positive)->group(g);
  add_optional(app, "--benchmark-grace-period", r.grace_period, "Seconds to wait for in-flight requests after the duration")
      ->check(kNonNegative)->group(g);
  add_optional(app, "--request-rate", l.request_rate, "Target requests per second")->check(positive)->group(g);
  const auto patterns = choice({"constant", "poisson", "gamma", "concurrency_burst"});
  add_enum_option(app, "--arrival-pattern,--request-rate-mode", r.arrival_pattern,
                  "constant, poisson, gamma or concurrency_burst")
      ->transform(patterns)
      ->group(g);
  add_optional(app, "--arrival-smoothness,--vllm-burstiness", r.arrival_smoothness, "Gamma shape (alone: selects gamma)")
      ->check(positive)->group(g);
  add_optional(app, "--request-cancellation-rate", l.request_cancellation_rate, "Percent of requests cancelled")
      ->check(kPercent)->group(g);
  add_optional(app, "--request-cancellation-delay", r.request_cancellation_delay, "Seconds after sending before cancelling")
      ->check(kNonNegative)->group(g);
  add_optional(app, "--concurrency-ramp-duration", r.concurrency_ramp, "Ramp concurrency 1 -> target")->check(positive)->group(g);
  add_optional(app, "--prefill-concurrency-ramp-duration", r.prefill_ramp, "")->check(positive)->group(g);
  add_optional(app, "--request-rate-ramp-duration", r.rate_ramp, "Ramp the rate to target")->check(positive)->group(g);
  add_optional(app, "--request-rate-series", r.rate_series,
               "JSON file of {time_s, qps} points: the request rate follows them piecewise-linearly")
      ->group(g);
  add_optional(app, "--failed-request-threshold", l.failed_request_threshold,
               "Cancel the run once failed / total profiling records exceeds this ratio (after max(concurrency, 10) records)")
      ->check(number_check(0, false, 1, "a number from 0 to 1"))->group(g);
  app.add_flag("--burst-phase-starts", l.burst_phase_starts,
               "Agentic replay only: fire each phase's first requests together instead of spreading them")
      ->group(g);
  // Agentic replay (--scenario inferencex-agentx-mvp) and Weka trace controls (docs/load-modes.md).
  const auto ratio = number_check(0, false, 1, "a number from 0 to 1");
  add_optional(app, "--trajectory-start-min-ratio", r.trajectory_start_min_ratio,
               "Agentic replay only: lowest start point t* in each trace, as a fraction of its duration (default 0.25)")
      ->check(ratio)
      ->group(g);
  add_optional(
      app, "--trajectory-start-max-ratio", r.trajectory_start_max_ratio,
      "Agentic replay only: highest start point t* in each trace, as a fraction of its duration (default 0.75)")
      ->check(ratio)
      ->group(g);
  add_optional(app, "--trace-idle-gap-cap-seconds", o.config.input.agentic_trace.trace_idle_gap_cap_seconds,
               "weka_trace: gaps between request starts within a trace shortened to this (seconds)")
      ->check(kNonNegative)
      ->group(g);
  add_optional(app, "--system-idle-gap-cap-seconds", r.system_idle_gap_cap,
               "Agentic replay only: with nothing in flight, the next request comes within this many seconds")
      ->check(kNonNegative)
      ->group(g);
  add_network_latency_options(app, o);
  add_scenario_options(app, o);
  const char* u = "User-Centric Rate";
  add_optional(app, "--user-centric-rate", l.user_centric_rate,
               "Total requests/s of --num-users users, each sending a turn every num_users/rate seconds")
      ->check(positive)->group(u);
  add_optional(app, "--num-users", l.num_users, "Users in --user-centric-rate mode")->check(positive)->group(u);

  const char* w = "Warmup";
  add_optional(app, "--warmup-request-count,--num-warmup-requests", l.warmup_request_count, "Warmup requests")
      ->check(positive)->group(w);
  add_optional(app, "--warmup-duration", l.warmup_duration, "Warmup seconds")->check(positive)->group(w);
  add_optional(app, "--num-warmup-sessions", l.num_warmup_sessions, "Warmup sessions")->check(positive)->group(w);
  add_optional(app, "--warmup-concurrency", r.warmup_concurrency, "")->check(positive)->group(w);
  add_optional(app, "--warmup-prefill-concurrency", r.warmup_prefill_concurrency, "")->check(positive)->group(w);
  add_optional(app, "--warmup-request-rate", r.warmup_request_rate, "")->check(positive)->group(w);
  add_enum_option(app, "--warmup-arrival-pattern", r.warmup_arrival_pattern, "")->transform(patterns)->group(w);
  add_optional(app, "--warmup-grace-period", l.warmup_grace_period, "")->check(kNonNegative)->group(w);
  add_optional(app, "--warmup-concurrency-ramp-duration", r.warmup_concurrency_ramp, "")->check(positive)->group(w);
  add_optional(app, "--warmup-prefill-concurrency-ramp-duration", r.warmup_prefill_ramp, "")->check(positive)->group(w);
  add_optional(app, "--warmup-request-rate-ramp-duration", r.warmup_rate_ramp, "")->check(positive)->group(w);
}

namespace {

uint64_t count_nonempty_lines(const std::string& path) {
  std::ifstream in(path);
  uint64_t n = 0;
  for (std::string line; std::getline(in, line);) n += line.find_first_not_of(" \t\r") != std::string::npos;
  return n;
}

// "No grace period": 30 years, finite so that it stays a plain JSON number and int64 ns.
constexpr double kUnboundedGraceSeconds = 1e9;

void require(bool ok, const std::string& message) {
  if (!ok) throw OptionError(message);
}

}  // namespace

void finalize_load_options(ProfileOptions& o) {
  auto& l = o.config.loadgen;
  auto& r = o.load;
  const auto& in = o.config.input;

  finalize_network_latency_options(o);
  {
    const double lo = r.trajectory_start_min_ratio.value_or(0.25), hi = r.trajectory_start_max_ratio.value_or(0.75);
    if (lo > hi) {
      auto py = [](double v) {  // Python's float repr for the message
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", v);
        for (int p = 1; p <= 17; ++p) {
          std::snprintf(buf, sizeof buf, "%.*g", p, v);
          if (std::strtod(buf, nullptr) == v) break;
        }
        std::string s = buf;
        if (s.find_first_of(".eE") == std::string::npos) s += ".0";
        return s;
      };
      throw OptionError("--trajectory-start-min-ratio (" + py(lo) + ") must be <= --trajectory-start-max-ratio (" +
                        py(hi) + ").");
    }
    l.agentic_replay.trajectory_start_min_ratio = lo;
    l.agentic_replay.trajectory_start_max_ratio = hi;
    l.agentic_replay.system_idle_gap_cap_seconds = r.system_idle_gap_cap;
  }
  // --request-rate-series: a rate phase whose rate starts at the series' first point (the
  // artifact directory says request_rate{first qps}, as AIPerf's get_phase_rate).
  timing::RatePoints rate_series;
  if (r.rate_series) {
    require(!l.request_rate, "--request-rate and --request-rate-series are mutually exclusive.");
    require(!l.user_centric_rate, "--request-rate-series is not supported with --user-centric-rate.");
    require(!in.fixed_schedule, "--fixed-schedule cannot be combined with rate-control CLI flags: request_rate_series");
    try {
      // A config file's inline rate_series points arrive as JSON text (cli/config_file.cpp);
      // a file of that name, should one exist, still wins.
      const std::string& series = *r.rate_series;
      const size_t first = series.find_first_not_of(" \t\r\n");
      const bool inline_json = first != std::string::npos && (series[first] == '[' || series[first] == '{') &&
                               !std::ifstream(series).good();
      rate_series = inline_json ? timing::parse_rate_series(series, "(inline)") : timing::read_rate_series_file(series);
    } catch (const timing::RateSeriesError& e) {
      throw OptionError(std::string("--request-rate-series: ") + e.what());
    }
    l.request_rate = rate_series.front().second;
  }

  require(!(l.request_count && l.conversation_num), "--request-count and --conversation-num cannot both be set");
  require(!(l.warmup_request_count && l.num_warmup_sessions),
          "--warmup-request-count and --num-warmup-sessions cannot both be set");
  require(!r.grace_period || l.benchmark_duration, "--benchmark-grace-period requires --benchmark-duration");
  require(!l.warmup_grace_period || l.warmup_duration, "--warmup-grace-period requires --warmup-duration");
  require(!r.request_cancellation_delay || l.request_cancellation_rate,
          "--request-cancellation-delay requires --request-cancellation-rate");
  require(!r.rate_ramp || l.request_rate, "--request-rate-ramp-duration requires --request-rate");
  if (r.grace_period) l.benchmark_grace_period = *r.grace_period;
  if (r.request_cancellation_delay) l.request_cancellation_delay = *r.request_cancellation_delay;

  // Arrival pattern: --arrival-smoothness alone selects gamma; with another pattern it is an error.
  using config::ArrivalPattern;
  std::optional<ArrivalPattern> pattern = r.arrival_pattern;
  if (r.arrival_smoothness) {
    require(!pattern || *pattern == ArrivalPattern::kGamma, "--arrival-smoothness requires --arrival-pattern gamma");
    pattern = ArrivalPattern::kGamma;
  }

  require(!l.num_users || l.user_centric_rate, "--num-users requires --user-centric-rate");
  bool bounded = l.request_count || l.conversation_num || l.benchmark_duration;
  bool sessions_from_roots = false;  // not the user's --conversation-num: any concurrency goes
  // A named dag_jsonl with no bound replays each root session once (AIPerf sets its sessions to the
  // roots; a detected one keeps the default bound).
  if (!bounded && !in.fixed_schedule && o.input.custom_dataset_type_given &&
      in.custom_dataset_type == config::CustomDatasetType::kDagJsonl) {
    if (const uint64_t roots = dataset::count_dag_roots(in.input_file)) {
      l.conversation_num = roots;
      bounded = sessions_from_roots = true;
    }
  }
  if (in.fixed_schedule) {
    // Trace replay: every entry once; the request count defaults to the file's entries (a
    // TraceLab file's rows, read through gzip).
    if (!l.request_count && !l.conversation_num && !in.input_file.empty())
      l.request_count = in.custom_dataset_type == config::CustomDatasetType::kTracelab
                            ? dataset::count_tracelab_rows(in.input_file)
                            : count_nonempty_lines(in.input_file);
    l.arrival_pattern = ArrivalPattern::kFixedSchedule;
  } else if (l.user_centric_rate) {
    require(!l.request_rate && !pattern,
            "--user-centric-rate cannot be used together with --request-rate or --arrival-pattern");
    require(l.num_users.has_value(), "--user-centric-rate requires --num-users to be set");
    require(!in.input_file.empty() || in.turn_mean >= 2,
            "--user-centric-rate requires multi-turn conversations (--session-turns-mean >= 2)");
    require(!l.request_count || *l.num_users <= *l.request_count, "--num-users cannot be greater than --request-count");
    require(!l.conversation_num || *l.num_users <= *l.conversation_num,
            "--num-users cannot be greater than --conversation-num");
    l.arrival_pattern = ArrivalPattern::kUserCentricRate;
    // Users keep their sessions going; only an explicit grace period cancels them (AIPerf: ∞).
    if (l.benchmark_duration && !r.grace_period) l.benchmark_grace_period = kUnboundedGraceSeconds;
    if (!bounded) l.request_count = std::max<uint64_t>(10, *l.num_users);
  } else if (l.request_rate) {
    l.arrival_pattern = pattern.value_or(ArrivalPattern::kPoisson);
    require(l.arrival_pattern != ArrivalPattern::kConcurrencyBurst,
            "--arrival-pattern concurrency_burst cannot be used with --request-rate");
    if (!bounded) l.request_count = 10;
  } else {
    require(!pattern || *pattern == ArrivalPattern::kConcurrencyBurst,
            "--arrival-pattern " + (pattern ? config::to_string(*pattern) : "") + " requires --request-rate");
    l.arrival_pattern = ArrivalPattern::kConcurrencyBurst;
    if (!l.concurrency && !r.prefill_concurrency) {
      AIPERF_LOG(kWarning) << "no --concurrency or --request-rate given; using --concurrency 1";
      l.concurrency = 1;
    }
    if (!bounded) l.request_count = std::max<uint64_t>(10, 2ull * l.concurrency.value_or(*r.prefill_concurrency));
  }
  if (l.concurrency && l.request_count && *l.concurrency > *l.request_count)
    throw OptionError("--concurrency (" + std::to_string(*l.concurrency) + ") cannot be greater than --request-count (" +
                      std::to_string(*l.request_count) + ")");
  if (l.concurrency && l.conversation_num && *l.concurrency > *l.conversation_num && !sessions_from_roots)
    throw OptionError("--concurrency cannot be greater than --conversation-num");

  // Prefill concurrency needs first-token notices, i.e. streaming.
  const bool streaming = o.config.endpoint.streaming;
  require(!r.prefill_concurrency || streaming, "--prefill-concurrency requires --streaming");
  require(!r.warmup_prefill_concurrency || streaming, "--warmup-prefill-concurrency requires --streaming");
  require(!r.prefill_concurrency || !l.concurrency || *r.prefill_concurrency <= *l.concurrency,
          "--prefill-concurrency cannot be greater than --concurrency");

  auto& p = l.profiling;
  p.concurrency = l.concurrency;
  p.prefill_concurrency = r.prefill_concurrency;
  p.request_rate = l.user_centric_rate ? l.user_centric_rate : l.request_rate;
  p.num_users = l.num_users;
  p.arrival_pattern = l.arrival_pattern;
  p.arrival_smoothness = r.arrival_smoothness.value_or(1.0);
  p.concurrency_ramp_duration = r.concurrency_ramp;
  p.prefill_concurrency_ramp_duration = r.prefill_ramp;
  p.request_rate_ramp_duration = r.rate_ramp;
  p.request_rate_series = rate_series;

  // Warmup (spec §3.12): always request-rate timing, defaults from the profiling values.
  auto& w = l.warmup;
  w.concurrency = r.warmup_concurrency ? r.warmup_concurrency : l.concurrency;
  w.prefill_concurrency = r.warmup_prefill_concurrency ? r.warmup_prefill_concurrency : r.prefill_concurrency;
  w.request_rate = r.warmup_request_rate ? r.warmup_request_rate : l.request_rate;
  w.arrival_smoothness = p.arrival_smoothness;
  if (w.request_rate) {
    w.arrival_pattern =
        r.warmup_arrival_pattern.value_or(l.request_rate ? l.arrival_pattern : ArrivalPattern::kPoisson);
    require(w.arrival_pattern != ArrivalPattern::kConcurrencyBurst,
            "--warmup-arrival-pattern concurrency_burst needs no --warmup-request-rate");
  } else {
    w.arrival_pattern = ArrivalPattern::kConcurrencyBurst;
    if (!w.concurrency) w.concurrency = 1;
  }
  require(!w.prefill_concurrency || !w.concurrency || *w.prefill_concurrency <= *w.concurrency,
          "--warmup-prefill-concurrency cannot be greater than --warmup-concurrency");
  w.concurrency_ramp_duration = r.warmup_concurrency_ramp ? r.warmup_concurrency_ramp : r.concurrency_ramp;
  w.prefill_concurrency_ramp_duration = r.warmup_prefill_ramp ? r.warmup_prefill_ramp : r.prefill_ramp;
  w.request_rate_ramp_duration = r.warmup_rate_ramp ? r.warmup_rate_ramp : (w.request_rate ? r.rate_ramp : std::nullopt);
}

}  // namespace aiperf::cli
