// Option values the CLI parses itself: the key:value lists of --extra-inputs and --header (each
// input line one item as the user typed it; OptionError, a std::runtime_error, is the documented
// refusal), and the whole input as a --goodput spec (std::invalid_argument) and as a --url
// (nullopt when not an absolute http(s) URL). Parsed extra inputs must dump as JSON: they are
// merged into every request body.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "http/url.h"
#include "key_value.h"
#include "metrics/goodput_slos.h"
#include "metrics/metric_context.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> items;
  size_t start = 0;
  while (true) {
    const size_t nl = text.find('\n', start);
    items.push_back(text.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  try {
    // The result goes into every request body (and run_config.json) as JSON text.
    (void)aiperf::cli::parse_extra_inputs(items).dump();
  } catch (const std::runtime_error&) {
  }
  try {
    (void)aiperf::cli::parse_headers(items);
  } catch (const std::runtime_error&) {
  }
  for (const std::string& item : items) (void)aiperf::cli::coerce_value(item);

  aiperf::metrics::MetricContext ctx;
  ctx.streaming = true;
  try {
    (void)aiperf::metrics::parse_goodput(text, ctx);
  } catch (const std::invalid_argument&) {
  }
  (void)aiperf::http::parse_url(text);
  return 0;
}
