// Credentials given to a run (--api-key, -H Authorization:...) are sent to the server and
// nowhere else: every export, log line and printed command masks them with kRedacted.
#pragma once
#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace aiperf::util {

// AIPerf's replacement for a redacted header value.
inline constexpr std::string_view kRedacted = "<redacted>";

// Whether a header's value is a credential (AIPerf's redact_headers list, case-insensitive):
// Authorization, Proxy-Authorization and the API-key headers of the major providers. Inline, so
// the config library (input_config's export) uses it without linking this one.
inline bool is_sensitive_header(std::string_view name) {
  static constexpr std::array<std::string_view, 9> kSensitive = {"authorization",
                                                                 "proxy-authorization",
                                                                 "x-api-key",
                                                                 "api-key",
                                                                 "ocp-apim-subscription-key",
                                                                 "x-goog-api-key",
                                                                 "x-functions-key",
                                                                 "aeg-sas-key",
                                                                 "x-amz-security-token"};
  return std::any_of(kSensitive.begin(), kSensitive.end(), [&](std::string_view s) {
    return s.size() == name.size() && std::equal(s.begin(), s.end(), name.begin(), [](char a, char b) {
             return a == (b >= 'A' && b <= 'Z' ? static_cast<char>(b - 'A' + 'a') : b);
           });
  });
}

// `text` with every occurrence of each non-empty secret replaced by kRedacted.
std::string redact(std::string text, const std::vector<std::string>& secrets);

}  // namespace aiperf::util
