// Credentials given to a run (--api-key, -H Authorization:...) are sent to the server and
// nowhere else: every export, log line and printed command masks them with kRedacted.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace aiperf::util {

// AIPerf's replacement for a redacted header value.
inline constexpr std::string_view kRedacted = "<redacted>";

// Whether a header's value is a credential (AIPerf's redact_headers list, case-insensitive):
// Authorization, Proxy-Authorization and the API-key headers of the major providers.
bool is_sensitive_header(std::string_view name);

// `text` with every occurrence of each non-empty secret replaced by kRedacted.
std::string redact(std::string text, const std::vector<std::string>& secrets);

}  // namespace aiperf::util
