#include "video_frames.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>

namespace aiperf::dataset {

namespace {

struct VideoRgb {
  uint8_t r, g, b;
};

// A frame with clipped drawing primitives. Pixel (x, y) stands for the point (x, y).
class VideoCanvas {
 public:
  VideoCanvas(uint32_t width, uint32_t height, VideoRgb background) {
    img_.width = width;
    img_.height = height;
    img_.pixels.resize(static_cast<size_t>(width) * height * 3);
    for (size_t i = 0; i < img_.pixels.size(); i += 3) {
      img_.pixels[i] = background.r;
      img_.pixels[i + 1] = background.g;
      img_.pixels[i + 2] = background.b;
    }
  }

  void set(int64_t x, int64_t y, VideoRgb c) {
    if (x < 0 || y < 0 || x >= img_.width || y >= img_.height) return;
    uint8_t* p = &img_.pixels[(static_cast<size_t>(y) * img_.width + static_cast<size_t>(x)) * 3];
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
  }

  // The box [x0, x1] x [y0, y1], corners truncated toward zero as PIL does, both ends included.
  void fill_rect(double x0, double y0, double x1, double y1, VideoRgb c) {
    const auto ix0 = static_cast<int64_t>(x0), iy0 = static_cast<int64_t>(y0);
    const auto ix1 = static_cast<int64_t>(x1), iy1 = static_cast<int64_t>(y1);
    for (int64_t y = std::max<int64_t>(iy0, 0); y <= std::min<int64_t>(iy1, img_.height - 1); ++y)
      for (int64_t x = std::max<int64_t>(ix0, 0); x <= std::min<int64_t>(ix1, img_.width - 1); ++x) set(x, y, c);
  }

  // The ellipse inscribed in the box (corners truncated as for fill_rect): the pixels inside it,
  // or with `width` > 0 only those less than `width` pixels inside its edge.
  void ellipse(double x0, double y0, double x1, double y1, VideoRgb c, int width = 0) {
    const auto ix0 = static_cast<int64_t>(x0), iy0 = static_cast<int64_t>(y0);
    const auto ix1 = static_cast<int64_t>(x1), iy1 = static_cast<int64_t>(y1);
    if (ix1 < ix0 || iy1 < iy0) return;
    const double cx = (ix0 + ix1) / 2.0, cy = (iy0 + iy1) / 2.0;
    const double a = std::max(0.5, (ix1 - ix0) / 2.0), b = std::max(0.5, (iy1 - iy0) / 2.0);
    const double ia = a - width, ib = b - width;
    for (int64_t y = std::max<int64_t>(iy0, 0); y <= std::min<int64_t>(iy1, img_.height - 1); ++y) {
      for (int64_t x = std::max<int64_t>(ix0, 0); x <= std::min<int64_t>(ix1, img_.width - 1); ++x) {
        const double dx = x - cx, dy = y - cy;
        if ((dx * dx) / (a * a) + (dy * dy) / (b * b) > 1.0) continue;
        if (width > 0 && ia > 0 && ib > 0 && (dx * dx) / (ia * ia) + (dy * dy) / (ib * ib) < 1.0) continue;
        set(x, y, c);
      }
    }
  }

  // A segment `width` pixels wide: width 1 is the Bresenham line between the rounded ends;
  // wider, the pixels closer than width / 2 to the segment (an even width measured from the
  // pixel's centre at +0.5, so that it covers `width` pixels across).
  void line(double x0, double y0, double x1, double y1, VideoRgb c, int width) {
    if (width <= 1) {
      int64_t ax = std::lround(x0), ay = std::lround(y0);
      const int64_t bx = std::lround(x1), by = std::lround(y1);
      const int64_t dx = std::abs(bx - ax), dy = -std::abs(by - ay);
      const int64_t sx = ax < bx ? 1 : -1, sy = ay < by ? 1 : -1;
      int64_t err = dx + dy;
      for (;;) {
        set(ax, ay, c);
        if (ax == bx && ay == by) break;
        const int64_t e2 = 2 * err;
        if (e2 >= dy) {
          err += dy;
          ax += sx;
        }
        if (e2 <= dx) {
          err += dx;
          ay += sy;
        }
      }
      return;
    }
    const double half = width / 2.0;
    // Odd widths centre on the pixels of the line, even ones between two pixels.
    const double offset = width % 2 == 0 ? 0.5 : 0.0;
    const double vx = x1 - x0, vy = y1 - y0, len2 = vx * vx + vy * vy;
    const auto lo_x = static_cast<int64_t>(std::floor(std::min(x0, x1) - half));
    const auto hi_x = static_cast<int64_t>(std::ceil(std::max(x0, x1) + half));
    const auto lo_y = static_cast<int64_t>(std::floor(std::min(y0, y1) - half));
    const auto hi_y = static_cast<int64_t>(std::ceil(std::max(y0, y1) + half));
    for (int64_t y = std::max<int64_t>(lo_y, 0); y <= std::min<int64_t>(hi_y, img_.height - 1); ++y) {
      for (int64_t x = std::max<int64_t>(lo_x, 0); x <= std::min<int64_t>(hi_x, img_.width - 1); ++x) {
        const double px = x + offset, py = y + offset;
        double t = len2 > 0 ? ((px - x0) * vx + (py - y0) * vy) / len2 : 0.0;
        t = std::clamp(t, 0.0, 1.0);
        const double ex = x0 + t * vx - px, ey = y0 + t * vy - py;
        if (ex * ex + ey * ey < half * half) set(x, y, c);
      }
    }
  }

  // `text` in a 5x7 bitmap font, 6 pixels per character, top-left corner at (x, y).
  void text(int64_t x, int64_t y, const std::string& text, VideoRgb c);

