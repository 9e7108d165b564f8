// Alibaba Bailian traces (spec §4.4, custom type bailian_trace, hash_id blocks of 16 tokens):
// {chat_id, parent_chat_id (-1 = root), timestamp (seconds), input_length, output_length,
//  type, turn, hash_ids}. Lines are grouped into sessions by walking parent_chat_id links to
// the root (session id = the root's chat_id), each session ordered by `turn`.
#pragma once
#include <cstdint>

#include "custom_dataset.h"

namespace aiperf::dataset {

inline constexpr uint32_t kBailianBlockSize = 16;

// Fills `out` from `in.input_file`; prompts are left pending (input_length + hash_ids).
// Throws DatasetFileError "file:line: field: problem".
void load_bailian_trace(const config::InputConfig& in, CustomDataset& out);

}  // namespace aiperf::dataset
