#include "image_source.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "base64.h"
#include "image_codec.h"
#include "prompt_generator.h"
#include "synthetic_media.h"

namespace aiperf::dataset {
namespace {

bool has_image_extension(const std::filesystem::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".jpg" || ext == ".jpeg" || ext == ".jpe" || ext == ".png";
}

// The built-in "assets": four fixed pictures (AIPerf's are four photos of about 1024 px).
const std::vector<RgbImage>& builtin_assets() {
  static const std::vector<RgbImage> assets = [] {
    std::vector<RgbImage> out;
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      std::mt19937_64 rng(0xa55e7000ULL + seed);
      out.push_back(synthesize_picture(1024, 768, rng));
    }
    return out;
  }();
  return assets;
}

}  // namespace

std::vector<std::string> list_source_images(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(dir, ec)) throw std::invalid_argument("The directory '" + dir + "' does not exist.");
  if (!fs::is_directory(dir, ec)) throw std::invalid_argument("The path '" + dir + "' is not a directory.");
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (has_image_extension(entry.path()) && !entry.is_directory(ec)) out.push_back(entry.path().string());
  std::sort(out.begin(), out.end());
  if (out.empty())
    throw std::invalid_argument("No source images found in '" + dir +
                                "'. Please ensure the directory contains at least one image file.");
  return out;
}

RgbImage decode_image(const std::string& bytes) {
  if (bytes.size() >= 3 && static_cast<unsigned char>(bytes[0]) == 0xFF && static_cast<unsigned char>(bytes[1]) == 0xD8)
    return decode_jpeg(bytes);
  if (bytes.size() >= 8 && bytes.compare(1, 3, "PNG") == 0) return decode_png(bytes);
  throw std::runtime_error("neither JPEG nor PNG");
}

RgbImage resize_image(const RgbImage& src, uint32_t width, uint32_t height) {
  RgbImage out;
  out.width = width;
  out.height = height;
  out.pixels.resize(static_cast<size_t>(width) * height * 3);
  if (src.width == 0 || src.height == 0) return out;
  // Pixel centres map to pixel centres (as PIL's resize does), clamped at the edges.
  const double sx = static_cast<double>(src.width) / width, sy = static_cast<double>(src.height) / height;
  for (uint32_t y = 0; y < height; ++y) {
    const double fy = std::clamp((y + 0.5) * sy - 0.5, 0.0, static_cast<double>(src.height - 1));
    const uint32_t y0 = static_cast<uint32_t>(fy), y1 = std::min(y0 + 1, src.height - 1);
    const double wy = fy - y0;
    for (uint32_t x = 0; x < width; ++x) {
      const double fx = std::clamp((x + 0.5) * sx - 0.5, 0.0, static_cast<double>(src.width - 1));
      const uint32_t x0 = static_cast<uint32_t>(fx), x1 = std::min(x0 + 1, src.width - 1);
      const double wx = fx - x0;
      for (int c = 0; c < 3; ++c) {
        auto at = [&](uint32_t xx, uint32_t yy) {
          return static_cast<double>(src.pixels[(static_cast<size_t>(yy) * src.width + xx) * 3 + c]);
        };
        const double v = (at(x0, y0) * (1 - wx) + at(x1, y0) * wx) * (1 - wy) + (at(x0, y1) * (1 - wx) + at(x1, y1) * wx) * wy;
        out.pixels[(static_cast<size_t>(y) * width + x) * 3 + c] = static_cast<uint8_t>(std::lround(v));
      }
    }
  }
  return out;
}

RgbImage noise_image(uint32_t width, uint32_t height, std::mt19937_64& rng) {
  RgbImage img;
  img.width = width;
  img.height = height;
  img.pixels.resize(static_cast<size_t>(width) * height * 3);
  size_t i = 0;
  for (; i + 8 <= img.pixels.size(); i += 8) {  // 8 random bytes per draw
    uint64_t v = rng();
    for (int k = 0; k < 8; ++k, v >>= 8) img.pixels[i + k] = static_cast<uint8_t>(v);
  }
  uint64_t v = rng();
  for (; i < img.pixels.size(); ++i, v >>= 8) img.pixels[i] = static_cast<uint8_t>(v);
  return img;
}

