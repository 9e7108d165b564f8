// Output and tokenizer sections of RunConfig.
#pragma once
#include <string>

#include "config/json_optional.h"

namespace aiperf::config {

struct OutputConfig {
  std::string artifact_dir = "artifacts";       // resolved run directory (absolute)
  bool artifact_dir_explicit = false;
  std::string profile_export_prefix;            // empty = AIPerf default names
  std::string export_level = "records";         // summary | records | raw
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OutputConfig, artifact_dir, artifact_dir_explicit,
                                                profile_export_prefix, export_level)

struct TokenizerConfig {
  std::string name;                             // as given (default: first model)
  std::string revision = "main";
  bool trust_remote_code = false;
  std::string resolved_path;                    // local path every service loads
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TokenizerConfig, name, revision, trust_remote_code, resolved_path)

}  // namespace aiperf::config
