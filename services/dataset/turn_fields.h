// The fields a single_turn line, a multi_turn turn and a random_pool entry share (spec §4.4):
// text|texts, image|images, audio|audios, video|videos, role, and (where allowed) timestamp,
// delay and output_length. Local media files are read and embedded as base64.
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "dataset.pb.h"

namespace aiperf::dataset {

struct TurnFieldOptions {
  bool allow_timing = true;   // random_pool entries carry no timestamp/delay
  double delay_ratio = 1.0;   // --session-delay-ratio, applied to every delay
  std::string field_prefix;   // "turns[2]." inside a multi_turn line
  bool allow_output_length = false;  // output_length (integer >= 1) -> max tokens; random_pool ignores it
};

// Fills `turn` from `object`; throws FieldError. A turn needs at least one text or media item.
void parse_turn_fields(const nlohmann::json& object, const TurnFieldOptions& options, proto::Turn& turn);

// True when `object` has any text or media field (single_turn auto-detection).
bool has_turn_content(const nlohmann::json& object);

}  // namespace aiperf::dataset
