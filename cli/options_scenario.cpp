// AIPerf 0.13's "Scenario" group (--scenario, --unsafe-override) and the agentic replay warmup
// options of its "Warmup" group (--agentic-cache-warmup-duration, --agentic-warmup-grace-period).
//
// A scenario locks a benchmark's invariants (AIPerf's common/scenario/validator.py): values the
// user left unset are filled in, values that contradict the lock are violations. Violations stop
// the run (exit 2) unless --unsafe-override turns them into warnings, which marks the run
// submission_valid=false in profile_export_aiperf.json's "metadata". The one scenario,
// inferencex-agentx-mvp, selects the AGENTIC_REPLAY timing mode (services/timing/agentic_replay.h).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "log/log.h"
#include "options.h"
#include "util/py_repr.h"
#include "validators.h"

namespace aiperf::cli {
namespace {

constexpr const char* kAgentx = "inferencex-agentx-mvp";
constexpr double kMinDurationS = 900;
constexpr double kDefaultDurationS = 1800;
constexpr double kSystemIdleCapS = 10.0;
constexpr const char* kWekaHfRepo = "semianalysisai/cc-traces-weka-062126";

// The loaders the scenario accepts, sorted as Python's sorted() lists them in its message.
const std::vector<std::string>& allowed_loaders() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v{"semianalysis_cc_traces_weka_with_subagents",
                               "semianalysis_cc_traces_weka_with_subagents_256k",
                               "semianalysis_cc_traces_weka_with_subagents_060226",
                               "semianalysis_cc_traces_weka_with_subagents_060226_256k",
                               "semianalysis_cc_traces_weka_with_subagents_060526",
                               "semianalysis_cc_traces_weka_with_subagents_060526_256k",
                               "semianalysis_cc_traces_weka_with_subagents_060826",
                               "semianalysis_cc_traces_weka_with_subagents_060826_256k",
                               "semianalysis_cc_traces_weka_061326",
                               "semianalysis_cc_traces_weka_061326_256k",
                               "semianalysis_cc_traces_weka_061526",
                               "semianalysis_cc_traces_weka_061526_256k",
                               "semianalysis_cc_traces_weka_062126",
                               "semianalysis_cc_traces_weka_062126_256k",
                               "weka_trace",
                               "weka_hf"};
    std::sort(v.begin(), v.end());
    return v;
  }();
  return names;
}

// Python's repr() of a float: the shortest text that reads back, with ".0" when integral.
std::string scenario_py_float(double v) {
  char buf[32];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

// Python's repr() of a JSON value as --extra-inputs parsed it.
std::string scenario_py_value(const nlohmann::json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  if (v.is_string()) return util::py_repr(v.get<std::string>());
  if (v.is_number_float()) return scenario_py_float(v.get<double>());
  if (v.is_null()) return "None";
  return v.dump();
}

// AIPerf's _is_falsy_extra_input: false, "false"/"0"/"no" (any case, trimmed), or zero.
bool falsy_extra_input(const nlohmann::json& v) {
  if (v.is_boolean()) return !v.get<bool>();
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    const auto b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
    s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s == "false" || s == "0" || s == "no";
  }
  if (v.is_number()) return v.get<double>() == 0;
  return false;
}

std::string cache_bust_name(config::CacheBust c) {
  std::string s = config::to_string(c);
  std::replace(s.begin(), s.end(), '-', '_');  // AIPerf's CacheBustTarget values
  return s;
}

bool option_given(const ProfileOptions& o, const char* name) {
  if (!o.scenario.app) return false;
  const CLI::Option* opt = o.scenario.app->get_option_no_throw(name);
  return opt && opt->count() > 0;
}

struct Violation {
  std::string flag, current, required, message;  // current and required as Python reprs
  std::string text() const { return flag + ": got " + current + ", required " + required + " (" + message + ")"; }
};