  RgbImage take() { return std::move(img_); }

 private:
  RgbImage img_;
};

// 5x7 glyphs, one byte per row (bit 4 = leftmost column), for the caption's characters.
const std::array<uint8_t, 7>* caption_glyph(char ch) {
  static const std::array<uint8_t, 7> kDigits[10] = {
      {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}, {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E},
      {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}, {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E},
      {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}, {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E},
      {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}, {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
      {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}, {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}};
  static const std::array<uint8_t, 7> kF = {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10};
  static const std::array<uint8_t, 7> kR = {0x00, 0x00, 0x16, 0x19, 0x10, 0x10, 0x10};
  static const std::array<uint8_t, 7> kA = {0x00, 0x00, 0x0E, 0x01, 0x0F, 0x11, 0x0F};
  static const std::array<uint8_t, 7> kM = {0x00, 0x00, 0x1A, 0x15, 0x15, 0x11, 0x11};
  static const std::array<uint8_t, 7> kE = {0x00, 0x00, 0x0E, 0x11, 0x1F, 0x10, 0x0E};
  if (ch >= '0' && ch <= '9') return &kDigits[ch - '0'];
  switch (ch) {
    case 'F':
      return &kF;
    case 'r':
      return &kR;
    case 'a':
      return &kA;
    case 'm':
      return &kM;
    case 'e':
      return &kE;
    default:
      return nullptr;  // a space
  }
}

void VideoCanvas::text(int64_t x, int64_t y, const std::string& text, VideoRgb c) {
  for (const char ch : text) {
    if (const auto* rows = caption_glyph(ch))
      for (int r = 0; r < 7; ++r)
        for (int col = 0; col < 5; ++col)
          if ((*rows)[r] & (0x10 >> col)) set(x + col, y + r, c);
    x += 6;
  }
}

// Python's float `a % b` for b > 0: the result takes b's sign.
double python_float_mod(double a, double b) {
  double r = std::fmod(a, b);
  if (r != 0) {
    if ((r < 0) != (b < 0)) r += b;
  } else {
    r = std::copysign(0.0, b);
  }
  return r;
}

}  // namespace

RgbImage draw_moving_shapes_frame(uint32_t width, uint32_t height, uint32_t index, uint32_t total) {
  VideoCanvas canvas(width, height, {0, 0, 0});
  const double w = width, h = height, n = std::max<uint32_t>(total, 1), f = index;
  const uint32_t half_w = width / 2, half_h = height / 2;  // integer halves, as AIPerf's //
  struct Shape {
    bool circle;
    VideoRgb colour;
    int size;
    double x, y, dx, dy;
  };
  const Shape shapes[] = {
      {true, {255, 0, 0}, 30, 0, static_cast<double>(half_h), w / n * 2, 0},
      {false, {0, 255, 0}, 25, static_cast<double>(half_w), 0, 0, h / n * 2},
      {true, {0, 0, 255}, 20, w, h, -w / n * 1.5, -h / n * 1.5},
  };
  for (const Shape& s : shapes) {
    const double x = python_float_mod(s.x + s.dx * f, w), y = python_float_mod(s.y + s.dy * f, h);
    const int r = s.size / 2;
    if (s.circle) canvas.ellipse(x - r, y - r, x + r, y + r, s.colour);
    else canvas.fill_rect(x - r, y - r, x + r, y + r, s.colour);
  }
  return canvas.take();
}

RgbImage draw_grid_clock_frame(uint32_t width, uint32_t height, uint32_t index, uint32_t total) {
  VideoCanvas canvas(width, height, {32, 32, 32});
  const VideoRgb grid{64, 64, 64};
  for (uint32_t x = 0; x < width; x += 32) canvas.line(x, 0, x, height, grid, 1);
  for (uint32_t y = 0; y < height; y += 32) canvas.line(0, y, width, y, grid, 1);
  const uint32_t half_w = width / 2, half_h = height / 2, quarter = std::min(width, height) / 4;  // AIPerf's //
  const double cx = half_w, cy = half_h;
  const double radius = quarter;
  const double angle = static_cast<double>(index) / std::max<uint32_t>(total, 1) * 2 * std::numbers::pi;
  const double hour = angle / 12;
  canvas.line(cx, cy, cx + radius * 0.6 * std::cos(hour - std::numbers::pi / 2),
              cy + radius * 0.6 * std::sin(hour - std::numbers::pi / 2), {255, 255, 0}, 3);
  canvas.line(cx, cy, cx + radius * 0.9 * std::cos(angle - std::numbers::pi / 2),
              cy + radius * 0.9 * std::sin(angle - std::numbers::pi / 2), {255, 255, 255}, 2);
  canvas.ellipse(cx - radius, cy - radius, cx + radius, cy + radius, {128, 128, 128}, 2);
  canvas.ellipse(cx - 3, cy - 3, cx + 3, cy + 3, {255, 0, 0});
  canvas.text(10, 10, "Frame " + std::to_string(index), {255, 255, 255});
  return canvas.take();
}

RgbImage draw_noise_frame(uint32_t width, uint32_t height, NumpyPcg64& rng) {
  RgbImage img;
  img.width = width;
  img.height = height;
  img.pixels.resize(static_cast<size_t>(width) * height * 3);
  uint32_t word = 0;
  for (size_t i = 0; i < img.pixels.size(); ++i) {
    if (i % 4 == 0) word = rng.next32();
    img.pixels[i] = static_cast<uint8_t>(word >> (8 * (i % 4)));
  }
  return img;
}

}  // namespace aiperf::dataset
