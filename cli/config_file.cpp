#include "config_file.h"
#include "config_keys.h"
#include "config_reader.h"
#include "config_walker.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace aiperf::cli::config_file {
namespace {

// Keys of the reference's schema this implementation does not map onto an option (an error
// that says so, rather than "unknown key").
const std::set<std::string> kUnsupported = {
    "variables",     "gpu_telemetry", "server_metrics", "otel",            "mlflow",    "wandb",
    "runtime",       "logging",       "metrics",        "accuracy",        "scenario",  "unsafe_override",
    "template",      "reset_kv_cache", "server_profiler", "audio",         "video",     "rankings",
    "synthesis",     "sla",           "adaptive_scale", "user_files",      "records_inline",
    "sequence_distribution"};

}  // namespace

namespace detail {

Translation Walker::run(const YAML::Node& root) {
  if (!root.IsDefined() || root.IsNull()) fail(root, "", "the file holds no configuration");
  if (!root.IsMap()) fail(root, "", "expected a mapping of keys (schemaVersion, benchmark, ...)");
  const bool envelope = static_cast<bool>(root["benchmark"]);
  // Nodes are references in yaml-cpp (assigning to one writes through): held by optional.
  std::optional<YAML::Node> sweep, multi_run, plot;
  std::string sweep_path;
  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string key = it->first.Scalar();
    const std::string k = snake(key);
    const YAML::Node v = it->second;  // a copy: a reference into the iterator's pair would dangle (ASan)
    if (k == "schema_version") {
      const std::string s = str(v, key);
      if (s != "2.0") fail(v, key, "unsupported schema version '" + s + "' (expected \"2.0\")");
    } else if (k == "benchmark") {
      if (!v.IsMap()) fail(v, key, "expected a mapping");
      body(v, key);
    } else if (k == "sweep") {
      sweep.emplace(v);
      sweep_path = key;
    } else if (k == "multi_run") {
      multi_run.emplace(v);
    } else if (k == "random_seed") {
      set("--random-seed", integer_text(v, key, 0), v, key);
    } else if (k == "no_sweep_table") {
      if (boolean(v, key)) flag("--no-sweep-table", v, key);
    } else if (k == "plot") {
      // As the reference: a plot section implies artifacts.auto_plot unless that is set.
      if (!null(v) && !v.IsScalar() && !v.IsMap())
        fail(v, key, "must be null, a path string, or an inline mapping");
      if (!null(v)) {
        plot.emplace(v);
        t_.warnings.push_back(where(v, key) + ": its plot choices are not applied to --auto-plot (which draws the "
                                              "default set); use `aiperf plot --config FILE` for a chosen set");
      }
    } else if (!envelope && body_key(it->first, v, key, "")) {
      // the flat shape: body keys at the top level
    } else {
      unknown(it->first, key, k);
    }
  }
  if (!envelope) check_body_complete(root, "");
  if (plot && !find("--auto-plot") && !find("--no-auto-plot")) flag("--auto-plot", *plot, "plot");
  if (multi_run) multi(*multi_run, "multiRun");
  if (sweep) sweep_block(*sweep, sweep_path);  // last: its lists replace the body's values
  return std::move(t_);
}

void Walker::unknown(const YAML::Node& key_node, const std::string& path, const std::string& k) const {
  if (kUnsupported.count(k))
    fail(key_node, path, "an AIPerf 0.13 key that aiperf (C++) does not support in config files");
  fail(key_node, path, "unknown key (not in AIPerf 0.13's config schema)");
}

Arg* Walker::find(const std::string& option) {
  for (Arg& a : t_.args)
    if (a.option == option) return &a;
  return nullptr;
}

std::string Walker::origin(const YAML::Node& n, const std::string& path) const {
  return file_ + ":" + std::to_string(line(n)) + " (" + path + ")";
}

void Walker::set(const std::string& option, const std::string& value, const YAML::Node& n, const std::string& path) {
  if (Arg* a = find(option)) {
    a->values = {value};
    a->origin = origin(n, path);
  } else {
    t_.args.push_back({option, {value}, origin(n, path)});
  }
}

