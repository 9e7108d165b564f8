// --public-dataset other than sharegpt: the one entry point the CLI (pre-flight, exit 2 on a
// missing or bad dataset) and the dataset service share. It picks the family's loader from the
// registry (public_datasets.h) and reads the dataset where the CLI resolved it (InputConfig's
// hf_local_root / hf_hub_cache, or public_dataset_file for URL-backed ones).
#pragma once
#include <random>
#include <string>
#include <vector>

#include "config/input_config.h"
#include "custom_dataset.h"
#include "dataset.pb.h"

namespace aiperf::dataset {

// The conversations of `in.public_dataset`, in the dataset's order. Throws DatasetFileError
// (dataset missing, malformed, or a family this build does not load).
std::vector<proto::Conversation> public_dataset_conversations(const config::InputConfig& in, std::mt19937_64& rng);

// Whether `in.public_dataset` is a Weka trace corpus (its conversations come as a CustomDataset,
// with the trace pipeline's pending prompts).
bool is_weka_public_dataset(const config::InputConfig& in);
// The Weka corpus's traces (semianalysis_cc_traces_weka*, weka_hf with --hf-weka-dataset), one per
// row, as the weka_trace file loader makes them. Throws DatasetFileError.
CustomDataset load_public_weka(const config::InputConfig& in);

// What a user reads when the dataset is absent: the repo, config and split, and the command that
// fills the HuggingFace cache.
std::string public_dataset_description(const config::InputConfig& in);

}  // namespace aiperf::dataset
