// The Output section's remote exports (AIPerf 0.13): --otel-url and its --stream,
// --otel-resource-attributes, --gen-ai-provider; --mlflow-*; --wandb-*. Checked with the
// reference's messages (exit 2 before anything starts); sent by remote_export.cpp after the run.
#include <cstdlib>
#include <stdexcept>

#include "control/control_transport.h"
#include "export/otel_payload.h"
#include "key_value.h"
#include "options.h"
#include "remote_export.h"
#include "time/clock.h"
#include "util/output_paths.h"
#include "util/version.h"
#include "util/text.h"
#include "validators.h"

namespace aiperf::cli {
namespace {

// A list option also takes comma-separated values (AIPerf's parse_str_or_list).
std::vector<std::string> split_commas(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const std::string& item : items) {
    size_t start = 0;
    while (start <= item.size()) {
      size_t comma = item.find(',', start);
      if (comma == std::string::npos) comma = item.size();
      out.push_back(util::trim(item.substr(start, comma - start), util::kBlankOrNewline));
      start = comma + 1;
    }
  }
  return out;
}

// --mlflow-tag: key:value pairs or a JSON object, parsed as --header's (values as text).
std::vector<std::pair<std::string, std::string>> mlflow_tags(const std::vector<std::string>& items) {
  try {
    return parse_headers(items);
  } catch (const OptionError& e) {
    std::string m = e.what();
    if (const size_t at = m.find("--header"); at != std::string::npos) m.replace(at, 8, "--mlflow-tag");
    throw OptionError(m);
  }
}

}  // namespace

void add_remote_export_options(CLI::App& app, ProfileOptions& o) {
  auto& r = o.remote_export;
  const char* g = "Output";
  add_optional(app, "--otel-url", r.otel_url,
               "OTLP/HTTP metrics endpoint (host[:port] or URL; /v1/metrics appended): the run's per-request "
               "metrics are sent there as OTLP histograms when it ends")
      ->group(g);
  r.stream_opt = app.add_option("--stream", r.stream, "OTel domains: metrics, timing, default (both) or none")
                     ->expected(1, -1)
                     ->group(g);
  r.attrs_opt = app.add_option("--otel-resource-attributes", r.otel_resource_attributes,
                               "Extra OTel resource attributes, key=value (repeatable or comma-separated)")
                    ->expected(1, -1)
                    ->group(g);
  add_optional(app, "--gen-ai-provider", r.gen_ai_provider,
               "gen_ai.provider.name of the GenAI metrics (default: from the URL host, else _OTHER)")
      ->group(g);
  add_optional(app, "--mlflow-tracking-uri", r.mlflow_tracking_uri,
               "MLflow tracking server (http or https): a run with the summary metrics, params, tags and artifacts")
      ->group(g);
  add_optional(app, "--mlflow-experiment", r.mlflow_experiment, "MLflow experiment name (default: aiperf)")->group(g);
  add_optional(app, "--mlflow-run-name", r.mlflow_run_name, "MLflow run name (default: the artifact directory's name)")
      ->group(g);
  r.tags_opt = app.add_option("--mlflow-tag", r.mlflow_tags, "MLflow run tags, key:value (repeatable) or a JSON object")
                   ->expected(1, -1)
                   ->group(g);
  add_optional(app, "--mlflow-parent-run-id", r.mlflow_parent_run_id, "MLflow parent run id (mlflow.parentRunId tag)")
      ->group(g);
  r.globs_opt = app.add_option("--mlflow-artifact-glob", r.mlflow_artifact_globs,
                               "Artifact files to upload (globs relative to the artifact directory)")
                    ->expected(1, -1)
                    ->group(g);
  add_optional(app, "--wandb-project", r.wandb_project, "Weights & Biases project (not supported: exits 2)")->group(g);
  add_optional(app, "--wandb-entity", r.wandb_entity, "Weights & Biases entity")->group(g);
  add_optional(app, "--wandb-run-name", r.wandb_run_name, "Weights & Biases run name")->group(g);
  r.wandb_tags_opt =
      app.add_option("--wandb-tag", r.wandb_tags, "Weights & Biases run tags")->expected(1, -1)->group(g);
}

