// Synthetic video (AIPerf 0.13 "Video Input" group): clips drawn frame by frame and encoded by
// the ffmpeg command-line tool, sent as data URLs in chat video_url content parts
// (services/dataset/synthetic_video.h). A clip is made when width and height are both given.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "config/config_enum.h"
#include "config/json_optional.h"

namespace aiperf::config {

// --video-synth-type: what the frames show.
enum class VideoSynthType { kMovingShapes, kGridClock, kNoise };
constexpr auto enum_names(VideoSynthType) {
  using E = VideoSynthType;
  return std::array{EnumName<E>{E::kMovingShapes, "moving_shapes"}, EnumName<E>{E::kGridClock, "grid_clock"},
                    EnumName<E>{E::kNoise, "noise"}};
}
AIPERF_CONFIG_ENUM_JSON(VideoSynthType, "video_synth_type")

// --video-format: the container (ffmpeg's muxer name, and the data URL's video/<format>).
enum class VideoFormat { kMp4, kWebm };
constexpr auto enum_names(VideoFormat) {
  using E = VideoFormat;
  return std::array{EnumName<E>{E::kMp4, "mp4"}, EnumName<E>{E::kWebm, "webm"}};
}
AIPERF_CONFIG_ENUM_JSON(VideoFormat, "video_format")

// --video-audio-codec: the embedded audio track's ffmpeg encoder.
enum class VideoAudioCodec { kAac, kLibvorbis, kLibopus };
constexpr auto enum_names(VideoAudioCodec) {
  using E = VideoAudioCodec;
  return std::array{EnumName<E>{E::kAac, "aac"}, EnumName<E>{E::kLibvorbis, "libvorbis"},
                    EnumName<E>{E::kLibopus, "libopus"}};
}
AIPERF_CONFIG_ENUM_JSON(VideoAudioCodec, "video_audio_codec")

struct VideoConfig {
  // AIPerf 0.13's effective defaults (what a run does, measured): one clip per turn, 1 s
  // (its --help shows 5.0, but the dataset model's 1.0 applies unless the option is given).
  uint32_t batch_size = 1;
  double duration = 1.0;  // seconds; frames = int(duration * fps)
  uint32_t fps = 4;
  std::optional<uint32_t> width, height;  // both given: videos are made
  VideoSynthType synth_type = VideoSynthType::kMovingShapes;
  VideoFormat format = VideoFormat::kWebm;
  std::string codec = "libvpx-vp9";            // any ffmpeg video encoder
  double audio_sample_rate = 44.1;             // kHz (a value above 96 was given in Hz and is divided by 1000)
  uint32_t audio_channels = 0;                 // 0 = no audio track
  std::optional<VideoAudioCodec> audio_codec;  // unset: libvorbis for webm, libopus for mp4
  uint32_t audio_depth = 16;                   // bits of the PCM handed to the audio encoder
  // The ffmpeg executable the CLI found on PATH (the dataset service runs it).
  std::string ffmpeg_path;

  // Turns carry a video batch (batch_size clips, possibly none: AIPerf still sends the turn's
  // content as a list of parts then) when both sizes are given.
  bool enabled() const { return width.value_or(0) > 0 && height.value_or(0) > 0; }
  // Clips are encoded (ffmpeg needed) when a turn carries at least one.
  bool encodes() const { return enabled() && batch_size > 0 && frame_count() > 0; }
  // The frames of one clip, int(duration * fps) as AIPerf counts them.
  uint32_t frame_count() const { return static_cast<uint32_t>(duration * fps); }
  VideoAudioCodec resolved_audio_codec() const {
    if (audio_codec) return *audio_codec;
    return format == VideoFormat::kWebm ? VideoAudioCodec::kLibvorbis : VideoAudioCodec::kLibopus;
  }
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(VideoConfig, batch_size, duration, fps, width, height, synth_type,
                                                format, codec, audio_sample_rate, audio_channels, audio_codec,
                                                audio_depth, ffmpeg_path)

}  // namespace aiperf::config