void Walker::add(const std::string& option, const std::string& value, const YAML::Node& n, const std::string& path) {
  if (Arg* a = find(option)) {
    a->values.push_back(value);
  } else {
    t_.args.push_back({option, {value}, origin(n, path)});
  }
}

void Walker::flag(const std::string& option, const YAML::Node& n, const std::string& path) {
  if (!find(option)) t_.args.push_back({option, {}, origin(n, path)});
}

void Walker::paired(const std::string& option, const YAML::Node& n, const std::string& path) {
  const std::string negated = "--no-" + option.substr(2);
  t_.args.erase(std::remove_if(t_.args.begin(), t_.args.end(),
                               [&](const Arg& a) { return a.option == option || a.option == negated; }),
                t_.args.end());
  flag(boolean(n, path) ? option : negated, n, path);
}

bool Walker::body_key(const YAML::Node& key_node, const YAML::Node& v, const std::string& key, const std::string& path) {
  const std::string k = snake(key);
  const std::string p = join(path, key);
  static const std::set<std::string> kBody = {"model",   "models",    "endpoint",  "dataset",   "datasets", "phases",
                                              "warmup",  "profiling", "artifacts", "tokenizer", "slos",
                                              "network_latency"};
  if (!kBody.count(k)) return false;
  if (null(v)) return true;
  if (k == "model") {
    if (v.IsSequence()) {
      for (const auto& m : v) add("--model", str(m, p), m, p);
    } else {
      add("--model", str(v, p), v, p);
    }
  } else if (k == "models") {
    models(v, p);
  } else if (k == "endpoint") {
    endpoint(v, p);
  } else if (k == "dataset") {
    dataset(v, p);
  } else if (k == "datasets") {
    if (!v.IsSequence() || v.size() != 1)
      fail(v, p, "expected a list of exactly one dataset (the reference loads one dataset per run)");
    dataset(v[0], p + "[0]");
  } else if (k == "phases") {
    if (v.IsMap()) {
      phase(v, p, "profiling");
    } else if (v.IsSequence()) {
      for (size_t i = 0; i < v.size(); ++i) phase(v[i], p + "[" + std::to_string(i) + "]", "");
    } else {
      fail(v, p, "expected a phase (mapping with type:) or a list of phases");
    }
  } else if (k == "warmup" || k == "profiling") {
    phase(v, p, k);
  } else if (k == "artifacts") {
    artifacts(v, p);
  } else if (k == "tokenizer") {
    tokenizer(v, p);
  } else if (k == "network_latency") {
    network_latency(v, p);
  } else if (k == "slos") {
    require_map(v, p);
    std::string goodput;
    for (auto it = v.begin(); it != v.end(); ++it)
      goodput += (goodput.empty() ? "" : " ") + it->first.Scalar() + ":" + number_text(it->second, join(p, it->first.Scalar()), false);
    set("--goodput", goodput, v, p);
  }
  (void)key_node;
  return true;
}

void Walker::body(const YAML::Node& b, const std::string& path) {
  for (auto it = b.begin(); it != b.end(); ++it) {
    const std::string key = it->first.Scalar();
    if (!body_key(it->first, it->second, key, path)) unknown(it->first, join(path, key), snake(key));
  }
  check_body_complete(b, path);
}

void Walker::check_body_complete(const YAML::Node& b, const std::string& path) {
  if (!saw_endpoint_) fail(b, join(path, "endpoint"), "field required");
  if (!saw_dataset_) fail(b, join(path, "datasets"), "field required (dataset: or datasets:)");
  if (!saw_phase_) fail(b, join(path, "phases"), "field required (phases:, or warmup: / profiling:)");
}

