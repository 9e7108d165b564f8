// HuggingFace Hub names ("Qwen/Qwen3-0.6B") -> a local snapshot directory, using the cache
// layout huggingface_hub uses so Python tools and aiperf share downloads:
//   <cache>/models--Org--Name/{refs/<revision>, snapshots/<commit>/<file>, blobs/<etag>}
#pragma once
#include <optional>
#include <string>

#include "tokenizer/hub_env.h"

namespace aiperf::tok {

// True when `name` has the shape of a Hub repo id: "name" or "org/name" ([A-Za-z0-9._-]).
bool looks_like_hub_repo(const std::string& name);

// The snapshot directory of `repo` at `revision` (a branch/tag name or a commit sha) when it
// already holds tokenizer.json or tokenizer.model in `env.hub_cache`; nullopt otherwise. Never
// touches the network.
std::optional<std::string> find_cached_snapshot(const std::string& repo, const std::string& revision,
                                                const HubEnv& env);

// Returns the cached snapshot, or downloads tokenizer.json (falling back to tokenizer.model
// when the repo has no tokenizer.json) plus the optional tokenizer_config.json from
// env.endpoint into env.hub_cache, with env.token as bearer token. Offline, only the cache is
// consulted. Throws TokenizerError with one line naming the repo and file on any failure (no
// cache at all included); with download false, TokenizerNotCached when the snapshot is not
// cached.
std::string resolve_hub_tokenizer(const std::string& repo, const std::string& revision, bool download,
                                  const HubEnv& env);

}  // namespace aiperf::tok
