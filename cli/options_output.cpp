// Output and tokenizer groups (spec §2.1).
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "endpoints/endpoint.h"
#include "options.h"
#include "validators.h"
#include "endpoints/metric_context_for.h"

namespace aiperf::cli {
namespace {

// --dry-run: what create_directories would find wrong, without creating anything: the
// directory, or its nearest existing ancestor, must be a writable directory. Same message as a run.
void check_creatable(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::absolute(dir, ec).lexically_normal();
  while (!p.empty() && !fs::exists(p, ec) && p != p.parent_path()) p = p.parent_path();
  std::errc err{};
  if (!fs::is_directory(p, ec)) err = std::errc::not_a_directory;
  else if (::access(p.c_str(), W_OK | X_OK) != 0) err = std::errc::permission_denied;
  if (err != std::errc{})
    throw OptionError("--artifact-dir: cannot create " + dir + ": " + std::make_error_code(err).message());
}

// AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD: a percentage in [0, 100], as AIPerf 0.13's settings
// declare it (unset or empty: the default).
double usage_pct_diff_threshold(double fallback) {
  const char* v = std::getenv("AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD");
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const double d = std::strtod(v, &end);
  if (end == v || *end != '\0' || !(d >= 0 && d <= 100))
    throw OptionError(
        std::string("AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD: expected a percentage from 0 to 100, got ") + v);
  return d;
}

}  // namespace

void add_output_options(CLI::App& app, ProfileOptions& o) {
  auto& out = o.config.output;
  const char* g = "Output";
  add_optional(app, "--artifact-dir,--output-artifact-dir", o.output.artifact_dir, "Artifact directory")->group(g);
  app.add_option("--profile-export-prefix,--profile-export-file", out.profile_export_prefix, "Export file prefix")->group(g);
  add_enum_option(app, "--export-level,--profile-export-level", out.export_level, "summary, records or raw")
      ->transform(choice({"summary", "records", "raw"}))
      ->group(g);
  add_optional(app, "--slice-duration", out.slice_duration, "Timeslice width in seconds (timeslice exports)")
      ->check(kPositive)->group(g);
  app.add_flag("--export-http-trace", out.export_http_trace, "Include HTTP trace_data in profile_export.jsonl")
      ->group(g);
  app.add_flag("--show-trace-timing", out.show_trace_timing, "Print the HTTP trace timing table")->group(g);
  app.add_flag("--auto-plot,!--no-auto-plot", o.output.auto_plot,
               "Run `aiperf plot` on the artifact directory after the run (a sweep: on its whole tree)")
      ->group(g);
  app.add_flag("--plot-required", o.output.plot_required, "With --auto-plot: a plot failure makes the run fail (exit 1)")
      ->group(g);
  app.add_flag("--export-outputs-json", out.export_outputs_json,
               "Write outputs.json: the generated text and per-request metrics of every profiling request")
      ->group(g);
  app.add_flag("--dry-run", o.dry_run,
               "Ours: parse and validate every option as a run would, print the result, start and write nothing")
      ->group(g);
  add_optional(app, "--goodput", out.goodput, "SLOs \"tag:value ...\" in display units (e.g. request_latency:250)")
      ->group("Input");
  add_remote_export_options(app, o);
  auto& t = o.config.tokenizer;
  app.add_option("--tokenizer", t.name, "Tokenizer: local dir/file, Hub repo id, bundled gpt2, `builtin` (tiktoken o200k_base, no network) or a tiktoken encoding name (default: the model; builtin for placeholder names such as mock-model)")->group("Tokenizer");
  app.add_option("--tokenizer-revision", t.revision, "Tokenizer revision")->group("Tokenizer");
  app.add_flag("--tokenizer-trust-remote-code", t.trust_remote_code, "")->group("Tokenizer");
  app.add_flag("--apply-chat-template", t.apply_chat_template,
               "Count the ISL of chat-shaped requests through the tokenizer's chat template (role headers, "
               "generation prompt); bare text when the tokenizer has none")
      ->group("Tokenizer");
}

void finalize_output_options(ProfileOptions& o) {
  auto& c = o.config;
  finalize_remote_export_options(o);
  c.output.usage_pct_diff_threshold = usage_pct_diff_threshold(c.output.usage_pct_diff_threshold);
  if (c.output.goodput) {
    const endpoints::EndpointInfo* ep = endpoints::find_endpoint(c.endpoint.type);
    try {
      if (ep) endpoints::metric_context_for(c, *ep);
    } catch (const std::invalid_argument& e) {
      throw OptionError(e.what());
    }
  }
  std::string dir;
  if (o.output.artifact_dir) {
    dir = *o.output.artifact_dir;
    c.output.artifact_dir_explicit = true;
  } else {
    std::string model = c.endpoint.model_names.front();
    if (c.endpoint.model_names.size() > 1) model += "_multi";
    std::replace(model.begin(), model.end(), '/', '_');
    dir = "artifacts/" + model + "-openai-" + c.endpoint.type + "-" + c.stimulus();
  }
  if (!c.output.profile_export_prefix.empty()) {
    std::string& p = c.output.profile_export_prefix;
    for (const char* ext : {"_raw.jsonl", ".jsonl", ".json", ".csv"}) {
      const std::string e(ext);
      if (p.size() > e.size() && p.compare(p.size() - e.size(), e.size(), e) == 0) {
        p.resize(p.size() - e.size());
        break;
      }
    }
    // The summary JSON would overwrite outputs.json (the reference refuses this too).
    namespace fs = std::filesystem;
    if (c.output.export_outputs_json &&
        (fs::path(dir) / (p + ".json")).lexically_normal() == (fs::path(dir) / "outputs.json").lexically_normal()) {
      throw OptionError("--profile-export-prefix resolves to '" + p + "' which produces '" + p +
                        ".json', colliding with --export-outputs-json (also 'outputs.json'). Use a different prefix.");
    }
  }
  std::error_code ec;
  namespace fs = std::filesystem;
  if (o.dry_run) {
    check_creatable(dir);
  } else {
    fs::create_directories(fs::path(dir) / "logs", ec);
    if (ec) throw OptionError("--artifact-dir: cannot create " + dir + ": " + ec.message());
  }
  c.output.artifact_dir = fs::absolute(dir).lexically_normal().string();
  if (c.output.artifact_dir.size() > 1 && c.output.artifact_dir.back() == '/') c.output.artifact_dir.pop_back();
}

}  // namespace aiperf::cli
