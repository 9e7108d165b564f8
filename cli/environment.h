// The environment, read in one place: every variable a program of this project honours is
// read here, once, by its command-line layer, and passed on as configuration (services get it
// in the RunConfig; libraries never call getenv).
#pragma once
#include "tokenizer/hub_env.h"

namespace aiperf::cli {

// HF_ENDPOINT, HF_TOKEN, HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME, HOME, HF_HUB_OFFLINE,
// TIKTOKEN_ENCODINGS_BASE (tok::hub_env_from has the rules).
tok::HubEnv hub_env();

}  // namespace aiperf::cli