// AIPerf's build_otel / build_mlflow / build_wandb checks, in its order and with its messages.
void finalize_remote_export_options(ProfileOptions& o) {
  auto& r = o.remote_export;
  try {
    if (r.otel_url) {
      r.otel_endpoint = exporting::normalize_otel_url(*r.otel_url);
    } else {
      std::string offenders;
      if (given(r.stream_opt)) offenders += "--stream";
      if (given(r.attrs_opt)) offenders += std::string(offenders.empty() ? "" : ", ") + "--otel-resource-attributes";
      if (r.gen_ai_provider) offenders += std::string(offenders.empty() ? "" : ", ") + "--gen-ai-provider";
      if (!offenders.empty())
        throw OptionError(
            offenders +
            " requires --otel-url to be set; OTel streaming is disabled when no OTLP endpoint is configured.");
    }
    if (given(r.stream_opt))
      std::tie(r.stream_metrics, r.stream_timing) = exporting::resolve_otel_stream(split_commas(r.stream));
    if (given(r.attrs_opt))
      r.resource_attributes = exporting::parse_otel_resource_attributes(r.otel_resource_attributes);
  } catch (const std::invalid_argument& e) {
    throw OptionError(e.what());
  }

  // MLflow: empty globs first, then the missing tracking URI, then the values.
  if (given(r.globs_opt)) {
    std::vector<std::string> globs;
    for (const std::string& g : split_commas(r.mlflow_artifact_globs)) {
      if (g.empty()) throw OptionError("--mlflow-artifact-glob entries cannot be empty.");
      globs.push_back(g);
    }
    r.mlflow_artifact_globs = globs;
  }
  if (r.mlflow_tracking_uri) {
    *r.mlflow_tracking_uri = util::trim(*r.mlflow_tracking_uri, util::kBlankOrNewline);
    if (r.mlflow_tracking_uri->empty()) throw OptionError("--mlflow-tracking-uri cannot be empty.");
  }
  if (!r.mlflow_tracking_uri) {
    if (r.mlflow_experiment || r.mlflow_run_name || given(r.tags_opt) || r.mlflow_parent_run_id || given(r.globs_opt))
      throw OptionError(
          "--mlflow-experiment, --mlflow-run-name, --mlflow-tag, --mlflow-artifact-glob, and "
          "--mlflow-parent-run-id require --mlflow-tracking-uri to be set.");
  } else {
    if (r.mlflow_experiment) {
      *r.mlflow_experiment = util::trim(*r.mlflow_experiment, util::kBlankOrNewline);
      if (r.mlflow_experiment->empty())
        throw OptionError("--mlflow-experiment cannot be empty when --mlflow-tracking-uri is set.");
    }
    if (r.mlflow_run_name) {
      *r.mlflow_run_name = util::trim(*r.mlflow_run_name, util::kBlankOrNewline);
      if (r.mlflow_run_name->empty()) r.mlflow_run_name.reset();
    }
    if (given(r.tags_opt)) mlflow_tags(r.mlflow_tags);  // throws OptionError on a malformed tag
    // Ours: only the REST API of a tracking server. AIPerf's Python client also writes local
    // file stores and databases; we refuse those before anything starts.
    const std::string& uri = *r.mlflow_tracking_uri;
    if (uri.rfind("http://", 0) != 0 && uri.rfind("https://", 0) != 0)
      throw OptionError("--mlflow-tracking-uri: '" + uri +
                        "' is not supported: only an MLflow tracking server's http:// or https:// URI is (local "
                        "file stores and databases need the Python MLflow client); start `mlflow server` and pass "
                        "its URL.");
  }

  // Weights & Biases.
  if (r.wandb_project) {
    if (util::trim(*r.wandb_project, util::kBlankOrNewline).empty())
      throw OptionError("--wandb-project cannot be empty.");
    if (r.wandb_entity && util::trim(*r.wandb_entity, util::kBlankOrNewline).empty())
      throw OptionError("--wandb-entity cannot be empty when set.");
    // Ours: W&B's upload protocol (GraphQL run upsert plus its file-stream API, keyed by the
    // wandb client's login) is not implemented; refuse rather than silently export nothing.
    throw OptionError(
        "--wandb-project: Weights & Biases export is not supported by this aiperf build. Send the run's metrics "
        "with --otel-url (OTLP/HTTP) or --mlflow-tracking-uri (MLflow tracking server) instead.");
  }
  if (r.wandb_entity || r.wandb_run_name || given(r.wandb_tags_opt))
    throw OptionError("--wandb-entity, --wandb-run-name, and --wandb-tag require --wandb-project to be set.");
  const double timeout = remote_export_timeout_s();
  if (!(timeout > 0)) throw OptionError("AIPERF_OTEL_REQUEST_TIMEOUT_SECONDS must be a positive number of seconds.");
}

