// --image-source / --image-source-sampling: where synthetic images come from, as AIPerf 0.13
// picks them. noise (the default): uniformly random RGB pixels of the requested size, so a
// server cannot dedupe inputs. assets: one of a built-in set of four pictures, resized (AIPerf
// ships four photos; we ship none and draw four fixed pictures instead). A directory: one of its
// .jpg/.jpeg/.png files (sorted by path), decoded and resized; files that fail to decode are
// skipped. The finite sources are sampled with replacement, in shuffled cycles, or in order.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "config/input_config.h"
#include "image_codec.h"

namespace aiperf::dataset {

// The image files of `dir` AIPerf indexes: regular files with an image extension, sorted.
// Throws std::invalid_argument with AIPerf's message when `dir` is missing, not a directory,
// or holds no image file.
std::vector<std::string> list_source_images(const std::string& dir);

// Decodes JPEG or PNG bytes to 8-bit RGB; throws std::runtime_error otherwise.
RgbImage decode_image(const std::string& bytes);

// Bilinear resampling of `src` to width x height (both >= 1).
RgbImage resize_image(const RgbImage& src, uint32_t width, uint32_t height);

// width x height uniformly random RGB bytes.
RgbImage noise_image(uint32_t width, uint32_t height, std::mt19937_64& rng);

class ImageSource {
 public:
  // Throws std::invalid_argument for a directory without images.
  explicit ImageSource(const config::PromptShapingConfig& shaping);
  // The next picture at width x height. Throws std::runtime_error when no source image decodes.
  RgbImage next(uint32_t width, uint32_t height, std::mt19937_64& rng);
  // Index (into the sorted sources) of the picture the last next() used; -1 for noise.
  int last_index() const { return last_; }

 private:
  size_t pick(std::mt19937_64& rng);
  const RgbImage* load(size_t index);  // nullptr when the file does not decode (then retired)

  config::ImageSourceSampling sampling_;
  bool noise_ = false;
  std::vector<std::string> paths_;    // directory files; empty for assets
  std::vector<RgbImage> pictures_;    // decoded sources (index-aligned), empty until loaded
  std::vector<bool> loaded_, retired_;
  std::vector<size_t> cycle_;         // shuffle-cycle: what is left of the current cycle
  size_t sequential_ = 0;
  int last_ = -1;
};

// One synthetic image as synthesize_image draws it (size from the width/height options, format
// png, jpeg or random per image), its pixels from `source`. Returns the data URL.
std::string image_data_url(const config::InputConfig& in, ImageSource& source, std::mt19937_64& rng);

}  // namespace aiperf::dataset
