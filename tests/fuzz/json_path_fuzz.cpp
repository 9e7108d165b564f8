// JsonPath (the template endpoint's response_field): the expression is user input. The first
// line of the input is the expression, the rest a response body to select from.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include <nlohmann/json.hpp>

#include "endpoints/json_path.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const size_t nl = text.find('\n');
  const std::string_view expr = text.substr(0, nl);
  const std::string_view body = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  try {
    const aiperf::endpoints::JsonPath path(expr);  // std::invalid_argument outside the subset
    const nlohmann::json root = nlohmann::json::parse(body, nullptr, false);
    if (!root.is_discarded()) (void)path.find(root);
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
