// AIPerf 0.13 refuses the options that only shape or count text tokens for endpoint types that
// neither tokenize their input nor produce tokens (image_retrieval, audio_transcription): its
// CLI converter's check, in its order and wording. Types that tokenize their input
// (video_generation, image_edit, embeddings, ...) accept them.
#pragma once
#include <string>

#include "options.h"

namespace aiperf::cli {

// Remembers the options the check looks at (call after every add_*_options).
void watch_non_text_options(CLI::App& app, ProfileOptions& o);

// Throws OptionError for the first kind given, as AIPerf: text options ("--isl/--prompt-input-
// tokens-mean/--synthetic-input-tokens-mean, --seq-dist/--sequence-distribution cannot be used
// with --endpoint-type T."), then prefix prompt options ("Prefix prompt options
// (prompt_prefix_length, ...) cannot be used with --endpoint-type T.", field names sorted), then
// tokenizer options ("Tokenizer options (--tokenizer, --tokenizer-revision) cannot be used with
// --endpoint-type T."). Call only for such an endpoint type.
void refuse_non_text_options(const ProfileOptions& o, const std::string& endpoint_type);

}  // namespace aiperf::cli
