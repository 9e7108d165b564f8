// A scripted ControlTransport and a manual ProbeClock for the probe and hook tests: each
// request is answered by `answer` and logged with the clock's time; sleeping advances time.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "control/control_transport.h"

namespace aiperf::test {

struct FakeClock : control::ProbeClock {
  double now = 0;
  std::vector<double> sleeps;
  double now_s() override { return now; }
  void sleep_s(double s) override {
    sleeps.push_back(s);
    now += s;
  }
};

struct SentRequest {
  std::string method, url, body;
  control::Headers headers;
  double timeout_s;
  double at;
};

struct FakeTransport : control::ControlTransport {
  explicit FakeTransport(FakeClock& c) : clock(c) {}
  FakeClock& clock;
  std::vector<SentRequest> sent;
  std::function<control::ControlResponse(const SentRequest&)> answer;
  control::ControlResponse send(const std::string& method, const std::string& url, const control::Headers& headers,
                                const std::string& body, double timeout_s) override {
    sent.push_back({method, url, body, headers, timeout_s, clock.now});
    return answer(sent.back());
  }
};

inline control::ControlResponse refused() { return {0, "", "ClientConnectorError: Connection refused"}; }
inline control::ControlResponse status(int s, std::string body = "{}") { return {s, std::move(body), ""}; }

}  // namespace aiperf::test
