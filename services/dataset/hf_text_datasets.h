// The text families of --public-dataset (public_datasets.h): their rows read offline and turned
// into conversations as AIPerf 0.13's loaders do.
//   kInstruction (HFInstructionResponseDatasetLoader): one single-turn conversation per row whose
//     prompt (the column, or the template formatted with the row as Python's str.format) is not
//     blank; the prompt is sent as it is (not stripped).
//   kMtBench (MTBenchDatasetLoader): the row's "prompt" list, one stripped user turn per non-empty
//     item; rows without any are skipped.
//   kSpecBench (SpecBenchLoader): the row's "turns" list, its first item stripped, single turn.
// Session ids are AIPerf's: "session_000000", "session_000001", ... with --random-seed, else UUID4.
#pragma once
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "accuracy/hf_dataset.h"
#include "dataset.pb.h"
#include "public_datasets.h"

namespace aiperf::dataset {

inline constexpr const char* kSpecBenchUrl =
    "https://raw.githubusercontent.com/hemingkx/Spec-Bench/fd2c1cd7d2201ef71db4c5f4e455008f017967bf/data/"
    "spec_bench/question.jsonl";

// AIPerf's download cache of Spec-Bench, relative to the working directory (shared with it).
std::string spec_bench_cache_path();
// Downloads Spec-Bench to `path` (atomically). Throws DatasetFileError.
void download_spec_bench(const std::string& path, int timeout_seconds);

// The config a HuggingFace-backed dataset is read with: --hf-subset when given, else AIPerf's.
std::string effective_subset(const PublicDatasetInfo& info, const std::optional<std::string>& hf_subset);

// The rows of a public dataset: a HuggingFace one from `where` (with `subset`), Spec-Bench from
// `file` (JSON Lines). Throws DatasetFileError naming what was looked for, where, and how to fetch it.
std::vector<nlohmann::json> load_public_rows(const PublicDatasetInfo& info, const std::string& subset,
                                             const accuracy::DatasetLocation& where, const std::string& file);

// Python's str(value) for a JSON value as `datasets` returns it (str, int, float, bool, None,
// list, dict).
std::string py_str(const nlohmann::json& value);
// Python's template.format(**row) for plain "{name}" fields and "{{"/"}}". Throws FieldError on a
// field the row lacks, or a form this does not implement (attribute, index, conversion, spec).
std::string py_format(const std::string& tmpl, const nlohmann::json& row);

// The conversations of a text family's rows. `source` names the dataset in errors (a column
// missing from the first row, as AIPerf checks). Throws DatasetFileError; none at all is an error.
std::vector<proto::Conversation> text_public_conversations(const PublicDatasetInfo& info,
                                                           const std::vector<nlohmann::json>& rows,
                                                           const std::string& source,
                                                           std::optional<uint64_t> random_seed, std::mt19937_64& rng);

}  // namespace aiperf::dataset
