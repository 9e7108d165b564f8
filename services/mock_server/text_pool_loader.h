// Chooses the output text pool for a configuration: built-in words with --no-tokenizer,
// otherwise pieces verified against --tokenizer.
#pragma once
#include "mock_config.h"
#include "text_pool.h"

namespace aiperf::mock {

// Throws tok::TokenizerError / std::runtime_error when the tokenizer cannot be used.
TextPool load_text_pool(const MockConfig& config);

}  // namespace aiperf::mock
