#include "cli_options.h"

#include "dcgm_simulator.h"
#include "engine_options.h"

#include <algorithm>
#include <cctype>

namespace aiperf::mock {
namespace {

CLI::Option* env(CLI::Option* opt, const char* name) {
  return opt->envname(std::string("MOCK_SERVER_") + name);
}

std::string to_upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

}  // namespace

void add_mock_options(CLI::App& app, MockConfig& config) {
  env(app.add_option("--host", config.host, "Address to listen on")->capture_default_str(), "HOST");
  env(app.add_option("--port,-p", config.port, "TCP port; 0 picks a free port (printed on start)")
          ->capture_default_str(),
      "PORT");
  env(app.add_option("--grpc-port", config.grpc_port,
                     "Also serve KServe v2 inference over gRPC (Triton's GRPCInferenceService) on this port; "
                     "0 picks a free port (printed on start)")
          ->check(CLI::Range(0, 65535)),
      "GRPC_PORT");
  env(app.add_option("--workers,-w", config.workers, "I/O threads serving connections")
          ->check(CLI::Range(1u, 256u))
          ->capture_default_str(),
      "WORKERS");
  env(app.add_option("--processes", config.processes,
                     "Server processes sharing the port, each holding up to its open-file limit of "
                     "connections (ulimit -Hn); use ceil(connections / (limit - 1000))")
          ->check(CLI::Range(1u, 256u))
          ->capture_default_str(),
      "PROCESSES");
  env(app.add_option("--ttft,-t", config.ttft_ms, "Time to first token, ms")
          ->check(CLI::NonNegativeNumber)
          ->capture_default_str(),
      "TTFT");
  env(app.add_option("--itl", config.itl_ms, "Inter-token latency, ms")
          ->check(CLI::NonNegativeNumber)
          ->capture_default_str(),
      "ITL");
  env(app.add_flag("--fast,-f", config.fast, "All latencies 0"), "FAST");
  env(app.add_flag("--close-after-stream", config.close_after_stream,
                   "Imitate llama.cpp's server: after each streamed response, read the next request and "
                   "close the connection without answering (FIN), although the response said keep-alive"),
      "CLOSE_AFTER_STREAM");
  env(app.add_flag("--timings", config.timings,
                   "Imitate llama.cpp's `timings` object (prompt_ms = TTFT, predicted_ms = (tokens-1) x ITL, ...) "
                   "in chat/completions answers"),
      "TIMINGS");
  env(app.add_option_function<int64_t>(
             "--usage-cached-tokens", [&config](const int64_t& n) { config.usage.cached_tokens = n; },
             "Report usage.prompt_tokens_details.cached_tokens = min(N, prompt tokens) in chat/completions answers")
          ->check(CLI::NonNegativeNumber),
      "USAGE_CACHED_TOKENS");
  env(app.add_option_function<std::string>(
          "--usage-fields",
          [&config](const std::string& text) {
            std::string error;
            auto members = parse_usage_fields(text, error);
            if (!members) throw CLI::ValidationError("--usage-fields", error);
            config.usage.fields = *members;
          },
          "JSON object whose members are added to every chat/completions usage block (any vendor's "
          "spelling, e.g. '{\"cache_creation_input_tokens\":4}')"),
      "USAGE_FIELDS");
  env(app.add_option_function<std::string>(
             "--spec-decode",
             [&config](const std::string& text) {
               std::string error;
               auto script = parse_spec_decode(text, config.usage, error);
               if (!script) throw CLI::ValidationError("--spec-decode", error);
               config.usage = *script;
             },
             "Imitate vLLM's per-request metrics.speculative_decoding with draft length K; verify step i "
             "accepts J[i mod n] drafts (default: all K)")
          ->type_name("K[:J1,J2,...]"),
      "SPEC_DECODE");
  const auto latency = [&](const char* name, double& target, const char* help, const char* env_name) {
    env(app.add_option(name, target, help)->check(CLI::NonNegativeNumber)->capture_default_str(), env_name);
  };
  latency("--embedding-base-latency", config.embedding_base_latency_ms, "Embeddings latency per request, ms",
          "EMBEDDING_BASE_LATENCY");
  latency("--embedding-per-input-latency", config.embedding_per_input_latency_ms,
          "Embeddings latency per input, ms", "EMBEDDING_PER_INPUT_LATENCY");
  latency("--ranking-base-latency", config.ranking_base_latency_ms, "Rankings latency per request, ms",
          "RANKING_BASE_LATENCY");
  latency("--ranking-per-passage-latency", config.ranking_per_passage_latency_ms,
          "Rankings latency per passage, ms", "RANKING_PER_PASSAGE_LATENCY");
  env(app.add_option("--error-rate", config.error_rate_percent,
                     "Percentage of generation requests answered with HTTP 500")
          ->check(CLI::Range(0.0, 100.0))
          ->capture_default_str(),
      "ERROR_RATE");
  env(app.add_option_function<uint64_t>(
          "--max-context", [&config](const uint64_t& n) { config.max_context = n; },
          "Answer a generation request whose prompt + max tokens exceed N tokens with vLLM's HTTP 400 "
          "maximum-context-length error"),
      "MAX_CONTEXT");
  env(app.add_option_function<uint64_t>(
          "--random-seed", [&config](const uint64_t& seed) { config.random_seed = seed; },
          "Seed for reproducible error and fault injection"),
      "RANDOM_SEED");
  env(app.add_option_function<std::vector<std::string>>(
             "--fault",
             [&config](const std::vector<std::string>& texts) {
               config.faults.clear();
               for (const std::string& text : texts) {
                 std::string error;
                 auto spec = parse_fault_spec(text, error);
                 if (!spec) throw CLI::ValidationError("--fault", error);
                 config.faults.push_back(*spec);
               }
               if (std::string error = check_fault_specs(config.faults); !error.empty())
                 throw CLI::ValidationError("--fault", error);
             },
             "Fault mode KIND[:PERCENT] for generation requests (chat, completions, TGI), repeatable; "
             "percents of several add up to at most 100. Kinds: reset_before_headers, reset_mid_stream, "
             "http_5xx, http_429, malformed_json, error_event, truncated_chunked, stall_after_headers, "
             "stall_mid_stream, slow_headers, huge_event, wrong_content_type, tls_handshake_failure")
          ->delimiter(',')
          ->type_name("KIND[:PCT]"),
      "FAULT");
  env(app.add_option("--fault-stall-ms", config.fault_stall_ms,
                     "stall_after_headers / stall_mid_stream: how long the response stops, ms")
          ->check(CLI::NonNegativeNumber)
          ->capture_default_str(),
      "FAULT_STALL_MS");
  env(app.add_option("--fault-retry-after", config.fault_retry_after_s, "http_429: Retry-After, seconds")
          ->capture_default_str(),
      "FAULT_RETRY_AFTER");
  env(app.add_option("--fault-slow-headers-ms", config.fault_slow_headers_ms,
                     "slow_headers: the response head arrives in 4 pieces over this many ms")
          ->check(CLI::NonNegativeNumber)
          ->capture_default_str(),
      "FAULT_SLOW_HEADERS_MS");
  env(app.add_option("--fault-event-bytes", config.fault_event_bytes,
                     "huge_event: bytes of extra text in the one huge event")
          ->check(CLI::Range(size_t{1}, size_t{1} << 30))
          ->capture_default_str(),
      "FAULT_EVENT_BYTES");
  env(app.add_option("--tokenizer", config.tokenizer,
                     "Tokenizer (bundled name or tokenizer.json path) the output text is made for")
          ->capture_default_str(),
      "TOKENIZER");
  env(app.add_flag("--no-tokenizer", config.no_tokenizer,
                   "Emit built-in English words instead of tokenizer-verified pieces"),
      "NO_TOKENIZER");
  env(app.add_option("--log-level", config.log_level, "DEBUG, INFO, WARNING or ERROR")
          ->transform(to_upper)
          ->check(CLI::IsMember({"DEBUG", "INFO", "WARNING", "ERROR"}))
          ->capture_default_str(),
      "LOG_LEVEL");
  env(app.add_flag_callback(
          "--verbose,-v", [&config] { config.log_level = "DEBUG"; }, "Same as --log-level DEBUG"),
      "VERBOSE");
  env(app.add_flag("--access-logs", config.access_logs, "Log every request to stderr"), "ACCESS_LOGS");
  env(app.add_option("--dcgm-gpu-name", config.dcgm_gpu_name, "Fake GPU model of /dcgmN/metrics")
          ->check(CLI::IsMember(gpu_model_keys()))
          ->capture_default_str(),
      "DCGM_GPU_NAME");
  env(app.add_option("--dcgm-num-gpus", config.dcgm_num_gpus, "GPUs per fake DCGM exporter")
          ->check(CLI::Range(1u, 8u))
          ->capture_default_str(),
      "DCGM_NUM_GPUS");
  env(app.add_flag("--dcgm-auto-load,!--no-dcgm-auto-load", config.dcgm_auto_load,
                   "Fake GPU load follows the token throughput served (else a constant 50%)")
          ->capture_default_str(),
      "DCGM_AUTO_LOAD");
  env(app.add_option("--dcgm-min-throughput", config.dcgm_min_throughput,
                     "Tokens/s scale of the fake load: 10x this is full load")
          ->check(CLI::PositiveNumber)
          ->capture_default_str(),
      "DCGM_MIN_THROUGHPUT");
  env(app.add_option("--dcgm-window-sec", config.dcgm_window_sec, "Throughput window of the fake load, seconds")
          ->check(CLI::PositiveNumber)
          ->capture_default_str(),
      "DCGM_WINDOW_SEC");
  env(app.add_option("--dcgm-hostname", config.dcgm_hostname, "Hostname label of the fake GPUs")
          ->capture_default_str(),
      "DCGM_HOSTNAME");
  env(app.add_option_function<uint64_t>(
          "--dcgm-seed", [&config](const uint64_t& seed) { config.dcgm_seed = seed; },
          "Seed for the fake GPU values' jitter"),
      "DCGM_SEED");
  env(app.add_option("--record-requests", config.record_requests,
                     "Append every POST request (path and JSON body) as one line to this file"),
      "RECORD_REQUESTS");
  app.add_option_function<std::string>(
      "--reply-rules",
      [&config](const std::string& path) {
        try {
          config.reply_rules = load_reply_rules(path);
        } catch (const std::runtime_error& e) {
          throw CLI::ValidationError(e.what());
        }
      },
      "JSON lines {\"match\",\"reply\"}: a chat/completions request whose body contains `match` is answered with "
      "exactly `reply` (one output token)");
  add_engine_options(app, config.engine);
  add_control_options(app, config.control);
}

}  // namespace aiperf::mock
