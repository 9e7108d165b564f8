#include "llama_timings.h"

#include <charconv>

namespace aiperf::mock {

namespace {

void append_number(std::string& out, const char* key, double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out += '"';
  out += key;
  out += "\":";
  out.append(buf, ec == std::errc() ? end : buf);
}

}  // namespace

std::string llama_timings_json(int prompt_tokens, int output_tokens, double ttft_ms, double itl_ms) {
  const int decode_steps = output_tokens > 1 ? output_tokens - 1 : 0;
  const double predicted_ms = decode_steps * itl_ms;
  std::string out = "{";
  append_number(out, "cache_n", 0);
  out += ',';
  append_number(out, "prompt_n", prompt_tokens);
  out += ',';
  append_number(out, "prompt_ms", ttft_ms);
  out += ',';
  append_number(out, "prompt_per_token_ms", prompt_tokens > 0 ? ttft_ms / prompt_tokens : 0.0);
  out += ',';
  append_number(out, "prompt_per_second", ttft_ms > 0 ? 1e3 / ttft_ms * prompt_tokens : 0.0);
  out += ',';
  append_number(out, "predicted_n", output_tokens);
  out += ',';
  append_number(out, "predicted_ms", predicted_ms);
  out += ',';
  append_number(out, "predicted_per_token_ms", decode_steps > 0 ? predicted_ms / decode_steps : 0.0);
  out += ',';
  append_number(out, "predicted_per_second", predicted_ms > 0 ? 1e3 / predicted_ms * decode_steps : 0.0);
  out += '}';
  return out;
}

}  // namespace aiperf::mock
