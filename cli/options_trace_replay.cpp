// Trace replay controls that only the baseten_trace loader honours (AIPerf 0.13's "Conversation
// Input" group), and AIPerf's three refusals around them: a baseten-only option on another
// dataset, and an --extra-inputs key the loader overwrites on every turn.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#include "options.h"
#include "validators.h"

namespace aiperf::cli {

void add_trace_replay_options(CLI::App& app, ProfileOptions& o) {
  auto& r = o.config.input.trace_replay;
  auto& given = o.input.baseten_only_options;
  const std::string c = "Conversation Input";
  given.push_back({add_optional(app, "--trace-session-sample-ratio", r.trace_session_sample_ratio,
                                "Fraction of trace sessions kept, whole sessions (baseten_trace)")
                       ->check(number_check(0, true, 1, "a number > 0 and <= 1"))->group("Input"),
                   "--trace-session-sample-ratio"});
  given.push_back({add_optional(app, "--replay-speedup", r.replay_speedup,
                                "Trace replay compression: timestamps and think times divided by it (baseten_trace)")
                       ->check(kPositive)->group(c),
                   "--replay-speedup"});
  given.push_back({add_optional(app, "--max-idle-gap-cap-seconds", r.max_idle_gap_cap_seconds,
                                "Idle gaps between requests (all sessions) shortened to this, after "
                                "--replay-speedup (baseten_trace)")
                       ->check(kPositive)->group(c),
                   "--max-idle-gap-cap-seconds"});
  add_optional(app, "--inter-turn-delay-cap-seconds", r.inter_turn_delay_cap_seconds,
               "File delays (multi_turn, mooncake, bailian) and baseten_trace closed-loop think times "
               "clamped to this many seconds")
      ->check(kNonNegative)->group(c);
  given.push_back({app.add_flag("--open-loop-replay,!--no-open-loop-replay", r.open_loop_replay,
                                "Every turn at its recorded time (default); --no-open-loop-replay: continuation "
                                "turns after a think time (recorded gap - recorded e2e) (baseten_trace)")
                       ->group(c),
                   "--open-loop-replay/--no-open-loop-replay"});
  given.push_back({app.add_flag("--open-loop-strict", r.open_loop_strict,
                                "Open loop with every trace row its own one-turn session (baseten_trace)")
                       ->group(c),
                   "--open-loop-strict"});
  given.push_back({app.add_flag("--omit-kv-hints", r.omit_kv_hints,
                                "No hash_ids / block_size in replayed bodies (baseten_trace)")
                       ->group(c),
                   "--omit-kv-hints"});
  given.push_back({app.add_flag("--force-min-tokens,!--no-force-min-tokens", r.force_min_tokens,
                                "min_tokens = the recorded output length (default on) (baseten_trace)")
                       ->group(c),
                   "--force-min-tokens/--no-force-min-tokens"});
}

void read_trace_replay_environment(ProfileOptions& o) {
  if (const char* column = std::getenv("AIPERF_DATASET_BASETEN_SESSION_COLUMN"); column && *column)
    o.config.input.trace_replay.session_column = column;
}

namespace {
// A boolean as pydantic reads one from the environment (true/false, 1/0, yes/no, on/off).
bool env_flag(const char* name, bool fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  std::string s(v);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  if (s == "1" || s == "true" || s == "yes" || s == "on") return true;
  if (s == "0" || s == "false" || s == "no" || s == "off") return false;
  throw OptionError(std::string(name) + ": must be a boolean (true/false, 1/0, yes/no, on/off), got '" + v + "'");
}
}  // namespace

void read_tracelab_environment(ProfileOptions& o) {
  auto& a = o.config.input.agentic_trace;
  a.tracelab_subagent_join = env_flag("AIPERF_DATASET_TRACELAB_SUBAGENT_JOIN", a.tracelab_subagent_join);
  a.tracelab_codex_subagent_join =
      env_flag("AIPERF_DATASET_TRACELAB_CODEX_SUBAGENT_JOIN", a.tracelab_codex_subagent_join);
  if (const char* v = std::getenv("AIPERF_DATASET_TRACELAB_MIN_SPAWN_MS"); v && *v) {
    char* end = nullptr;
    const long long ms = std::strtoll(v, &end, 10);
    if (*end != '\0' || ms < 0)
      throw OptionError(std::string("AIPERF_DATASET_TRACELAB_MIN_SPAWN_MS: must be an integer >= 0, got '") + v + "'");
    a.tracelab_min_spawn_ms = static_cast<uint64_t>(ms);
  }
}

void check_baseten_only_options(const ProfileOptions& o) {
  const auto& in = o.config.input;
  std::string names;
  for (const auto& [option, name] : o.input.baseten_only_options)
    if (option->count() > 0) names += (names.empty() ? "" : ", ") + name;
  if (names.empty()) return;
  const std::string msg = names + " is only supported by the baseten_trace loader";
  if (!in.public_dataset.empty() || in.input_file.empty())
    throw OptionError(msg + "; provide --input-file and --custom-dataset-type baseten_trace.");
  using config::CustomDatasetType;
  if (in.custom_dataset_type != CustomDatasetType::kNone && in.custom_dataset_type != CustomDatasetType::kBasetenTrace)
    throw OptionError(msg + ", but --custom-dataset-type is " + config::to_string(in.custom_dataset_type) + ".");
}

void check_baseten_extra_inputs(const ProfileOptions& o) {
  const auto& in = o.config.input;
  if (in.custom_dataset_type != config::CustomDatasetType::kBasetenTrace || !in.extra_inputs.is_object()) return;
  std::vector<std::pair<std::string, std::string>> collisions;
  if (in.trace_replay.force_min_tokens && in.extra_inputs.contains("min_tokens"))
    collisions.emplace_back("min_tokens", "--no-force-min-tokens");
  if (!in.trace_replay.omit_kv_hints)
    for (const char* key : {"hash_ids", "block_size"})
      if (in.extra_inputs.contains(key)) collisions.emplace_back(key, "--omit-kv-hints");
  std::string msg;
  for (const auto& [key, flag] : collisions)
    msg += (msg.empty() ? "" : "; ") + std::string("--extra-inputs ") + key +
           " is overwritten per-turn by the baseten_trace loader; pass " + flag + " to send your value instead";
  if (!msg.empty()) throw OptionError(msg);
}

}  // namespace aiperf::cli
