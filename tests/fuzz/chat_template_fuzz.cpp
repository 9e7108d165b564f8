// The chat-template engine (--apply-chat-template): compile the input as a template and render
// it against a conversation shaped like a real request. Compilation and rendering may refuse
// (ChatTemplateError, documented); nothing else may happen. Templates with more than 3 "for"
// are skipped, as in jinja_fuzz.cpp: nested loops multiply the output by design.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz_util.h"

#include "endpoints/chat_template.h"

namespace {

const nlohmann::ordered_json& messages() {
  static const nlohmann::ordered_json m = nlohmann::ordered_json::parse(R"([
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Hi <b>&\" caf\u00e9"},
    {"role": "assistant", "content": "<think>\nr\n</think>\n\nok", "tool_calls": [
      {"type": "function", "function": {"name": "f", "arguments": {"a": [1, 2.5, null, true]}}}]},
    {"role": "tool", "content": "42"},
    {"role": "user", "content": ""}
  ])");
  return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  if (aiperf::fuzz::too_many_loops(source)) return 0;
  try {
    const aiperf::endpoints::ChatTemplate tmpl(source, {{"bos_token", "<s>"}, {"eos_token", "</s>"}});
    (void)tmpl.render(messages(), true);
  } catch (const aiperf::endpoints::ChatTemplateError&) {
  }
  return 0;
}
