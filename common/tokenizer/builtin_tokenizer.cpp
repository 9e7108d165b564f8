#include "tokenizer/builtin_tokenizer.h"

#include <algorithm>
#include <array>

namespace aiperf::tok {

bool is_tiktoken_encoding_name(std::string_view name) {
  static constexpr std::array<std::string_view, 6> kNames = {"cl100k_base", "o200k_base", "o200k_harmony",
                                                             "p50k_base",   "p50k_edit",  "r50k_base"};
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

std::string builtin_encoding_for(std::string_view name) {
  return std::string(name == kBuiltinTokenizerName ? kBuiltinEncoding : name);
}

bool is_fake_model_name(std::string_view name) {
  if (name.empty()) return false;
  if (name.find('/') != std::string_view::npos || name.find('\\') != std::string_view::npos) return false;
  if (name.front() == '.' || name.front() == '~') return false;
  std::string n(name);
  for (char& c : n) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');  // ASCII only, as the markers are
    if (c == '_') c = '-';
  }
  static constexpr std::array<std::string_view, 7> kExact = {"test",   "mock",   "fake",       "dummy",
                                                             "example", "sample", "placeholder"};
  if (std::find(kExact.begin(), kExact.end(), n) != kExact.end()) return true;
  static constexpr std::array<std::string_view, 10> kMarkers = {
      "mock-",    "-mock",    "fake-",      "-fake",    "test-model",
      "-test-model", "your-model", "my-model", "model-name", "model-id"};
  return std::any_of(kMarkers.begin(), kMarkers.end(),
                     [&](std::string_view m) { return n.find(m) != std::string::npos; });
}

std::string placeholder_model_warning(std::string_view model) {
  return "Model name '" + std::string(model) + "' looks like a placeholder; defaulting tokenizer to '" +
         std::string(kBuiltinTokenizerName) + "' (tiktoken " + std::string(kBuiltinEncoding) +
         "). Pass --tokenizer <name> to override.";
}

}  // namespace aiperf::tok