void Walker::models(const YAML::Node& v, const std::string& p) {
  if (v.IsScalar()) return add("--model", str(v, p), v, p);
  const YAML::Node* items = &v;
  std::optional<YAML::Node> list;
  if (v.IsMap()) {
    for (auto it = v.begin(); it != v.end(); ++it) {
      const std::string k = snake(it->first.Scalar());
      if (k == "items") {
        list.emplace(it->second);
      } else if (k == "strategy") {
        set("--model-selection-strategy", choice(it->second, join(p, "strategy"), {"round_robin", "random"}), it->second,
            join(p, "strategy"));
      } else {
        unknown(it->first, join(p, it->first.Scalar()), k);
      }
    }
    if (!list) fail(v, join(p, "items"), "field required");
    items = &*list;
  }
  if (!items->IsSequence()) fail(v, p, "expected a model name, a list of names, or {items: [...]}");
  for (size_t i = 0; i < items->size(); ++i) {
    const YAML::Node m = (*items)[i];
    const std::string mp = p + "[" + std::to_string(i) + "]";
    if (m.IsMap()) {
      for (auto it = m.begin(); it != m.end(); ++it) {
        if (snake(it->first.Scalar()) != "name") unknown(it->first, join(mp, it->first.Scalar()), snake(it->first.Scalar()));
        add("--model", str(it->second, join(mp, "name")), it->second, join(mp, "name"));
      }
    } else {
      add("--model", str(m, mp), m, mp);
    }
  }
}

void Walker::endpoint(const YAML::Node& e, const std::string& path) {
  require_map(e, path);
  saw_endpoint_ = true;
  for (auto it = e.begin(); it != e.end(); ++it) {
    const std::string key = it->first.Scalar();
    const std::string k = snake(key);
    const std::string p = join(path, key);
    const YAML::Node v = it->second;
    if (null(v)) continue;
    if (k == "url" || k == "urls") {
      if (v.IsSequence()) {
        for (const auto& u : v) add("--url", str(u, p), u, p);
      } else {
        add("--url", str(v, p), v, p);
      }
    } else if (k == "type") {
      set("--endpoint-type", str(v, p), v, p);
    } else if (k == "path") {
      set("--endpoint", str(v, p), v, p);
    } else if (k == "api_key") {
      set("--api-key", str(v, p), v, p);
    } else if (k == "timeout") {
      set("--request-timeout-seconds", number_text(v, p, true), v, p);
    } else if (k == "streaming" || k == "use_legacy_max_tokens" || k == "use_server_token_count" ||
               k == "per_chunk_usage" || k == "uuid_and_strip" || k == "download_video_content") {
      std::string opt = "--" + k;
      std::replace(opt.begin(), opt.end(), '_', '-');
      if (boolean(v, p)) flag(opt, v, p);
    } else if (k == "url_strategy") {
      set("--url-strategy", str(v, p), v, p);
    } else if (k == "connection_reuse") {
      set("--connection-reuse-strategy", str(v, p), v, p);
    } else if (k == "transport") {
      set("--transport", str(v, p), v, p);
    } else if (k == "request_content_type") {
      set("--request-content-type", str(v, p), v, p);
    } else if (k == "session_header") {
      set("--session-header", str(v, p), v, p);
    } else if (k == "wait_for_model_timeout" || k == "wait_for_model_interval") {
      std::string opt = "--" + k;
      std::replace(opt.begin(), opt.end(), '_', '-');
      set(opt, number_text(v, p, false), v, p);
    } else if (k == "wait_for_model_mode") {
      set("--wait-for-model-mode", str(v, p), v, p);
    } else if (k == "headers") {
      require_map(v, p);
      for (auto h = v.begin(); h != v.end(); ++h)
        add("--header", h->first.Scalar() + ":" + str(h->second, join(p, h->first.Scalar())), h->second,
            join(p, h->first.Scalar()));
    } else if (k == "extra") {
      require_map(v, p);
      for (auto x = v.begin(); x != v.end(); ++x) {
        nlohmann::json item = nlohmann::json::object();
        item[x->first.Scalar()] = to_json(x->second, join(p, x->first.Scalar()));
        add("--extra-inputs", item.dump(), x->second, join(p, x->first.Scalar()));
      }
    } else {
      unknown(it->first, p, k);
    }
  }
}

