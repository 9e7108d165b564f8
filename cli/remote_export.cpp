#include "remote_export.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "export/otel_payload.h"
#include "log/log.h"

namespace aiperf::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string url_encode(const std::string& s, bool keep_slash) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || (keep_slash && c == '/')) {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

// "user:secret@" dropped from a URL (params and mlflow_export.json never carry credentials).
std::string redact_url(const std::string& url) {
  const size_t scheme = url.find("://");
  const size_t start = scheme == std::string::npos ? 0 : scheme + 3;
  const size_t end = url.find_first_of("/?#", start);
  const size_t at = url.rfind('@', end == std::string::npos ? std::string::npos : end);
  if (at == std::string::npos || at < start) return url;
  return url.substr(0, start) + url.substr(at + 1);
}

class Exporter {
 public:
  Exporter(const RemoteExportSettings& s, control::ControlTransport& t) : s_(s), t_(t) {}

  void warn(const std::string& message) {
    AIPERF_LOG(kWarning) << message;
    warnings_.push_back(message);
  }

  void otel() {
    if (!s_.stream_metrics) {
      // Ours: the phase timing counters (aiperf.timing.*) are not exported.
      warn("OTel export: --stream selects no domain this build exports (only 'metrics'); nothing sent to " +
           s_.otel_endpoint);
      return;
    }
    exporting::OtelRunContext ctx;
    ctx.resource = {{"service.name", "aiperf"}, {"service.instance.id", "records-manager"}};
    if (!s_.benchmark_id.empty()) ctx.resource.emplace_back("aiperf.benchmark.id", s_.benchmark_id);
    ctx.resource.emplace_back("aiperf.endpoint.type", s_.endpoint_type);
    if (!s_.models.empty()) ctx.resource.emplace_back("aiperf.model.name", s_.models.front());
    for (const auto& attr : s_.resource_attributes) {
      auto it = std::find_if(ctx.resource.begin(), ctx.resource.end(),
                             [&](const auto& kv) { return kv.first == attr.first; });
      if (it != ctx.resource.end()) it->second = attr.second;
      else ctx.resource.push_back(attr);
    }
    ctx.operation = exporting::gen_ai_operation_name(s_.endpoint_type);
    ctx.provider = exporting::infer_gen_ai_provider(s_.gen_ai_provider, s_.urls);
    ctx.model = s_.models.empty() ? "" : s_.models.front();
    ctx.start_unix_ns = s_.start_unix_ns;
    ctx.time_unix_ns = s_.now_unix_ns;
    exporting::OtelHistogramBuilder builder(ctx);
    std::ifstream in(s_.records_jsonl);
    if (!in) {
      warn("OTel export skipped: no per-request records (" + s_.records_jsonl + ")");
      return;
    }
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      json record = json::parse(line, nullptr, false);
      if (!record.is_discarded()) builder.add_record(record);
    }
    const std::string body = builder.request().dump();
    const auto r = t_.send("POST", s_.otel_endpoint, {{"Content-Type", "application/json"}}, body, s_.timeout_s);
    if (r.status < 200 || r.status > 299) {
      warn("OTel export to " + s_.otel_endpoint +
           " failed: " + (r.status == 0 ? r.error : "HTTP " + std::to_string(r.status) + " " + r.body.substr(0, 200)) +
           " (the run's results are unaffected)");
      return;
    }
    AIPERF_LOG(kInfo) << "OTel export: " << builder.metric_count() << " metrics sent to " << s_.otel_endpoint;
  }

  // One MLflow REST call; nullopt (after a warning) on failure.
  std::optional<json> call(const std::string& method, const std::string& path, const json& body,
                           int* status = nullptr) {
    const std::string url = base() + "/api/2.0/mlflow/" + path;
    const auto r =
        t_.send(method, url, {{"Content-Type", "application/json"}}, method == "GET" ? "" : body.dump(), s_.timeout_s);
    if (status) *status = r.status;
    if (r.status >= 200 && r.status <= 299) {
      json j = json::parse(r.body.empty() ? "{}" : r.body, nullptr, false);
      return j.is_discarded() ? json::object() : j;
    }
    if (!status)
      warn("MLflow export: " + method + " " + redact_url(url) +
           " failed: " + (r.status == 0 ? r.error : "HTTP " + std::to_string(r.status) + " " + r.body.substr(0, 200)));
    return std::nullopt;
  }

