// SSE parser: the body of a streaming response, cut into chunks at places the input chooses.
// The first byte picks the chunk length, so splits between CR and LF, inside "data:" and in the
// middle of UTF-8 are all reached. Checks that chunking never changes the events.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "sse/sse_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t chunk = 1 + data[0] % 16;
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);

  using aiperf::sse::SseEvent;
  using aiperf::sse::SseParser;
  std::vector<SseEvent> whole, split;
  SseParser a;
  a.feed(body, 1, whole);
  a.finish(2, whole);
  SseParser b;
  for (size_t i = 0; i < body.size(); i += chunk) b.feed(body.substr(i, chunk), 1, split);
  b.finish(2, split);

  // Same events whatever the chunking (timestamps aside).
  if (whole.size() != split.size()) std::abort();
  for (size_t i = 0; i < whole.size(); ++i) {
    if (whole[i].data != split[i].data || whole[i].event != split[i].event || whole[i].id != split[i].id ||
        whole[i].has_data != split[i].has_data)
      std::abort();
  }
  return 0;
}