ImageSource::ImageSource(const config::PromptShapingConfig& shaping) : sampling_(shaping.image_source_sampling) {
  if (shaping.image_source == "noise") {
    noise_ = true;
    return;
  }
  if (shaping.image_source == "assets") {
    pictures_ = builtin_assets();
  } else {
    paths_ = list_source_images(shaping.image_source);
    pictures_.resize(paths_.size());
  }
  loaded_.assign(pictures_.size(), paths_.empty());
  retired_.assign(pictures_.size(), false);
}

size_t ImageSource::pick(std::mt19937_64& rng) {
  const size_t n = pictures_.size();
  switch (sampling_) {
    case config::ImageSourceSampling::kShuffleCycle: {
      if (cycle_.empty()) {
        for (size_t i = 0; i < n; ++i)
          if (!retired_[i]) cycle_.push_back(i);
        std::shuffle(cycle_.begin(), cycle_.end(), rng);
      }
      const size_t i = cycle_.back();
      cycle_.pop_back();
      return i;
    }
    case config::ImageSourceSampling::kSequentialCycle:
      for (size_t k = 0; k < n; ++k) {
        const size_t i = sequential_;
        sequential_ = (sequential_ + 1) % n;
        if (!retired_[i]) return i;
      }
      break;
    case config::ImageSourceSampling::kRandomWithReplacement:
      break;
  }
  std::vector<size_t> available;
  for (size_t i = 0; i < n; ++i)
    if (!retired_[i]) available.push_back(i);
  return available[std::uniform_int_distribution<size_t>(0, available.size() - 1)(rng)];
}

const RgbImage* ImageSource::load(size_t index) {
  if (!loaded_[index]) {
    std::ifstream f(paths_[index], std::ios::binary);
    std::stringstream bytes;
    bytes << f.rdbuf();
    try {
      pictures_[index] = decode_image(bytes.str());
      loaded_[index] = true;
    } catch (const std::runtime_error&) {
      retired_[index] = true;
      cycle_.erase(std::remove(cycle_.begin(), cycle_.end(), index), cycle_.end());
      return nullptr;
    }
  }
  return &pictures_[index];
}

RgbImage ImageSource::next(uint32_t width, uint32_t height, std::mt19937_64& rng) {
  if (noise_) return noise_image(width, height, rng);
  while (std::find(retired_.begin(), retired_.end(), false) != retired_.end()) {
    const size_t i = pick(rng);
    if (const RgbImage* src = load(i)) {
      last_ = static_cast<int>(i);
      return resize_image(*src, width, height);
    }
  }
  throw std::runtime_error("No readable source images found in '" + (paths_.empty() ? std::string("assets") : std::filesystem::path(paths_[0]).parent_path().string()) +
                           "'. Please ensure the directory contains at least one readable image file.");
}

std::string image_data_url(const config::InputConfig& in, ImageSource& source, std::mt19937_64& rng) {
  const uint32_t w = sample_positive_normal_int(in.image_width_mean, in.image_width_stddev, rng);
  const uint32_t h = sample_positive_normal_int(in.image_height_mean, in.image_height_stddev, rng);
  config::ImageFormat format = in.image_format;
  if (format == config::ImageFormat::kRandom)
    format = std::uniform_int_distribution<int>(0, 1)(rng) ? config::ImageFormat::kJpeg : config::ImageFormat::kPng;
  const RgbImage img = source.next(w, h, rng);
  const std::string bytes = format == config::ImageFormat::kJpeg ? encode_jpeg(img) : encode_png(img);
  return "data:image/" + config::to_string(format) + ";base64," + base64_encode(bytes);
}

}  // namespace aiperf::dataset
