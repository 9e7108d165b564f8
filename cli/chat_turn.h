// `aiperf chat`'s pure parts (AIPerf 0.13's cli_commands/_chat_stats.py): the endpoint URL a base
// URL resolves to, the request body, one streamed reply's pieces and its per-turn statistics,
// computed as the profile metrics define them (TTFT, request latency, OSL, ITL, ISL from usage,
// prompt-cache reads), and the stats block printed after each reply.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::cli::chat {

// "host:8000" -> "http://host:8000/v1/chat/completions"; a ".../v1" base gets
// "/chat/completions", a ".../chat/completions" URL is kept (trailing '/' dropped first).
std::string chat_completions_url(std::string url);

// {"messages": [...], "model": m, "stream": true, "stream_options": {"include_usage": true}}.
std::string request_body(const nlohmann::json& messages, const std::string& model);

// What one streamed reply gave: its content and reasoning text pieces with their arrival times
// (chunks that carried neither are not counted), and the last usage block seen.
struct Reply {
  std::vector<int64_t> piece_ns;  // arrival of each chunk that carried content or reasoning
  std::string content, reasoning;
  std::optional<nlohmann::json> usage;
};

// One SSE event's data into `reply`: returns the new (content, reasoning) text to show live.
// "[DONE]", keep-alives and unparsable data add nothing.
std::pair<std::string, std::string> add_chunk(Reply& reply, const std::string& data, int64_t perf_ns);

struct TurnStats {
  std::optional<double> ttft_ns, latency_ns;  // to the first / last content chunk
  std::optional<int64_t> osl;                 // output + reasoning tokens
  std::optional<int64_t> reasoning_tokens;
  std::optional<double> itl_ns;       // (latency - ttft) / (osl - 1), from 2 tokens on
  std::optional<int64_t> isl;         // the server's prompt_tokens
  std::optional<int64_t> cache_read;  // its prompt-cache reads
};

// `output_tokens` / `reasoning_tokens`: the client's counts of the reply's texts (unset when
// the text is empty).
TurnStats turn_stats(const Reply& reply, int64_t start_ns, std::optional<int64_t> output_tokens,
                     std::optional<int64_t> reasoning_tokens);

// The block AIPerf prints after a reply: TTFT, TPS, then ITL and the cache line when known;
// "(no tokens received)" without tokens. No trailing newline.
std::string format_stats(const TurnStats& s);

}  // namespace aiperf::cli::chat
