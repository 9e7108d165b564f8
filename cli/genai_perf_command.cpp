#include "genai_perf_command.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "genai_perf_export.h"
#include "genai_perf_options.h"

namespace aiperf::cli::genai_perf {
namespace {

namespace fs = std::filesystem;

const char* kUsage =
    "usage: genai-perf <command> [options]\n\n"
    "GenAI-Perf 0.0.16's command line on aiperf's engine. Commands:\n"
    "  profile    run a benchmark (genai-perf profile --help)\n"
    "Not supported yet: analyze, compare, config, create-template, process-export-files.\n";

volatile sig_atomic_t g_child = 0;

void forward_term(int) {
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
  signal(SIGTERM, forward_term);
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
  if (a.endpoint_type == "chat") return Format::kChat;
  if (a.endpoint_type == "completions") return Format::kCompletions;
  return Format::kEmbeddings;
}

// Our exports become GenAI-Perf's; AIPerf's own files go (the log stays).
int convert(const ProfileArgs& a, const fs::path& dir, const std::string& version, int rc) {
  const fs::path raw = dir / "profile_export_raw.jsonl";
  const fs::path records = dir / "profile_export.jsonl";
  if (!fs::exists(raw)) {
    std::cerr << "Error: the run wrote no records (" << raw.string() << " is missing)\n";
    return rc ? rc : 1;
  }
  std::ifstream raw_in(raw), records_in(records);
  const std::vector<PaRequest> requests = requests_from_exports(raw_in, records_in);
  const nlohmann::ordered_json ours_inputs =
      fs::exists(dir / "inputs.json") ? nlohmann::ordered_json::parse(std::ifstream(dir / "inputs.json"), nullptr, false)
                                      : nlohmann::ordered_json();
  for (const char* name : {"profile_export_raw.jsonl", "profile_export.jsonl", "profile_export_aiperf.json",
                           "profile_export_aiperf.csv", "server_metrics_export.json", "server_metrics_export.csv",
                           "inputs.json"})
    fs::remove(dir / name);

  const bool rate = a.request_rate.has_value();
  const nlohmann::ordered_json load = rate ? nlohmann::ordered_json(*a.request_rate)
                                           : nlohmann::ordered_json(a.concurrency.value_or(1));
  const fs::path export_path = profile_export_path(a);
  write_file(export_path, pa_profile_export(requests, rate ? "request_rate" : "concurrency", load, service_kind(a),
                                            endpoint_path(a), version)
                              .dump(2));
  write_file(dir / "inputs.json", genai_inputs(ours_inputs).dump(2));
  if (requests.empty()) {
    std::cerr << "Error: no request succeeded; nothing to report\n";
    return rc ? rc : 1;
  }
  const Format format = format_of(a);
  nlohmann::ordered_json stats = compute_statistics(requests, format, a.goodput);
  const std::string stem = fs::path(a.profile_export_file).stem().string();
  std::cout << console_table(stats, format, a.streaming);
  stats["input_config"] = input_config(a);
  const fs::path json_path = dir / (stem + "_genai_perf.json");
  const fs::path csv_path = dir / (stem + "_genai_perf.csv");
  std::cout << "Generating " << json_path.string() << "\n";
  write_file(json_path, stats.dump(2));
  std::cout << "Generating " << csv_path.string() << "\n";
  write_file(csv_path, csv_text(stats, format, a.streaming));
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
  const fs::path dir = artifact_directory(a);
  if (a.dry_run) {
    std::vector<std::string> args = to_aiperf_args(a, dir.string());
    args.push_back("--dry-run");
    return run_engine(args, true);
  }
  std::cout << "Profiling these models: ";
  for (size_t i = 0; i < a.models.size(); ++i) std::cout << (i ? ", " : "") << a.models[i];
  std::cout << "\nArtifacts: " << dir.string() << "\n";
  const int rc = run_engine(to_aiperf_args(a, dir.string()), a.verbose);
  if (rc == 2) return 2;  // our options check refused the mapped command line (message printed)
  try {
    return convert(a, dir, version, rc);
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return rc ? rc : 1;
  }
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
  if (words[0] == "profile") return run_profile(std::vector<std::string>(words.begin() + 1, words.end()), version);
  for (const char* later : {"analyze", "compare", "config", "create-template", "process-export-files"})
    if (words[0] == later) {
      std::cerr << "Error: genai-perf " << words[0] << ": not supported yet by aiperf's genai-perf front end "
                << "(only `profile` is; see docs/user-guide.md, \"Coming from GenAI-Perf\")\n";
      return 2;
    }
  std::cerr << "Error: genai-perf: invalid choice: '" << words[0] << "'\n" << kUsage;
  return 2;
}

}  // namespace aiperf::cli::genai_perf
