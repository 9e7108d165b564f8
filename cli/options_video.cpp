// AIPerf 0.13's "Video Input" group (--video-*): the options with its spellings, limits and
// choices, then its refusals (an audio codec without audio, a duration of 0, a sample rate out of
// 8..96 kHz), and, when clips are to be encoded, ffmpeg found on PATH and one trial encode of the
// chosen size, codec, container and audio track, so a missing ffmpeg or a codec the container
// refuses exits 2 before anything is started (AIPerf fails later, in its dataset service).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "options.h"
#include "synthetic_video.h"
#include "validators.h"

namespace aiperf::cli {

namespace {

// `name` on $PATH as execvp would find it (an executable regular file), or "".
std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / name;
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0)
      return std::filesystem::absolute(candidate, ec).string();
  }
  return "";
}

std::string read_os_release() {
  std::ifstream in("/etc/os-release");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

void add_video_options(CLI::App& app, ProfileOptions& o) {
  auto& v = o.config.input.video;
  const std::string g = "Video Input";
  const CLI::Validator u32 = number_check(0, false, 4294967295.0, "an integer >= 0");
  app.add_option("--video-batch-size,--batch-size-video", v.batch_size, "Videos per request (default 1)")
      ->check(u32)
      ->group(g);
  app.add_option("--video-duration", v.duration, "Seconds per clip (frames = int(duration * fps); default 1)")
      ->check(kNonNegative)
      ->group(g);
  app.add_option("--video-fps", v.fps, "Frames per second (default 4)")
      ->check(number_check(1, false, 4294967295.0, "an integer >= 1"))
      ->group(g);
  add_optional(app, "--video-width", v.width, "Frame width (px); videos are made when width and height are given")
      ->check(number_check(1, false, 4294967295.0, "an integer >= 1"))
      ->group(g);
  add_optional(app, "--video-height", v.height, "Frame height (px)")
      ->check(number_check(1, false, 4294967295.0, "an integer >= 1"))
      ->group(g);
  add_enum_option(app, "--video-synth-type", v.synth_type, "moving_shapes (default), grid_clock or noise")
      ->transform(choice({"moving_shapes", "grid_clock", "noise"}))
      ->group(g);
  add_enum_option(app, "--video-format", v.format, "Container: webm (default) or mp4")
      ->transform(choice({"mp4", "webm"}))
      ->group(g);
  app.add_option("--video-codec", v.codec, "ffmpeg video encoder (default libvpx-vp9)")->group(g);
  app.add_option("--video-audio-sample-rate", v.audio_sample_rate,
                 "Audio track sample rate, kHz or Hz (values above 96 are Hz; default 44.1 kHz)")
      ->check(number_check(8, false, 96000, "a number from 8 to 96000"))
      ->group(g);
  app.add_option("--video-audio-num-channels", v.audio_channels, "Audio channels: 0 (no track, default), 1 or 2")
      ->check(CLI::Range(0, 2))
      ->group(g);
  add_enum_option(app, "--video-audio-codec", v.audio_codec,
                  "aac, libvorbis or libopus (default: libvorbis for webm, libopus for mp4)")
      ->transform(choice({"aac", "libvorbis", "libopus"}))
      ->group(g);
  app.add_option("--video-audio-depth", v.audio_depth, "Audio bit depth: 8, 16 (default), 24 or 32")
      ->check(CLI::IsMember({8, 16, 24, 32}))
      ->group(g);
}

void finalize_video_options(ProfileOptions& o) {
  auto& v = o.config.input.video;
  if (v.audio_sample_rate > 96) v.audio_sample_rate /= 1000.0;  // given in Hz (AIPerf's rule)
  if (const std::string error = dataset::check_video_options(v); !error.empty()) throw OptionError(error);
  if (v.enabled()) {
    const std::string& type = o.config.endpoint.type;
    if (type == "responses")
      throw OptionError(
          "--video-width/--video-height: Responses API does not support video input. Use "
          "--endpoint-type chat for video turns, or remove the video options.");
    if (type == "messages")
      throw OptionError(
          "--video-width/--video-height: Anthropic Messages API does not support video input. Use a "
          "different endpoint, or remove the video options.");
  }
  if (!v.encodes()) return;
  v.ffmpeg_path = find_on_path("ffmpeg");
  if (v.ffmpeg_path.empty())
    throw OptionError("--video-width/--video-height: " + dataset::ffmpeg_missing_message(read_os_release()));
  try {
    dataset::preflight_video(v);
  } catch (const dataset::VideoEncodeError& e) {
    throw OptionError("--video-codec " + v.codec + " with --video-format " + config::to_string(v.format) +
                      (v.audio_channels > 0 ? " and --video-audio-codec " + config::to_string(v.resolved_audio_codec())
                                            : std::string()) +
                      ": " + e.what());
  }
}

}  // namespace aiperf::cli
