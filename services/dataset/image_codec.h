// In-memory PNG (libpng) and JPEG (libjpeg-turbo) encoding and decoding of 8-bit RGB pixels: the
// images sent as data URLs, and the picture files they may be made from.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace aiperf::dataset {

struct RgbImage {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> pixels;  // row-major RGB, width * height * 3 bytes
};

std::string encode_png(const RgbImage& image);
// `quality` 1..100; 75 is PIL's default, what AIPerf's JPEGs use.
std::string encode_jpeg(const RgbImage& image, int quality = 75);

// Decoded to RGB; throw std::runtime_error("not a readable JPEG"/"PNG") on bytes they cannot read.
RgbImage decode_jpeg(const std::string& bytes);
RgbImage decode_png(const std::string& bytes);

}  // namespace aiperf::dataset
