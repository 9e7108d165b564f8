// --accuracy-benchmark's dataset: one single-turn conversation per benchmark problem
// (common/accuracy/problems.h), as AIPerf 0.13's AccuracyDatasetLoader builds them: the chat
// messages sent verbatim, the flat prompt for completions, the problem's token budget as
// max_tokens and its stop sequence in the body. Conversation ids come from the run's benchmark
// id (accuracy::problem_conversation_id), so the record processors map responses back to
// problems without the dataset.
#pragma once
#include <vector>

#include "config/run_config.h"
#include "dataset.pb.h"

namespace aiperf::dataset {

// Throws accuracy::DatasetError / std::invalid_argument as build_problems does.
std::vector<proto::Conversation> accuracy_conversations(const config::RunConfig& config);

}  // namespace aiperf::dataset
