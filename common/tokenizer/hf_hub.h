// HuggingFace Hub names ("Qwen/Qwen3-0.6B") -> a local snapshot directory, using the cache
// layout huggingface_hub uses so Python tools and aiperf share downloads:
//   <cache>/models--Org--Name/{refs/<revision>, snapshots/<commit>/<file>, blobs/<etag>}
#pragma once
#include <optional>
#include <string>

namespace aiperf::tok {

// True when `name` has the shape of a Hub repo id: "name" or "org/name" ([A-Za-z0-9._-]).
bool looks_like_hub_repo(const std::string& name);

// HF_HUB_CACHE, else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else
// ~/.cache/huggingface/hub.
std::string hf_hub_cache_dir();

// The snapshot directory of `repo` at `revision` (a branch/tag name or a commit sha) when it
// already holds tokenizer.json or tokenizer.model; nullopt otherwise. Never touches the network.
std::optional<std::string> find_cached_snapshot(const std::string& repo, const std::string& revision);

// Returns the cached snapshot, or downloads tokenizer.json (falling back to tokenizer.model
// when the repo has no tokenizer.json) plus the optional tokenizer_config.json from
// $HF_ENDPOINT (default https://huggingface.co) into the cache, with $HF_TOKEN as bearer token.
// With HF_HUB_OFFLINE set only the cache is consulted. Throws TokenizerError with one line
// naming the repo and file on any failure; with download false, TokenizerNotCached when the
// snapshot is not cached.
std::string resolve_hub_tokenizer(const std::string& repo, const std::string& revision, bool download = true);

}  // namespace aiperf::tok
