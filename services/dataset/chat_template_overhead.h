// --apply-chat-template's synthetic ISL compensation, as AIPerf 0.13 estimates it: the chat
// template wraps every message (role header, end of turn) and each request (generation prompt),
// so synthetic prompts are shortened by that much for their wire ISL to match --isl.
#pragma once
#include <cstdint>

#include "endpoints/chat_template.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::dataset {

struct ChatTemplateOverhead {
  uint32_t per_request_fixed = 0;  // generation-prompt suffix and other once-per-request text
  uint32_t per_message_wrap = 0;   // role header + end-of-turn marker, averaged over user/assistant

  // Tokens taken off the first user turn's ISL, and off every later turn's.
  uint32_t first_turn() const { return per_request_fixed + per_message_wrap; }
  uint32_t later_turns() const { return per_message_wrap; }
};

// Probes the template with three fixed sentences s: rendered [user s] (S tokens) and
// [user s, assistant s, user s] (T tokens), both with the generation prompt, against s alone
// (B): wrap = (T - S - 2B) / 2, fixed = S - B - wrap - `server_special_tokens` (the BOS the
// server adds, which the ISL paths account for elsewhere). Each is the mean over the probes,
// rounded half to even. {0, 0} when the template raises or a probe gives a negative figure.
ChatTemplateOverhead estimate_chat_template_overhead(const endpoints::ChatTemplate& chat_template,
                                                     const tok::Tokenizer& tokenizer, uint32_t server_special_tokens);

// Special tokens the server adds to a prompt (HF num_special_tokens_to_add): 1 when the
// tokenizer_config.json beside `tokenizer_path` sets add_bos_token, else 0. An approximation:
// tokenizers that add BOS through tokenizer.json's post-processor alone count 0 here.
uint32_t server_special_tokens(const std::string& tokenizer_path);

}  // namespace aiperf::dataset
