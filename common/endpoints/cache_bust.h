// --cache-bust: a marker that makes each session's prompt prefix unique so a server's prefix
// (KV) cache cannot serve one session from another's work, as AIPerf 0.13 injects it.
//
// RID targets put "[rid:<12 hex>]" plus a blank line before (…-prefix: "[rid:…]\n\n") or after
// (…-suffix: "\n\n[rid:…]") the system message (system-*) or the first user message
// (first-turn-*). The digest is the first 12 hex digits of SHA-256 over a string unique to the
// session instance, so every turn of a session, warmup or profiling, carries the same marker
// and different sessions differ. Warmup-isolation targets put the constant "[warmup]\n\n" in
// front, during warmup only; profiling requests go out clean. A system-* target with no system
// message falls back to the first user message, as AIPerf's does.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/prompt_shaping_config.h"
#include "dataset.pb.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::endpoints {

// True for the targets whose marker goes with the system message.
bool cache_bust_is_system_target(config::CacheBust target);
// True for the prefix forms (every target but system-suffix and first-turn-suffix).
bool cache_bust_is_prefix(config::CacheBust target);

// "[rid:" + first 12 hex of sha256(`unique`) + "]", with its "\n\n" on the side `target` wants.
std::string cache_bust_rid_marker(config::CacheBust target, const std::string& unique);

// The marker of one request, or nullopt: none for "none"; for RID targets the one of
// `benchmark_id` and the session instance (`x_correlation_id`, with `conversation_id`); for
// warmup-isolation targets "[warmup]\n\n" when `warmup`, else none.
std::optional<std::string> cache_bust_marker(config::CacheBust target, const std::string& benchmark_id,
                                             const std::string& x_correlation_id, const std::string& conversation_id,
                                             bool warmup);

// AIPerf's estimate_marker_token_cost: the mean token count of 8 sample markers of `target`
// (digests of "estimator:i:i:estimator-i"), rounded half to even; 0 for none and the
// warmup-isolation targets (profiling requests carry no marker).
uint32_t cache_bust_marker_tokens(config::CacheBust target, const tok::Tokenizer& tokenizer);

// Applies `marker` for `target` to one request: returns the system message to send, and when
// the marker belongs in the first user message, replaces `turns[i]` of that message with a
// pointer to a marked copy kept in `storage` (the caller keeps `storage` alive as long as the
// pointers). A message that already carries the marker on that edge is left as it is, so a
// history that holds the marked first turn is not marked twice.
std::string apply_cache_bust(config::CacheBust target, const std::string& marker, const std::string& system_message,
                             std::vector<const proto::Turn*>& turns, std::unique_ptr<proto::Turn>& storage);

}  // namespace aiperf::endpoints
