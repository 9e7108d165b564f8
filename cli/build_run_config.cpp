// Validation and derived defaults: ProfileOptions -> RunConfig (spec §1.2, §2.4, §2.5, §7.1).
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <thread>

#include "endpoints/endpoint.h"
#include "key_value.h"
#include "log/log.h"
#include "options.h"
#include "tokenizer/tokenizer.h"
#include "util/uuid.h"

namespace aiperf::cli {
namespace {

namespace fs = std::filesystem;

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// AIPerf's reconstructed command: flags as typed, values single-quoted, secrets masked.
std::string cli_command(const std::vector<std::string>& argv) {
  std::string out = "aiperf";
  bool mask_next = false;
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    out += ' ';
    if (mask_next) {
      out += "'***'";
      mask_next = false;
    } else if (a.rfind("-", 0) == 0 || i == 1) {
      out += a;
      mask_next = a == "--api-key";
    } else {
      std::string quoted = "'";
      for (char c : a) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
      out += quoted + "'";
    }
  }
  return out;
}

void resolve_timing_mode(ProfileOptions& o) {
  auto& l = o.config.loadgen;
  if (l.request_count && l.conversation_num)
    throw OptionError("--request-count and --conversation-num cannot both be set");
  if (o.grace_period && !l.benchmark_duration)
    throw OptionError("--benchmark-grace-period requires --benchmark-duration");
  if (o.grace_period) l.benchmark_grace_period = *o.grace_period;
  const bool bounded = l.request_count || l.conversation_num || l.benchmark_duration;
  if (l.request_rate) {
    l.arrival_pattern = o.arrival_pattern.value_or("poisson");
    if (l.arrival_pattern == "concurrency_burst")
      throw OptionError("--arrival-pattern concurrency_burst cannot be used with --request-rate");
    if (!bounded) l.request_count = 10;
  } else {
    l.arrival_pattern = "concurrency_burst";
    if (!l.concurrency) {
      AIPERF_LOG(kWarning) << "no --concurrency or --request-rate given; using --concurrency 1";
      l.concurrency = 1;
    }
    if (!bounded) l.request_count = std::max<uint64_t>(10, 2ull * *l.concurrency);
  }
  if (l.conversation_num && !l.request_count) {
    // Sessions run their turns; with single-turn synthetic data one session = one request.
    l.request_count = *l.conversation_num * static_cast<uint64_t>(std::max(1.0, std::round(o.config.input.turn_mean)));
  }
  if (l.concurrency && l.request_count && *l.concurrency > *l.request_count)
    throw OptionError("--concurrency (" + std::to_string(*l.concurrency) + ") cannot be greater than --request-count (" +
                      std::to_string(*l.request_count) + ")");
}

void resolve_workers(ProfileOptions& o) {
  auto& s = o.config.service;
  // AIPerf: max(1, min(int(cpus * 0.75) - 1, 32)), capped by --concurrency.
  const int cpus = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  uint32_t workers = static_cast<uint32_t>(std::max(1, std::min(static_cast<int>(cpus * 0.75) - 1, 32)));
  if (o.workers_max) workers = *o.workers_max;
  if (o.config.loadgen.concurrency && workers > *o.config.loadgen.concurrency) workers = *o.config.loadgen.concurrency;
  s.workers = workers;
  if (workers == 0 && s.workers_remote == 0)
    throw OptionError("--workers-max 0 needs --workers-remote K (workers started with `aiperf worker`)");
  s.record_processors = o.record_processors.value_or(std::max(1u, workers / 4));
  if (!s.zmq_host.empty() && !s.zmq_ipc_path.empty())
    throw OptionError("--zmq-host and --zmq-ipc-path cannot both be set");
  if (s.workers_remote > 0 && s.zmq_host.empty())
    throw OptionError("--workers-remote needs --zmq-host (remote workers connect over TCP)");
}

void resolve_log_level(ProfileOptions& o) {
  auto& s = o.config.service;
  if (o.extra_verbose || o.verbosity >= 2) s.log_level = "TRACE";
  else if (o.verbosity == 1) s.log_level = "DEBUG";
  log::Level level;
  if (!log::parse_level(s.log_level, level))
    throw OptionError("--log-level: unknown level '" + s.log_level + "'");
}

void resolve_artifact_dir(ProfileOptions& o) {
  auto& c = o.config;
  std::string dir;
  if (o.artifact_dir) {
    dir = *o.artifact_dir;
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
  }
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "logs", ec);
  if (ec) throw OptionError("--artifact-dir: cannot create " + dir + ": " + ec.message());
  c.output.artifact_dir = fs::absolute(dir).lexically_normal().string();
  if (c.output.artifact_dir.size() > 1 && c.output.artifact_dir.back() == '/') c.output.artifact_dir.pop_back();
}

}  // namespace

config::RunConfig build_run_config(ProfileOptions& o, const std::vector<std::string>& argv) {
  auto& c = o.config;
  const endpoints::EndpointInfo* ep = endpoints::find_endpoint(c.endpoint.type);
  if (!ep)
    throw OptionError("--endpoint-type: invalid value '" + c.endpoint.type + "'; valid: " + join(endpoints::endpoint_type_names()));
  if (c.endpoint.streaming && !ep->supports_streaming) {
    AIPERF_LOG(kWarning) << "--streaming is not supported by endpoint type " << c.endpoint.type << "; disabled";
    c.endpoint.streaming = false;
  }
  if (c.endpoint.urls.empty()) throw OptionError("--url: at least one URL is required");
  c.input.extra_inputs = parse_extra_inputs(o.extra_inputs);
  c.input.headers = parse_headers(o.headers);

  resolve_timing_mode(o);
  resolve_workers(o);
  resolve_log_level(o);

  if (c.tokenizer.name.empty()) c.tokenizer.name = c.endpoint.model_names.front();
  try {
    c.tokenizer.resolved_path = tok::resolve_tokenizer_path(c.tokenizer.name);
    tok::load_tokenizer(c.tokenizer.resolved_path);  // pre-flight: fail before spawning anything
  } catch (const tok::TokenizerError& e) {
    throw OptionError(std::string("--tokenizer: ") + e.what());
  }
  c.tokenizer.resolved_path = std::filesystem::absolute(c.tokenizer.resolved_path).string();

  resolve_artifact_dir(o);
  if (c.service.zmq_host.empty() && c.service.zmq_ipc_path.empty()) {
    char tmpl[] = "/tmp/aiperf-XXXXXX";  // short: ipc paths must stay under sun_path's 107 bytes
    if (!mkdtemp(tmpl)) throw OptionError("cannot create a temporary IPC directory in /tmp");
    c.service.zmq_ipc_path = tmpl;
  }
  c.service.cli_command = cli_command(argv);
  c.benchmark_id = util::uuid4();
  return c;
}

}  // namespace aiperf::cli
