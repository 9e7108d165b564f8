// The tokenizer cache: a tokenizer.json with a BPE model, kept in a binary form that loads in a
// few milliseconds instead of ~70 (parsing 1.5 MB of JSON and re-merging 50 000 merges for GPT-2),
// which every process of a run (controller, dataset, record processors) pays at start-up.
// One file per tokenizer.json, keyed by its absolute path, size and modification time; written
// once (atomically, best effort) and read by every later load. Anything unexpected in a cache
// file (other format, truncated, another tokenizer) means: load the JSON instead.
#pragma once
#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "tokenizer/tokenizer.h"

namespace aiperf::tok {

// Loads `file` (a tokenizer.json) through the cache in `cache_dir` ("" = no cache). `config` is
// tokenizer_config.json's content (or null). Same result and errors as parsing the JSON.
TokenizerPtr load_hf_json_cached(const std::filesystem::path& file, const nlohmann::json& config,
                                 const std::string& cache_dir);

}  // namespace aiperf::tok
