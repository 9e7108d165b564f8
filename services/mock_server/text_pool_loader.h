// Chooses the output text pool for a configuration: built-in words with --no-tokenizer,
// otherwise pieces verified against --tokenizer.
#pragma once
#include "mock_config.h"
#include "text_pool.h"
#include "tokenizer/hub_env.h"

namespace aiperf::mock {

// Throws tok::TokenizerError / std::runtime_error when the tokenizer cannot be used. `env`
// says where Hub tokenizers are found (the default: bundled names and local paths only).
TextPool load_text_pool(const MockConfig& config, const tok::HubEnv& env = {});

}  // namespace aiperf::mock
