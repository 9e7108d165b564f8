// `aiperf profile --config FILE`: the input is a YAML config file. ConfigFileError (a
// std::runtime_error naming file:line:key) is the documented refusal; anything else escaping,
// or a crash, is a finding. What is accepted must become a command line of whole words.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "config_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const aiperf::cli::config_file::EnvLookup env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "SET") return std::string("7");
    return std::nullopt;
  };
  try {
    const auto t = aiperf::cli::config_file::translate_text(text, "fuzz.yaml", env);
    for (const std::string& word : aiperf::cli::config_file::to_args(t)) (void)word.size();
  } catch (const aiperf::cli::config_file::ConfigFileError&) {
  }
  return 0;
}
