// Fault modes of the mock (--fault KIND[:PERCENT], repeatable): what a failing server does to a
// generation request, drawn per request from one seeded generator (--random-seed), so a mix of
// faults is reproducible in arrival order. docs/user-guide.md lists the kinds.
#pragma once
#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace aiperf::mock {

enum class Fault {
  reset_before_headers,   // the request is read, then the connection is reset (RST), no byte sent
  reset_mid_stream,       // half the output is sent, then RST
  http_5xx,               // 500, 502 or 503 with an OpenAI error body
  http_429,               // 429 with Retry-After
  malformed_json,         // an event (streaming) or the body (non-streaming) is cut JSON
  error_event,            // `event: error` with an error payload mid-stream, then the stream ends
  truncated_chunked,      // half the output as chunks, then FIN without the final 0-chunk
  stall_after_headers,    // headers, then nothing for the stall time, then the rest
  stall_mid_stream,       // half the output, then nothing for the stall time, then the rest
  slow_headers,           // the response head trickles out in 4 pieces over the slow-headers delay
  huge_event,             // one output event (or the body) carries an extra --fault-event-bytes of text
  wrong_content_type,     // 200 with a text/html page
  tls_handshake_failure,  // per connection: a TLS ClientHello is answered with plaintext, then close
};
inline constexpr size_t kFaultCount = static_cast<size_t>(Fault::tls_handshake_failure) + 1;

inline constexpr std::array<std::string_view, kFaultCount> kFaultNames = {
    "reset_before_headers", "reset_mid_stream", "http_5xx",         "http_429",
    "malformed_json",       "error_event",      "truncated_chunked", "stall_after_headers",
    "stall_mid_stream",     "slow_headers",     "huge_event",       "wrong_content_type",
    "tls_handshake_failure"};
static_assert(kFaultNames.back() == "tls_handshake_failure", "one name per fault, in enum order");

inline std::string_view fault_name(Fault f) { return kFaultNames[static_cast<size_t>(f)]; }

struct FaultSpec {
  Fault kind = Fault::http_5xx;
  double percent = 100.0;  // of generation requests (of connections for tls_handshake_failure)
  bool operator==(const FaultSpec&) const = default;
};

// "KIND" (100%) or "KIND:PERCENT" with 0 < PERCENT <= 100; nullopt with `error` set otherwise.
std::optional<FaultSpec> parse_fault_spec(std::string_view text, std::string& error);

// Empty when the specs are usable together: kinds distinct, request-level percents summing to
// at most 100 (one request gets at most one fault). Otherwise the reason.
std::string check_fault_specs(const std::vector<FaultSpec>& specs);

struct FaultDecision {
  Fault kind;
  int status = 0;  // http_5xx: 500, 502 or 503; http_429: 429
};

class FaultInjector {
 public:
  // `specs` must pass check_fault_specs. With a seed the decisions are reproducible in draw order.
  FaultInjector(std::vector<FaultSpec> specs, std::optional<uint64_t> seed);

  // The fault of the next generation request, if any (never tls_handshake_failure).
  std::optional<FaultDecision> draw();
  // Whether a new connection that opens with a TLS ClientHello fails its handshake.
  bool draw_tls_failure();
  // A TLS-failure fault is configured, so sessions look at the first byte of a connection.
  bool watches_tls() const { return tls_percent_ > 0.0; }

 private:
  double uniform();  // [0, 100)

  std::vector<FaultSpec> request_specs_;
  double tls_percent_ = 0.0;
  std::mutex mutex_;  // one generator shared by all io threads; untouched when no fault is set
  std::mt19937_64 rng_;
};

}  // namespace aiperf::mock
