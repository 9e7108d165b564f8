#include "config_templates.h"

#include <sstream>

namespace aiperf::cli::config_templates {
namespace {

std::string header(const Template& t) {
  return "# yaml-language-server: $schema=https://github.com/ai-dynamo/aiperf/blob/main/src/aiperf/config/schema/"
         "aiperf-config.schema.json\n# @template\n# title: " +
         t.title + "\n# description: " + t.description + "\n# category: " + t.category + "\n# tags: " + t.tags +
         "\n# difficulty: " + t.difficulty + "\n#\n";
}

std::vector<Template> make() {
  std::vector<Template> out;
  out.push_back({"minimal", "Minimal Configuration",
                 "Bare minimum config using shorthand forms -- the fastest way to get started.", "Getting Started",
                 "quick-start, simple", "beginner",
                 R"(# One model, one URL, a synthetic dataset and one concurrency phase. Shorthand forms:
#   model:   a single name (models: [...] for several)
#   dataset: a single dataset (datasets: [...] is the list form)
#   phases:  one phase with a type: (a list for warmup + profiling)
# Keys may be snake_case or camelCase.
#
# Run: aiperf profile --config minimal.yaml

schemaVersion: "2.0"

benchmark:
  model: meta-llama/Llama-3.1-8B-Instruct

  endpoint:
    url: http://localhost:8000 # the path follows the endpoint type (chat -> /v1/chat/completions)

  dataset:
    type: synthetic
    entries: 100
    prompts:
      isl: 512
      osl: 128

  phases:
    type: concurrency
    concurrency: 8
    requests: 100
)"});
  out.push_back({"latency_test", "Latency Test (Controlled QPS)",
                 "Measure TTFT, ITL, and E2E latency at a controlled request rate.", "Load Testing",
                 "latency, poisson, ttft, itl", "beginner",
                 R"(# Poisson arrivals at a fixed rate, streaming so TTFT and ITL are measured, with a
# concurrency cap so a slow server cannot grow an unbounded queue.
#
# Run: aiperf profile --config latency_test.yaml

schemaVersion: "2.0"

randomSeed: 42

benchmark:
  model: meta-llama/Llama-3.1-8B-Instruct

  endpoint:
    url: http://localhost:8000/v1/chat/completions
    type: chat
    streaming: true # TTFT and ITL need streaming
    timeout: 600.0

  dataset:
    type: synthetic
    entries: 3000
    isl: {mean: 256, stddev: 50}
    osl: {mean: 128, stddev: 25}

  profiling:
    type: poisson
    duration: 120
    rate: 20.0          # requests per second
    concurrency: 100    # cap on requests in flight
    gracePeriod: 60

  artifacts:
    dir: ./artifacts/latency_test
    sliceDuration: 30 # 30-second windows show drift over time
)"});
  out.push_back({"warmup_profiling", "Warmup + Profiling (Two-Phase)",
                 "Proper benchmark setup: warmup phase for JIT/cache, then clean profiling.", "Getting Started",
                 "warmup, two-phase, best-practice", "beginner",
                 R"(# A warmup phase (excluded from the results) lets caches and compilation settle, then
# the profiling phase is measured.
#
# Run: aiperf profile --config warmup_profiling.yaml

schemaVersion: "2.0"

randomSeed: 42

benchmark:
  model: meta-llama/Llama-3.1-8B-Instruct

  endpoint:
    url: http://localhost:8000/v1/chat/completions
    type: chat
    streaming: true
    timeout: 600.0

  dataset:
    type: synthetic
    entries: 5000
    isl: {mean: 550, stddev: 50}
    osl: {mean: 150, stddev: 25}

  warmup:
    type: concurrency
    requests: 100
    concurrency: 8

  profiling:
    type: gamma
    duration: 300  # seconds
    rate: 50.0
    concurrency: 64
    smoothness: 1.5
    rateRamp: 30s  # reach the rate over 30 seconds
    gracePeriod: 60s

  artifacts:
    dir: ./artifacts/warmup_profiling
    sliceDuration: 60s
)"});
  out.push_back({"sweep_distributions", "Grid Sweep + Multi-Run",
                 "Cartesian product sweep over ISL x rate with statistical multi-run aggregation.",
                 "Sweep & Multi-Run", "sweep, grid, multi-run, confidence", "advanced",
                 R"(# Every combination of the listed ISLs and rates (grid), each repeated numRuns times
# for confidence intervals. `rate` is shorthand for phases.profiling.rate.
# Preview the points with: aiperf config expand --config-file sweep_distributions.yaml
#
# Run: aiperf profile --config sweep_distributions.yaml

schemaVersion: "2.0"

randomSeed: 42

multiRun:
  numRuns: 3
  cooldownSeconds: 15.0
  confidenceLevel: 0.95
  setConsistentSeed: true
  disableWarmupAfterFirst: true

sweep:
  type: grid
  parameters:
    datasets.default.prompts.isl: [128, 512, 2048]
    rate: [10.0, 30.0, 50.0]

benchmark:
  model: ${MODEL_NAME:meta-llama/Llama-3.1-8B-Instruct}

  endpoint:
    url: ${INFERENCE_URL:http://localhost:8000/v1/chat/completions}
    type: chat
    streaming: true
    timeout: ${TIMEOUT:600.0}

  dataset:
    type: synthetic
    entries: 500
    prompts:
      isl: 512 # replaced by the sweep
      osl: {mean: 128, stddev: 25}

  phases:
    - name: warmup
      type: concurrency
      requests: 50
      concurrency: 8
      excludeFromResults: true

    - name: profiling
      type: poisson
      rate: 20.0 # replaced by the sweep
      duration: 120
      concurrency: 64
      gracePeriod: 60

  artifacts:
    dir: ./artifacts/sweep_distributions
)"});
  out.push_back({"multimodal_vision", "Vision-Language Model Benchmark",
                 "Benchmark VLMs with synthetic images of varying resolutions.", "Multimodal",
                 "vision, multimodal, images", "intermediate",
                 R"(# Chat requests that carry a text prompt and synthetic pictures, for vision-language
# models. An images block's unset keys take the schema's defaults: 0 images per request,
# 512 x 512, jpeg. source: noise (random pixels, the default), assets (the built-in
# pictures) or a directory of JPEG/PNG files; sourceSampling picks from a finite source.
#
# Run: aiperf profile --config multimodal_vision.yaml

schemaVersion: "2.0"

randomSeed: 42

benchmark:
  model: llava-hf/llava-1.5-7b-hf

  endpoint:
    url: http://localhost:8000/v1/chat/completions
    type: chat          # images travel as image_url parts of the user message
    streaming: true
    timeout: 120.0

  dataset:
    type: synthetic
    entries: 500
    prompts:
      isl: {mean: 100, stddev: 20}
      osl: {mean: 256, stddev: 50}
    images:
      batchSize: 1      # pictures per request
      width: 512        # or {mean, stddev}
      height: 512
      format: jpeg      # png, jpeg or random (per picture)

  phases:
    - name: warmup
      type: concurrency
      excludeFromResults: true
      requests: 20
      concurrency: 4

    - name: profiling
      type: poisson
      requests: 500
      concurrency: 16   # cap on requests in flight
      rate: 10.0

  artifacts:
    dir: ./artifacts/multimodal_vision
)"});
  for (Template& t : out) t.body = header(t) + t.body;
  return out;
}

// `line` with the value after "key:" replaced, its indentation and trailing comment kept.
std::string replace_value(const std::string& line, size_t colon, const std::string& value) {
  const size_t hash = line.find(" #", colon);
  std::string rest = hash == std::string::npos ? "" : line.substr(hash);
  std::string head = line.substr(0, colon + 1) + " " + value;
  if (!rest.empty()) {
    // Keep the comment where it was when the new value fits before it.
    const size_t width = hash;
    head += head.size() < width ? std::string(width - head.size(), ' ') : std::string();
  }
  return head + rest;
}

}  // namespace

const std::vector<Template>& all() {
  static const std::vector<Template> kAll = make();
  return kAll;
}

const Template* find(const std::string& name) {
  for (const Template& t : all())
    if (t.name == name) return &t;
  return nullptr;
}

std::string apply_overrides(const std::string& body, const std::string& model, const std::string& url) {
  std::istringstream in(body);
  std::string out, line;
  bool model_done = model.empty(), url_done = url.empty(), in_endpoint = false;
  while (std::getline(in, line)) {
    const size_t indent = line.find_first_not_of(' ');
    const std::string trimmed = indent == std::string::npos ? "" : line.substr(indent);
    if (!trimmed.empty() && trimmed[0] != '#') in_endpoint = in_endpoint ? indent > 2 : trimmed == "endpoint:";
    if (trimmed.rfind("endpoint:", 0) == 0) in_endpoint = true;
    if (!model_done && trimmed.rfind("model:", 0) == 0) {
      line = replace_value(line, indent + 5, model);
      model_done = true;
    } else if (!url_done && in_endpoint && trimmed.rfind("url:", 0) == 0) {
      line = replace_value(line, indent + 3, url);
      url_done = true;
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace aiperf::cli::config_templates
