// Draws a plot::Figure into a PNG with cairo: title, axes with nice ticks (linear or log), a
// secondary y axis, legend, points/lines/steps/areas/spans, error bars and point labels, in
// AIPerf's light or dark theme (NVIDIA green first). Everything drawn comes from the Figure.
#pragma once
#include <array>
#include <stdexcept>
#include <string>

#include "plot/figure.h"

namespace aiperf::plot {

enum class Theme { Light, Dark };

struct RenderError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// AIPerf's PNG size: DEFAULT_PLOT_WIDTH x DEFAULT_PLOT_HEIGHT (1600 x 800) at scale
// DEFAULT_PLOT_DPI / 100 = 1.5. Layout is designed at 1600 x 800 and scales with the height.
inline constexpr int kPngWidth = 2400;
inline constexpr int kPngHeight = 1200;

// Writes `path` (a PNG of width x height). Throws RenderError naming the path when cairo cannot
// write it. An empty figure (no points) still draws its frame, title and a "No data" mark.
void render_png(const Figure& figure, Theme theme, const std::string& path, int width = kPngWidth,
                int height = kPngHeight);

// The same drawing as a baseline JPEG (libjpeg, `quality` 0-100) at `path`.
void render_jpeg(const Figure& figure, Theme theme, const std::string& path, int width, int height, int quality = 92);

// A heat map's colour (r, g, b in 0..1) for t in [0, 1]: Plotly's default scale (Plasma).
std::array<double, 3> heat_color(double t);

// "#76B900" for index 0, ...; index 100 is the outlier red. Shared so the HTML report can use
// the same colours.
std::string palette_color(int index);

}  // namespace aiperf::plot
