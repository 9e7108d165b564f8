#include "synthetic_media.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "base64.h"
#include "prompt_generator.h"

#ifdef AIPERF_HAVE_LAME
#include <lame/lame.h>
#endif

namespace aiperf::dataset {

RgbImage synthesize_picture(uint32_t width, uint32_t height, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> byte(0, 255);
  RgbImage img;
  img.width = width;
  img.height = height;
  img.pixels.resize(static_cast<size_t>(width) * height * 3);
  int from[3], to[3];
  for (int c = 0; c < 3; ++c) {
    from[c] = byte(rng);
    to[c] = byte(rng);
  }
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      const double t = (static_cast<double>(x) + y) / std::max<double>(1.0, width + height - 2.0);
      uint8_t* px = &img.pixels[(static_cast<size_t>(y) * width + x) * 3];
      for (int c = 0; c < 3; ++c) px[c] = static_cast<uint8_t>(std::lround(from[c] + (to[c] - from[c]) * t));
    }
  }
  const int shapes = std::uniform_int_distribution<int>(2, 5)(rng);
  for (int s = 0; s < shapes; ++s) {
    const uint32_t x0 = std::uniform_int_distribution<uint32_t>(0, width - 1)(rng);
    const uint32_t y0 = std::uniform_int_distribution<uint32_t>(0, height - 1)(rng);
    const uint32_t x1 = std::uniform_int_distribution<uint32_t>(x0, width - 1)(rng);
    const uint32_t y1 = std::uniform_int_distribution<uint32_t>(y0, height - 1)(rng);
    const uint8_t colour[3] = {static_cast<uint8_t>(byte(rng)), static_cast<uint8_t>(byte(rng)),
                               static_cast<uint8_t>(byte(rng))};
    for (uint32_t y = y0; y <= y1; ++y)
      for (uint32_t x = x0; x <= x1; ++x)
        std::copy(colour, colour + 3, &img.pixels[(static_cast<size_t>(y) * width + x) * 3]);
  }
  return img;
}

std::string synthesize_image(const config::InputConfig& in, std::mt19937_64& rng) {
  const uint32_t w = sample_positive_normal_int(in.image_width_mean, in.image_width_stddev, rng);
  const uint32_t h = sample_positive_normal_int(in.image_height_mean, in.image_height_stddev, rng);
  config::ImageFormat format = in.image_format;
  if (format == config::ImageFormat::kRandom)
    format = std::uniform_int_distribution<int>(0, 1)(rng) ? config::ImageFormat::kJpeg : config::ImageFormat::kPng;
  const RgbImage img = synthesize_picture(w, h, rng);
  const std::string bytes = format == config::ImageFormat::kJpeg ? encode_jpeg(img) : encode_png(img);
  return "data:image/" + config::to_string(format) + ";base64," + base64_encode(bytes);
}

