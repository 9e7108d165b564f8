// Key names of AIPerf 0.13's config schema, as the config-file walk (config_file.cpp) reads them.
#pragma once
#include <string>
#include <vector>

namespace aiperf::cli::config_file {

// "replay_speedup" -> "replay-speedup": a snake-case key named like its option.
std::string kebab(std::string key);
// "maxTokens" / "max_tokens" -> "max_tokens" (the reference accepts both spellings).
std::string snake(const std::string& key);
// "a.b" from a path and a key ("b" when the path is empty).
std::string join(const std::string& path, const std::string& key);
// The option taking a sweep parameter's list, from its path split at '.' and snake-cased
// (bare names like "concurrency" / "isl", phases.profiling.<name>, datasets.<name>.prompts.isl,
// dataset.prompts.osl.stddev, ...); "" when aiperf (C++) cannot sweep it.
std::string sweep_option_for(const std::vector<std::string>& parts);

}  // namespace aiperf::cli::config_file
