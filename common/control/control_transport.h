// The ports of the readiness probe and the control hooks: one HTTP exchange at a time
// (ControlTransport) and a clock that can wait (ProbeClock), so their rules are unit-tested on
// fakes. The real ones: a blocking request on a private HttpClient (never the workers' pools,
// as the reference keeps control traffic off the inference connections) and the steady clock.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace aiperf::control {

using Headers = std::vector<std::pair<std::string, std::string>>;

struct ControlResponse {
  int status = 0;     // 0 = no response (connection refused, timeout, TLS failure ...)
  std::string body;   // the response body (any status)
  std::string error;  // transport failure, "Type: message"; empty when a response came
};

class ControlTransport {
 public:
  virtual ~ControlTransport() = default;
  // One request, answered within `timeout_s` (a timeout is status 0 with error set). Never throws.
  virtual ControlResponse send(const std::string& method, const std::string& url, const Headers& headers,
                               const std::string& body, double timeout_s) = 0;
};

class ProbeClock {
 public:
  virtual ~ProbeClock() = default;
  virtual double now_s() = 0;          // monotonic seconds
  virtual void sleep_s(double s) = 0;  // s >= 0
};

// HTTP(S) through a private HttpClient; `verify_tls` as AIPERF_HTTP_SSL_VERIFY.
std::unique_ptr<ControlTransport> make_http_transport(bool verify_tls);
ProbeClock& steady_probe_clock();

// "http://" + url when it has no scheme (our --url accepts host:port).
std::string with_scheme(const std::string& url);

}  // namespace aiperf::control
