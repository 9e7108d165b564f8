// Synthetic videos (--video-*), made as AIPerf 0.13 makes them: frames drawn per synth type
// (video_frames.h), piped as raw RGB to the ffmpeg command-line tool, which encodes them with the
// chosen codec into the chosen container (yuv420p; MP4 with faststart), optionally with a
// Gaussian-noise audio track; the file is sent as "data:video/<format>;base64,...".
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/video_config.h"
#include "image_codec.h"
#include "numpy_rng.h"

namespace aiperf::dataset {

// ffmpeg could not be run, failed, ran past its deadline or wrote nothing. what() is AIPerf's
// message: "FFmpeg failed to create video: ...", ffmpeg's stderr, then codec, size and fps.
class VideoEncodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The option errors AIPerf 0.13 reports for a valid-looking set of --video-* values (its
// config models' checks), or "" when there is none.
std::string check_video_options(const config::VideoConfig& video);

// AIPerf's message when ffmpeg is not on PATH; `os_release` is /etc/os-release's text (picks the
// install command), empty when unreadable.
std::string ffmpeg_missing_message(const std::string& os_release);

// The ffmpeg command line for one clip (argv[0] = `ffmpeg`): raw RGB frames on stdin, the WAV at
// `audio_path` when the clip has an audio track, written to `output_path`. AIPerf's arguments,
// plus -hide_banner -loglevel error so that stderr holds only what went wrong.
std::vector<std::string> ffmpeg_arguments(const config::VideoConfig& video, const std::string& ffmpeg,
                                          const std::string& output_path, const std::string& audio_path);

// The audio track of one clip: int(duration * rate) frames of N(0, 0.3) noise clipped to
// [-1, 1], `channels` interleaved, as WAV PCM of --video-audio-depth bits.
std::string video_audio_wav(const config::VideoConfig& video, std::mt19937_64& rng);

// Produces frame `index` (0-based) of the clip as width * height * 3 RGB bytes.
using FrameSource = std::function<std::string(uint32_t index)>;

// Runs ffmpeg on `frame_count` frames from `frames` (streamed to its stdin as they are drawn),
// with `wav` as the audio track when not empty, in a private temporary directory removed before
// returning. Throws VideoEncodeError after `deadline_s` seconds (the child is killed), on a
// non-zero exit (its stderr in the message) or an empty output.
std::string encode_video(const config::VideoConfig& video, const FrameSource& frames, uint32_t frame_count,
                         const std::string& wav, double deadline_s = 300);

// "data:video/<format>;base64,<bytes>".
std::string video_data_url(config::VideoFormat format, const std::string& bytes);

// Encodes a one-frame black clip of the configured size, codec, container and audio track, so
// that a codec the container refuses (libx264 in webm), an unknown encoder or an ffmpeg that
// cannot run fails before anything is started. Throws VideoEncodeError.
void preflight_video(const config::VideoConfig& video);

// The clips of a run, in AIPerf's order: every call is the next clip's data URL ("" when the clip
// has no frames). A clip with noise frames or an audio track differs from the last (one NumPy
// noise stream, "dataset.video.noise", and one audio stream per run, as AIPerf draws them); any
// other clip is the same each time and is encoded once.
class VideoSource {
 public:
  VideoSource(const config::VideoConfig& video, const std::optional<uint64_t>& seed);
  std::string next();
  // The next `count` clips, as `count` calls of next() return them, with up to `threads` ffmpeg
  // runs at once when the clips differ (each clip's frames and audio still drawn in order, whole,
  // before its encode: `threads` raw clips in memory at most). Rethrows the first failure.
  std::vector<std::string> take(size_t count, unsigned threads);
  // ffmpeg runs so far (tests: one per distinct clip).
  uint32_t encodes() const { return encodes_; }

 private:
  std::string make();
  RgbImage draw(uint32_t frame);  // frame `frame` of the next clip (noise: the stream's next)

  config::VideoConfig video_;
  bool varies_;
  NumpyPcg64 noise_;
  std::mt19937_64 audio_rng_;
  std::optional<std::string> cached_;
  uint32_t encodes_ = 0;
};

}  // namespace aiperf::dataset