double remote_export_timeout_s() {
  const char* v = std::getenv("AIPERF_OTEL_REQUEST_TIMEOUT_SECONDS");
  if (!v || !*v) return 10.0;
  char* end = nullptr;
  const double d = std::strtod(v, &end);
  return end && *end == '\0' ? d : -1.0;
}

void send_remote_exports(const ProfileOptions& o, const config::RunConfig& c, int64_t start_unix_ns) {
  const auto& r = o.remote_export;
  if (r.otel_endpoint.empty() && !r.mlflow_tracking_uri) return;
  RemoteExportSettings s;
  s.artifact_dir = c.output.artifact_dir;
  s.records_jsonl = util::artifact_file(c, "profile_export.jsonl");
  s.summary_json = util::artifact_file(c, "profile_export_aiperf.json");
  s.benchmark_id = c.benchmark_id;
  s.endpoint_type = c.endpoint.type;
  s.urls = c.endpoint.urls;
  s.models = c.endpoint.model_names;
  s.timeout_s = remote_export_timeout_s();
  s.now_unix_ns = wall_now_ns();
  s.start_unix_ns = start_unix_ns;
  s.otel_endpoint = r.otel_endpoint;
  s.stream_metrics = r.stream_metrics;
  s.stream_timing = r.stream_timing;
  s.gen_ai_provider = r.gen_ai_provider.value_or("");
  s.resource_attributes = r.resource_attributes;
  if (r.mlflow_tracking_uri) {
    s.mlflow_uri = *r.mlflow_tracking_uri;
    if (r.mlflow_experiment) s.mlflow_experiment = *r.mlflow_experiment;
    s.mlflow_run_name = r.mlflow_run_name;
    s.mlflow_parent_run_id = r.mlflow_parent_run_id;
    if (given(r.tags_opt)) s.mlflow_tags = mlflow_tags(r.mlflow_tags);
    s.mlflow_artifact_globs = r.mlflow_artifact_globs;
    s.version = util::kVersion;
    // AIPerf's params: the endpoint, the artifact directory, the profiling load and the command.
    std::string models, urls;
    for (const auto& m : c.endpoint.model_names) models += (models.empty() ? "" : ",") + m;
    for (const auto& u : c.endpoint.urls) urls += (urls.empty() ? "" : ",") + u;
    s.params = {{"endpoint.type", c.endpoint.type},
                {"endpoint.models", models},
                {"endpoint.urls", urls},
                {"output.artifact_directory", c.output.artifact_dir},
                {"timing.mode", c.stimulus()}};
    const auto num = [](double d) {
      std::string t = std::to_string(d);
      t.erase(t.find_last_not_of('0') + 1);
      if (!t.empty() && t.back() == '.') t += '0';
      return t;
    };
    if (c.loadgen.concurrency) s.params.emplace_back("loadgen.concurrency", std::to_string(*c.loadgen.concurrency));
    if (c.loadgen.request_rate) s.params.emplace_back("loadgen.request_rate", num(*c.loadgen.request_rate));
    if (c.loadgen.request_count)
      s.params.emplace_back("loadgen.request_count", std::to_string(*c.loadgen.request_count));
    if (c.loadgen.benchmark_duration)
      s.params.emplace_back("loadgen.benchmark_duration", num(*c.loadgen.benchmark_duration));
    if (!c.service.cli_command.empty()) s.params.emplace_back("aiperf.cli_command", c.service.cli_command);
  }
  auto transport = control::make_http_transport(c.endpoint.verify_tls);
  run_remote_exports(s, *transport);
}

}  // namespace aiperf::cli