  void mlflow() {
    json summary = json::parse(read_or_empty(s_.summary_json), nullptr, false);
    if (summary.is_discarded() || !summary.is_object()) {
      warn("MLflow export skipped: cannot read " + s_.summary_json);
      return;
    }
    // Experiment by name, created when missing.
    int status = 0;
    std::string experiment_id;
    auto got =
        call("GET", "experiments/get-by-name?experiment_name=" + url_encode(s_.mlflow_experiment, false), {}, &status);
    if (got) {
      experiment_id = got->value("experiment", json::object()).value("experiment_id", std::string());
    } else if (status == 404) {
      auto created = call("POST", "experiments/create", {{"name", s_.mlflow_experiment}});
      if (!created) return fail();
      experiment_id = created->value("experiment_id", std::string());
    } else {
      warn("MLflow export: experiment '" + s_.mlflow_experiment + "' lookup at " + redact_url(base()) + " failed (" +
           (status == 0 ? std::string("no response") : "HTTP " + std::to_string(status)) + ")");
      return fail();
    }
    // A missing parent makes a root run, with a warning (as AIPerf).
    std::optional<std::string> parent = s_.mlflow_parent_run_id;
    if (parent) {
      int st = 0;
      if (!call("GET", "runs/get?run_id=" + url_encode(*parent, false), {}, &st)) {
        warn("parent_run_id " + *parent + " not found; creating root MLflow run instead (HTTP " + std::to_string(st) +
             ")");
        parent.reset();
      }
    }
    const std::string run_name = s_.mlflow_run_name ? *s_.mlflow_run_name : "aiperf-" + s_.benchmark_id.substr(0, 8);
    const int64_t now_ms = s_.now_unix_ns / 1000000;
    json create_tags = json::array();
    create_tags.push_back({{"key", "mlflow.runName"}, {"value", run_name}});
    if (parent) create_tags.push_back({{"key", "mlflow.parentRunId"}, {"value", *parent}});
    auto run =
        call("POST", "runs/create",
             {{"experiment_id", experiment_id}, {"start_time", now_ms}, {"run_name", run_name}, {"tags", create_tags}});
    if (!run) return fail();
    const json info = run->value("run", json::object()).value("info", json::object());
    const std::string run_id = info.value("run_id", std::string());
    const std::string artifact_uri = info.value("artifact_uri", std::string());

    const auto metrics = mlflow_metric_payload(summary);
    std::vector<std::pair<std::string, std::string>> tags{
        {"aiperf.version", s_.version},
        {"aiperf.was_cancelled", summary.value("was_cancelled", false) ? "true" : "false"}};
    if (!s_.benchmark_id.empty()) tags.emplace_back("benchmark_id", s_.benchmark_id);
    for (const auto& t : s_.mlflow_tags) tags.push_back(t);
    // log-batch takes at most 1000 metrics, 100 params and 100 tags per call.
    bool ok = true;
    for (size_t i = 0; ok && (i == 0 || i < metrics.size()); i += 1000) {
      json body{{"run_id", run_id}, {"metrics", json::array()}, {"params", json::array()}, {"tags", json::array()}};
      for (size_t k = i; k < std::min(metrics.size(), i + 1000); ++k)
        body["metrics"].push_back(
            {{"key", metrics[k].first}, {"value", metrics[k].second}, {"timestamp", now_ms}, {"step", 0}});
      if (i == 0) {
        for (const auto& [k, v] : s_.params) body["params"].push_back({{"key", k}, {"value", v}});
        for (const auto& [k, v] : tags) body["tags"].push_back({{"key", k}, {"value", v}});
      }
      ok = call("POST", "runs/log-batch", body).has_value();
    }

    // Artifacts through the tracking server's proxy (mlflow-artifacts:/...).
    const std::vector<std::string> files = mlflow_artifact_files(s_.artifact_dir, s_.mlflow_artifact_globs);
    std::vector<std::string> uploaded = files;
    uploaded.push_back("mlflow_export.json");
    json meta{{"tracking_uri", redact_url(s_.mlflow_uri)},
              {"experiment", s_.mlflow_experiment},
              {"run_id", run_id},
              {"run_name", run_name},
              {"benchmark_id", s_.benchmark_id},
              {"parent_run_id", parent ? json(*parent) : json(nullptr)},
              {"live_streaming", false},
              {"reused_live_run", false},
              {"metric_keys", json::array()},
              {"param_keys", json::array()},
              {"tag_keys", json::array()},
              {"uploaded_artifacts", uploaded},
              {"exported_at_ns", s_.now_unix_ns}};
    for (const auto& m : metrics) meta["metric_keys"].push_back(m.first);
    std::set<std::string> pk, tk;
    for (const auto& p : s_.params) pk.insert(p.first);
    for (const auto& t : tags) tk.insert(t.first);
    meta["param_keys"] = pk;
    meta["tag_keys"] = tk;
    const std::string meta_path = (fs::path(s_.artifact_dir) / "mlflow_export.json").string();
    {
      std::ofstream out(meta_path + ".tmp", std::ios::binary);
      out << meta.dump(2);
    }
    std::error_code ec;
    fs::rename(meta_path + ".tmp", meta_path, ec);
    size_t sent = 0;
    const std::string prefix = "mlflow-artifacts:";
    if (artifact_uri.rfind(prefix, 0) != 0) {
      warn("MLflow export: the run's artifact store (" + artifact_uri +
           ") is not served by the tracking server (mlflow server --serve-artifacts); artifacts not uploaded");
    } else {
      std::string root = artifact_uri.substr(prefix.size());
      if (root.rfind("//", 0) == 0)
        root = root.substr(root.find('/', 2) == std::string::npos ? root.size() : root.find('/', 2));
      while (!root.empty() && root.front() == '/') root.erase(0, 1);
      for (const std::string& rel : uploaded) {
        std::string body;
        try {
          body = read_file((fs::path(s_.artifact_dir) / rel).string());
        } catch (const std::exception& e) {
          warn(std::string("MLflow export: ") + e.what());
          continue;
        }
        const std::string url = base() + "/api/2.0/mlflow-artifacts/artifacts/" + url_encode(root + "/" + rel, true);
        const auto r = t_.send("PUT", url, {{"Content-Type", "application/octet-stream"}}, body, s_.timeout_s);
        if (r.status >= 200 && r.status <= 299) {
          ++sent;
        } else {
          warn("MLflow export: upload of " + rel +
               " failed: " + (r.status == 0 ? r.error : "HTTP " + std::to_string(r.status)));
          ok = false;
        }
      }
    }
    call("POST", "runs/update", {{"run_id", run_id}, {"status", ok ? "FINISHED" : "FAILED"}, {"end_time", now_ms}});
    AIPERF_LOG(kInfo) << "Uploaded MLflow run '" << run_name << "' (" << run_id << ") with " << metrics.size()
                      << " metrics and " << sent << " artifacts.";
  }

