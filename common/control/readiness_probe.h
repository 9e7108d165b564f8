// The pre-flight readiness probe (--wait-for-model-timeout), as AIPerf 0.13's
// common/readiness_probe.py: for each URL, in order, `models` polls GET {url}/v1/models until
// every model is listed in data[].id (a 404 there falls back to one GET of the base URL, where
// any 2xx passes), `inference` POSTs a canned 1-token request until any status below 500
// answers; `both` runs models then inference. Each (URL, model) probe has its own deadline of
// timeout_s; attempts are interval_s apart (the last sleep is cut at the deadline).
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/endpoint_config.h"
#include "control_transport.h"

namespace aiperf::control {

struct ProbeSettings {
  std::vector<std::string> urls;         // as --url gives them (a scheme is added when missing)
  std::vector<std::string> model_names;
  config::WaitForModelMode mode = config::WaitForModelMode::kInference;
  std::string endpoint_type = "chat";
  std::string custom_endpoint;           // --endpoint: the inference probe's path
  double timeout_s = 0;
  double interval_s = 5;
  Headers headers;                       // -H headers and the API key's header
};

// The probe gave up: the message is the reference's ("Timed out after 2.0s probing ...").
class ReadinessTimeout : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Returns once every probe passed; throws ReadinessTimeout. `log` receives one line per
// attempt (may be empty).
void wait_for_endpoint(const ProbeSettings& settings, ControlTransport& transport, ProbeClock& clock,
                       const std::function<void(const std::string&)>& log = {});

// The inference probe's URL and JSON body for one model (exposed for tests).
std::pair<std::string, std::string> inference_probe_request(const std::string& url, const std::string& model,
                                                            const std::string& endpoint_type,
                                                            const std::string& custom_endpoint);

}  // namespace aiperf::control
