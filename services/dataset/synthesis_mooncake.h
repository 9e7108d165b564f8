// The Synthesis options applied to a loaded hash_ids trace (mooncake_trace, bailian_trace,
// burst_gpt_trace), where AIPerf's trace loaders apply them: --synthesis-max-isl drops lines longer
// than it before anything else (before sessions are formed); the transforms (synthesis_trace.h)
// run over every kept line in session order; --synthesis-max-osl then caps every output length.
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "config/input_config.h"
#include "custom_dataset.h"

namespace aiperf::dataset {

// True when --synthesis-max-isl excludes this line (its input_length is over the cap).
bool over_synthesis_max_isl(const config::InputConfig& in, const nlohmann::json& line);
bool over_synthesis_max_isl(const config::InputConfig& in, int64_t input_length);

// Rebuilds `out`'s turns and pending prompts from the synthesized copies of `lines` (lines[c]
// are conversation c's kept lines, in order) when a transform is set, then applies
// --synthesis-max-osl. The rng is AIPerf's "dataset.synthesis.synthesizer" stream under
// --random-seed. Throws DatasetFileError naming the file for a trace the synthesizer refuses.
void apply_mooncake_synthesis(const config::InputConfig& in, uint32_t block_size,
                              const std::vector<std::vector<nlohmann::json>>& lines, CustomDataset& out);

// bailian_trace and burst_gpt_trace, whose every turn is an input_length prompt: the same
// transforms over `out.pending` (in conversation order, as loaded; timestamps already in ms),
// written back into the prompts and turns, then the max-osl cap. A synthesized line that drops
// its hash_ids keeps the original ones (AIPerf's Bailian rebuild does the same).
void apply_pending_trace_synthesis(const config::InputConfig& in, uint32_t block_size, CustomDataset& out);

}  // namespace aiperf::dataset
