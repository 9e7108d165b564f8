#include "genai_perf_window_run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <iostream>

#include "time/clock.h"

namespace aiperf::cli::genai_perf {
namespace {

volatile sig_atomic_t g_windowed_child = 0;

void forward_term_to_window(int) {
  if (g_windowed_child > 0) kill(g_windowed_child, SIGTERM);
}

// The whole lines appended to a file since the last call (the file may not exist yet).
class LineTail {
 public:
  explicit LineTail(std::string path) : path_(std::move(path)) {}
  std::vector<std::string> read_new() {
    std::vector<std::string> lines;
    std::ifstream in(path_, std::ios::binary);
    if (!in) return lines;
    in.seekg(static_cast<std::streamoff>(offset_));
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
      const std::streamsize n = in.gcount();
      offset_ += static_cast<size_t>(n);
      partial_.append(buf, static_cast<size_t>(n));
      if (n < static_cast<std::streamsize>(sizeof buf)) break;
    }
    size_t from = 0;
    for (size_t nl; (nl = partial_.find('\n', from)) != std::string::npos; from = nl + 1)
      lines.push_back(partial_.substr(from, nl - from));
    partial_.erase(0, from);
    return lines;
  }

 private:
  std::string path_;
  size_t offset_ = 0;
  std::string partial_;
};

// Passes the engine's stderr on, line by line; after our own stop, its cancel notice is ours to
// hide (the user did not cancel anything).
class StderrRelay {
 public:
  void feed(const char* data, size_t n, bool hide_cancel) {
    buf_.append(data, n);
    size_t from = 0;
    for (size_t nl; (nl = buf_.find('\n', from)) != std::string::npos; from = nl + 1) {
      const std::string line = buf_.substr(from, nl - from);
      if (!(hide_cancel && line.find("BENCHMARK CANCELLED") != std::string::npos)) std::cerr << line << "\n";
    }
    buf_.erase(0, from);
    std::cerr.flush();
  }
  void finish() {
    if (!buf_.empty()) std::cerr << buf_ << "\n";
    buf_.clear();
  }

 private:
  std::string buf_;
};

void emit(WindowWatcher& watcher) {
  for (const std::string& l : watcher.take_stdout()) std::cout << l << "\n";
  std::cout.flush();
  for (const std::string& l : watcher.take_stderr()) std::cerr << l << "\n";
  std::cerr.flush();
}

}  // namespace

WindowedRun run_windowed(const std::vector<std::string>& args, const std::string& records_path,
                         WindowWatcher& watcher, bool verbose) {
  WindowedRun result;
  std::vector<std::string> store{"aiperf", "profile"};
  store.insert(store.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : store) argv.push_back(s.data());
  argv.push_back(nullptr);
  int err_pipe[2];
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    std::cerr << "Error: cannot start the benchmark (pipe failed)\n";
    result.engine_rc = 1;
    return result;
  }
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid < 0) {
    close(err_pipe[0]);
    close(err_pipe[1]);
    std::cerr << "Error: cannot start the benchmark (fork failed)\n";
    result.engine_rc = 1;
    return result;
  }
  if (pid == 0) {
    if (!verbose) {
      const int devnull = open("/dev/null", O_WRONLY);
      if (devnull >= 0) dup2(devnull, 1);
    }
    dup2(err_pipe[1], 2);
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  close(err_pipe[1]);
  fcntl(err_pipe[0], F_SETFL, fcntl(err_pipe[0], F_GETFL) | O_NONBLOCK);
  // Ctrl-C reaches the whole foreground group (the engine writes what it measured); a TERM sent
  // to this process alone is passed on.
  g_windowed_child = pid;
  signal(SIGINT, SIG_IGN);
  signal(SIGTERM, forward_term_to_window);

  LineTail tail(records_path);
  StderrRelay relay;
  bool stopped = false;
  int status = 0;
  char buf[4096];
  const auto drain = [&] {
    for (;;) {
      const ssize_t n = read(err_pipe[0], buf, sizeof buf);
      if (n > 0) {
        relay.feed(buf, static_cast<size_t>(n), stopped);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      break;
    }
  };
  for (;;) {
    pollfd p{err_pipe[0], POLLIN, 0};
    poll(&p, 1, 50);
    drain();
    for (const std::string& line : tail.read_new()) watcher.add_record_line(line);
    if (!stopped) {
      watcher.poll(wall_now_ns());
      emit(watcher);
      if (watcher.done()) {
        kill(pid, SIGINT);  // the engine's own cancel: in-flight requests end, the exports are written
        stopped = true;
      }
    }
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR)) break;
  }
  drain();
  relay.finish();
  close(err_pipe[0]);
  g_windowed_child = 0;
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  if (stopped) {
    // Our SIGINT ends the engine with 130 (Ctrl-C); anything else it reported stands.
    result.engine_rc = rc == 130 ? 0 : rc;
  } else {
    result.engine_rc = rc;
    result.interrupted = rc == 130 || rc == 143;
  }
  return result;
}

}  // namespace aiperf::cli::genai_perf
