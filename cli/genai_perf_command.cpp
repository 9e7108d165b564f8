#include "genai_perf_command.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "environment.h"
#include "genai_perf_analyze.h"
#include "genai_perf_checkpoint.h"
#include "genai_perf_config.h"
#include "genai_perf_export.h"
#include "genai_perf_merge.h"
#include "genai_perf_options.h"
#include "genai_perf_process.h"
#include "genai_perf_template.h"
#include "genai_perf_window_run.h"
#include "genai_perf_windows.h"
#include "plot/genai_perf_plots.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::cli::genai_perf {
namespace {

namespace fs = std::filesystem;

const char* kUsage =
    "usage: genai-perf <command> [options]\n\n"
    "GenAI-Perf 0.0.16's command line on aiperf's engine. Commands:\n"
    "  profile          run a benchmark (genai-perf profile --help)\n"
    "  analyze          run one profile per point of a sweep (--sweep-type {concurrency,request_rate,\n"
    "                   num_dataset_entries,input_sequence_length} with --sweep-range min:max[:step] or\n"
    "                   --sweep-list a,b,c, plus profile's options); writes analyze_export_genai_perf.csv\n"
    "  config           run profile (or analyze) from a YAML file: config -f FILE [--override-config ...]\n"
    "  create-template  write the YAML template: create-template [-f FILE] [-v]\n"
    "  process-export-files  merge the exports of several profile runs: process-export-files -d DIR\n"
    "GenAI-Perf 0.0.16 has no `compare`.\n";

volatile sig_atomic_t g_child = 0;

void forward_term_to_engine(int) {
  if (g_child > 0) kill(g_child, SIGTERM);
}

// Runs `self profile <args>` and waits; its stdout (AIPerf's console summary) is dropped unless
// `verbose`, its stderr (errors, warnings) is the user's.
int run_engine(const std::vector<std::string>& args, bool verbose) {
  std::vector<std::string> store{"aiperf", "profile"};
  store.insert(store.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : store) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::cout.flush();
  const pid_t pid = fork();
  if (pid < 0) {
    std::cerr << "Error: cannot start the benchmark (fork failed)\n";
    return 1;
  }
  if (pid == 0) {
    if (!verbose) {
      const int devnull = open("/dev/null", O_WRONLY);
      if (devnull >= 0) dup2(devnull, 1);
    }
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  // Ctrl-C reaches the whole foreground group: the run stops and writes its partial results,
  // which this process then converts. A TERM sent to this process alone is passed on.
  g_child = pid;
  signal(SIGINT, SIG_IGN);
  signal(SIGTERM, forward_term_to_engine);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  g_child = 0;
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

void write_file(const fs::path& path, const std::string& text) {
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

Format format_of(const ProfileArgs& a) {
  if (a.endpoint_type == "chat" || multimodal(a)) return Format::kChat;  // multimodal answers are chat's
  if (a.endpoint_type == "completions") return Format::kCompletions;
  if (a.endpoint_type == "kserve") return Format::kKserve;
  return Format::kEmbeddings;
}

// --generate-plots: GenAI-Perf's five plots in <dir>/plots (plot/genai_perf_plots.h), from the
// requests as its LLM parser sees them (responses without text dropped). Each response's tokens
// are counted as GenAI-Perf counts them ("!" + text, less the "!"), with the run's tokenizer; if
// it cannot be loaded, each response counts as one token (said on stderr).
void write_plots(const ProfileArgs& a, const fs::path& dir, const std::vector<PaRequest>& requests, Format format) {
  tok::TokenizerPtr tokenizer;
  try {
    const tok::HubEnv env = hub_env();
    tokenizer = tok::load_tokenizer(tok::resolve_tokenizer_path(a.tokenizer.empty() ? a.models.front() : a.tokenizer,
                                                                a.tokenizer_revision, true, env),
                                    env.tokenizer_cache);
  } catch (const std::exception& e) {
    std::cerr << "Warning: plots: the tokenizer did not load (" << e.what()
              << "); each response counts as one token in the token-to-token latency plot\n";
  }
  std::vector<plot::GenaiPerfRequest> in;
  for (const PaRequest& r : requests) {
    plot::GenaiPerfRequest g;
    g.start_ns = r.timestamp;
    g.input_tokens = r.input_tokens;
    g.output_tokens = r.output_tokens;
    for (size_t i = 0; i < r.response_outputs.size() && i < r.response_timestamps.size(); ++i) {
      const std::string text = response_text(r.response_outputs[i], format);
      if (text.empty()) continue;
      g.response_ns.push_back(r.response_timestamps[i]);
      const size_t forced = tokenizer ? tokenizer->count("!" + text) : 2;
      g.response_tokens.push_back(forced > 0 ? static_cast<int64_t>(forced) - 1 : 0);
    }
    if (!g.response_ns.empty()) in.push_back(std::move(g));
  }
  const fs::path plots = dir / "plots";
  std::cout << "Generating plots in " << plots.string() << "\n";
  plot::write_genai_perf_plots(plot::genai_perf_figures(plot::genai_perf_plot_data(in)), plots);
}

// How a time-windowed run (--measurement-interval) ended, for the conversion.
struct WindowCut {
  std::vector<int64_t> boundaries;  // the closed windows' edges: only requests ending within count
  bool failed = false;              // perf_analyzer would have failed: only inputs.json is written
};

// Our exports become GenAI-Perf's; AIPerf's own files go (the log stays).
// `stats_out` (when given) receives the statistics (without input_config); `edit` (when given)
// adjusts input_config (analyze's points echo the sweep, as GenAI-Perf does); `cut` (when given)
// keeps the requests of the measurement windows, or (failed) writes inputs.json only.
int convert(const ProfileArgs& a, const fs::path& dir, const std::string& version, int rc,
            nlohmann::ordered_json* stats_out = nullptr,
            const std::function<void(nlohmann::ordered_json&)>& edit = nullptr, const WindowCut* cut = nullptr) {
  const fs::path raw = dir / "profile_export_raw.jsonl";
  const fs::path records = dir / "profile_export.jsonl";
  if (!fs::exists(raw)) {
    std::cerr << "Error: the run wrote no records (" << raw.string() << " is missing)\n";
    return rc ? rc : 1;
  }
  std::ifstream raw_in(raw), records_in(records);
  std::vector<PaRequest> requests = requests_from_exports(raw_in, records_in);
  if (cut && !cut->failed) {
    std::vector<int64_t> ends;
    for (const PaRequest& r : requests) ends.push_back(r.response_timestamps.empty() ? r.timestamp : r.response_timestamps.back());
    std::vector<PaRequest> kept;
    for (const size_t i : requests_in_windows(ends, cut->boundaries)) kept.push_back(std::move(requests[i]));
    requests = std::move(kept);
  }
  const nlohmann::ordered_json ours_inputs =
      fs::exists(dir / "inputs.json") ? nlohmann::ordered_json::parse(std::ifstream(dir / "inputs.json"), nullptr, false)
                                      : nlohmann::ordered_json();
  for (const char* name :
       {"profile_export_raw.jsonl", "profile_export.jsonl", "profile_export_aiperf.json", "profile_export_aiperf.csv",
        "server_metrics_export.json", "server_metrics_export.csv", "profile_export_console.txt", "inputs.json"})
    fs::remove(dir / name);

  if (cut && cut->failed) {
    // GenAI-Perf writes inputs.json before perf_analyzer runs, and nothing after it fails.
    write_file(dir / "inputs.json", genai_inputs(ours_inputs).dump(2));
    return rc ? rc : 1;
  }
  const bool sessions = a.session_concurrency.has_value();
  if (sessions) {
    // perf_analyzer records each turn's session and the delay that followed it.
    const auto delays = session_delays(ours_inputs);
    for (PaRequest& r : requests) {
      r.session_id = r.conversation_id;
      const auto d = delays.find(r.conversation_id);
      if (d != delays.end() && r.turn_index >= 0 && static_cast<size_t>(r.turn_index) < d->second.size())
        r.delay_ms = d->second[static_cast<size_t>(r.turn_index)];
    }
  }
  // perf_analyzer's session mode records its load as request rate 0 (its mode has no
  // concurrency), over one window from 0 to the largest uint64.
  const bool rate = a.request_rate.has_value() || sessions;
  const nlohmann::ordered_json load = sessions ? nlohmann::ordered_json(0.0)
                                      : rate   ? nlohmann::ordered_json(*a.request_rate)
                                               : nlohmann::ordered_json(a.concurrency.value_or(1));
  const fs::path export_path =
      fs::path(a.profile_export_file).is_absolute() ? fs::path(a.profile_export_file) : dir / a.profile_export_file;
  nlohmann::ordered_json pa =
      pa_profile_export(requests, rate ? "request_rate" : "concurrency", load, service_kind(a), endpoint_path(a),
                        version, cut ? cut->boundaries : std::vector<int64_t>{});
  if (sessions)
    pa["experiments"][0]["window_boundaries"] =
        nlohmann::ordered_json::array({uint64_t{0}, std::numeric_limits<uint64_t>::max()});
  write_file(export_path, pa.dump(2));
  write_file(dir / "inputs.json", genai_inputs(ours_inputs, sessions).dump(2));
  if (requests.empty()) {
    std::cerr << "Error: no request succeeded; nothing to report\n";
    return rc ? rc : 1;
  }
  const Format format = format_of(a);
  nlohmann::ordered_json stats = compute_statistics(requests, format, a.goodput);
  const std::string stem = fs::path(a.profile_export_file).stem().string();
  std::cout << console_table(stats, format, a.streaming, 80,
                             a.endpoint_type == "multimodal" ? "Multi-Modal Metrics" : "");
  if (stats_out) *stats_out = stats;
  stats["input_config"] = input_config(a);
  if (edit) edit(stats["input_config"]);
  // Per-session statistics after input_config, as GenAI-Perf exports them.
  if (sessions)
    if (const nlohmann::ordered_json per_session = session_statistics(pa, requests, format); !per_session.is_null())
      stats["sessions"] = per_session;
  const fs::path json_path = dir / (stem + "_genai_perf.json");
  const fs::path csv_path = dir / (stem + "_genai_perf.csv");
  std::cout << "Generating " << json_path.string() << "\n";
  write_file(json_path, stats.dump(2));
  std::cout << "Generating " << csv_path.string() << "\n";
  write_file(csv_path, csv_text(stats, format, a.streaming));
  if (a.generate_plots) write_plots(a, dir, requests, format);
  return rc;
}

// convert(), its exceptions reported as errors.
int convert_guarded(const ProfileArgs& a, const fs::path& dir, const std::string& version, int rc,
                    nlohmann::ordered_json* stats_out, const std::function<void(nlohmann::ordered_json&)>& edit,
                    const WindowCut* cut) {
  try {
    return convert(a, dir, version, rc, stats_out, edit, cut);
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return rc ? rc : 1;
  }
}

// One profile run and its conversion: `--request-count` (or the default count) is one run of
// that many requests; `--measurement-interval` runs perf_analyzer's time windows until they are
// stable (genai_perf_windows.h) and reports the windows' requests. Returns the exit code.
int run_point(const ProfileArgs& a, const fs::path& dir, const std::string& version,
              nlohmann::ordered_json* stats_out = nullptr,
              const std::function<void(nlohmann::ordered_json&)>& edit = nullptr) {
  const std::vector<std::string> args = to_aiperf_args(a, dir.string());
  if (!a.measurement_interval) {
    const int rc = run_engine(args, a.verbose);
    if (rc == 2) return 2;  // our options check refused the mapped command line (message printed)
    return convert_guarded(a, dir, version, rc, stats_out, edit, nullptr);
  }
  WindowPlan plan{*a.measurement_interval, a.stability_percentage.value_or(999)};
  plan.request_rate = a.request_rate.has_value();
  plan.concurrency = a.concurrency.value_or(1);
  WindowWatcher watcher(plan, a.verbose);
  std::error_code ec;
  fs::remove(dir / "profile_export.jsonl", ec);  // a stale file must not feed the windows
  const WindowedRun run = run_windowed(args, (dir / "profile_export.jsonl").string(), watcher, a.verbose);
  if (run.engine_rc == 2 && !watcher.started()) return 2;
  WindowCut cut;
  cut.boundaries = watcher.boundaries();
  switch (watcher.outcome()) {
    case Outcome::kStable:
    case Outcome::kLatencyUnstable:
      return convert_guarded(a, dir, version, run.engine_rc, stats_out, edit, &cut);
    case Outcome::kUnstable:
    case Outcome::kNoValidRequests:
      // perf_analyzer exits with its status and GenAI-Perf fails (exit 1) on it.
      cut.failed = true;
      (void)convert_guarded(a, dir, version, 1, nullptr, nullptr, &cut);
      std::cerr << "Error: perf_analyzer's measurement failed (perf_analyzer exit status "
                << pa_exit_status(watcher.outcome()) << ")\n";
      return 1;
    case Outcome::kMeasuring:
      break;
  }
  if (run.interrupted)  // the user's Ctrl-C: what the closed windows measured is written
    return convert_guarded(a, dir, version, run.engine_rc, stats_out, edit, &cut);
  cut.failed = true;
  (void)convert_guarded(a, dir, version, 1, nullptr, nullptr, &cut);
  std::cerr << "Error: the benchmark ended (exit status " << run.engine_rc << ") after "
            << watcher.windows().size() << " of perf_analyzer's measurement windows, before they were stable\n";
  return run.engine_rc ? run.engine_rc : 1;
}

// perf_analyzer's refusal of a valid command line (perf_analyzer_refusal): GenAI-Perf exits 1 on
// it. Ours says so before anything runs (nothing is written); --dry-run warns and goes on.
// Returns false when the run must stop.
bool perf_analyzer_accepts(const ProfileArgs& a) {
  const std::string why = perf_analyzer_refusal(a);
  if (why.empty()) return true;
  if (a.dry_run) {
    std::cerr << "Warning: perf_analyzer would refuse this run: " << why << "\n";
    return true;
  }
  std::cerr << "error: " << why << "\nError: perf_analyzer, as GenAI-Perf 0.0.16 runs it, refuses this run; nothing "
            << "was run\n";
  return false;
}

// One run as the checkpoint knows it (genai_perf_checkpoint.h).
struct CheckpointedPoint {
  PointParameters params;
  std::vector<std::string> cli_args;  // perf_analyzer's command line, as GenAI-Perf builds it
  nlohmann::ordered_json gap_params;
};

// GenAI-Perf's "<name>:<objectives> found in checkpoint" line when the run is there: true then.
bool skipped(const Checkpoint& checkpoint, const CheckpointedPoint& p, const fs::path& dir) {
  const nlohmann::ordered_json* found = checkpoint.find(representation(p.cli_args, p.gap_params));
  if (!found) return false;
  std::string objectives;
  for (const auto* part : {&p.params.pa, &p.params.gap})
    for (const auto& [name, value] : part->items())
      objectives += (objectives.empty() ? "" : "-") + name +
                    (value.is_number_float() ? python_float(value.get<double>()) : value.dump());
  std::cout << (*found)["name"].get<std::string>() << ":" << objectives << " found in checkpoint. Results in '"
            << dir.string() << "/' - skipping profiling...\n";
  return true;
}

// Adds a measured run to the checkpoint under GenAI-Perf's next name and rewrites the file.
// Returns the name, or "" (said on stderr) when the file cannot be written.
std::string record_point(Checkpoint& checkpoint, const std::string& model, const CheckpointedPoint& p,
                         const nlohmann::ordered_json& stats) {
  std::string name = checkpoint.next_name(model);
  checkpoint.add(run_config_json(name, p.gap_params, model, p.params, p.cli_args, measurement_json(stats, model)));
  try {
    checkpoint.save();
  } catch (const std::exception& e) {
    std::cerr << "Error: --enable-checkpointing: " << e.what() << "\n";
    return "";
  }
  return name;
}

int profile_with(const ProfileArgs& a, const std::string& version) {
  if (!perf_analyzer_accepts(a)) return 1;
  const fs::path dir = artifact_directory(a);
  if (a.dry_run) {
    std::vector<std::string> args = to_aiperf_args(a, dir.string());
    args.push_back("--dry-run");
    return run_engine(args, true);
  }
  std::optional<Checkpoint> checkpoint;
  if (a.enable_checkpointing) {
    try {
      checkpoint.emplace(a.checkpoint_dir);
    } catch (const GenAiPerfOptionError& e) {
      std::cerr << "Error: --enable-checkpointing: " << e.what() << "\n";
      return 2;
    }
  }
  std::cout << "Profiling these models: ";
  for (size_t i = 0; i < a.models.size(); ++i) std::cout << (i ? ", " : "") << a.models[i];
  std::cout << "\n";
  if (!checkpoint) {
    std::cout << "Artifacts: " << dir.string() << "\n";
    return run_point(a, dir, version);
  }
  const PointParameters params = profile_parameters(a);
  const CheckpointedPoint point{params, pa_cli_args(a, params, dir.string()), gap_parameters(input_config(a), params)};
  if (skipped(*checkpoint, point, dir)) return 0;
  std::cout << "Artifacts: " << dir.string() << "\n";
  nlohmann::ordered_json stats;
  const int rc = run_point(a, dir, version, &stats);
  if (rc == 0 && !stats.is_null()) return record_point(*checkpoint, a.models.front(), point, stats).empty() ? 1 : 0;
  return rc;
}

int run_profile(const std::vector<std::string>& words, const std::string& version) {
  ProfileArgs a;
  try {
    a = parse_profile_args(words);
  } catch (const GenAiPerfOptionError& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 2;
  }
  if (a.help) {
    std::cout << profile_help();
    return 0;
  }
  return profile_with(a, version);
}

// analyze's CSV rows from the checkpoint's run configs (best first), the statistics of the runs
// in `measured` (this session's) as computed, the others' from their measurement.
std::vector<AnalyzeRow> checkpoint_rows(const Checkpoint& checkpoint, const std::string& model,
                                        const std::string& sweep_type, const std::vector<AnalyzeRow>& measured) {
  std::vector<AnalyzeRow> rows;
  for (const nlohmann::ordered_json& rc : checkpoint.run_configs()) {
    AnalyzeRow row;
    row.name = rc["name"].get<std::string>();
    row.load = inference_value(rc);
    const nlohmann::ordered_json gap = rc.value("genai_perf_config", nlohmann::ordered_json::object())
                                           .value("_parameters", nlohmann::ordered_json::object());
    const nlohmann::ordered_json entries = sweep_type == "num_dataset_entries" && gap.contains("num_dataset_entries")
                                               ? gap["num_dataset_entries"]
                                               : gap.value("input", nlohmann::ordered_json::object())
                                                     .value("num_dataset_entries", nlohmann::ordered_json(100));
    row.num_dataset_entries = entries.is_number() ? entries.get<int64_t>() : 100;
    const auto now =
        std::find_if(measured.begin(), measured.end(), [&](const AnalyzeRow& m) { return m.name == row.name; });
    row.stats = now != measured.end()
                    ? now->stats
                    : stats_from_measurement(rc.value("measurement", nlohmann::ordered_json::object()), model);
    rows.push_back(std::move(row));
  }
  return rows;
}

// One profile per sweep point, each in its own directory, then the summary CSV. A point that
// fails stops the sweep (GenAI-Perf stops when perf_analyzer fails) and no CSV is written.
int analyze_with(const ProfileArgs& base, const Sweep& sweep, const std::string& version) {
  if (!perf_analyzer_accepts(base)) return 1;
  if (base.dry_run) {
    for (int64_t value : sweep.values) {
      std::vector<std::string> args = to_aiperf_args(point_args(base, sweep, value), point_directory(base, sweep, value));
      args.push_back("--dry-run");
      if (const int rc = run_engine(args, true)) return rc;
    }
    return 0;
  }
  std::cout << "Profiling these models: ";
  for (size_t i = 0; i < base.models.size(); ++i) std::cout << (i ? ", " : "") << base.models[i];
  std::cout << "\n";
  // Every point's profile_export_genai_perf.json echoes the sweep and the user's own load, as
  // GenAI-Perf's input_config does.
  const nlohmann::ordered_json base_config = input_config(base);
  const auto edit = [&](nlohmann::ordered_json& ic) {
    ic["subcommand"] = "analyze";
    ic["analyze"]["sweep_parameters"] = sweep.echo;
    ic["perf_analyzer"]["stimulus"] = base_config["perf_analyzer"]["stimulus"];
    ic["input"]["num_dataset_entries"] = base_config["input"]["num_dataset_entries"];
    ic["input"]["synthetic_tokens"] = base_config["input"]["synthetic_tokens"];
  };
  std::optional<Checkpoint> checkpoint;
  if (base.enable_checkpointing) {
    try {
      checkpoint.emplace(base.checkpoint_dir);
    } catch (const GenAiPerfOptionError& e) {
      std::cerr << "Error: --enable-checkpointing: " << e.what() << "\n";
      return 2;
    }
  }
  std::vector<AnalyzeRow> rows;
  for (size_t i = 0; i < sweep.values.size(); ++i) {
    const int64_t value = sweep.values[i];
    ProfileArgs a = point_args(base, sweep, value);
    const fs::path dir = point_directory(base, sweep, value);
    std::optional<CheckpointedPoint> point;
    if (checkpoint) {
      nlohmann::ordered_json ic = input_config(a);
      edit(ic);
      const PointParameters params = sweep_parameters(sweep.type, value);
      point = CheckpointedPoint{params, pa_cli_args(a, params, dir.string()), gap_parameters(ic, params)};
      if (skipped(*checkpoint, *point, dir)) continue;
    }
    // GenAI-Perf 0.0.16's analyze makes each point's plots folder and draws nothing in it.
    if (a.generate_plots) fs::create_directories(dir / "plots");
    a.generate_plots = false;
    std::cout << "Artifacts: " << dir.string() << "\n";
    AnalyzeRow row;
    row.name = base.models.front() + "_run_config_" + std::to_string(i);
    row.load = point_load(base, sweep, value);
    row.num_dataset_entries = a.num_dataset_entries;
    const int done = run_point(a, dir, version, &row.stats, edit);
    if (done == 2 && row.stats.is_null()) return 2;
    if (done != 0 || row.stats.is_null()) {
      std::cerr << "Error: the sweep stopped at " << sweep.type << " " << value << " (" << dir.string()
                << "); no analyze_export_genai_perf.csv written\n";
      return done ? done : 1;
    }
    if (checkpoint) {
      row.name = record_point(*checkpoint, base.models.front(), *point, row.stats);
      if (row.name.empty()) return 1;
    }
    rows.push_back(std::move(row));
  }
  // With a checkpoint, the CSV reports every run config it holds (GenAI-Perf reports its
  // results, the ones resumed included); those measured now keep their statistics as computed.
  if (checkpoint) rows = checkpoint_rows(*checkpoint, base.models.front(), sweep.type, rows);
  std::string root = base.artifact_dir;
  const fs::path csv = fs::path(root) / "analyze_export_genai_perf.csv";
  std::cout << "Generating " << csv.string() << "\n";
  try {
    write_file(csv, analyze_csv(rows, load_is_request_rate(base, sweep)));
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

int run_analyze(const std::vector<std::string>& words, const std::string& version) {
  ProfileArgs a;
  Sweep sweep;
  try {
    a = parse_profile_args(words, true);
    if (a.help) {
      std::cout << analyze_help();
      return 0;
    }
    sweep = sweep_from_cli(a.sweep_type, a.sweep_range, a.sweep_list);
    // Every point must be a valid profile before the first one runs.
    for (int64_t value : sweep.values) (void)to_aiperf_args(point_args(a, sweep, value), "x");
  } catch (const GenAiPerfOptionError& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 2;
  }
  return analyze_with(a, sweep, version);
}

// Lists its own options, then profile's (which --override-config lets the command line set), in
// the form tests/compat/options.py reads.
std::string config_usage() {
  return "usage: genai-perf config -f FILE [--override-config] [-v] [profile options ...]\n\n"
         "Runs `profile` from a GenAI-Perf 0.0.16 YAML config (genai-perf create-template writes one), or\n"
         "`analyze` when the file has an analyze: section. Command-line options override the file's\n"
         "values only with --override-config.\n\n"
         "config:\n"
         "  --file, -f FILE     the YAML config\n"
         "  --override-config   let the command line's profile options override the file's values\n\n" +
         profile_options_help();
}

int run_config(const std::vector<std::string>& words, const std::string& version) {
  std::string file;
  bool override_config = false;
  std::vector<std::string> rest;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "-h" || w == "--help") {
      std::cout << config_usage();
      return 0;
    }
    if (w == "-f" || w == "--file") {
      if (i + 1 >= words.size()) {
        std::cerr << "Error: argument -f/--file: expected one argument\n";
        return 2;
      }
      file = words[++i];
    } else if (w.rfind("--file=", 0) == 0) {
      file = w.substr(7);
    } else if (w.rfind("-f", 0) == 0 && w.size() > 2 && w[2] != '-') {
      file = w.substr(2);
    } else if (w == "--override-config") {
      override_config = true;
    } else {
      rest.push_back(w);
    }
  }
  if (file.empty()) {
    std::cerr << "Error: the following arguments are required: -f/--file\n" << config_usage();
    return 2;
  }
  ProfileArgs a;
  ConfigRun cfg;
  try {
    cfg = read_config(file);
    bool only_verbose = true;
    for (const std::string& w : rest)
      if (w != "-v" && w != "--verbose") only_verbose = false;
    if (!only_verbose && !override_config)
      throw GenAiPerfOptionError("In order to use the CLI to override the config, the --override-config flag must be set.");
    if (cfg.process_input_path && !cfg.sweep) {
      // The runs' own files give the rest; only the output section applies.
      std::vector<std::string> words{"--input-directory=" + *cfg.process_input_path};
      for (const std::string& w : cfg.words)
        for (const char* o : {"--artifact-dir", "--checkpoint-dir", "--profile-export-file", "--generate-plots"})
          if (w.rfind(o, 0) == 0) words.push_back(w);
      words.insert(words.end(), rest.begin(), rest.end());
      return run_process_export_files(words);
    }
    try {
      a = parse_profile_args(cfg.words);
    } catch (const GenAiPerfOptionError& e) {
      // A conflict between keys, or a required key missing; the command line may still fix it.
      bool model_given = false;
      for (const std::string& w : cfg.words) model_given = model_given || w.rfind("--model", 0) == 0;
      for (const std::string& w : rest) model_given = model_given || w == "-m" || w.rfind("--model", 0) == 0 || w.rfind("-m", 0) == 0;
      if (!model_given) throw GenAiPerfOptionError(file + ": model_names: required (the model(s) to benchmark)");
      if (rest.empty()) throw GenAiPerfOptionError(file + ": " + e.what());
    }
    std::vector<std::string> all = cfg.words;
    all.insert(all.end(), rest.begin(), rest.end());
    a = parse_profile_args(all, true);
    // The file's integer percentage is echoed as one, unless the command line overrode it.
    const bool cli_stability = std::any_of(rest.begin(), rest.end(), [](const std::string& w) {
      return w.rfind("-s", 0) == 0 || w.rfind("--stab", 0) == 0;
    });
    a.stability_percentage_integral = cfg.stability_percentage_integral && !cli_stability;
    const bool cli_rates =
        std::any_of(rest.begin(), rest.end(), [](const std::string& w) { return w.rfind("--audio-s", 0) == 0; });
    if (cfg.audio_sample_rates_integral && !cli_rates) a.audio_sample_rates_integral = true;
    if (!a.sweep_type.empty() || !a.sweep_range.empty() || !a.sweep_list.empty())
      throw GenAiPerfOptionError("--sweep-type/--sweep-range/--sweep-list: give the sweep in the file's analyze: section "
                                 "(GenAI-Perf's config subcommand does not read them)");
    if (cfg.sweep)
      for (int64_t value : cfg.sweep->values) (void)to_aiperf_args(point_args(a, *cfg.sweep, value), "x");
  } catch (const GenAiPerfOptionError& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 2;
  }
  if (a.help) {
    std::cout << config_usage();
    return 0;
  }
  if (cfg.sweep) return analyze_with(a, *cfg.sweep, version);
  return profile_with(a, version);
}

int run_create_template(const std::vector<std::string>& words) {
  std::string file = "genai_perf_config.yaml";
  bool verbose = false;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "-h" || w == "--help") {
      std::cout << "usage: genai-perf create-template [-f FILE] [-v]\n\n"
                   "Writes GenAI-Perf 0.0.16's YAML config template (default genai_perf_config.yaml; an\n"
                   "existing file is never overwritten).\n\n"
                   "options:\n"
                   "  --file, -f FILE   the file to write\n"
                   "  --verbose, -v     each key's help as a comment above it\n";
      return 0;
    }
    if (w == "-f" || w == "--file") {
      if (i + 1 >= words.size()) {
        std::cerr << "Error: argument -f/--file: expected one argument\n";
        return 2;
      }
      file = words[++i];
    } else if (w.rfind("--file=", 0) == 0) {
      file = w.substr(7);
    } else if (w == "-v" || w == "--verbose") {
      verbose = true;
    } else {
      std::cerr << "Error: unrecognized arguments: " << w << "\n";
      return 2;
    }
  }
  const std::string error = write_template(file, verbose);
  if (!error.empty()) {
    std::cerr << "Error: " << error << "\n";
    return 2;
  }
  return 0;
}

}  // namespace

int maybe_run(int argc, char** argv, const std::string& version) {
  std::vector<std::string> words;
  if (argc >= 1 && fs::path(argv[0]).filename() == "genai-perf") {
    words.assign(argv + 1, argv + argc);
  } else if (argc >= 2 && std::string(argv[1]) == "genai-perf") {
    words.assign(argv + 2, argv + argc);
  } else {
    return -1;
  }
  if (words.empty() || words[0] == "-h" || words[0] == "--help") {
    std::cout << kUsage;
    return words.empty() ? 2 : 0;
  }
  if (words[0] == "--version") {
    std::cout << "genai-perf (aiperf " << version << ")\n";
    return 0;
  }
  const std::vector<std::string> rest(words.begin() + 1, words.end());
  if (words[0] == "profile") return run_profile(rest, version);
  if (words[0] == "analyze") return run_analyze(rest, version);
  if (words[0] == "config") return run_config(rest, version);
  if (words[0] == "create-template") return run_create_template(rest);
  if (words[0] == "process-export-files") return run_process_export_files(rest);
  if (words[0] == "compare") {
    std::cerr << "Error: genai-perf compare: GenAI-Perf 0.0.16 (the version this front end follows) has no "
              << "`compare` subcommand\n";
    return 2;
  }
  std::cerr << "Error: genai-perf: invalid choice: '" << words[0] << "'\n" << kUsage;
  return 2;
}

}  // namespace aiperf::cli::genai_perf
