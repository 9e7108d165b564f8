// --public-dataset sharegpt (spec §4.5): the ShareGPT JSON list
// [{"conversations": [{"from": "human", "value": ...}, {"from": "gpt", "value": ...}, ...]}, ...].
// Each entry with >= 2 messages gives one single-turn conversation: prompt = first message,
// max tokens = the token count of the second; entries are kept under vLLM's benchmark length
// rules. The file is the one given with --input-file, or AIPerf's download cache.
#pragma once
#include <random>
#include <string>
#include <vector>

#include "dataset.pb.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::dataset {

inline constexpr const char* kShareGptUrl =
    "https://huggingface.co/datasets/anon8231489123/ShareGPT_Vicuna_unfiltered/resolve/main/"
    "ShareGPT_V3_unfiltered_cleaned_split.json";

// AIPerf's cache location, relative to the working directory, so both tools share a download.
std::string sharegpt_cache_path();

// Downloads the dataset to `path` (atomically; $AIPERF_DATASET_PUBLIC_DATASET_TIMEOUT seconds,
// default 300). Throws DatasetFileError.
void download_sharegpt(const std::string& path, int timeout_seconds);

struct ShareGptEntry {
  std::string prompt, completion;
  size_t line = 0;  // where the entry starts in the file
};

// The (prompt, completion) of every entry with >= 2 messages, in file order. A malformed file
// throws DatasetFileError "file:line: field 'conversations[1].value': problem".
std::vector<ShareGptEntry> read_sharegpt(const std::string& path);

// Conversations of the entries whose token lengths pass: 4 <= prompt <= 1024, completion >= 4
// (not checked when `osl_given`), prompt + completion <= 2048. Throws DatasetFileError when
// none pass.
std::vector<proto::Conversation> sharegpt_conversations(const std::vector<ShareGptEntry>& entries,
                                                        const tok::Tokenizer& tokenizer, bool osl_given,
                                                        const std::string& path, std::mt19937_64& rng);

}  // namespace aiperf::dataset