namespace {

void put_le(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace

std::string encode_wav(const AudioClip& clip) {
  const uint32_t bytes_per_sample = clip.bits / 8;
  const uint32_t data_size = static_cast<uint32_t>(clip.samples.size()) * bytes_per_sample;
  std::string out;
  out.reserve(44 + data_size);
  out += "RIFF";
  put_le(out, 36 + data_size, 4);
  out += "WAVEfmt ";
  put_le(out, 16, 4);  // PCM fmt chunk size
  put_le(out, 1, 2);   // PCM
  put_le(out, clip.channels, 2);
  put_le(out, clip.sample_rate, 4);
  put_le(out, static_cast<uint64_t>(clip.sample_rate) * clip.channels * bytes_per_sample, 4);  // byte rate
  put_le(out, clip.channels * bytes_per_sample, 2);  // block align
  put_le(out, clip.bits, 2);
  out += "data";
  put_le(out, data_size, 4);
  for (double s : clip.samples) {
    const double v = std::clamp(s, -1.0, 1.0);
    if (clip.bits == 8) {  // WAV 8-bit PCM is unsigned, centred on 128
      put_le(out, static_cast<uint64_t>(std::lround(v * 127.0 + 128.0)), 1);
    } else {
      const double full = std::ldexp(1.0, static_cast<int>(clip.bits) - 1) - 1.0;
      put_le(out, static_cast<uint64_t>(static_cast<int64_t>(std::llround(v * full))), static_cast<int>(bytes_per_sample));
    }
  }
  return out;
}

bool mp3_supported() {
#ifdef AIPERF_HAVE_LAME
  return true;
#else
  return false;
#endif
}

std::string encode_mp3(const AudioClip& clip) {
#ifdef AIPERF_HAVE_LAME
  lame_t lame = lame_init();
  if (!lame) throw std::runtime_error("libmp3lame: lame_init failed");
  lame_set_in_samplerate(lame, static_cast<int>(clip.sample_rate));
  lame_set_out_samplerate(lame, static_cast<int>(clip.sample_rate));
  lame_set_num_channels(lame, static_cast<int>(clip.channels));
  lame_set_mode(lame, clip.channels == 1 ? MONO : STEREO);
  lame_set_brate(lame, 128);
  lame_set_write_id3tag_automatic(lame, 0);
  if (lame_init_params(lame) < 0) {
    lame_close(lame);
    throw std::runtime_error("libmp3lame: unsupported sample rate " + std::to_string(clip.sample_rate) + " Hz");
  }
  // MP3 carries no bit depth: samples go in as 16-bit whatever --audio-depths says.
  std::vector<short> pcm(clip.samples.size());
  for (size_t i = 0; i < pcm.size(); ++i)
    pcm[i] = static_cast<short>(std::lround(std::clamp(clip.samples[i], -1.0, 1.0) * 32767.0));
  const int frames = static_cast<int>(pcm.size() / clip.channels);
  std::vector<unsigned char> buf(static_cast<size_t>(1.25 * frames + 7200));
  int n = clip.channels == 1 ? lame_encode_buffer(lame, pcm.data(), nullptr, frames, buf.data(), static_cast<int>(buf.size()))
                             : lame_encode_buffer_interleaved(lame, pcm.data(), frames, buf.data(), static_cast<int>(buf.size()));
  if (n < 0) {
    lame_close(lame);
    throw std::runtime_error("libmp3lame: encoding failed (" + std::to_string(n) + ")");
  }
  std::string out(reinterpret_cast<const char*>(buf.data()), static_cast<size_t>(n));
  buf.assign(7200, 0);
  n = lame_encode_flush(lame, buf.data(), static_cast<int>(buf.size()));
  if (n > 0) out.append(reinterpret_cast<const char*>(buf.data()), static_cast<size_t>(n));
  lame_close(lame);
  return out;
#else
  (void)clip;
  throw std::runtime_error("--audio-format mp3 is not supported by this build (no libmp3lame); use wav");
#endif
}

std::string synthesize_audio(const config::InputConfig& in, std::mt19937_64& rng, double* seconds_out) {
  double seconds = in.audio_length_mean;
  if (in.audio_length_stddev > 0) {
    std::normal_distribution<double> gauss(in.audio_length_mean, in.audio_length_stddev);
    seconds = gauss(rng);
    for (int i = 0; i < 10000 && seconds <= 0; ++i) seconds = gauss(rng);
    if (seconds <= 0) seconds = in.audio_length_mean;
  }
  if (seconds_out) *seconds_out = seconds;
  AudioClip clip;
  const double khz = in.audio_sample_rates.at(std::uniform_int_distribution<size_t>(0, in.audio_sample_rates.size() - 1)(rng));
  clip.sample_rate = static_cast<uint32_t>(std::lround(khz * 1000.0));
  clip.bits = in.audio_depths.at(std::uniform_int_distribution<size_t>(0, in.audio_depths.size() - 1)(rng));
  clip.channels = in.audio_num_channels;
  const size_t frames = std::max<size_t>(1, static_cast<size_t>(std::lround(seconds * clip.sample_rate)));
  clip.samples.resize(frames * clip.channels);
  std::normal_distribution<double> noise(0.0, 0.3);
  for (double& s : clip.samples) s = std::clamp(noise(rng), -1.0, 1.0);
  const std::string bytes = in.audio_format == config::AudioFormat::kMp3 ? encode_mp3(clip) : encode_wav(clip);
  return config::to_string(in.audio_format) + "," + base64_encode(bytes);
}

}  // namespace aiperf::dataset