std::string lock_error(const std::vector<Violation>& violations, bool bypassable) {
  std::string out = "Scenario invariants violated (" + std::to_string(violations.size()) + " conflict" +
                    (violations.size() != 1 ? "s" : "") + "):";
  for (const Violation& v : violations) out += "\n  - " + v.text();
  out += bypassable ? "\nPass --unsafe-override to convert to warnings (run will be marked submission_valid=false)."
                    : std::string(
                          "\nThese violations cannot be bypassed with --unsafe-override. Provide "
                          "--public-dataset (e.g. semianalysis_cc_traces_weka_062126) or --hf-weka-dataset ") +
                          kWekaHfRepo + ".";
  return out;
}

// The phase type AIPerf gives a profiling phase that an explicit scheduling option shaped, or ""
// for the default concurrency shape (the only one the lock may stamp).
std::string conflicting_phase_type(const ProfileOptions& o) {
  const auto& l = o.config.loadgen;
  if (o.config.input.fixed_schedule) return "fixed_schedule";
  if (l.user_centric_rate) return "user_centric";
  if (!l.request_rate) return "";
  if (o.load.arrival_pattern) {
    switch (*o.load.arrival_pattern) {
      case config::ArrivalPattern::kConstant:
        return "constant";
      case config::ArrivalPattern::kGamma:
        return "gamma";
      case config::ArrivalPattern::kPoisson:
      case config::ArrivalPattern::kConcurrencyBurst:
      case config::ArrivalPattern::kFixedSchedule:
      case config::ArrivalPattern::kUserCentricRate:
        return "poisson";
    }
  }
  return o.load.arrival_smoothness ? "gamma" : "poisson";
}

// AIPerf's AIPERF_AGENTX_* settings: the context-overflow substrings (a JSON list of strings)
// and the rate above which a scenario run is invalid (0 to 1).
void read_agentx_environment(config::AgenticReplayConfig& a) {
  if (const char* v = std::getenv("AIPERF_AGENTX_CONTEXT_OVERFLOW_SUBSTRINGS"); v && *v) {
    const auto list = nlohmann::json::parse(v, nullptr, false);
    bool ok = list.is_array();
    for (const auto& item : ok ? list : nlohmann::json::array()) ok = ok && item.is_string();
    if (!ok)
      throw OptionError(
          std::string("AIPERF_AGENTX_CONTEXT_OVERFLOW_SUBSTRINGS: must be a JSON list of strings, got '") + v + "'");
    a.context_overflow_substrings = list.get<std::vector<std::string>>();
  }
  if (const char* v = std::getenv("AIPERF_AGENTX_CONTEXT_OVERFLOW_RATE_LIMIT"); v && *v) {
    char* end = nullptr;
    const double rate = std::strtod(v, &end);
    if (!end || *end != '\0' || !(rate >= 0 && rate <= 1))
      throw OptionError(std::string("AIPERF_AGENTX_CONTEXT_OVERFLOW_RATE_LIMIT: must be a number from 0 to 1, got '") +
                        v + "'");
    a.context_overflow_rate_limit = rate;
  }
}

}  // namespace

void add_scenario_options(CLI::App& app, ProfileOptions& o) {
  auto& s = o.scenario;
  s.app = &app;
  add_optional(app, "--scenario", s.name, "Lock all benchmark invariants for a named scenario (inferencex-agentx-mvp)")
      ->group("Scenario");
  app.add_flag("--unsafe-override", s.unsafe_override,
               "Turn scenario lock errors into warnings; marks the run submission_valid=false")
      ->group("Scenario");
  add_optional(app, "--agentic-cache-warmup-duration", s.cache_warmup_duration,
               "Agentic replay: seconds of accelerated cache warmup after the snapshot warmup")
      ->check(kPositive)
      ->group("Warmup");
  add_optional(app, "--agentic-warmup-grace-period", s.warmup_grace_period,
               "Agentic replay: seconds the synthesized warmup waits for its requests (default: all)")
      ->check(kNonNegative)
      ->group("Warmup");
}