void Walker::phase(const YAML::Node& ph, const std::string& path, std::string kind) {
  require_map(ph, path);
  std::string type;
  bool excluded = false;
  std::string name;
  for (auto it = ph.begin(); it != ph.end(); ++it) {
    const std::string k = snake(it->first.Scalar());
    const std::string p = join(path, it->first.Scalar());
    if (k == "type") {
      type = choice(it->second, p, {"concurrency", "poisson", "gamma", "constant", "user_centric", "fixed_schedule"});
    } else if (k == "name") {
      name = str(it->second, p);
    } else if (k == "kind" && !null(it->second)) {
      kind = choice(it->second, p, {"warmup", "profiling"});
    } else if (k == "exclude_from_results") {
      excluded = boolean(it->second, p);
    }
  }
  if (type.empty()) fail(ph, join(path, "type"), "field required (concurrency, poisson, gamma, constant, user_centric or fixed_schedule)");
  if (kind.empty()) kind = (name == "warmup" || excluded) ? "warmup" : "profiling";
  saw_phase_ = true;
  // As the reference: a phase must say when it ends (a fixed schedule ends with its trace).
  if (type != "fixed_schedule" && !ph["requests"] && !ph["duration"] && !ph["sessions"])
    fail(ph, path, "Phase '" + (name.empty() ? kind : name) +
                       "': at least one of 'requests', 'duration', or 'sessions' must be specified");
  const bool warm = kind == "warmup";
  // RatePhaseConfig: exactly one of rate and rate_series.
  if (type == "poisson" || type == "constant" || type == "gamma" || type == "user_centric") {
    const bool rate = !null(ph["rate"]), series = !null(ph["rate_series"]) || !null(ph["rateSeries"]);
    if (!rate && !series) fail(ph, path, "rate-controlled phases require rate or rate_series");
    if (rate && series) fail(ph, path, "rate and rate_series are mutually exclusive");
  }
  if (!warm && ++profiling_phases_ > 1)
    fail(ph, path, "more than one profiling phase: aiperf (C++) runs one warmup and one profiling phase");
  if (warm && (type == "user_centric" || type == "fixed_schedule"))
    fail(ph, join(path, "type"), "a " + type + " warmup phase is not supported by aiperf (C++)");
  if (type == "poisson" || type == "constant" || type == "gamma")
    set(warm ? "--warmup-arrival-pattern" : "--arrival-pattern", type, ph, join(path, "type"));
  if (type == "fixed_schedule") flag("--fixed-schedule", ph, join(path, "type"));
  for (auto it = ph.begin(); it != ph.end(); ++it) {
    const std::string k = snake(it->first.Scalar());
    const std::string p = join(path, it->first.Scalar());
    const YAML::Node v = it->second;
    if (null(v) || k == "type" || k == "name" || k == "kind" || k == "exclude_from_results") continue;
    auto opt = [&](const char* profiling, const char* warmup) -> std::string {
      const char* o = warm ? warmup : profiling;
      if (o == nullptr) fail(it->first, p, "not supported in a warmup phase by aiperf (C++)");
      return o;
    };
    if (k == "concurrency") {
      set(opt("--concurrency", "--warmup-concurrency"), integer_text(v, p, 1), v, p);
    } else if (k == "prefill_concurrency") {
      set(opt("--prefill-concurrency", "--warmup-prefill-concurrency"), integer_text(v, p, 1), v, p);
    } else if (k == "rate") {
      const char* profiling = type == "user_centric" ? "--user-centric-rate" : "--request-rate";
      set(opt(profiling, "--warmup-request-rate"), number_text(v, p, true), v, p);
    } else if (k == "requests") {
      set(opt("--request-count", "--warmup-request-count"), integer_text(v, p, 1), v, p);
    } else if (k == "duration") {
      set(opt("--benchmark-duration", "--warmup-duration"), duration_text(v, p), v, p);
    } else if (k == "sessions") {
      set(opt("--conversation-num", "--num-warmup-sessions"), integer_text(v, p, 1), v, p);
    } else if (k == "grace_period") {
      set(opt("--benchmark-grace-period", "--warmup-grace-period"), duration_text(v, p), v, p);
    } else if (k == "concurrency_ramp" || k == "prefill_ramp" || k == "rate_ramp") {
      if (v.IsMap()) {
        for (auto x = v.begin(); x != v.end(); ++x) {
          const std::string xk = snake(x->first.Scalar());
          if (xk != "duration" && xk != "strategy") unknown(x->first, join(p, x->first.Scalar()), xk);
        }
        if (!v["duration"]) fail(v, join(p, "duration"), "field required");
      }
      const YAML::Node d = v.IsMap() ? v["duration"] : v;
      const std::string dp = v.IsMap() ? join(p, "duration") : p;
      const std::string seconds = duration_text(d, dp);
      if (std::stod(seconds) <= 0) fail(d, dp, "must be > 0, got " + seconds);
      if (k == "concurrency_ramp") set(opt("--concurrency-ramp-duration", "--warmup-concurrency-ramp-duration"), seconds, d, dp);
      if (k == "prefill_ramp")
        set(opt("--prefill-concurrency-ramp-duration", "--warmup-prefill-concurrency-ramp-duration"), seconds, d, dp);
      if (k == "rate_ramp") set(opt("--request-rate-ramp-duration", "--warmup-request-rate-ramp-duration"), seconds, d, dp);
    } else if (k == "rate_series" && (type == "poisson" || type == "constant" || type == "gamma")) {
      set(opt("--request-rate-series", nullptr), rate_series(v, p), v, p);
    } else if (k == "rate_series" && type == "user_centric") {
      fail(it->first, p, "user-centric phases do not support rate_series");
    } else if (k == "failed_request_threshold") {
      const std::string ratio = number_text(v, p, false);
      if (std::stod(ratio) > 1) fail(v, p, "must be <= 1, got " + ratio);
      if (warm) {
        t_.warnings.push_back(where(v, p) + ": ignored (only profiling-phase records count toward the threshold)");
      } else {
        set("--failed-request-threshold", ratio, v, p);
      }
    } else if (k == "smoothness" && type == "gamma") {
      set(opt("--arrival-smoothness", nullptr), number_text(v, p, true), v, p);
    } else if (k == "users" && type == "user_centric") {
      set(opt("--num-users", nullptr), integer_text(v, p, 1), v, p);
    } else if (k == "cancellation") {
      require_map(v, p);
      for (auto x = v.begin(); x != v.end(); ++x) {
        const std::string xk = snake(x->first.Scalar());
        const std::string xp = join(p, x->first.Scalar());
        if (xk == "rate") {
          set(opt("--request-cancellation-rate", nullptr), number_text(x->second, xp, false), x->second, xp);
        } else if (xk == "delay") {
          set(opt("--request-cancellation-delay", nullptr), duration_text(x->second, xp), x->second, xp);
        } else {
          unknown(x->first, xp, xk);
        }
      }
    } else if (type == "fixed_schedule" && k == "auto_offset") {
      if (boolean(v, p)) flag("--fixed-schedule-auto-offset", v, p);
    } else if (type == "fixed_schedule" && (k == "start_offset" || k == "end_offset")) {
      set(k == "start_offset" ? "--fixed-schedule-start-offset" : "--fixed-schedule-end-offset", integer_text(v, p, 0), v, p);
    } else {
      unknown(it->first, p, k);
    }
  }
}

