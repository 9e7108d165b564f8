// The media metrics: num_images, image_throughput and image_latency (SUPPORTS_IMAGE_ONLY), audio_duration
// and rtfx (SUPPORTS_AUDIO_ONLY).
#include <catch2/catch.hpp>
#include <map>

#include "metrics/record_metrics.h"
#include "record_fixtures.h"

using namespace aiperf;
using namespace aiperf::metrics;
using namespace aiperf::metrics::testing;

namespace {

std::map<std::string, double> compute(const ParsedRecord& r, const MetricContext& ctx) {
  google::protobuf::RepeatedPtrField<proto::MetricValue> out;
  compute_record_metrics(r, ctx, &out);
  std::map<std::string, double> values;
  for (const auto& mv : out) values[mv.tag()] = mv.value();
  return values;
}

MetricContext image_retrieval() {
  MetricContext ctx;
  ctx.produces_tokens = false;
  ctx.tokenizes_input = false;
  ctx.supports_images = true;
  return ctx;
}

}  // namespace

TEST_CASE("image metrics: count, images per second and ms per image of a record") {
  ParsedRecord r = streamed({40}, 0, 0);  // content at 40 ms: request latency 40 ms
  r.output_tokens.reset();
  r.input_tokens.reset();
  r.num_images = 4;
  const auto v = compute(r, image_retrieval());
  CHECK(v.at("num_images") == 4);
  CHECK(v.at("request_latency") == 40 * kMs);
  CHECK(v.at("image_throughput") == Approx(100.0).epsilon(1e-12));  // 4 / 0.040 s
  CHECK(v.at("image_latency") == Approx(10.0).epsilon(1e-12));      // 40 ms / 4
  CHECK(v.count("output_sequence_length") == 0);
  CHECK(v.count("input_sequence_length") == 0);
}

TEST_CASE("image metrics: no value without images, nor for endpoints without image support") {
  ParsedRecord r = streamed({40}, 0, 0);
  const auto none = compute(r, image_retrieval());
  CHECK(none.count("num_images") == 0);
  CHECK(none.count("image_throughput") == 0);
  CHECK(none.count("image_latency") == 0);
  r.num_images = 0;
  CHECK(compute(r, image_retrieval()).count("num_images") == 0);
  r.num_images = 2;
  MetricContext chat;
  CHECK(compute(r, chat).count("num_images") == 0);  // supports_images false
}

TEST_CASE("audio metrics: duration and RTFx of a transcription record") {
  MetricContext asr;
  asr.produces_tokens = false;
  asr.tokenizes_input = false;
  asr.supports_audio = true;
  ParsedRecord r = streamed({250}, 0, 0);  // request latency 250 ms
  r.output_tokens.reset();
  r.input_tokens.reset();
  r.audio_duration_seconds = 2.5;
  const auto v = compute(r, asr);
  CHECK(v.at("audio_duration") == 2.5);
  CHECK(v.at("rtfx") == Approx(10.0).epsilon(1e-12));  // 2.5 s of audio in 0.25 s
  r.audio_duration_seconds = 0;
  CHECK(compute(r, asr).count("audio_duration") == 0);
  CHECK(compute(r, asr).count("rtfx") == 0);
  r.audio_duration_seconds = 2.5;
  MetricContext no_audio;
  CHECK(compute(r, no_audio).count("rtfx") == 0);
}
