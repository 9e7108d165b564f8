#include "public_dataset_loader.h"

#include "dataset_error.h"
#include "hf_text_datasets.h"
#include "public_datasets.h"

namespace aiperf::dataset {

namespace {

const PublicDatasetInfo& info_of(const config::InputConfig& in) {
  const PublicDatasetInfo* info = find_public_dataset(in.public_dataset);
  if (!info) throw DatasetFileError("unknown public dataset '" + in.public_dataset + "'");
  if (!info->supported)
    throw DatasetFileError("'" + in.public_dataset + "' is not loaded by this native aiperf yet (supported: " +
                           supported_public_datasets() + ")");
  return *info;
}

}  // namespace

std::string public_dataset_description(const config::InputConfig& in) {
  const PublicDatasetInfo* info = find_public_dataset(in.public_dataset);
  if (!info || info->repo.empty()) return in.public_dataset_file;
  const std::string subset = effective_subset(*info, in.hf_subset);
  return std::string(info->repo) + (subset.empty() ? "" : " (config " + subset + ")") + ", split " +
         std::string(info->split);
}

std::vector<proto::Conversation> public_dataset_conversations(const config::InputConfig& in, std::mt19937_64& rng) {
  const PublicDatasetInfo& info = info_of(in);
  const std::string subset = effective_subset(info, in.hf_subset);
  const auto rows = load_public_rows(info, subset, {in.hf_local_root, in.hf_hub_cache}, in.public_dataset_file);
  switch (info.family) {
    case PublicFamily::kInstruction:
    case PublicFamily::kMtBench:
    case PublicFamily::kSpecBench:
      return text_public_conversations(info, rows, public_dataset_description(in), in.random_seed, rng);
    default:
      throw DatasetFileError("'" + in.public_dataset + "' is not loaded by this native aiperf yet");
  }
}

}  // namespace aiperf::dataset
