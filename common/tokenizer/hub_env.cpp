#include "tokenizer/hub_env.h"

#include <cctype>
#include <filesystem>

namespace aiperf::tok {

HubEnv hub_env_from(const EnvLookup& lookup) {
  const auto get = [&](std::string_view name) {
    std::optional<std::string> v = lookup(name);
    return v ? *v : std::string();
  };
  namespace fs = std::filesystem;
  HubEnv env;
  if (std::string v = get("HF_ENDPOINT"); !v.empty()) env.endpoint = v;
  while (!env.endpoint.empty() && env.endpoint.back() == '/') env.endpoint.pop_back();
  env.token = get("HF_TOKEN");
  const std::string xdg = get("XDG_CACHE_HOME"), home = get("HOME");
  if (std::string v = get("HF_HUB_CACHE"); !v.empty())
    env.hub_cache = v;
  else if (std::string h = get("HF_HOME"); !h.empty())
    env.hub_cache = (fs::path(h) / "hub").string();
  else if (!xdg.empty())
    env.hub_cache = (fs::path(xdg) / "huggingface" / "hub").string();
  else if (!home.empty())
    env.hub_cache = (fs::path(home) / ".cache" / "huggingface" / "hub").string();
  std::string offline = get("HF_HUB_OFFLINE");
  for (char& c : offline) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  env.offline = offline == "1" || offline == "ON" || offline == "YES" || offline == "TRUE";
  env.tiktoken_base = get("TIKTOKEN_ENCODINGS_BASE");
  if (!xdg.empty())
    env.tokenizer_cache = xdg + "/aiperf/tokenizers";
  else if (!home.empty())
    env.tokenizer_cache = home + "/.cache/aiperf/tokenizers";
  return env;
}

}  // namespace aiperf::tok
