// GenAI-Perf 0.0.16's metrics, computed as its profile-data parsers compute them from
// perf_analyzer's per-request export (timestamps in ns, one output string per response):
//   request_latency   last (non-empty) response - request start
//   time_to_first_token  first non-empty response - request start
//   time_to_second_token second non-empty response - first
//   inter_token_latency  round((latency - TTFT) / (OSL - 1)), when >1 response and OSL > 1
//   output_token_throughput_per_user  1e9 / ITL
//   request_throughput   requests / (last response - first request start), over ALL requests
//   output_token_throughput  sum(OSL) / the same duration
// LLM types (chat, completions) drop responses without text first ("data: [DONE]", the role
// chunk, the finish chunk) and skip requests left with none; embeddings keep every response.
// Statistics as numpy computes them: mean, linear-interpolated percentiles, population std;
// time metrics in ms. Keys in GenAI-Perf's order.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::cli::genai_perf {

// kKserve: Triton's KServe responses (TensorRT-LLM's text_output), GenAI-Perf's tensorrtllm format.
enum class Format { kChat, kCompletions, kEmbeddings, kKserve };

// One request as perf_analyzer exports it, plus the token counts of its prompt and of its output
// text (GenAI-Perf tokenizes both; the front end takes them from our engine, which tokenized
// the same texts with the same tokenizer).
struct PaRequest {
  int64_t timestamp = 0;                      // request start, ns since the epoch
  std::string payload;                        // the request body as sent
  std::vector<int64_t> response_timestamps;   // ns since the epoch
  std::vector<std::string> response_outputs;  // "data: {...}\n\n" per SSE response, or the body
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  // Our record's conversation and turn (from profile_export_raw.jsonl's metadata).
  std::string conversation_id;
  int64_t turn_index = 0;
  // Session runs: perf_analyzer records each request's session_id and, on every turn but a
  // session's last, its delay (ms) before the next turn, beside the payload.
  std::string session_id;
  std::optional<int64_t> delay_ms;
};

// The text of one response as GenAI-Perf extracts it (several SSE events in one response are
// joined; comments, non-data fields and [DONE] give "").
std::string response_text(const std::string& response, Format format);

// --goodput constraints in the order given: request_latency, time_to_first_token,
// time_to_second_token, inter_token_latency (ms: a request is good at or under them) and
// output_token_throughput_per_user (per second: good at or over it).
using Goodput = std::vector<std::pair<std::string, double>>;

// Metric -> {"unit", "avg", ...} in GenAI-Perf's key order (profile_export_genai_perf.json
// without input_config). With constraints, request_goodput = good requests / duration, where
// GenAI-Perf pairs the constrained metrics' per-request lists position by position (zip: a
// list with fewer values, e.g. TTST of single-response requests, shortens the count); an
// unknown metric name makes it -1.
// `drop_empty_responses` false keeps an LLM request's responses without text (GenAI-Perf drops
// them for OpenAI runs only; process-export-files measures Triton runs' as they are).
nlohmann::ordered_json compute_statistics(const std::vector<PaRequest>& requests, Format format,
                                          const Goodput& goodput = {}, bool drop_empty_responses = true);

// numpy.percentile's default (linear) on sorted data; p in [0, 100].
double percentile(const std::vector<double>& sorted, double p);

}  // namespace aiperf::cli::genai_perf
