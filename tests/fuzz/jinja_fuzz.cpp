// The template engine (payload_template of the template endpoint): compile the input as a
// template and render it against variables shaped like a real turn. Compilation may refuse
// (std::invalid_argument, documented); rendering must not fail in any other way.
// Templates with more than 3 "for" are skipped: nested loops multiply the output (4 levels over
// the 3-element list below already render 81 bodies), and a template the user wrote that way
// is slow by design, not a bug the fuzzer should report as a timeout.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz_util.h"

#include "endpoints/jinja_subset.h"

namespace {

const nlohmann::json& vars() {
  static const nlohmann::json v = nlohmann::json::parse(R"({
    "model": "m", "max_tokens": 16, "stream": true, "text": "Hi <b>&\"",
    "texts": ["a", "b"], "images": [], "role": "user", "n": null,
    "messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": "y"}],
    "extra": {"k": [1, 2.5, {"z": false}]}
  })");
  return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  if (aiperf::fuzz::too_many_loops(source)) return 0;
  try {
    const aiperf::endpoints::JinjaTemplate tmpl(source);
    (void)tmpl.render(vars());
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
