#include "readiness_probe.h"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "http/url.h"

namespace aiperf::control {
namespace {

// Floors of one attempt's timeout (the reference's): a models GET needs little, a first
// inference request may wait for a model load.
constexpr double kModelsRequestFloorS = 5.0;
constexpr double kInferenceRequestFloorS = 30.0;
// "Lo": the reference's one-word prompt, to spend as little as possible on metered servers.
constexpr const char* kPrompt = "Lo";

std::string fmt1(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string fmt_g(double v) {  // Python's str(float) for the log lines: 0.5, 5.0
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string rstrip_slash(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}

bool model_listed(const std::string& body, const std::string& model) {
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("data") || !j["data"].is_array()) return false;
  for (const auto& entry : j["data"])
    if (entry.is_object() && entry.contains("id") && entry["id"] == model) return true;
  return false;
}

class Probe {
 public:
  Probe(const ProbeSettings& s, ControlTransport& t, ProbeClock& c, const std::function<void(const std::string&)>& log)
      : s_(s), transport_(t), clock_(c), log_(log) {}

  void models(const std::string& url, const std::string& model) {
    const double deadline = clock_.now_s() + s_.timeout_s;
    const std::string models_url = rstrip_slash(url) + "/v1/models";
    const double floor = std::max(s_.interval_s, kModelsRequestFloorS);
    for (int attempt = 1;; ++attempt) {
      auto timeout = [&] {
        const double remaining = deadline - clock_.now_s();
        if (remaining <= 0)
          throw ReadinessTimeout("Timed out after " + fmt1(s_.timeout_s) + "s waiting for model '" + model +
                                 "' to become ready at " + url + " (checked " + std::to_string(attempt - 1) +
                                 " time(s))");
        return std::min(floor, remaining);
      };
      const ControlResponse r = transport_.send("GET", models_url, s_.headers, "", timeout());
      if (r.status == 200) {
        if (model_listed(r.body, model)) {
          say("Model '" + model + "' ready at " + url + " after " + std::to_string(attempt) + " attempt(s)");
          return;
        }
        say("Model '" + model + "' not yet in " + models_url + " (attempt " + std::to_string(attempt) +
            "), retrying in " + fmt_g(s_.interval_s) + "s");
      } else if (r.status == 404) {
        const ControlResponse base = transport_.send("GET", url, s_.headers, "", timeout());
        if (base.status >= 200 && base.status < 300) {
          say("/v1/models not available at " + url + "; base URL responded " + std::to_string(base.status) +
              " — accepting as ready");
          return;
        }
        say("/v1/models returned 404 and base URL returned " +
            (base.status ? std::to_string(base.status) : std::string("error")) + " at " + url + " (attempt " +
            std::to_string(attempt) + "), retrying in " + fmt_g(s_.interval_s) + "s");
      } else {
        say("Probe to " + models_url + " returned " + status_text(r) + " (attempt " + std::to_string(attempt) +
            "), retrying in " + fmt_g(s_.interval_s) + "s");
      }
      sleep_until_next(deadline);
    }
  }

  void inference(const std::string& url, const std::string& model) {
    const auto [request_url, body] = inference_probe_request(url, model, s_.endpoint_type, s_.custom_endpoint);
    const double floor = std::max(s_.interval_s, kInferenceRequestFloorS);
    const double deadline = clock_.now_s() + s_.timeout_s;
    Headers headers{{"Content-Type", "application/json"}};
    headers.insert(headers.end(), s_.headers.begin(), s_.headers.end());
    for (int attempt = 1;; ++attempt) {
      const double remaining = deadline - clock_.now_s();
      if (remaining <= 0)
        throw ReadinessTimeout("Timed out after " + fmt1(s_.timeout_s) + "s probing " + request_url +
                               " with model '" + model + "' (checked " + std::to_string(attempt - 1) + " time(s))");
      const ControlResponse r = transport_.send("POST", request_url, headers, body, std::min(floor, remaining));
      // Below 500 the server is serving: a 4xx would answer the benchmark's requests the same way.
      if (r.status != 0 && r.status < 500) {
        say("Inference probe ready at " + request_url + " (status=" + std::to_string(r.status) + ", attempt " +
            std::to_string(attempt) + ")");
        return;
      }
      say("Inference probe to " + request_url + " returned " + status_text(r) + " (attempt " +
          std::to_string(attempt) + "), retrying in " + fmt_g(s_.interval_s) + "s");
      sleep_until_next(deadline);
    }
  }

 private:
  static std::string status_text(const ControlResponse& r) {
    if (r.status) return std::to_string(r.status);
    return "connection error" + (r.error.empty() ? std::string() : " (" + r.error + ")");
  }
  void sleep_until_next(double deadline) {
    clock_.sleep_s(std::min(s_.interval_s, std::max(0.0, deadline - clock_.now_s())));
  }
  void say(const std::string& line) {
    if (log_) log_(line);
  }

  const ProbeSettings& s_;
  ControlTransport& transport_;
  ProbeClock& clock_;
  const std::function<void(const std::string&)>& log_;
};

}  // namespace

std::pair<std::string, std::string> inference_probe_request(const std::string& url_in, const std::string& model,
                                                            const std::string& endpoint_type,
                                                            const std::string& custom_endpoint) {
  const std::string url = with_scheme(url_in);
  std::string path = "/v1/chat/completions";  // also the fallback for other types, as the reference's
  nlohmann::ordered_json payload;
  if (endpoint_type == "completions") {
    path = "/v1/completions";
    payload = {{"prompt", kPrompt}, {"max_tokens", 1}};
  } else if (endpoint_type == "embeddings") {
    path = "/v1/embeddings";
    payload = {{"input", kPrompt}};
  } else {
    if (endpoint_type == "messages") path = "/v1/messages";
    payload = {{"messages", nlohmann::ordered_json::array({{{"role", "user"}, {"content", kPrompt}}})},
               {"max_tokens", 1}};
  }
  payload["model"] = model;
  std::string request_url;
  const auto parsed = http::parse_url(url);
  const bool has_path = parsed && parsed->target != "/" && !parsed->target.empty();
  if (!custom_endpoint.empty()) {
    std::string custom = custom_endpoint;
    while (!custom.empty() && custom.front() == '/') custom.erase(0, 1);
    request_url = rstrip_slash(url) + "/" + custom;
  } else if (has_path) {
    request_url = rstrip_slash(url);
  } else {
    request_url = rstrip_slash(url) + path;
  }
  return {request_url, payload.dump()};
}

void wait_for_endpoint(const ProbeSettings& settings, ControlTransport& transport, ProbeClock& clock,
                       const std::function<void(const std::string&)>& log) {
  if (settings.timeout_s <= 0 || settings.urls.empty()) return;
  Probe probe(settings, transport, clock, log);
  using config::WaitForModelMode;
  const bool models = settings.mode == WaitForModelMode::kModels || settings.mode == WaitForModelMode::kBoth;
  const bool inference = settings.mode == WaitForModelMode::kInference || settings.mode == WaitForModelMode::kBoth;
  for (const std::string& given : settings.urls) {
    const std::string url = with_scheme(given);
    if (models)
      for (const auto& model : settings.model_names) probe.models(url, model);
    if (inference) {
      const std::vector<std::string> models_to_probe =
          settings.model_names.empty() ? std::vector<std::string>{"default"} : settings.model_names;
      for (const auto& model : models_to_probe) probe.inference(url, model);
    }
  }
}

}  // namespace aiperf::control
