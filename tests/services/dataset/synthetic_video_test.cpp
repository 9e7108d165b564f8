// Synthetic video (--video-*): AIPerf's option refusals, the frames of each synth type pixel by
// pixel, the ffmpeg command line, and real encodes checked with ffprobe (ffmpeg is a dependency:
// deploy/install-deps.sh), including a failing codec, a child past its deadline and the clip cache.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "media_decode.h"
#include "synthetic_video.h"
#include "video_frames.h"

using namespace aiperf::dataset;
namespace config = aiperf::config;
namespace fs = std::filesystem;

namespace {

struct Px {
  int r, g, b;
  bool operator==(const Px&) const = default;
};

Px at(const RgbImage& img, uint32_t x, uint32_t y) {
  const uint8_t* p = &img.pixels[(static_cast<size_t>(y) * img.width + x) * 3];
  return {p[0], p[1], p[2]};
}

config::VideoConfig tiny(config::VideoFormat format = config::VideoFormat::kWebm) {
  config::VideoConfig v;
  v.width = 64;
  v.height = 48;
  v.fps = 4;
  v.duration = 1.0;
  v.format = format;
  return v;
}

// `ffprobe -show_entries` of `bytes` written to a scratch file: "key=value" lines.
std::string probe(const std::string& bytes, const std::string& entries) {
  const fs::path file = fs::temp_directory_path() / ("synthetic_video_test_" + std::to_string(::getpid()));
  std::ofstream(file, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  const std::string cmd = "ffprobe -v error -show_entries " + entries + " -of default=nw=1 " + file.string();
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[512];
    while (size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    ::pclose(p);
  }
  fs::remove(file);
  return out;
}

// The clip's frames decoded to RGB by ffmpeg (the container's random segment UID aside, two
// encodes of the same frames are the same video).
std::string decode_rgb(const std::string& data_url) {
  const std::string bytes = aiperf::test::base64_decode(data_url.substr(data_url.find(',') + 1));
  const fs::path file = fs::temp_directory_path() / ("synthetic_video_decode_" + std::to_string(::getpid()));
  std::ofstream(file, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  const std::string cmd = "ffmpeg -v error -i " + file.string() + " -f rawvideo -pix_fmt rgb24 -";
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    while (size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    ::pclose(p);
  }
  fs::remove(file);
  return out;
}

// A private TMPDIR for this process (encode_video's scratch directories go there), so that
// counting them is not disturbed by other tests running at the same time.
const fs::path& private_tmp() {
  struct Dir {
    fs::path path;
    Dir() {
      std::string tmpl = (fs::temp_directory_path() / "synthetic_video_test_XXXXXX").string();
      if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
      path = tmpl;
      ::setenv("TMPDIR", tmpl.c_str(), 1);
    }
    ~Dir() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  };
  static const Dir dir;
  return dir.path;
}

size_t scratch_dirs() {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(private_tmp()))
    if (e.path().filename().string().rfind("aiperf_video_", 0) == 0) ++n;
  return n;
}

std::string black_frames(const config::VideoConfig& v, uint32_t) {
  return std::string(static_cast<size_t>(*v.width) * *v.height * 3, '\0');
}

}  // namespace

namespace Catch {
template <>
struct StringMaker<Px> {
  static std::string convert(const Px& p) {
    return "(" + std::to_string(p.r) + ", " + std::to_string(p.g) + ", " + std::to_string(p.b) + ")";
  }
};
}  // namespace Catch

TEST_CASE("video options: AIPerf's refusals", "[dataset][video]") {
  config::VideoConfig v = tiny();
  CHECK(check_video_options(v).empty());
  v.duration = 0;
  CHECK(check_video_options(v) == "--video-duration: Input should be greater than 0 (got 0.000000)");
  v = tiny();
  v.audio_codec = config::VideoAudioCodec::kAac;
  CHECK(check_video_options(v) ==
        "--video-audio-codec 'aac' is set but --video-audio-num-channels is 0 (audio disabled). Set "
        "--video-audio-num-channels to 1 or 2 to enable audio.");
  v.audio_channels = 1;
  CHECK(check_video_options(v).empty());
  v.audio_sample_rate = 0.097;  // 97 Hz after AIPerf's Hz -> kHz rule
  CHECK(check_video_options(v) ==
        "--video-audio-sample-rate: Input should be between 8 and 96 kHz (or 8000 and 96000 Hz)");
}

TEST_CASE("video options: defaults, enabling and the audio codec by container", "[dataset][video]") {
  config::VideoConfig v;
  CHECK(v.batch_size == 1);
  CHECK(v.duration == 1.0);
  CHECK(v.fps == 4);
  CHECK(v.codec == "libvpx-vp9");
  CHECK(v.format == config::VideoFormat::kWebm);
  CHECK_FALSE(v.enabled());
  v.width = 64;
  CHECK_FALSE(v.enabled());  // both sizes or no video, as AIPerf
  v.height = 64;
  CHECK(v.enabled());
  CHECK(v.encodes());
  v.batch_size = 0;
  CHECK(v.enabled());
  CHECK_FALSE(v.encodes());
  v.batch_size = 1;
  v.duration = 0.2;  // int(0.2 * 4) = 0 frames: nothing to encode
  CHECK(v.frame_count() == 0);
  CHECK_FALSE(v.encodes());
  CHECK(v.resolved_audio_codec() == config::VideoAudioCodec::kLibvorbis);
  v.format = config::VideoFormat::kMp4;
  CHECK(v.resolved_audio_codec() == config::VideoAudioCodec::kLibopus);
  v.audio_codec = config::VideoAudioCodec::kAac;
  CHECK(v.resolved_audio_codec() == config::VideoAudioCodec::kAac);
}

TEST_CASE("ffmpeg missing: AIPerf's message with the distribution's install command", "[dataset][video]") {
  CHECK(
      ffmpeg_missing_message("ID=debian\nVERSION_ID=\"12\"\n") ==
      "FFmpeg binary not found. Please install FFmpeg:\n\n  Recommended: sudo apt update && sudo apt install ffmpeg\n\n"
      "  Alternative: conda install -c conda-forge ffmpeg\n\nAfter installation, restart your terminal and try again.");
  CHECK(ffmpeg_missing_message("ID=fedora\n").find("Recommended: sudo dnf install ffmpeg") != std::string::npos);
  CHECK(ffmpeg_missing_message("").find("Recommended: sudo apt install ffmpeg  # (Ubuntu/Debian)") !=
        std::string::npos);
}

TEST_CASE("ffmpeg command line: AIPerf's arguments", "[dataset][video]") {
  config::VideoConfig v = tiny();
  CHECK(ffmpeg_arguments(v, "/usr/bin/ffmpeg", "/t/output.webm", "") == std::vector<std::string>{"/usr/bin/ffmpeg",
                                                                                                 "-hide_banner",
                                                                                                 "-loglevel",
                                                                                                 "error",
                                                                                                 "-f",
                                                                                                 "rawvideo",
                                                                                                 "-pix_fmt",
                                                                                                 "rgb24",
                                                                                                 "-r",
                                                                                                 "4",
                                                                                                 "-s",
                                                                                                 "64x48",
                                                                                                 "-i",
                                                                                                 "pipe:",
                                                                                                 "-f",
                                                                                                 "webm",
                                                                                                 "-pix_fmt",
                                                                                                 "yuv420p",
                                                                                                 "-vcodec",
                                                                                                 "libvpx-vp9",
                                                                                                 "/t/output.webm",
                                                                                                 "-y"});
  v.format = config::VideoFormat::kMp4;
  v.audio_channels = 2;
  CHECK(ffmpeg_arguments(v, "", "/t/output.mp4", "/t/audio.wav") ==
        std::vector<std::string>{"ffmpeg",       "-hide_banner",  "-loglevel", "error",     "-f",
                                 "rawvideo",     "-pix_fmt",      "rgb24",     "-r",        "4",
                                 "-s",           "64x48",         "-i",        "pipe:",     "-i",
                                 "/t/audio.wav", "-map",          "0",         "-map",      "1",
                                 "-f",           "mp4",           "-acodec",   "libopus",   "-movflags",
                                 "faststart",    "-pix_fmt",      "yuv420p",   "-shortest", "-vcodec",
                                 "libvpx-vp9",   "/t/output.mp4", "-y"});
}

TEST_CASE("moving_shapes frames: the three shapes where AIPerf puts them", "[dataset][video]") {
  const Px black{0, 0, 0}, red{255, 0, 0}, green{0, 255, 0}, blue{0, 0, 255};
  // Frame 0 of 4 at 64x64: red circle (r 15) at (0, 32), green square (half 12) at (32, 0),
  // blue circle (r 10) at (64, 64) wrapped to (0, 0).
  const RgbImage f0 = draw_moving_shapes_frame(64, 64, 0, 4);
  REQUIRE(f0.pixels.size() == 64u * 64u * 3u);
  CHECK(at(f0, 0, 32) == red);
  CHECK(at(f0, 15, 32) == red);
  CHECK(at(f0, 16, 32) == black);
  CHECK(at(f0, 0, 47) == red);
  CHECK(at(f0, 0, 48) == black);
  CHECK(at(f0, 20, 0) == green);
  CHECK(at(f0, 44, 12) == green);
  CHECK(at(f0, 45, 12) == black);
  CHECK(at(f0, 32, 13) == black);
  CHECK(at(f0, 19, 5) == black);
  CHECK(at(f0, 0, 0) == blue);
  CHECK(at(f0, 10, 0) == blue);
  CHECK(at(f0, 11, 0) == black);
  CHECK(at(f0, 7, 7) == blue);
  CHECK(at(f0, 8, 8) == black);
  // Frame 1: red at (32, 32), green at (32, 32) over it, blue at (40, 40) over both.
  const RgbImage f1 = draw_moving_shapes_frame(64, 64, 1, 4);
  CHECK(at(f1, 32, 32) == green);
  CHECK(at(f1, 44, 44) == blue);
  CHECK(at(f1, 20, 20) == green);
  CHECK(at(f1, 47, 32) == red);
  CHECK(at(f1, 48, 32) == black);
  CHECK(at(f1, 50, 40) == blue);
  CHECK(at(f1, 51, 40) == black);
  CHECK(at(f1, 19, 32) == red);
  CHECK(at(f1, 17, 32) == red);
  CHECK(at(f1, 16, 32) == black);
}

TEST_CASE("grid_clock frames: grid, face, hands, centre dot and caption", "[dataset][video]") {
  const Px bg{32, 32, 32}, grid{64, 64, 64}, white{255, 255, 255}, yellow{255, 255, 0}, grey{128, 128, 128},
      red{255, 0, 0};
  const RgbImage f0 = draw_grid_clock_frame(64, 64, 0, 4);
  CHECK(at(f0, 5, 5) == bg);
  CHECK(at(f0, 0, 5) == grid);  // grid lines every 32 px from 0
  CHECK(at(f0, 5, 0) == grid);
  CHECK(at(f0, 63, 32) == grid);
  CHECK(at(f0, 32, 32) == red);  // centre dot, radius 3
  CHECK(at(f0, 35, 32) == red);
  CHECK(at(f0, 16, 32) == grey);  // face: radius 16, 2 px outline
  CHECK(at(f0, 17, 32) == grey);
  CHECK(at(f0, 19, 33) == bg);
  CHECK(at(f0, 48, 32) == grey);
  CHECK(at(f0, 48, 33) == bg);
  CHECK(at(f0, 20, 20) == bg);  // outside the face
  // Frame 0: both hands point up; the minute hand (white, 2 px: columns 31-32, to y 17.6) is
  // drawn over the hour hand (yellow, 3 px: columns 31-33, to y 22.4).
  CHECK(at(f0, 32, 19) == white);
  CHECK(at(f0, 31, 24) == white);
  CHECK(at(f0, 33, 24) == yellow);
  CHECK(at(f0, 33, 20) == bg);
  CHECK(at(f0, 30, 26) == bg);
  CHECK(at(f0, 34, 26) == bg);
  // "Frame 0" at (10, 10): the F's top bar, its stem, and the 0's top.
  CHECK(at(f0, 10, 10) == white);
  CHECK(at(f0, 14, 10) == white);
  CHECK(at(f0, 15, 10) == bg);
  CHECK(at(f0, 10, 16) == white);
  CHECK(at(f0, 47, 10) == white);
  // A quarter turn later (frame 1 of 4) the minute hand points right (rows 31-32).
  const RgbImage f1 = draw_grid_clock_frame(64, 64, 1, 4);
  CHECK(at(f1, 44, 32) == white);
  CHECK(at(f1, 44, 31) == white);
  CHECK(at(f1, 44, 30) == bg);
  CHECK(at(f1, 32, 20) == grid);
  CHECK(at(f1, 33, 24) == yellow);
  CHECK(at(f1, 48, 10) == white);  // "Frame 1": the 1's top
  CHECK(at(f1, 47, 10) == bg);
}

TEST_CASE("noise frames: NumPy's integers(0, 256, (h, w, 3), uint8) from one stream", "[dataset][video]") {
  // numpy.random.default_rng(7): integers(0, 256, (2, 3, 3), uint8).ravel(), then
  // integers(0, 256, (1, 1, 3), uint8) - each call takes 32-bit draws four bytes at a time and
  // drops what its last draw has left.
  NumpyPcg64 rng(7);
  const RgbImage a = draw_noise_frame(3, 2, rng);
  CHECK(a.pixels ==
        std::vector<uint8_t>{139, 74, 229, 241, 169, 65, 6, 160, 149, 106, 38, 175, 188, 205, 175, 229, 98, 249});
  const RgbImage b = draw_noise_frame(1, 1, rng);
  CHECK(b.pixels == std::vector<uint8_t>{95, 86, 147});
}

TEST_CASE("encode_video: webm and mp4 with an audio track decode to the requested parameters", "[dataset][video]") {
  const size_t dirs_before = scratch_dirs();
  REQUIRE(dirs_before == 0);
  config::VideoConfig v = tiny();
  const std::string webm = encode_video(
      v, [&](uint32_t i) { return black_frames(v, i); }, 4, "");
  REQUIRE(webm.size() > 4);
  CHECK(webm.substr(0, 4) == std::string("\x1a\x45\xdf\xa3", 4));  // EBML
  CHECK(probe(webm, "stream=codec_name,width,height,r_frame_rate:format=duration") ==
        "codec_name=vp9\nwidth=64\nheight=48\nr_frame_rate=4/1\nduration=1.000000\n");

  v.format = config::VideoFormat::kMp4;
  v.audio_channels = 2;
  v.audio_sample_rate = 16;
  std::mt19937_64 rng(1);
  const std::string wav = video_audio_wav(v, rng);
  CHECK(wav.size() == 44u + 16000u * 2u * 2u);  // 1 s of 16-bit stereo at 16 kHz
  const std::string mp4 = encode_video(
      v, [&](uint32_t i) { return black_frames(v, i); }, 4, wav);
  CHECK(mp4.substr(4, 4) == "ftyp");
  CHECK(probe(mp4, "stream=codec_name,width,height,sample_rate,channels") ==
        "codec_name=vp9\nwidth=64\nheight=48\ncodec_name=opus\nsample_rate=48000\nchannels=2\n");
  CHECK(video_data_url(config::VideoFormat::kMp4, "abc") == "data:video/mp4;base64,YWJj");
  CHECK(scratch_dirs() == dirs_before);  // nothing left behind
}

TEST_CASE("encode_video: ffmpeg's error, a child past its deadline, nothing left behind", "[dataset][video]") {
  const size_t dirs_before = scratch_dirs();
  config::VideoConfig v = tiny();
  v.codec = "libx264";  // H.264 is not allowed in WebM
  try {
    encode_video(
        v, [&](uint32_t i) { return black_frames(v, i); }, 4, "");
    FAIL("libx264 in webm was accepted");
  } catch (const VideoEncodeError& e) {
    const std::string what = e.what();
    CHECK(what.rfind("FFmpeg failed to create video: FFmpeg process failed (exit status ", 0) == 0);
    CHECK(what.find("Only VP8 or VP9 or AV1 video and Vorbis or Opus audio and WebVTT subtitles are supported for "
                    "WebM") != std::string::npos);
    CHECK(what.find("\nCodec: libx264, Size: 64x48, FPS: 4") != std::string::npos);
  }
  CHECK_THROWS_WITH(preflight_video(v), Catch::Contains("Codec: libx264"));
  v = tiny();
  CHECK_NOTHROW(preflight_video(v));

  const fs::path script = fs::temp_directory_path() / ("slow_ffmpeg_" + std::to_string(::getpid()));
  std::ofstream(script) << "#!/bin/sh\nexec sleep 30\n";
  fs::permissions(script, fs::perms::owner_all);
  v.ffmpeg_path = script.string();
  CHECK_THROWS_WITH(encode_video(
                        v, [&](uint32_t i) { return black_frames(v, i); }, 1, "", 0.3),
                    Catch::Contains("no result within 0.3 s (killed)"));
  v.ffmpeg_path = "/nonexistent/ffmpeg";
  CHECK_THROWS_WITH(encode_video(
                        v, [&](uint32_t i) { return black_frames(v, i); }, 1, ""),
                    Catch::StartsWith("FFmpeg failed to create video: cannot run /nonexistent/ffmpeg"));
  fs::remove(script);
  CHECK(scratch_dirs() == dirs_before);
}

TEST_CASE("VideoSource: one encode for identical clips, one per clip for noise", "[dataset][video]") {
  config::VideoConfig v = tiny();
  v.fps = 2;
  VideoSource shapes(v, 42);
  const std::string first = shapes.next();
  CHECK(first.rfind("data:video/webm;base64,GkXfo", 0) == 0);
  CHECK(shapes.next() == first);
  CHECK(shapes.next() == first);
  CHECK(shapes.encodes() == 1);

  v.synth_type = config::VideoSynthType::kNoise;
  VideoSource noise(v, 42), again(v, 42);
  std::set<std::string> clips;
  for (int i = 0; i < 3; ++i) clips.insert(noise.next());
  CHECK(clips.size() == 3);
  CHECK(noise.encodes() == 3);
  const std::string decoded = decode_rgb(*clips.begin());
  CHECK(decoded.size() == 64u * 48u * 3u * 2u);  // 2 frames
  std::set<std::string> decoded_clips;
  for (const std::string& clip : clips) decoded_clips.insert(decode_rgb(clip));
  CHECK(decoded_clips.count(decode_rgb(again.next())) == 1);  // the seed fixes the stream

  // take(): the same clips as that many next() calls, encoded two at a time.
  VideoSource parallel(v, 42), sequential(v, 42);
  const std::vector<std::string> taken = parallel.take(3, 2);
  REQUIRE(taken.size() == 3);
  CHECK(parallel.encodes() == 3);
  for (const std::string& clip : taken) CHECK(decode_rgb(clip) == decode_rgb(sequential.next()));
  CHECK(shapes.take(2, 2) == std::vector<std::string>{first, first});
  CHECK(shapes.encodes() == 1);

  v.duration = 0.25;  // int(0.25 * 2) = 0 frames: AIPerf sends no clip
  VideoSource empty(v, 42);
  CHECK(empty.next().empty());
  CHECK(empty.encodes() == 0);
}
