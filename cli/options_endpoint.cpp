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
  app.add_option("--transport,--transport-type", "Transport")->transform(choice({"http"}))->group(g);
  app.add_flag("--use-legacy-max-tokens", e.use_legacy_max_tokens, "Send max_tokens instead of max_completion_tokens")->group(g);
  app.add_flag("--use-server-token-count", e.use_server_token_count, "Use server usage token counts")->group(g);
  add_enum_option(app, "--connection-reuse-strategy", e.connection_reuse_strategy,
                  "pooled, never or sticky-user-sessions (one connection per conversation, closed after its last turn)")
      ->transform(choice({"pooled", "never", "sticky-user-sessions"}))
      ->group(g);
  // GenAI-Perf compatibility: "triton" means Triton's HTTP generate extension here (KServe
  // gRPC is not implemented), so without --endpoint-type it selects the generate type.
  app.add_option_function<std::string>(
         "--service-kind",
         [&app, &e](const std::string& kind) {
           e.service_kind = kind;
           if (kind == "triton" && app.get_option("--endpoint-type")->count() == 0) e.type = "generate";
         },
         "GenAI-Perf service kind: openai, or triton (Triton HTTP generate)")
      ->check(CLI::IsMember({"openai", "triton"}))->group(g);
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
  // A URL the client cannot reach would only turn every request into the same error.
  for (const std::string& url : c.endpoint.urls) {
    const size_t sep = url.find("://");
    const std::string scheme = sep == std::string::npos ? "http" : url.substr(0, sep);
    if (scheme != "http" && scheme != "https")
      throw OptionError("--url: unsupported scheme '" + scheme + "' in '" + url + "' (http or https)");
    if (!http::parse_url(endpoints::build_url(url, *ep, c.endpoint.custom_endpoint, c.endpoint.streaming)))
      throw OptionError("--url: '" + url + "' is not a valid URL (expected [http[s]://]host[:port][/path])");
  }
  // raw formats nothing: its bodies come from an input file (raw_payload / inputs_json).
  if (c.endpoint.type == "raw" && c.input.input_file.empty())
    throw OptionError("--endpoint-type raw: sends request bodies verbatim and needs them from --input-file "
                      "(--custom-dataset-type raw_payload or inputs_json)");
  if (c.endpoint.service_kind == "triton" && c.endpoint.type != "generate")
    throw OptionError("--service-kind triton: only --endpoint-type generate is supported (no KServe gRPC)");
  // GenAI-Perf puts the model in the path: v2/models/{MODEL_NAME}/generate. The default path
  // becomes the custom endpoint, with the first model substituted, as GenAI-Perf does.
  std::string& endpoint = c.endpoint.custom_endpoint;
  if (endpoint.empty() && ep->path.find("{MODEL_NAME}") != std::string_view::npos)
    endpoint = std::string(c.endpoint.streaming && !ep->stream_path.empty() ? ep->stream_path : ep->path);
  for (size_t at; (at = endpoint.find("{MODEL_NAME}")) != std::string::npos;)
    endpoint.replace(at, 12, c.endpoint.model_names.at(0));
}

}  // namespace aiperf::cli
