#include "synthetic_video.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "base64.h"
#include "synthetic_dataset.h"
#include "synthetic_media.h"
#include "time/clock.h"
#include "video_frames.h"

extern char** environ;

namespace aiperf::dataset {

namespace {

namespace fs = std::filesystem;

std::string format_fps_size(const config::VideoConfig& v) {
  return "Codec: " + v.codec + ", Size: " + std::to_string(v.width.value_or(0)) + "x" +
         std::to_string(v.height.value_or(0)) + ", FPS: " + std::to_string(v.fps);
}

[[noreturn]] void encode_failed(const config::VideoConfig& v, const std::string& why) {
  throw VideoEncodeError("FFmpeg failed to create video: " + why + "\n" + format_fps_size(v));
}

// A private directory removed (with what ffmpeg wrote into it) when the scope ends.
class ScratchDir {
 public:
  ScratchDir() {
    std::string tmpl = (fs::temp_directory_path() / "aiperf_video_XXXXXX").string();
    if (!::mkdtemp(tmpl.data()))
      throw VideoEncodeError(std::string("cannot create a temporary directory: ") + std::strerror(errno));
    path_ = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The ffmpeg child: stdin is a socket (written with MSG_NOSIGNAL, so a child that dies early is
// an error, not a SIGPIPE), stderr a pipe drained while frames are written, stdout /dev/null.
struct FfmpegChild {
  pid_t pid = -1;
  int in = -1;   // our end of its stdin
  int err = -1;  // our end of its stderr

  ~FfmpegChild() {
    if (in >= 0) ::close(in);
    if (err >= 0) ::close(err);
    if (pid > 0) {  // still running: an exception left the loop
      ::kill(pid, SIGKILL);
      int status = 0;
      ::waitpid(pid, &status, 0);
    }
  }
};

void spawn_ffmpeg(const std::vector<std::string>& args, FfmpegChild& child) {
  // A missing executable is named here (posix_spawn may report it only as exit status 127).
  if (args[0].find('/') != std::string::npos && ::access(args[0].c_str(), X_OK) != 0)
    throw VideoEncodeError("cannot run " + args[0] + ": " + std::strerror(errno));
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw VideoEncodeError(std::string("socketpair: ") + std::strerror(errno));
  int ep[2];
  if (::pipe2(ep, O_CLOEXEC) != 0) {
    ::close(sv[0]);
    ::close(sv[1]);
    throw VideoEncodeError(std::string("pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, ep[1], 2);
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // An absolute path (the CLI resolved it on PATH) is run as is; a bare name is looked up.
  const int rc = args[0].find('/') != std::string::npos
                     ? ::posix_spawn(&child.pid, argv[0], &fa, nullptr, argv.data(), environ)
                     : ::posix_spawnp(&child.pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(sv[1]);
  ::close(ep[1]);
  child.in = sv[0];
  child.err = ep[0];
  if (rc != 0) {
    child.pid = -1;
    throw VideoEncodeError("cannot run " + args[0] + ": " + std::strerror(rc));
  }
  ::fcntl(child.in, F_SETFL, ::fcntl(child.in, F_GETFL) | O_NONBLOCK);
  ::fcntl(child.err, F_SETFL, ::fcntl(child.err, F_GETFL) | O_NONBLOCK);
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

std::string check_video_options(const config::VideoConfig& v) {
  if (v.duration <= 0)
    return "--video-duration: Input should be greater than 0 (got " + std::to_string(v.duration) + ")";
  if (v.audio_sample_rate < 8 || v.audio_sample_rate > 96)
    return "--video-audio-sample-rate: Input should be between 8 and 96 kHz (or 8000 and 96000 Hz)";
  if (v.audio_codec && v.audio_channels == 0)
    return "--video-audio-codec '" + config::to_string(*v.audio_codec) +
           "' is set but --video-audio-num-channels is 0 (audio disabled). Set --video-audio-num-channels to 1 or 2 "
           "to enable audio.";
  return "";
}

std::string ffmpeg_missing_message(const std::string& os_release) {
  std::string lower = os_release;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  std::string install = "sudo apt install ffmpeg  # (Ubuntu/Debian) or use your distribution's package manager";
  if (lower.find("ubuntu") != std::string::npos || lower.find("debian") != std::string::npos)
    install = "sudo apt update && sudo apt install ffmpeg";
  else if (lower.find("fedora") != std::string::npos || lower.find("rhel") != std::string::npos ||
           lower.find("centos") != std::string::npos)
    install = "sudo dnf install ffmpeg  # or: sudo yum install ffmpeg";
  else if (lower.find("arch") != std::string::npos) install = "sudo pacman -S ffmpeg";
  return "FFmpeg binary not found. Please install FFmpeg:\n\n  Recommended: " + install +
         "\n\n  Alternative: conda install -c conda-forge ffmpeg\n\nAfter installation, restart your terminal and try "
         "again.";
}

std::vector<std::string> ffmpeg_arguments(const config::VideoConfig& v, const std::string& ffmpeg,
                                          const std::string& output_path, const std::string& audio_path) {
  const std::string format = config::to_string(v.format);
  std::vector<std::string> a = {ffmpeg.empty() ? "ffmpeg" : ffmpeg,
                                "-hide_banner",
                                "-loglevel",
                                "error",
                                "-f",
                                "rawvideo",
                                "-pix_fmt",
                                "rgb24",
                                "-r",
                                std::to_string(v.fps),
                                "-s",
                                std::to_string(v.width.value_or(0)) + "x" + std::to_string(v.height.value_or(0)),
                                "-i",
                                "pipe:"};
  const bool audio = !audio_path.empty();
  if (audio) a.insert(a.end(), {"-i", audio_path, "-map", "0", "-map", "1"});
  a.insert(a.end(), {"-f", format});
  if (audio) a.insert(a.end(), {"-acodec", config::to_string(v.resolved_audio_codec())});
  if (v.format == config::VideoFormat::kMp4) a.insert(a.end(), {"-movflags", "faststart"});
  a.insert(a.end(), {"-pix_fmt", "yuv420p"});
  if (audio) a.push_back("-shortest");
  a.insert(a.end(), {"-vcodec", v.codec, output_path, "-y"});
  return a;
}

std::string video_audio_wav(const config::VideoConfig& v, std::mt19937_64& rng) {
  AudioClip clip;
  // AIPerf: int(rate) when given in Hz, else int(kHz * 1000).
  clip.sample_rate =
      static_cast<uint32_t>(v.audio_sample_rate > 1000 ? v.audio_sample_rate : v.audio_sample_rate * 1000);
  clip.bits = v.audio_depth;
  clip.channels = std::max<uint32_t>(1, v.audio_channels);
  const auto frames = static_cast<size_t>(v.duration * clip.sample_rate);
  clip.samples.resize(frames * clip.channels);
  std::normal_distribution<double> noise(0.0, 0.3);
  for (double& s : clip.samples) s = std::clamp(noise(rng), -1.0, 1.0);
  return encode_wav(clip);
}

std::string encode_video(const config::VideoConfig& v, const FrameSource& frames, uint32_t frame_count,
                         const std::string& wav, double deadline_s) {
  ScratchDir dir;
  const std::string format = config::to_string(v.format);
  const fs::path output = dir.path() / ("output." + format);
  std::string audio_path;
  if (!wav.empty()) {
    audio_path = (dir.path() / "audio.wav").string();
    std::ofstream(audio_path, std::ios::binary).write(wav.data(), static_cast<std::streamsize>(wav.size()));
  }
  FfmpegChild child;
  try {
    spawn_ffmpeg(ffmpeg_arguments(v, v.ffmpeg_path, output.string(), audio_path), child);
  } catch (const VideoEncodeError& e) {
    encode_failed(v, e.what());
  }
  const Nanos deadline = steady_now_ns() + static_cast<Nanos>(deadline_s * 1e9);
  std::string stderr_text, pending;
  size_t offset = 0;
  uint32_t next_frame = 0;
  bool err_open = true;
  char buf[4096];
  while (child.in >= 0 || err_open) {
    if (child.in >= 0 && offset == pending.size()) {
      if (next_frame < frame_count) {
        pending = frames(next_frame++);
        offset = 0;
      } else {
        ::close(child.in);  // end of input: ffmpeg finishes the file
        child.in = -1;
        continue;
      }
    }
    const Nanos now = steady_now_ns();
    if (now >= deadline) {
      ::kill(child.pid, SIGKILL);
      std::ostringstream seconds;
      seconds << deadline_s;
      encode_failed(v,
                    "FFmpeg process failed: no result within " + seconds.str() + " s (killed)\n" + trim(stderr_text));
    }
    pollfd fds[2];
    nfds_t n = 0;
    if (err_open) fds[n++] = {child.err, POLLIN, 0};
    if (child.in >= 0) fds[n++] = {child.in, POLLOUT, 0};
    const int timeout_ms = static_cast<int>(std::min<Nanos>((deadline - now) / 1000000 + 1, 1000));
    if (::poll(fds, n, timeout_ms) < 0 && errno != EINTR)
      encode_failed(v, std::string("poll: ") + std::strerror(errno));
    for (nfds_t i = 0; i < n; ++i) {
      if (fds[i].fd == child.err && (fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
        const ssize_t got = ::read(child.err, buf, sizeof buf);
        if (got > 0) {
          if (stderr_text.size() < (1u << 20)) stderr_text.append(buf, static_cast<size_t>(got));
        } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
          err_open = false;
        }
      } else if (fds[i].fd == child.in && (fds[i].revents & (POLLOUT | POLLHUP | POLLERR))) {
        const ssize_t put = ::send(child.in, pending.data() + offset, pending.size() - offset, MSG_NOSIGNAL);
        if (put > 0) {
          offset += static_cast<size_t>(put);
        } else if (put < 0 && errno != EAGAIN && errno != EINTR) {
          ::close(child.in);  // ffmpeg stopped reading (it failed): its exit status and stderr say why
          child.in = -1;
          next_frame = frame_count;
        }
      }
    }
  }
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {}
  child.pid = -1;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const std::string how = WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                              : "signal " + std::to_string(WTERMSIG(status));
    encode_failed(v, "FFmpeg process failed (" + how + "): " + trim(stderr_text));
  }
  std::ifstream in(output, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  std::string data = bytes.str();
  if (data.empty()) encode_failed(v, "FFmpeg produced no output");
  return data;
}

std::string video_data_url(config::VideoFormat format, const std::string& bytes) {
  return "data:video/" + config::to_string(format) + ";base64," + base64_encode(bytes);
}

void preflight_video(const config::VideoConfig& video) {
  config::VideoConfig v = video;
  v.duration = 1.0 / v.fps;  // one frame, and an audio track as long
  const size_t frame_bytes = static_cast<size_t>(v.width.value_or(0)) * v.height.value_or(0) * 3;
  std::mt19937_64 rng(0);
  const std::string wav = v.audio_channels > 0 ? video_audio_wav(v, rng) : "";
  encode_video(
      v, [frame_bytes](uint32_t) { return std::string(frame_bytes, '\0'); }, 1, wav, 120);
}

VideoSource::VideoSource(const config::VideoConfig& video, const std::optional<uint64_t>& seed)
    : video_(video),
      varies_(video.synth_type == config::VideoSynthType::kNoise || video.audio_channels > 0),
      noise_(seed ? derive_aiperf_seed(*seed, "dataset.video.noise")
                  : std::random_device{}() * 4294967296ull + std::random_device{}()),
      audio_rng_(derive_rng(seed, "dataset.video.audio")) {}

std::string VideoSource::next() {
  if (video_.frame_count() == 0) return "";  // AIPerf appends nothing for a clip without frames
  if (!varies_) {
    if (!cached_) cached_ = make();
    return *cached_;
  }
  return make();
}

RgbImage VideoSource::draw(uint32_t frame) {
  const uint32_t w = video_.width.value_or(0), h = video_.height.value_or(0), total = video_.frame_count();
  switch (video_.synth_type) {
    case config::VideoSynthType::kMovingShapes:
      return draw_moving_shapes_frame(w, h, frame, total);
    case config::VideoSynthType::kGridClock:
      return draw_grid_clock_frame(w, h, frame, total);
    case config::VideoSynthType::kNoise:
      return draw_noise_frame(w, h, noise_);
  }
  return {};
}

std::string VideoSource::make() {
  const std::string wav = video_.audio_channels > 0 ? video_audio_wav(video_, audio_rng_) : "";
  ++encodes_;
  return video_data_url(video_.format, encode_video(
                                           video_,
                                           [this](uint32_t f) {
                                             const RgbImage img = draw(f);
                                             return std::string(img.pixels.begin(), img.pixels.end());
                                           },
                                           video_.frame_count(), wav));
}

}  // namespace aiperf::dataset

namespace aiperf::dataset {

std::vector<std::string> VideoSource::take(size_t count, unsigned threads) {
  std::vector<std::string> out(count);
  if (count == 0 || video_.frame_count() == 0) return out;
  if (!varies_) {
    const std::string clip = next();
    for (std::string& c : out) c = clip;
    return out;
  }
  const uint32_t w = video_.width.value_or(0), h = video_.height.value_or(0), total = video_.frame_count();
  const size_t frame_bytes = static_cast<size_t>(w) * h * 3;
  std::mutex draw_mu;  // clips are drawn one at a time, in order: the noise and audio streams stay AIPerf's
  size_t next_clip = 0;
  std::exception_ptr error;
  auto worker = [&] {
    for (;;) {
      size_t index;
      std::string raw, wav;
      {
        std::lock_guard lock(draw_mu);
        if (next_clip == count || error) return;
        index = next_clip++;
        wav = video_.audio_channels > 0 ? video_audio_wav(video_, audio_rng_) : "";
        raw.reserve(frame_bytes * total);
        for (uint32_t f = 0; f < total; ++f) {
          const RgbImage img = draw(f);
          raw.append(img.pixels.begin(), img.pixels.end());
        }
        ++encodes_;
      }
      try {
        out[index] = video_data_url(
            video_.format,
            encode_video(
                video_, [&](uint32_t f) { return raw.substr(f * frame_bytes, frame_bytes); }, total, wav));
      } catch (...) {
        std::lock_guard lock(draw_mu);
        if (!error) error = std::current_exception();
        return;
      }
    }
  };
  const unsigned n = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(count)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  return out;
}

}  // namespace aiperf::dataset
