// Test helpers: decode what the synthetic media generators produce with the real libraries
// (libpng, libjpeg) and read WAV/MP3 headers, so tests check the bytes a server would get.
#pragma once
#include <cstdint>
#include <string>

namespace aiperf::test {

std::string base64_decode(const std::string& text);

struct Dimensions {
  uint32_t width = 0, height = 0;
};
Dimensions png_dimensions(const std::string& bytes);   // via libpng; throws on a bad PNG
Dimensions jpeg_dimensions(const std::string& bytes);  // via libjpeg; throws on a bad JPEG

struct WavHeader {
  std::string riff, wave, fmt, data;  // chunk ids
  uint32_t riff_size = 0, fmt_size = 0;
  uint16_t format = 0, channels = 0, block_align = 0, bits = 0;
  uint32_t sample_rate = 0, byte_rate = 0, data_size = 0;
};
WavHeader wav_header(const std::string& bytes);

}  // namespace aiperf::test
