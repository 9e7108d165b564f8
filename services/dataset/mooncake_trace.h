// One line of a mooncake trace (spec §4.4): exactly one of input_length (synthetic prompt,
// optionally built from hash_ids blocks), text_input (literal prompt) or messages (sent
// verbatim, with optional tools); plus output_length, timestamp, delay and session_id.
#pragma once
#include <optional>

#include <nlohmann/json_fwd.hpp>

#include "custom_dataset.h"

namespace aiperf::dataset {

// The turn of `object`; for input_length lines `pending` describes the prompt to synthesize
// (conversation/turn left for the caller). Throws FieldError.
proto::Turn parse_mooncake_line(const nlohmann::json& object, uint32_t block_size, double delay_ratio,
                                std::optional<PendingPrompt>& pending);

}  // namespace aiperf::dataset
