// ProfileOptions -> RunConfig: the group finalize steps, then what spans groups.
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "options.h"
#include "endpoints/endpoint.h"
#include "environment.h"
#include "log/log.h"
#include "non_text_options.h"
#include "tokenizer/builtin_tokenizer.h"
#include "tokenizer/tokenizer.h"
#include "util/redact.h"
#include "util/uuid.h"

namespace aiperf::cli {
namespace {

// AIPerf's reconstructed command: flags as typed, values single-quoted, secrets masked.
// Masking the secret values themselves (not the words after --api-key/-H) also covers the
// --api-key=KEY, --header=... and JSON header spellings.
std::string cli_command(const std::vector<std::string>& argv, const config::RunConfig& run) {
  std::vector<std::string> secrets{run.endpoint.api_key};
  for (const auto& [name, value] : run.input.headers) {
    if (util::is_sensitive_header(name)) secrets.push_back(value);
  }
  std::string out = "aiperf";
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string a = util::redact(argv[i], secrets);
    out += ' ';
    if (a.rfind("-", 0) == 0 || i == 1) {
      out += a;
    } else {
      std::string quoted = "'";
      for (char c : a) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
      out += quoted + "'";
    }
  }
  return out;
}

// No --tokenizer: the model's own, except that AIPerf maps placeholder model names (mock-model,
// test-model...) to `builtin`, warning once per name. One tokenizer serves all models here, so
// with real and placeholder names mixed the first real one is used.
std::string default_tokenizer_name(const std::vector<std::string>& models) {
  std::string first_real;
  for (const std::string& m : models) {
    if (tok::is_fake_model_name(m)) {
      AIPERF_LOG(kWarning) << tok::placeholder_model_warning(m);
    } else if (first_real.empty()) {
      first_real = m;
    }
  }
  return first_real.empty() ? std::string(tok::kBuiltinTokenizerName) : first_real;
}

// The long names of the options given (input_config shows what was set). --auto-plot counts
// only when on, since --no-auto-plot is the same option.
std::vector<std::string> given_options(const ProfileOptions& o) {
  std::vector<std::string> out;
  if (o.app == nullptr) return out;
  for (const CLI::Option* opt : o.app->get_options()) {
    if (opt->count() == 0) continue;
    for (const std::string& name : opt->get_lnames())
      if (name != "auto-plot" || o.output.auto_plot) out.push_back(name);
  }
  return out;
}

// The records of a fixed-schedule input as AIPerf counts them for its request count: non-blank
// lines of a file, or of every .jsonl under a directory. Other forms (Parquet, Arrow, gzip)
// are not counted here (nullopt): input_config then shows no request count.
std::optional<uint64_t> count_schedule_records(const std::string& path) {
  namespace fs = std::filesystem;
  auto count_lines = [](const fs::path& file) {
    std::ifstream in(file);
    uint64_t n = 0;
    for (std::string line; std::getline(in, line);)
      if (line.find_first_not_of(" \t\r") != std::string::npos) ++n;
    return n;
  };
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    uint64_t total = 0;
    for (const auto& entry : fs::recursive_directory_iterator(path, ec))
      if (entry.is_regular_file() && entry.path().extension() == ".jsonl") total += count_lines(entry.path());
    return total;
  }
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".parquet" || ext == ".arrow" || ext == ".ipc" || ext == ".gz" || !fs::is_regular_file(path, ec))
    return std::nullopt;
  const uint64_t n = count_lines(path);
  return n > 0 ? std::optional<uint64_t>(n) : std::nullopt;
}

}  // namespace

config::RunConfig build_run_config(ProfileOptions& o, const std::vector<std::string>& argv) {
  finalize_endpoint_options(o);
  // Before the input options' own checks, as AIPerf's converter refuses these first.
  if (const endpoints::EndpointInfo* ep = endpoints::find_endpoint(o.config.endpoint.type);
      ep && !ep->tokenizes_input && !ep->produces_tokens)
    refuse_non_text_options(o, o.config.endpoint.type);
  finalize_control_options(o);
  finalize_input_options(o);
  apply_scenario(o);  // needs the dataset type; fills what finalize_load_options reads
  finalize_load_options(o);
  finalize_connection_plan(o);
  finalize_service_options(o);
  finalize_telemetry_options(o);
  finalize_accuracy_options(o);

  auto& c = o.config;
  // An endpoint that neither tokenizes its input nor produces tokens (image_retrieval,
  // audio_transcription) needs no tokenizer: AIPerf refuses the text and tokenizer options for
  // it (non_text_options.h, checked above), and the bundled one stands in for the services,
  // which count nothing with it.
  if (const endpoints::EndpointInfo* ep = endpoints::find_endpoint(c.endpoint.type);
      ep && !ep->tokenizes_input && !ep->produces_tokens) {
    if (!c.tokenizer.name.empty())
      throw OptionError("Tokenizer options (--tokenizer) cannot be used with --endpoint-type " + c.endpoint.type + ".");
    c.tokenizer.name = std::string(tok::kBuiltinTokenizerName);
  }
  if (c.tokenizer.name.empty()) c.tokenizer.name = default_tokenizer_name(c.endpoint.model_names);
  // A dry run downloads nothing: a Hub tokenizer not cached yet is noted (a run downloads it).
  try {
    const tok::HubEnv env = hub_env();  // the environment is read here, not in services
    c.tokenizer.resolved_path = tok::resolve_tokenizer_path(c.tokenizer.name, c.tokenizer.revision, !o.dry_run, env);
    c.tokenizer.cache_dir = env.tokenizer_cache;
    tok::load_tokenizer(c.tokenizer.resolved_path, c.tokenizer.cache_dir);  // pre-flight: fail before spawning anything
    c.tokenizer.resolved_path = std::filesystem::absolute(c.tokenizer.resolved_path).string();
  } catch (const tok::TokenizerNotCached&) {
    o.dry_run_notes.push_back("--tokenizer " + c.tokenizer.name +
                              ": not in the HuggingFace cache; a run downloads it (not checked)");
  } catch (const tok::TokenizerError& e) {
    std::string message = std::string("--tokenizer: ") + e.what();
    // A Hub name that could not be fetched (offline, a typo, a gated repo): say what works instead.
    if (!std::filesystem::exists(c.tokenizer.name)) {
      message +=
          "\n  Use a local tokenizer (--tokenizer /path/to/dir or tokenizer.json), a Hub name already in the "
          "cache (e.g. --tokenizer gpt2), or --tokenizer builtin (o200k_base, no download needed).";
    }
    throw OptionError(message);
  }

  finalize_multi_run_options(o);
  if (!o.dry_run) wait_for_model(c);  // before anything is written; throws control::ReadinessTimeout
  finalize_output_options(o);         // last: creates the artifact directory only for valid options
  if (!o.dry_run && c.service.zmq_host.empty() && c.service.zmq_ipc_path.empty()) {
    char tmpl[] = "/tmp/aiperf-XXXXXX";  // short: ipc paths must stay under sun_path's 107 bytes
    if (!mkdtemp(tmpl)) throw OptionError("cannot create a temporary IPC directory in /tmp");
    c.service.zmq_ipc_path = tmpl;
  }
  c.service.cli_command = cli_command(argv, c);
  c.given_options = given_options(o);
  const bool count_given =
      std::find(c.given_options.begin(), c.given_options.end(), "request-count") != c.given_options.end();
  if (c.input.fixed_schedule && !count_given && !c.input.input_file.empty())
    c.fixed_schedule_records = count_schedule_records(c.input.input_file);
  c.benchmark_id = util::uuid4();
  return c;
}

}  // namespace aiperf::cli
