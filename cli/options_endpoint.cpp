// Endpoint group (spec §2.1 "Endpoint").
#include "endpoints/endpoint.h"
#include "http/url.h"
#include "log/log.h"
#include "options.h"
#include "validators.h"

namespace aiperf::cli {
namespace {
std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}
}  // namespace

void add_endpoint_options(CLI::App& app, ProfileOptions& o) {
  auto& e = o.config.endpoint;
  const char* g = "Endpoint";
  app.add_option("-m,--model,--model-names", e.model_names, "Model name(s); comma-separated or repeated")
      ->required()->delimiter(',')->group(g);
  add_enum_option(app, "--model-selection-strategy", e.model_selection_strategy, "round_robin or random")
      ->transform(choice({"round_robin", "random"}))
      ->group(g);
  app.add_option("--endpoint,--custom-endpoint", e.custom_endpoint, "Custom endpoint path")->group(g);
  app.add_option("--endpoint-type", e.type, "Endpoint type: " + join(endpoints::endpoint_type_names()))->group(g);
  app.add_flag("--streaming", e.streaming, "Use streaming (SSE)")->group(g);
  app.add_option("-u,--url", e.urls, "Base URL(s) of the server")->delimiter(',')->group(g);
  app.add_option("--url-strategy", "URL selection strategy")->transform(choice({"round_robin"}))->group(g);
  app.add_option("--request-timeout-seconds", e.timeout_seconds, "Per-request timeout")
      ->check(kPositive)->group(g);
  app.add_option("--api-key", e.api_key, "Adds Authorization: Bearer <key>")->group(g);
  // AIPerf 0.13 knows only http; grpc (ours) is KServe v2 over gRPC: URLs without a scheme get grpc://.
  app.add_option("--transport,--transport-type", o.transport,
                 "Transport: http, or grpc (KServe v2, --endpoint-type kserve)")
      ->transform(choice({"http", "grpc"}))
      ->group(g);
  app.add_flag("--use-legacy-max-tokens", e.use_legacy_max_tokens, "Send max_tokens instead of max_completion_tokens")->group(g);
  app.add_flag("--use-server-token-count", e.use_server_token_count, "Use server usage token counts")->group(g);
  add_enum_option(app, "--connection-reuse-strategy", e.connection_reuse_strategy,
                  "pooled, never or sticky-user-sessions (one connection per conversation, closed after its last turn)")
      ->transform(choice({"pooled", "never", "sticky-user-sessions"}))
      ->group(g);
  // GenAI-Perf compatibility: "triton" without --endpoint-type selects Triton's HTTP generate
  // extension; with --endpoint-type kserve it is KServe v2 over gRPC.
  app.add_option_function<std::string>(
         "--service-kind",
         [&app, &e](const std::string& kind) {
           e.service_kind = kind;
           if (kind == "triton" && app.get_option("--endpoint-type")->count() == 0) e.type = "generate";
         },
         "GenAI-Perf service kind: openai, or triton (Triton HTTP generate, or KServe gRPC with --endpoint-type "
         "kserve)")
      ->check(CLI::IsMember({"openai", "triton"}))
      ->group(g);
}

void finalize_endpoint_options(ProfileOptions& o) {
  auto& c = o.config;
  const endpoints::EndpointInfo* ep = endpoints::find_endpoint(enum_spelling(c.endpoint.type));  // "chat-embeddings" too
  if (!ep)
    throw OptionError("--endpoint-type: invalid value '" + c.endpoint.type + "'; valid: " + join(endpoints::endpoint_type_names()));
  c.endpoint.type = enum_spelling(c.endpoint.type);
  if (c.endpoint.streaming && !ep->supports_streaming) {
    AIPERF_LOG(kWarning) << "--streaming is not supported by endpoint type " << c.endpoint.type << "; disabled";
    c.endpoint.streaming = false;
  }
  if (c.endpoint.urls.empty()) throw OptionError("--url: at least one URL is required");
  const bool kserve = c.endpoint.type == "kserve";
  if (o.transport == "grpc" && !kserve)
    throw OptionError("--transport grpc: KServe v2 over gRPC needs --endpoint-type kserve");
  // A URL the client cannot reach would only turn every request into the same error.
  for (std::string& url : c.endpoint.urls) {
    // KServe goes over gRPC (kserve/grpc_client.h): a URL without a scheme is grpc://.
    if (kserve && url.find("://") == std::string::npos) url.insert(0, "grpc://");
    const size_t sep = url.find("://");
    const std::string scheme = sep == std::string::npos ? "http" : url.substr(0, sep);
    const bool grpc = scheme == "grpc" || scheme == "grpcs";
    if (scheme != "http" && scheme != "https" && !grpc)
      throw OptionError("--url: unsupported scheme '" + scheme + "' in '" + url + "' (http, https, grpc or grpcs)");
    if (grpc != kserve)
      throw OptionError(kserve ? "--endpoint-type kserve: '" + url +
                                     "' is not a grpc:// or grpcs:// URL (KServe over HTTP is not supported yet)"
                               : "--url: '" + url + "': grpc:// and grpcs:// URLs need --endpoint-type kserve");
    if (o.transport == "http" && grpc) throw OptionError("--transport http: '" + url + "' is a gRPC URL");
    // The HTTP parser checks host and port; a gRPC URL is checked as its http:// twin.
    const std::string checked = grpc ? "http" + url.substr(sep) : url;
    if (!http::parse_url(endpoints::build_url(checked, *ep, c.endpoint.custom_endpoint, c.endpoint.streaming)))
      throw OptionError("--url: '" + url + "' is not a valid URL (expected [" + (grpc ? scheme : "http[s]") +
                        "://]host[:port][/path])");
  }
  // The readiness probe and control hooks are HTTP requests to the server.
  if (kserve && (c.endpoint.wait_for_model_timeout > 0 || c.endpoint.reset_kv_cache || c.endpoint.server_profiler))
    throw OptionError(
        "--endpoint-type kserve: --wait-for-model-timeout, --reset-kv-cache and --server-profiler "
        "are HTTP requests, not supported over gRPC");
  // raw formats nothing: its bodies come from an input file (raw_payload / inputs_json).
  if (c.endpoint.type == "raw" && c.input.input_file.empty())
    throw OptionError("--endpoint-type raw: sends request bodies verbatim and needs them from --input-file "
                      "(--custom-dataset-type raw_payload or inputs_json)");
  if (c.endpoint.service_kind == "triton" && c.endpoint.type != "generate" && !kserve)
    throw OptionError("--service-kind triton: only --endpoint-type generate or kserve is supported");
  // GenAI-Perf puts the model in the path: v2/models/{MODEL_NAME}/generate. The default path
  // becomes the custom endpoint, with the first model substituted, as GenAI-Perf does.
  std::string& endpoint = c.endpoint.custom_endpoint;
  if (endpoint.empty() && ep->path.find("{MODEL_NAME}") != std::string_view::npos)
    endpoint = std::string(c.endpoint.streaming && !ep->stream_path.empty() ? ep->stream_path : ep->path);
  for (size_t at; (at = endpoint.find("{MODEL_NAME}")) != std::string::npos;)
    endpoint.replace(at, 12, c.endpoint.model_names.at(0));
}

}  // namespace aiperf::cli