void Walker::artifacts(const YAML::Node& a, const std::string& path) {
  require_map(a, path);
  for (auto it = a.begin(); it != a.end(); ++it) {
    const std::string k = snake(it->first.Scalar());
    const std::string p = join(path, it->first.Scalar());
    const YAML::Node v = it->second;
    if (null(v)) continue;
    if (k == "dir") {
      set("--artifact-dir", str(v, p), v, p);
    } else if (k == "prefix") {
      set("--profile-export-prefix", str(v, p), v, p);
    } else if (k == "slice_duration") {
      set("--slice-duration", duration_text(v, p), v, p);
    } else if (k == "raw") {
      if (boolean(v, p)) set("--export-level", "raw", v, p);
    } else if (k == "trace") {
      if (boolean(v, p)) flag("--export-http-trace", v, p);
    } else if (k == "show_trace_timing") {
      if (boolean(v, p)) flag("--show-trace-timing", v, p);
    } else if (k == "export_outputs_json") {
      if (boolean(v, p)) flag("--export-outputs-json", v, p);
    } else if (k == "auto_plot") {
      paired("--auto-plot", v, p);
    } else if (k == "plot_required") {
      if (boolean(v, p)) flag("--plot-required", v, p);
    } else if (k == "summary" || k == "records") {
      t_.warnings.push_back(where(v, p) + ": ignored (aiperf (C++) always writes the json and csv summaries and "
                                           "profile_export.jsonl)");
    } else {
      unknown(it->first, p, k);
    }
  }
}

