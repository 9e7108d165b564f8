#include "public_dataset_loader.h"

#include "dataset_error.h"
#include "hf_text_datasets.h"
#include "public_datasets.h"
#include "weka_trace.h"

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

// The repo a Weka corpus is read from: its own, or --hf-weka-dataset's for weka_hf.
std::string repo_of(const PublicDatasetInfo& info, const config::InputConfig& in) {
  return info.repo.empty() ? in.hf_weka_dataset : std::string(info.repo);
}

// Keys whose value is null dropped, at every depth: Parquet (and `datasets`' JSON reader) give
// every row the union of all rows' keys, null where a row had none; the trace schema reads an
// absent optional field and a null one alike, and refuses keys it does not know.
void drop_nulls(nlohmann::json& v) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end();) {
      if (it->is_null()) it = v.erase(it);
      else {
        drop_nulls(*it);
        ++it;
      }
    }
  } else if (v.is_array()) {
    for (auto& x : v) drop_nulls(x);
  }
}

}  // namespace

bool is_weka_public_dataset(const config::InputConfig& in) {
  const PublicDatasetInfo* info = find_public_dataset(in.public_dataset);
  return info && info->family == PublicFamily::kWekaTrace;
}

CustomDataset load_public_weka(const config::InputConfig& in) {
  const PublicDatasetInfo& info = info_of(in);
  const std::string repo = repo_of(info, in);
  if (repo.empty()) throw DatasetFileError("--public-dataset weka_hf needs --hf-weka-dataset <org>/<name>");
  std::vector<nlohmann::json> rows;
  try {
    rows = accuracy::load_rows(repo, effective_subset(info, in.hf_subset), std::string(info.split),
                               {in.hf_local_root, in.hf_hub_cache});
  } catch (const accuracy::DatasetError& e) {
    throw DatasetFileError(e.what());
  }
  for (auto& r : rows) drop_nulls(r);
  CustomDataset out;
  load_weka_trace_rows(rows, repo, in, out);
  return out;
}

std::string public_dataset_description(const config::InputConfig& in) {
  const PublicDatasetInfo* info = find_public_dataset(in.public_dataset);
  if (!info || (info->repo.empty() && info->family != PublicFamily::kWekaTrace)) return in.public_dataset_file;
  const std::string subset = effective_subset(*info, in.hf_subset);
  return repo_of(*info, in) + (subset.empty() ? "" : " (config " + subset + ")") + ", split " +
         std::string(info->split);
}

std::vector<proto::Conversation> public_dataset_conversations(const config::InputConfig& in, std::mt19937_64& rng) {
  const PublicDatasetInfo& info = info_of(in);
  if (info.family == PublicFamily::kWekaTrace) return load_public_weka(in).conversations;
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
