// The frames of synthetic videos (--video-synth-type), with the content AIPerf 0.13 draws:
//   moving_shapes  on black, a red circle (30 px) crossing left to right, a green square (25 px)
//                  falling from the top (both twice per clip), a blue circle (20 px) moving up and
//                  left from the bottom-right corner (1.5 times per clip), each wrapping at the edges;
//   grid_clock     on dark grey, a grid every 32 px, a clock face (radius min(w, h) / 4) whose
//                  minute hand turns once per clip and hour hand 1/12 of that, a red centre dot
//                  and "Frame <n>" at (10, 10);
//   noise          uniform random bytes, NumPy-exact: numpy.random.default_rng(seed).integers(0,
//                  256, (h, w, 3), uint8) per frame from one stream.
// The geometry and colours are AIPerf's; the rasterizer is ours (pixel centres on the integer
// lattice, PIL's truncation of float box corners), and the caption uses a 5x7 bitmap font
// instead of PIL's default TrueType font, so edge pixels and the text differ from PIL's.
#pragma once
#include <cstdint>

#include "config/video_config.h"
#include "image_codec.h"
#include "numpy_rng.h"

namespace aiperf::dataset {

// Frame `index` (0-based) of a `total`-frame moving_shapes clip of width x height.
RgbImage draw_moving_shapes_frame(uint32_t width, uint32_t height, uint32_t index, uint32_t total);

// Frame `index` of a `total`-frame grid_clock clip.
RgbImage draw_grid_clock_frame(uint32_t width, uint32_t height, uint32_t index, uint32_t total);

// The next noise frame from `rng` (one NumPy `integers` call: width * height * 3 bytes taken
// four per 32-bit draw, the rest of the last draw discarded).
RgbImage draw_noise_frame(uint32_t width, uint32_t height, NumpyPcg64& rng);

}  // namespace aiperf::dataset
