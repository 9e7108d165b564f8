// --timings: llama.cpp's per-request `timings` object, derived from the mock's own latency model
// so tests can check exact values (the client-vs-server cross-check, docs/user-guide.md).
#pragma once
#include <string>

namespace aiperf::mock {

// {"cache_n":0,"prompt_n":P,"prompt_ms":TTFT,"prompt_per_token_ms":TTFT/P,"prompt_per_second":...,
//  "predicted_n":O,"predicted_ms":(O-1)*ITL,"predicted_per_token_ms":ITL,"predicted_per_second":...}
// as llama.cpp words it: the first generated token comes with the prefill, so decode time counts
// the O-1 later ones; per-token and per-second values are 0 when their divisor is 0. Numbers in
// their shortest round-trip form.
std::string llama_timings_json(int prompt_tokens, int output_tokens, double ttft_ms, double itl_ms);

}  // namespace aiperf::mock
