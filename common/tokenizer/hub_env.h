// HubEnv: where tokenizers are found, fetched and cached, as the environment names it. The
// programs' command-line layer reads the environment once (cli/environment.h) and passes this
// along; the tokenizer library itself never reads the environment.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace aiperf::tok {

struct HubEnv {
  std::string endpoint = "https://huggingface.co";  // HF_ENDPOINT, no trailing '/'
  std::string token;                                // HF_TOKEN (bearer), "" = none
  std::string hub_cache;      // the huggingface_hub cache; "" = none: Hub names do not resolve
  bool offline = false;       // HF_HUB_OFFLINE: the cache only, never the network
  std::string tiktoken_base;  // TIKTOKEN_ENCODINGS_BASE: a directory of <encoding>.tiktoken
  std::string tokenizer_cache;  // aiperf's binary tokenizer cache; "" = none
};

// A variable's value, or nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;

// huggingface_hub's rules: hub_cache is HF_HUB_CACHE, else $HF_HOME/hub, else
// $XDG_CACHE_HOME/huggingface/hub, else $HOME/.cache/huggingface/hub; HF_HUB_OFFLINE is true
// for 1/ON/YES/TRUE (any case); the tokenizer cache is $XDG_CACHE_HOME/aiperf/tokenizers, else
// $HOME/.cache/aiperf/tokenizers. Empty values count as unset.
HubEnv hub_env_from(const EnvLookup& lookup);

}  // namespace aiperf::tok
