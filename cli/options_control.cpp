// AIPerf 0.13's readiness probe, control hooks and the endpoint/service options around them
// (--wait-for-model-*, --reset-kv-cache*, --server-profiler*, --request-content-type,
// --session-header, --uuid-and-strip, --per-chunk-usage, --stats-interval, --zmq-dual-bind),
// with the reference's defaults and validation messages (its config/endpoint.py and
// config/control_hooks.py). What each does: docs/user-guide.md "Server readiness and control hooks".
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <iostream>
#include <sstream>

#include "control/run_hooks.h"
#include "endpoints/endpoint.h"
#include "log/log.h"
#include "options.h"
#include "validators.h"

namespace aiperf::cli {
namespace {

// The reference's require_relative_path: hooks always resolve against the endpoint's origin.
void require_relative_path(const std::string& path, const std::string& option) {
  if (path.find("://") != std::string::npos || path.empty() || path.front() != '/')
    throw OptionError(option + ": must be a relative path starting with '/', got '" + path + "'");
}

}  // namespace

void add_control_options(CLI::App& app, ProfileOptions& o) {
  auto& e = o.config.endpoint;
  auto& c = o.control;
  const char* g = "Endpoint";
  app.add_option("--wait-for-model-timeout", e.wait_for_model_timeout,
                 "Seconds to wait for the endpoint to be ready before benchmarking (0 = skip)")
      ->check(kNonNegative)->group(g);
  c.mode_opt = add_enum_option(app, "--wait-for-model-mode", e.wait_for_model_mode,
                               "Readiness probe: models (GET /v1/models), inference (1-token request) or both")
                   ->transform(CLI::IsMember({"models", "inference", "both"}, CLI::ignore_case))
                   ->group(g);
  c.interval_opt = app.add_option("--wait-for-model-interval", e.wait_for_model_interval,
                                  "Seconds between readiness probe attempts")
                       ->check(kPositive)->group(g);
  app.add_flag("--reset-kv-cache", e.reset_kv_cache, "POST a KV-cache reset once before the benchmark")->group(g);
  add_optional(app, "--reset-kv-cache-timeout-seconds", e.reset_kv_cache_timeout_seconds,
               "Timeout of the reset POST (default 30)")
      ->check(kPositive)->group(g);
  c.reset_path_opt = app.add_option("--reset-kv-cache-path", e.reset_kv_cache_path,
                                    "Relative path of the reset (default /reset_prefix_cache)")->group(g);
  app.add_flag("--server-profiler", e.server_profiler, "POST profiler start/stop around the profiling phase")->group(g);
  add_optional(app, "--server-profiler-timeout-seconds", e.server_profiler_timeout_seconds,
               "Timeout of the profiler POSTs (default 30)")
      ->check(kPositive)->group(g);
  c.start_path_opt = app.add_option("--server-profiler-start-path", e.server_profiler_start_path,
                                    "Relative path of profiler start (default /start_profile)")->group(g);
  c.stop_path_opt = app.add_option("--server-profiler-stop-path", e.server_profiler_stop_path,
                                   "Relative path of profiler stop (default /stop_profile)")->group(g);
  // Not a user option: the genai-perf front end asks for GenAI-Perf's request bodies (hidden).
  app.add_flag("--genai-perf-payloads", e.genai_perf_payloads)->group("");
  app.add_flag("--kserve-vllm", e.kserve_vllm)->group("");                // the front end's --backend vllm (hidden)
  app.add_flag("--chat-content-parts", e.chat_content_parts)->group("");  // its multimodal type (hidden)
  app.add_flag("--per-chunk-usage", e.per_chunk_usage,
               "Ask for usage on every streamed chunk (stream_options.continuous_usage_stats)")->group(g);
  add_enum_option(app, "--request-content-type", e.request_content_type,
                  "Request body encoding: application/json (default) or multipart/form-data")
      ->transform(CLI::IsMember({"application/json", "multipart/form-data"}, CLI::ignore_case))
      ->group(g);
  app.add_option("--session-header", e.session_header,
                 "Header carrying the session id (default X-Correlation-ID)")->group(g);
  app.add_flag("--uuid-and-strip", e.uuid_and_strip, "vLLM multimodal cache image stripping (chat only)")->group(g);
  app.add_flag("--download-video-content", e.download_video_content,
               "video_generation: download each completed video (its time counts in the request)")->group(g);
  add_optional(app, "--stats-interval", c.stats_interval, "Seconds between realtime stats publishes (0 to 1000)")
      ->check(number_check(0, false, 1000, "a number from 0 to 1000"))->group("Service");
  app.add_flag("--zmq-dual-bind", c.zmq_dual_bind, "AIPerf's IPC + TCP ZeroMQ backend (accepted; no effect here)")
      ->group("ZMQ Communication");
}

void finalize_control_options(ProfileOptions& o) {
  auto& e = o.config.endpoint;
  auto& c = o.control;
  // The reference rejects probe sub-options set to non-default values without a timeout.
  if (e.wait_for_model_timeout <= 0) {
    std::vector<std::string> non_default;
    if (given(c.interval_opt) && e.wait_for_model_interval != 5.0) non_default.push_back("--wait-for-model-interval");
    if (given(c.mode_opt) && e.wait_for_model_mode != config::WaitForModelMode::kInference)
      non_default.push_back("--wait-for-model-mode");
    if (!non_default.empty()) {
      std::string shown;
      for (const auto& n : non_default) shown += (shown.empty() ? "" : ", ") + n;
      throw OptionError(shown + " has no effect unless --wait-for-model-timeout is set to a positive value. "
                                "Set --wait-for-model-timeout to enable the readiness probe.");
    }
  }
  // A sub-option enables its hook, as in the reference's converter.
  if (e.reset_kv_cache_timeout_seconds || given(c.reset_path_opt)) e.reset_kv_cache = true;
  if (e.server_profiler_timeout_seconds || given(c.start_path_opt) || given(c.stop_path_opt)) e.server_profiler = true;
  if (given(c.reset_path_opt)) require_relative_path(e.reset_kv_cache_path, "--reset-kv-cache-path");
  if (given(c.start_path_opt)) require_relative_path(e.server_profiler_start_path, "--server-profiler-start-path");
  if (given(c.stop_path_opt)) require_relative_path(e.server_profiler_stop_path, "--server-profiler-stop-path");

  if (e.uuid_and_strip && e.type != "chat") throw OptionError("--uuid-and-strip requires endpoint type 'chat'");
  if (e.per_chunk_usage && !e.use_server_token_count)
    throw OptionError("--per-chunk-usage requires --use-server-token-count "
                      "(the first-chunk token count comes from server-reported per-chunk usage)");
  if (e.per_chunk_usage && e.type != "chat")
    throw OptionError("--per-chunk-usage requires endpoint type 'chat' "
                      "(continuous_usage_stats is only injected on the chat endpoint)");
  if (e.per_chunk_usage && !e.streaming)
    throw OptionError(
        "--per-chunk-usage requires --streaming "
        "(continuous_usage_stats and inter-token latency apply only to streaming responses)");
  // Form-data types (image_edit, audio_transcription) always send multipart and refuse JSON;
  // the others refuse multipart, as the reference says.
  const endpoints::EndpointInfo* info = endpoints::find_endpoint(e.type);
  const bool form_data = info && info->requires_form_data;
  if (form_data && e.request_content_type == config::RequestContentType::kJson)
    throw OptionError("--request-content-type: endpoint type " + e.type +
                      " requires multipart/form-data; application/json is not supported.");
  if (!form_data && e.request_content_type == config::RequestContentType::kFormData)
    throw OptionError("--request-content-type: request_content_type=multipart/form-data is only supported for "
                      "endpoint types that accept form-data (e.g. image_edit, video_generation); endpoint type " +
                      e.type + " does not.");
  // As the reference's validator: a form-data type without the option records multipart.
  if (form_data && e.request_content_type == config::RequestContentType::kNone)
    e.request_content_type = config::RequestContentType::kFormData;
  // The reference's poll interval of video jobs (its Environment.HTTP setting, 0.001 to 10 s).
  if (const char* interval = std::getenv("AIPERF_HTTP_VIDEO_POLL_INTERVAL"); interval && *interval) {
    char* end = nullptr;
    const double v = std::strtod(interval, &end);
    if (*end != '\0' || !(v >= 0.001 && v <= 10))
      throw OptionError(std::string("AIPERF_HTTP_VIDEO_POLL_INTERVAL: must be a number of seconds from 0.001 to 10 (got '") +
                        interval + "')");
    e.video_poll_interval_seconds = v;
  }
  if (e.uuid_and_strip)
    AIPERF_LOG(kWarning) << "--uuid-and-strip: image stripping is not implemented here; every request carries its images";
}

void wait_for_model(const config::RunConfig& config) {
  // Once per process, as the reference probes once per plan: a sweep builds the base config and
  // then each point's with build_run_config, all against the same endpoint.
  static bool ready = false;
  if (config.endpoint.wait_for_model_timeout <= 0 || ready) return;
  const control::ProbeSettings s = control::probe_settings(config);
  // Python's str(float), as the reference's line: 5.0, 0.1.
  auto py = [](double v) {
    std::ostringstream o;
    o << v;
    std::string t = o.str();
    return t.find_first_of(".e") == std::string::npos ? t + ".0" : t;
  };
  std::cerr << "Waiting for endpoint readiness (mode=" << config::to_string(s.mode) << ", timeout=" << py(s.timeout_s)
            << "s, interval=" << py(s.interval_s) << "s) across " << s.urls.size() << " URL(s) x "
            << s.model_names.size() << " model(s)\n";
  auto transport = control::make_http_transport(config.endpoint.verify_tls);
  control::wait_for_endpoint(s, *transport, control::steady_probe_clock(),
                             [](const std::string& line) { std::cerr << line << "\n"; });
  ready = true;
}

}  // namespace aiperf::cli
