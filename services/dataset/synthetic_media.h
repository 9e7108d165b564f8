// Synthetic images and audio clips for multimodal requests (spec §4.6), encoded the way AIPerf
// sends them: images as "data:image/png;base64,..." / "data:image/jpeg;base64,...", audio as
// "wav,<base64>" / "mp3,<base64>" (the chat formatter splits the latter into input_audio).
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "config/input_config.h"
#include "image_codec.h"

namespace aiperf::dataset {

// A width x height picture: a colour gradient between two random colours with a few random
// rectangles. AIPerf resizes one of four bundled photos instead; we ship no image assets, and
// a server only needs pixels of the requested size.
RgbImage synthesize_picture(uint32_t width, uint32_t height, std::mt19937_64& rng);

// One image per call: size ~ positive normal ints of the width/height options, format png,
// jpeg, or (random) either per image. Returns the data URL.
std::string synthesize_image(const config::InputConfig& in, std::mt19937_64& rng);

struct AudioClip {
  uint32_t sample_rate = 16000;  // Hz
  uint32_t bits = 16;            // 8 (unsigned), 16, 24 or 32 (signed PCM)
  uint32_t channels = 1;
  std::vector<double> samples;   // interleaved, in [-1, 1]
};

// RIFF/WAVE PCM bytes of `clip`.
std::string encode_wav(const AudioClip& clip);
// MPEG-1/2 layer III bytes (libmp3lame, 128 kbit/s; 16-bit input). Throws std::runtime_error
// when built without LAME.
std::string encode_mp3(const AudioClip& clip);
// Whether encode_mp3 is available in this build.
bool mp3_supported();

// One clip per call: duration ~ N(length mean, stddev) seconds (redrawn until > 0), sample
// rate and depth drawn from the option lists, Gaussian noise samples. Returns "<format>,<base64>";
// the drawn duration goes to `seconds` when given.
std::string synthesize_audio(const config::InputConfig& in, std::mt19937_64& rng, double* seconds = nullptr);

}  // namespace aiperf::dataset
