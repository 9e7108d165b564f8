#include "util/redact.h"

#include <algorithm>
#include <array>

namespace aiperf::util {

bool is_sensitive_header(std::string_view name) {
  static constexpr std::array<std::string_view, 9> kSensitive = {
      "authorization", "proxy-authorization", "x-api-key", "api-key", "ocp-apim-subscription-key",
      "x-goog-api-key", "x-functions-key", "aeg-sas-key", "x-amz-security-token"};
  return std::any_of(kSensitive.begin(), kSensitive.end(), [&](std::string_view s) {
    return s.size() == name.size() && std::equal(s.begin(), s.end(), name.begin(), [](char a, char b) {
             return a == (b >= 'A' && b <= 'Z' ? static_cast<char>(b - 'A' + 'a') : b);
           });
  });
}

std::string redact(std::string text, const std::vector<std::string>& secrets) {
  for (const std::string& secret : secrets) {
    if (secret.empty()) continue;
    for (std::size_t pos = text.find(secret); pos != std::string::npos;
         pos = text.find(secret, pos + kRedacted.size())) {
      text.replace(pos, secret.size(), kRedacted);
    }
  }
  return text;
}

}  // namespace aiperf::util
