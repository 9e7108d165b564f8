// Rows of a HuggingFace dataset (repo, config, split) read offline, where `datasets.load_dataset`
// would find them for AIPerf 0.13:
//   1. a local directory named like the repo under the working directory ("./openai/gsm8k"),
//      which `datasets` loads before asking the Hub;
//   2. the huggingface_hub cache: <hub_cache>/datasets--<org>--<name>/snapshots/<commit>/ with
//      <commit> from refs/main (or the only snapshot there).
// The config and split select the data files as the Hub's layout does: the README.md card's
// `configs:` list (data_files per split, glob patterns), else the conventional names
// (<config>/<split>-*.parquet, <config>/<split>/*.parquet, <split>-*.jsonl ...). Parquet
// (common/parquet), JSON Lines and JSON array files are read; rows are JSON objects as
// `datasets` returns them.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::accuracy {

// A dataset that is not there or cannot be read: the message names the repo, the config and
// split, and every place looked in.
struct DatasetError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct DatasetLocation {
  std::string local_root;  // directory holding <org>/<name>; "" = none
  std::string hub_cache;   // huggingface_hub cache; "" = none
};

// The dataset's root directory (local directory or cache snapshot). Throws DatasetError.
std::string dataset_root(const std::string& repo, const DatasetLocation& where);

// The data files of (config, split) under `root`, sorted. Throws DatasetError when none.
std::vector<std::string> data_files(const std::string& root, const std::string& repo, const std::string& config,
                                    const std::string& split);

// The rows of (repo, config, split); `config` "" = the default config. Throws DatasetError.
std::vector<nlohmann::json> load_rows(const std::string& repo, const std::string& config, const std::string& split,
                                      const DatasetLocation& where);
// Whether the split exists (few-shot sources such as MMLU's "dev" are optional).
bool has_split(const std::string& repo, const std::string& config, const std::string& split,
               const DatasetLocation& where);

// One data file's rows (.parquet, .jsonl, .json). Throws DatasetError naming the file.
std::vector<nlohmann::json> read_rows_file(const std::string& path);

}  // namespace aiperf::accuracy