  std::vector<std::string> warnings_;

 private:
  std::string base() const {
    std::string b = s_.mlflow_uri;
    while (!b.empty() && b.back() == '/') b.pop_back();
    return b;
  }
  static std::string read_or_empty(const std::string& path) {
    try {
      return read_file(path);
    } catch (const std::exception&) {
      return "";
    }
  }
  void fail() { warn("MLflow export to " + redact_url(s_.mlflow_uri) + " failed; the run's results are unaffected"); }

  const RemoteExportSettings& s_;
  control::ControlTransport& t_;
};

}  // namespace

std::vector<std::pair<std::string, double>> mlflow_metric_payload(const json& summary) {
  static const char* kStats[] = {"avg", "p1",  "p5",  "p10", "p25", "p50",   "p75", "p90",
                                 "p95", "p99", "min", "max", "std", "count", "sum"};
  std::vector<std::pair<std::string, double>> out;
  for (const auto& [tag, m] : summary.items()) {
    if (!m.is_object() || !m.contains("unit")) continue;
    for (const char* stat : kStats) {
      if (!m.contains(stat) || !m[stat].is_number()) continue;
      out.emplace_back(std::string(stat) == "avg" ? tag : tag + "." + stat, m[stat].get<double>());
    }
  }
  // AIPerf's completed count: the profiling requests that finished (good and bad).
  double completed = 0;
  for (const char* tag : {"request_count", "error_request_count"})
    if (summary.contains(tag) && summary[tag].is_object() && summary[tag].contains("avg") &&
        summary[tag]["avg"].is_number())
      completed += summary[tag]["avg"].get<double>();
  out.emplace_back("aiperf.completed_requests", completed);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

std::vector<std::string> mlflow_artifact_files(const std::string& dir, const std::vector<std::string>& globs) {
  static const std::vector<std::string> kDefaults{"*.json",   "*.csv",    "*.jsonl",   "*.parquet", "*_timeslices.*",
                                                  "**/*.png", "**/*.jpg", "**/*.jpeg", "**/*.svg",  "**/*.html"};
  const auto& patterns = globs.empty() ? kDefaults : globs;
  std::vector<std::string> all;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec)) all.push_back(fs::relative(it->path(), dir, ec).generic_string());
  std::sort(all.begin(), all.end());
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const std::string& pattern : patterns) {
    for (const std::string& rel : all) {
      bool match = false;
      if (pattern.rfind("**/", 0) == 0) {
        // Any depth, the top level included (pathlib's "**/").
        const std::string rest = pattern.substr(3);
        const size_t slash = rel.rfind('/');
        match = fnmatch(rest.c_str(), rel.substr(slash == std::string::npos ? 0 : slash + 1).c_str(), 0) == 0 &&
                rest.find('/') == std::string::npos;
      } else {
        match = fnmatch(pattern.c_str(), rel.c_str(), FNM_PATHNAME) == 0;
      }
      if (match && rel != "mlflow_export.json" && seen.insert(rel).second) out.push_back(rel);
    }
  }
  return out;
}

std::vector<std::string> run_remote_exports(const RemoteExportSettings& s, control::ControlTransport& transport) {
  Exporter e(s, transport);
  try {
    if (!s.otel_endpoint.empty()) e.otel();
  } catch (const std::exception& ex) {
    e.warn(std::string("OTel export failed: ") + ex.what());
  }
  try {
    if (!s.mlflow_uri.empty()) e.mlflow();
  } catch (const std::exception& ex) {
    e.warn(std::string("MLflow export failed: ") + ex.what());
  }
  return e.warnings_;
}

}  // namespace aiperf::cli