void Walker::tokenizer(const YAML::Node& v, const std::string& path) {
  if (!v.IsMap()) fail(v, path, "expected a mapping ({name: ..., revision: ...}), as the reference");
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string k = snake(it->first.Scalar());
    const std::string p = join(path, it->first.Scalar());
    const YAML::Node x = it->second;
    if (null(x)) continue;
    if (k == "name") {
      set("--tokenizer", str(x, p), x, p);
    } else if (k == "revision") {
      set("--tokenizer-revision", str(x, p), x, p);
    } else if (k == "trust_remote_code") {
      if (boolean(x, p)) flag("--tokenizer-trust-remote-code", x, p);
    } else if (k == "apply_chat_template") {
      if (boolean(x, p)) flag("--apply-chat-template", x, p);
    } else {
      unknown(it->first, p, k);
    }
  }
}

void Walker::multi(const YAML::Node& m, const std::string& path) {
  require_map(m, path);
  for (auto it = m.begin(); it != m.end(); ++it) {
    const std::string k = snake(it->first.Scalar());
    const std::string p = join(path, it->first.Scalar());
    const YAML::Node v = it->second;
    if (null(v)) continue;
    if (k == "num_runs") {
      set("--num-profile-runs", integer_text(v, p, 1), v, p);
    } else if (k == "cooldown_seconds") {
      set("--profile-run-cooldown-seconds", number_text(v, p, false), v, p);
    } else if (k == "confidence_level") {
      set("--confidence-level", number_text(v, p, true), v, p);
    } else if (k == "set_consistent_seed") {
      paired("--set-consistent-seed", v, p);
    } else if (k == "vary_seed_per_trial") {
      paired("--vary-seed-per-trial", v, p);
    } else if (k == "disable_warmup_after_first") {
      paired("--profile-run-disable-warmup-after-first", v, p);
    } else if (k == "convergence") {
      require_map(v, p);
      for (auto x = v.begin(); x != v.end(); ++x) {
        const std::string xk = snake(x->first.Scalar());
        const std::string xp = join(p, x->first.Scalar());
        if (xk == "metric" || xk == "stat" || xk == "mode") {
          set("--convergence-" + xk, str(x->second, xp), x->second, xp);
        } else if (xk == "threshold") {
          set("--convergence-threshold", number_text(x->second, xp, true), x->second, xp);
        } else {
          unknown(x->first, xp, xk);
        }
      }
    } else {
      unknown(it->first, p, k);
    }
  }
}

std::string Walker::sweep_option(const YAML::Node& key_node, const std::string& raw_path, const std::string& p) const {
  std::vector<std::string> parts;
  std::stringstream ss(raw_path);
  for (std::string s; std::getline(ss, s, '.');) parts.push_back(snake(s));
  const std::string option = sweep_option_for(parts);
  if (option.empty())
    fail(key_node, p,
         "sweep parameter not supported by aiperf (C++); use concurrency, rate, requests, duration, "
         "prefill_concurrency, sessions, users (or phases.profiling.<name>), or datasets.<name>.prompts.isl/osl");
  return option;
}

