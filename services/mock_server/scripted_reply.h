// ScriptedReply: a response prepared whole when the request arrives and sent as timed pieces:
// one body at a deadline, or SSE events each at its own deadline (offsets from the request's
// arrival). The newer APIs (Responses, images, Solido RAG, Triton generate) and the
// latency-paced embeddings/rankings answers use it, so each needs only a formatter, not its
// own pacing code in Session.
#pragma once
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace aiperf::mock {

struct TimedPiece {
  std::chrono::nanoseconds at{0};  // since the request arrived
  std::string data;                // the body, or one complete SSE event ("data: ...\n\n")
};

struct ScriptedReply {
  std::string_view content_type = "application/json";
  bool stream = false;             // SSE: pieces are events; else exactly one piece, the body
  std::vector<TimedPiece> pieces;
  int output_tokens = 0;           // for the server's own token counter
  int prompt_tokens = 0;
};

// Latencies the formatters schedule with (spec §8.1).
struct Pacing {
  std::chrono::nanoseconds ttft{0};
  std::chrono::nanoseconds itl{0};
  // Time of output token `i` (0-based): ttft + i*itl, the schedule of chat streams.
  std::chrono::nanoseconds token(int i) const { return ttft + i * itl; }
};

// "event: <type>\ndata: <json>\n\n" (the OpenAI Responses/Images stream framing).
std::string sse_event(std::string_view type, std::string_view json);
// "data: <json>\n\n".
std::string sse_data(std::string_view json);

}  // namespace aiperf::mock
