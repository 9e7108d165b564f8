#include "engine_options.h"

namespace aiperf::mock {

void add_engine_options(CLI::App& app, EngineSpec& spec) {
  auto* slots = app.add_option("--engine-slots", spec.slots,
                               "Model a continuous-batching engine with this many concurrent sequences "
                               "(0: off, fixed --ttft/--itl latencies)")
                    ->check(CLI::Range(0u, 100000u))
                    ->envname("MOCK_SERVER_ENGINE_SLOTS")
                    ->capture_default_str();
  app.add_option_function<unsigned>(
         "--engine-max-queue", [&spec](const unsigned& n) { spec.max_queue = n; },
         "Engine: requests that may wait for a slot; one more gets HTTP 429 (default: unbounded)")
      ->check(CLI::Range(0u, 10000000u))
      ->envname("MOCK_SERVER_ENGINE_MAX_QUEUE")
      ->needs(slots);
  app.add_option("--engine-prefill-tokens-per-s", spec.prefill_tokens_per_s,
                 "Engine: prefill speed of one sequence; TTFT = queue wait + prompt tokens / this")
      ->check(CLI::PositiveNumber)
      ->envname("MOCK_SERVER_ENGINE_PREFILL_TOKENS_PER_S")
      ->capture_default_str();
  app.add_option("--engine-step-ms", spec.step_ms,
                 "Engine: fixed part of a decode step, ms (a step gives every decoding sequence one token)")
      ->check(CLI::NonNegativeNumber)
      ->envname("MOCK_SERVER_ENGINE_STEP_MS")
      ->capture_default_str();
  app.add_option("--engine-step-per-seq-ms", spec.step_per_seq_ms,
                 "Engine: decode step time added per sequence in the batch, ms; ITL = step-ms + n x this")
      ->check(CLI::NonNegativeNumber)
      ->envname("MOCK_SERVER_ENGINE_STEP_PER_SEQ_MS")
      ->capture_default_str();
}

std::string check_engine_options(const MockConfig& config) {
  if (!config.engine.enabled()) return {};
  if (config.processes > 1)
    return "--engine-slots cannot be combined with --processes " + std::to_string(config.processes) +
           ": each process would be a separate engine and the kernel spreads connections unevenly";
  if (config.fast) return "--engine-slots cannot be combined with --fast: the engine model sets the latencies";
  return check_engine_spec(config.engine);
}

}  // namespace aiperf::mock
