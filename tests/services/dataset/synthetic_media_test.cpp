// Synthetic images and audio: decoded with libpng/libjpeg, WAV headers read field by field.
#include <catch2/catch.hpp>

#include <set>

#include "media_decode.h"
#include "synthetic_media.h"

using namespace aiperf::dataset;
using aiperf::test::base64_decode;

namespace {

std::string payload_of(const std::string& data_url, const std::string& prefix) {
  REQUIRE(data_url.rfind(prefix, 0) == 0);
  return base64_decode(data_url.substr(prefix.size()));
}

}  // namespace

TEST_CASE("PNG and JPEG encoders produce images of the requested size", "[dataset][media]") {
  std::mt19937_64 rng(5);
  const RgbImage img = synthesize_picture(37, 11, rng);
  REQUIRE(img.pixels.size() == 37u * 11u * 3u);
  const auto png = aiperf::test::png_dimensions(encode_png(img));
  CHECK(png.width == 37);
  CHECK(png.height == 11);
  const auto jpeg = aiperf::test::jpeg_dimensions(encode_jpeg(img));
  CHECK(jpeg.width == 37);
  CHECK(jpeg.height == 11);
  CHECK(encode_png(img).substr(1, 3) == "PNG");
  CHECK(encode_jpeg(img).substr(0, 2) == "\xff\xd8");
}

TEST_CASE("synthesize_image: data URL of the format, size from the width/height options", "[dataset][media]") {
  aiperf::config::InputConfig in;
  in.image_width_mean = 64;
  in.image_height_mean = 24;
  std::mt19937_64 rng(1);
  in.image_format = aiperf::config::ImageFormat::kPng;
  const auto png = aiperf::test::png_dimensions(payload_of(synthesize_image(in, rng), "data:image/png;base64,"));
  CHECK(png.width == 64);
  CHECK(png.height == 24);
  in.image_format = aiperf::config::ImageFormat::kJpeg;
  const auto jpg = aiperf::test::jpeg_dimensions(payload_of(synthesize_image(in, rng), "data:image/jpeg;base64,"));
  CHECK(jpg.width == 64);
  CHECK(jpg.height == 24);

  // random: each image picks its own format; a fixed seed gives a fixed mix.
  in.image_format = aiperf::config::ImageFormat::kRandom;
  int pngs = 0, jpegs = 0;
  std::mt19937_64 mix(7);
  for (int i = 0; i < 20; ++i) {
    const std::string url = synthesize_image(in, mix);
    (url.rfind("data:image/png;base64,", 0) == 0 ? pngs : jpegs) += 1;
  }
  CHECK(pngs + jpegs == 20);
  CHECK(pngs > 0);
  CHECK(jpegs > 0);
}

TEST_CASE("image sizes follow the std-dev: positive normal ints around the mean", "[dataset][media]") {
  aiperf::config::InputConfig in;
  in.image_width_mean = 40;
  in.image_width_stddev = 8;
  in.image_height_mean = 20;
  std::mt19937_64 rng(3);
  std::set<uint32_t> widths;
  for (int i = 0; i < 10; ++i) {
    const auto d = aiperf::test::png_dimensions(payload_of(synthesize_image(in, rng), "data:image/png;base64,"));
    widths.insert(d.width);
    CHECK(d.height == 20);
  }
  CHECK(widths.size() > 1);
}

TEST_CASE("encode_wav writes a canonical PCM header and samples", "[dataset][media]") {
  AudioClip clip;
  clip.sample_rate = 8000;
  clip.bits = 16;
  clip.channels = 2;
  clip.samples = {0.0, 1.0, -1.0, 0.5};
  const std::string wav = encode_wav(clip);
  REQUIRE(wav.size() == 44 + 8);
  const auto h = aiperf::test::wav_header(wav);
  CHECK(h.riff == "RIFF");
  CHECK(h.riff_size == 36 + 8);
  CHECK(h.wave == "WAVE");
  CHECK(h.fmt == "fmt ");
  CHECK(h.fmt_size == 16);
  CHECK(h.format == 1);
  CHECK(h.channels == 2);
  CHECK(h.sample_rate == 8000);
  CHECK(h.byte_rate == 32000);
  CHECK(h.block_align == 4);
  CHECK(h.bits == 16);
  CHECK(h.data == "data");
  CHECK(h.data_size == 8);
  CHECK(wav.substr(44) == std::string("\x00\x00\xff\x7f\x01\x80\x00\x40", 8));  // 0, 32767, -32767, 16384

  clip.bits = 8;  // unsigned, centred on 128
  CHECK(encode_wav(clip).substr(44) == std::string("\x80\xff\x01\xc0", 4));
  clip.bits = 24;
  const std::string w24 = encode_wav(clip);
  CHECK(aiperf::test::wav_header(w24).block_align == 6);
  CHECK(w24.substr(44, 6) == std::string("\x00\x00\x00\xff\xff\x7f", 6));
}

TEST_CASE("synthesize_audio: wav,<base64> with the chosen rate, depth and channels", "[dataset][media]") {
  aiperf::config::InputConfig in;
  in.audio_length_mean = 0.25;
  in.audio_sample_rates = {16.0};
  in.audio_depths = {16};
  in.audio_num_channels = 1;
  std::mt19937_64 rng(2);
  const std::string value = synthesize_audio(in, rng);
  const auto h = aiperf::test::wav_header(payload_of(value, "wav,"));
  CHECK(h.sample_rate == 16000);
  CHECK(h.bits == 16);
  CHECK(h.channels == 1);
  CHECK(h.data_size == 4000 * 2);  // 0.25 s at 16 kHz, 2 bytes each

  in.audio_sample_rates = {8.0};
  in.audio_depths = {32};
  in.audio_num_channels = 2;
  const auto h2 = aiperf::test::wav_header(payload_of(synthesize_audio(in, rng), "wav,"));
  CHECK(h2.sample_rate == 8000);
  CHECK(h2.bits == 32);
  CHECK(h2.channels == 2);
  CHECK(h2.data_size == 2000 * 2 * 4);
}

TEST_CASE("synthesize_audio mp3: MPEG audio frames at the sample rate", "[dataset][media]") {
  aiperf::config::InputConfig in;
  in.audio_length_mean = 0.5;
  in.audio_format = aiperf::config::AudioFormat::kMp3;
  in.audio_sample_rates = {16.0};
  std::mt19937_64 rng(4);
  if (!mp3_supported()) {
    CHECK_THROWS_WITH(synthesize_audio(in, rng), Catch::Contains("mp3 is not supported"));
    return;
  }
  const std::string mp3 = payload_of(synthesize_audio(in, rng), "mp3,");
  REQUIRE(mp3.size() > 4);
  const auto b0 = static_cast<uint8_t>(mp3[0]), b1 = static_cast<uint8_t>(mp3[1]), b2 = static_cast<uint8_t>(mp3[2]);
  CHECK(b0 == 0xff);
  CHECK((b1 & 0xe0) == 0xe0);            // frame sync
  CHECK(((b1 >> 3) & 0x3) == 2);         // MPEG-2 (16 kHz is an MPEG-2 rate)
  CHECK(((b1 >> 1) & 0x3) == 1);         // layer III
  CHECK(((b2 >> 2) & 0x3) == 2);         // MPEG-2 sample rate index 2 = 16000 Hz
}
