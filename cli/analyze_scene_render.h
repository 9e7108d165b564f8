// The two outputs of a swim-lane Scene: a PNG drawn with cairo, and a self-contained HTML page
// (inline SVG with a hover text on every request bar, no script or style from the network).
#pragma once
#include <string>

#include "analyze_swim_lane.h"

namespace aiperf::cli::analyze {

// The scene at `scale` x its size (the reference saves at 150 dpi, about 2x). Throws
// SwimLaneError "failed to write <path>: ..." when cairo cannot write the file.
void write_scene_png(const Scene& scene, const std::string& path, double scale = 2.0);

// The scene as one <svg> element (text escaped).
std::string scene_svg(const Scene& scene);

// The page: `title`, the SVG, and `payload_json` (AIPerf's swim-lane payload keys) in a
// <script type="application/json" id="aiperf-payload"> block for anyone scripting the file.
std::string swim_lane_html(const Scene& scene, const std::string& title, const std::string& payload_json);

// Writes `text` to `path` through a temporary file and a rename (creating the parent
// directories): the path never holds half a file. Throws SwimLaneError naming the path.
void write_file_whole(const std::string& path, const std::string& text);

}  // namespace aiperf::cli::analyze
