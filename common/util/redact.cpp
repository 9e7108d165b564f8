#include "util/redact.h"

namespace aiperf::util {

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
