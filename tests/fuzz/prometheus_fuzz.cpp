// Prometheus text exposition parser: a scrape body from a DCGM exporter or inference server.
// parse() is documented never to throw, so nothing is caught.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "prometheus/exposition.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto result = aiperf::prometheus::parse(text);
  if (result.ok()) (void)result.exposition->find("DCGM_FI_DEV_GPU_UTIL");
  return 0;
}
