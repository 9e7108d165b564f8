// The names --public-dataset takes, as AIPerf 0.13 registers them (its plugins.yaml
// `public_dataset_loader`): where each dataset comes from (HuggingFace repo, config, split, or a
// URL) and which loader family turns its rows into conversations. One family covers many names.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace aiperf::dataset {

enum class PublicFamily {
  kShareGpt,      // sharegpt.h
  kSpecBench,     // Spec-Bench question.jsonl from GitHub: rows {"turns": [...]}, first turn
  kInstruction,   // one prompt column (or a template over the row) per row, single turn
  kMtBench,       // a list of user turns per row ("prompt"), one multi-turn conversation
  kConversation,  // a message list per row (VisionArena, LLaVA-OneVision): first user message + image
  kMmvu,          // video question + choices
  kAsr,           // speech clips
  kWekaTrace,     // SemiAnalysis weka coding-agent traces
  kExgentic,      // Exgentic agent traces
};

struct PublicDatasetInfo {
  std::string_view name;  // AIPerf's registered name (lower case, '_')
  PublicFamily family;
  std::string_view repo;    // HuggingFace dataset repo; "" = not a HuggingFace dataset
  std::string_view subset;  // the config `datasets.load_dataset(name=...)` gets; "" = default
  std::string_view split;
  std::string_view prompt_column;    // kInstruction
  std::string_view prompt_template;  // kInstruction: Python str.format over the row; "" = the column as is
  std::string_view image_column;     // "" = none
  bool supported;                    // loaded by this native aiperf
};

// Every registered name, in AIPerf's order.
const std::vector<PublicDatasetInfo>& public_datasets();
// The entry of `name` (AIPerf's spelling or ours: case and '-'/'_' do not matter); nullptr if none.
const PublicDatasetInfo* find_public_dataset(std::string_view name);
// The supported names, comma-separated, for error messages.
std::string supported_public_datasets();

}  // namespace aiperf::dataset