void apply_scenario(ProfileOptions& o) {
  auto& c = o.config;
  auto& in = c.input;
  auto& l = c.loadgen;
  const auto& sc = o.scenario;

  // AIPerf's config validators, which run before the scenario is resolved.
  const config::CacheBust bust = in.prompt_shaping.cache_bust;
  if (sc.name &&
      (bust == config::CacheBust::kWarmupIsolationSystem || bust == config::CacheBust::kWarmupIsolationFirstTurn) &&
      *sc.name == kAgentx) {
    throw OptionError(
        "--cache-bust: cache_bust targets warmup_isolation_system and warmup_isolation_first_turn are not "
        "compatible with agentic_replay timing mode: Turn objects mutated during warmup persist into profiling "
        "sessions. Use cache_bust=none for agentic_replay workloads or one of the RID-based targets "
        "(system_prefix, first_turn_prefix, etc.) for per-trajectory isolation.");
  }
  if (sc.cache_warmup_duration && !sc.name) {
    throw OptionError(
        "--agentic-cache-warmup-duration requires the agentic_replay timing mode (set today by --scenario "
        "inferencex-agentx-mvp); the profiling phase(s) are not agentic_replay.");
  }
  l.agentic_replay.cache_warmup_duration = sc.cache_warmup_duration;
  l.agentic_replay.warmup_grace_period = sc.warmup_grace_period;
  if (!sc.name) return;
  read_agentx_environment(l.agentic_replay);
  if (sc.cache_warmup_duration)
    AIPERF_LOG(kWarning) << "--agentic-cache-warmup-duration: the accelerated cache warmup is not implemented here; "
                            "only the snapshot warmup runs (docs/load-modes.md)";
  if (*sc.name != kAgentx)
    throw OptionError("--scenario: Unknown scenario " + util::py_repr(*sc.name) + ". Valid scenarios: " + kAgentx);

  const std::string name = kAgentx;
  const std::string quoted = util::py_repr(name);
  const std::string tag = "Scenario " + quoted + ": ";
  std::vector<Violation> violations;
  std::vector<std::string> applied;

  // timing_mode: AGENTIC_REPLAY, unless an explicit scheduling mode conflicts (then the user's
  // mode stays, for an --unsafe-override run).
  if (const std::string type = conflicting_phase_type(o); !type.empty()) {
    violations.push_back({"--request-rate / --user-centric-rate / --fixed-schedule", util::py_repr(type),
                          "'agentic_replay'",
                          "scenario " + quoted +
                              " requires timing_mode=agentic_replay; do not pass --request-rate / --arrival-pattern / "
                              "--user-centric-rate / --fixed-schedule (or declare a rate-shaped phase) alongside "
                              "--scenario"});
  } else {
    l.agentic_replay.enabled = true;
    AIPERF_LOG(kInfo) << tag << "setting profiling-phase timing_mode=agentic_replay.";
  }
  applied.emplace_back("timing_mode");

  // streaming (there is no --no-streaming, so it is never explicitly off).
  if (!c.endpoint.streaming) {
    c.endpoint.streaming = true;
    AIPERF_LOG(kInfo) << tag << "forcing --streaming=true (was unset).";
  }
  applied.emplace_back("streaming");

  // ignore_eos in every request body.
  if (!in.extra_inputs.contains("ignore_eos") || in.extra_inputs["ignore_eos"].is_null()) {
    in.extra_inputs["ignore_eos"] = true;
    AIPERF_LOG(kInfo) << tag << "injecting extra_inputs.ignore_eos=true (was absent).";
    applied.emplace_back("ignore_eos");
  } else if (falsy_extra_input(in.extra_inputs["ignore_eos"])) {
    violations.push_back({"extra_inputs.ignore_eos", scenario_py_value(in.extra_inputs["ignore_eos"]), "True",
                          "scenario " + quoted + " requires ignore_eos=true"});
  } else {
    applied.emplace_back("ignore_eos");
  }

  if (in.agentic_trace.ignore_trace_delays) {
    violations.push_back({"--ignore-trace-delays", "True", "False",
                          "scenario " + quoted +
                              " replays recorded trace timing; --ignore-trace-delays would null every per-turn "
                              "timestamp/delay and dispatch all turns back-to-back, falsifying the workload"});
  } else {
    applied.emplace_back("forbid_ignore_trace_delays");
  }

  if (in.synthesis.max_isl) {
    violations.push_back({"--synthesis-max-isl", std::to_string(*in.synthesis.max_isl), "None",
                          "scenario " + quoted +
                              " forbids client-side input truncation; --synthesis-max-isl drops traces whose input "
                              "length exceeds the cap, falsifying the workload"});
  } else {
    applied.emplace_back("forbid_input_truncation");
  }

  // The loader: a Weka corpus. A synthetic dataset cannot be overridden.
  const bool synthetic = in.input_file.empty() && in.public_dataset.empty();
  std::optional<std::string> detected;
  if (!in.public_dataset.empty()) {
    detected = in.public_dataset;
  } else if (!in.input_file.empty() && in.custom_dataset_type != config::CustomDatasetType::kNone) {
    detected = config::to_string(in.custom_dataset_type);
  }
  const auto& allowed = allowed_loaders();
  if (!detected || std::find(allowed.begin(), allowed.end(), *detected) == allowed.end()) {
    std::string display = "any of [";
    for (size_t i = 0; i < allowed.size(); ++i) display += (i ? ", '" : "'") + allowed[i] + "'";
    display += "]";
    if (synthetic) {
      violations.push_back({"--input-file (loader)", "'synthetic'", util::py_repr(display),
                            "scenario " + quoted + " requires loader=" + display +
                                "; got synthetic (CLI default when --public-dataset / --input-file is omitted). "
                                "--unsafe-override cannot bypass a missing weka loader"});
    } else {
      violations.push_back({"--input-file (loader)", detected ? util::py_repr(*detected) : "None",
                            util::py_repr(display), "scenario " + quoted + " requires loader=" + display});
    }
  } else {
    applied.emplace_back("require_loader");
  }
  if (detected && *detected == "weka_trace") {
    violations.push_back(
        {"--custom-dataset-type / --input-file", "'weka_trace (local, unpinned)'",
         util::py_repr(std::string("pinned --public-dataset alias or --hf-weka-dataset ") + kWekaHfRepo),
         "scenario " + quoted +
             " cannot verify corpus identity for a local weka_trace directory; use a with-subagents --public-dataset "
             "alias or --hf-weka-dataset " +
             kWekaHfRepo +
             " for submission_valid=true, or pass --unsafe-override for offline smoke tests (submission_valid=false)"});
  }
  if (detected && *detected == "weka_hf") {
    violations.push_back(
        {"--hf-weka-dataset", "None", util::py_repr(kWekaHfRepo),
         "scenario " + quoted + " only allows --public-dataset weka_hf with hf_weka_dataset=" + kWekaHfRepo});
  }

  // cache_bust: first_turn_prefix.
  if (bust == config::CacheBust::kFirstTurnPrefix) {
    applied.emplace_back("cache_bust");
  } else if (option_given(o, "--cache-bust")) {
    violations.push_back(
        {"--cache-bust", util::py_repr(cache_bust_name(bust)), "'first_turn_prefix'",
         "scenario " + quoted + " requires cache_bust.target=first_turn_prefix; got " + cache_bust_name(bust)});
  } else {
    in.prompt_shaping.cache_bust = config::CacheBust::kFirstTurnPrefix;
    AIPERF_LOG(kInfo) << tag << "auto-set --cache-bust=first_turn_prefix (was at default " << cache_bust_name(bust)
                      << ").";
    applied.emplace_back("cache_bust");
  }

  // The profiling duration: 1800 s unless given, at least 900 s.
  if (!l.benchmark_duration) {
    l.benchmark_duration = kDefaultDurationS;
    AIPERF_LOG(kInfo) << tag << "auto-set --benchmark-duration=1800 (was unset).";
  }
  applied.emplace_back("default_benchmark_duration");
  if (*l.benchmark_duration < kMinDurationS) {
    violations.push_back(
        {"--benchmark-duration", scenario_py_float(*l.benchmark_duration), "'>=900'",
         "scenario " + quoted + " requires duration >= 900s to reach steady state and trigger KV offloading"});
  } else {
    applied.emplace_back("min_benchmark_duration");
  }

  // Trajectory start ratios: the whole trace unless given.
  auto& r = o.load;
  if (!r.trajectory_start_min_ratio) {
    r.trajectory_start_min_ratio = 0.0;
    AIPERF_LOG(kInfo) << tag << "auto-set --trajectory-start-min-ratio=0.0 (was at default 0.25).";
  }
  if (!r.trajectory_start_max_ratio) {
    r.trajectory_start_max_ratio = 1.0;
    AIPERF_LOG(kInfo) << tag << "auto-set --trajectory-start-max-ratio=1.0 (was at default 0.75).";
  }
  applied.emplace_back("trajectory_start_ratios");

  // Per-turn and per-trace delay caps are forbidden (file datasets only have them).
  if (!synthetic) {
    if (const auto cap = in.trace_replay.inter_turn_delay_cap_seconds) {
      violations.push_back(
          {"--inter-turn-delay-cap-seconds", scenario_py_float(*cap), "None",
           "scenario " + quoted + " preserves original inter-turn timing and forbids a per-turn delay cap"});
    }
    if (const auto cap = in.agentic_trace.trace_idle_gap_cap_seconds) {
      violations.push_back(
          {"--trace-idle-gap-cap-seconds", scenario_py_float(*cap), "None",
           "scenario " + quoted + " preserves original per-trace request timing and forbids timeline compression"});
    }
  }

  // The global idle cap: 10 s.
  if (r.system_idle_gap_cap && *r.system_idle_gap_cap != kSystemIdleCapS) {
    violations.push_back({"--system-idle-gap-cap-seconds", scenario_py_float(*r.system_idle_gap_cap), "10.0",
                          "scenario " + quoted + " limits only globally idle replay time to 10.0 seconds"});
  } else {
    if (!r.system_idle_gap_cap) AIPERF_LOG(kInfo) << tag << "auto-set --system-idle-gap-cap-seconds=10.0 (was unset).";
    r.system_idle_gap_cap = kSystemIdleCapS;
    applied.emplace_back("system_idle_gap_cap");
  }

  // A reproducible run: a fresh seed when none was given (recorded with the run).
  if (!in.random_seed) {
    in.random_seed = std::random_device{}() * 0x100000000ULL + std::random_device{}();
    *in.random_seed &= (1ULL << 63) - 1;
    AIPERF_LOG(kInfo) << tag << "auto-set random_seed=" << *in.random_seed << " (was unset).";
  }
  applied.emplace_back("random_seed");

  const bool hard = synthetic && std::any_of(violations.begin(), violations.end(),
                                             [](const Violation& v) { return v.flag == "--input-file (loader)"; });
  if (hard) throw OptionError("--scenario: " + lock_error(violations, false));
  if (!violations.empty() && !sc.unsafe_override) throw OptionError("--scenario: " + lock_error(violations, true));

  auto& outcome = l.scenario;
  outcome.name = name;
  outcome.unsafe_override = sc.unsafe_override;
  outcome.applied_locks = applied;
  for (const Violation& v : violations) {
    AIPERF_LOG(kWarning) << "Scenario violation (override active): " << v.text();
    outcome.violations.push_back(v.text());
  }
  outcome.submission_valid = violations.empty();
  if (!violations.empty()) outcome.submission_invalid_reasons = {"unsafe_override"};
  // AGENTIC_REPLAY synthesizes its own warmup from the trajectories: declared warmup phases go.
  if (l.agentic_replay.enabled) {
    l.warmup_request_count.reset();
    l.warmup_duration.reset();
    l.num_warmup_sessions.reset();
  }
}

}  // namespace aiperf::cli