void Walker::sweep_block(const YAML::Node& s, const std::string& path) {
  require_map(s, path);
  const YAML::Node type = s["type"];
  t_.has_sweep = true;
  // Required, as the reference (its sweep union is discriminated by type).
  if (!type) fail(s, join(path, "type"), "field required (grid or zip)");
  // The reference's sweep types, of which ours are grid and zip.
  const std::string given =
      choice(type, join(path, "type"), {"grid", "zip", "scenarios", "sobol", "latin_hypercube", "adaptive_search"});
  const auto sweep_type = config::parse_enum<sweep::SweepType>(given);
  if (!sweep_type)
    fail(type, join(path, "type"), "sweep type '" + given + "' is not supported by aiperf (C++) (grid or zip)");
  t_.sweep_type = *sweep_type;
  set("--sweep-type", given, type, join(path, "type"));
  bool has_parameters = false;
  for (auto it = s.begin(); it != s.end(); ++it) {
    const std::string k = snake(it->first.Scalar());
    const std::string p = join(path, it->first.Scalar());
    const YAML::Node v = it->second;
    if (k == "type") continue;
    if (k == "parameters") {
      require_map(v, p);
      has_parameters = true;
      for (auto x = v.begin(); x != v.end(); ++x) {
        const std::string xp = join(p, x->first.Scalar());
        const std::string option = sweep_option(x->first, x->first.Scalar(), xp);
        const YAML::Node list = x->second;
        if (!list.IsSequence() || list.size() == 0) fail(list, xp, "expected a non-empty list of values");
        std::string joined;
        std::vector<nlohmann::json> typed;
        for (const auto& e : list) {
          const std::string text = str(e, xp);
          if (text.find(',') != std::string::npos) fail(e, xp, "a value may not contain ','");
          joined += (joined.empty() ? "" : ",") + text;
          long long i = 0;
          const auto r = std::from_chars(text.data(), text.data() + text.size(), i);
          if (r.ec == std::errc() && r.ptr == text.data() + text.size()) {
            typed.emplace_back(i);
          } else {
            typed.emplace_back(std::strtod(text.c_str(), nullptr));
          }
        }
        t_.sweep_values[option] = typed;
        const std::string key = x->first.Scalar();
        t_.sweep_paths[option] = key.find('.') == std::string::npos && key != "isl" && key != "osl"
                                     ? "phases.profiling." + key
                                     : key;
        // One element is still a sweep dimension (swept_options() tells extract_lists).
        if (list.size() == 1) joined += ",";
        set(option, joined, list, xp);
      }
    } else if (k == "iteration_order") {
      set("--parameter-sweep-mode", choice(v, p, {"repeated", "independent"}), v, p);
    } else if (k == "cooldown_seconds") {
      set("--parameter-sweep-cooldown-seconds", number_text(v, p, false), v, p);
    } else if (k == "same_seed") {
      paired("--parameter-sweep-same-seed", v, p);
    } else {
      unknown(it->first, p, k);
    }
  }
  if (!has_parameters) fail(s, join(path, "parameters"), "field required");
}

}  // namespace detail

EnvLookup process_env() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
}

Translation translate_text(const std::string& text, const std::string& file, const EnvLookup& env) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigFileError(file + ":" + std::to_string(e.mark.line + 1) + ": invalid YAML syntax: " + e.msg);
  }
  return detail::Walker(file, env).run(root);
}

Translation translate_file(const std::string& path, const EnvLookup& env) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw ConfigFileError("Configuration file not found: " + path);
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  if (!in) throw ConfigFileError("Cannot read configuration file: " + path);
  return translate_text(ss.str(), path, env);
}

}  // namespace aiperf::cli::config_file
