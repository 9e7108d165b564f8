#include "environment.h"

#include <cstdlib>
#include <string>

namespace aiperf::cli {

tok::HubEnv hub_env() {
  return tok::hub_env_from([](std::string_view name) -> std::optional<std::string> {
    const char* v = std::getenv(std::string(name).c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  });
}

}  // namespace aiperf::cli
