// End-to-end: the progress UIs in a real terminal. `aiperf profile` runs inside a detached
// tmux session (160x48) against the mock server; the tests read the pane as a user sees it
// (capture-pane) and the terminal's modes (alternate screen, cursor) from tmux itself.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <regex>
#include <sstream>

#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::Process;
using aiperf::test::wait_until;

namespace {

const std::string kAiperf = std::string(AIPERF_BIN_DIR) + "/aiperf";

std::string find_tmux() {
  std::stringstream path(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
  for (std::string dir; std::getline(path, dir, ':');) {
    if (!dir.empty() && ::access((dir + "/tmux").c_str(), X_OK) == 0) return dir + "/tmux";
  }
  return "";
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A private tmux server (its own socket, no user config) running one session.
class Tmux {
 public:
  Tmux(const std::string& dir, const std::string& command) : dir_(dir), socket_(dir + "/tmux.sock") {
    tmux_ = find_tmux();
    REQUIRE_FALSE(tmux_.empty());  // deploy/install-deps.sh installs tmux
    run({"-f", "/dev/null", "new-session", "-d", "-s", "ui", "-x", "160", "-y", "48", command});
  }
  ~Tmux() { run({"kill-server"}); }

  // The pane's text, with `history` lines of scrollback above the screen.
  std::string capture(int history = 0) {
    if (history == 0) return run({"capture-pane", "-p", "-t", "ui"});
    return run({"capture-pane", "-p", "-t", "ui", "-S", "-" + std::to_string(history)});
  }
  std::string display(const std::string& format) {
    std::string out = run({"display-message", "-p", "-t", "ui", format});
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  }
  void send_keys(const std::string& keys) { run({"send-keys", "-t", "ui", keys}); }

 private:
  std::string run(std::vector<std::string> args) {
    args.insert(args.begin(), {"-S", socket_});
    Process p(tmux_, args, dir_, "tmux" + std::to_string(++calls_));
    const auto rc = p.wait(10);
    if (!rc) p.kill_now();
    return p.out();
  }

  std::string dir_, socket_, tmux_;
  int calls_ = 0;
};

// The shell command a user would type, plus the exit code echoed and the pane kept open.
// `trap true INT` keeps the shell alive through Ctrl-C (aiperf still gets the signal).
std::string profile_command(const std::string& tmp, const std::string& url, const std::string& ui, int requests,
                            const std::vector<std::string>& extra = {}) {
  std::string cmd = "trap true INT; " + quote(kAiperf);
  std::vector<std::string> args{"profile", "--artifact-dir", tmp + "/artifacts", "--tokenizer", "gpt2", "--model", "m",
                                "--url", url, "--endpoint-type", "chat", "--streaming", "--concurrency", "2",
                                "--workers-max", "2", "--request-count", std::to_string(requests),
                                "--synthetic-input-tokens-mean", "20", "--output-tokens-mean", "10",
                                "--extra-inputs", "ignore_eos:true", "--ui-type", ui};
  args.insert(args.end(), extra.begin(), extra.end());
  for (const std::string& a : args) cmd += " " + quote(a);
  return cmd + "; echo AIPERF_EXIT=$?; sleep 600";
}

// The count in "Profiling: N/total" on screen, -1 when absent.
long profiling_count(const std::string& screen, int total) {
  std::smatch m;
  const std::regex re("Profiling: (\\d+)/" + std::to_string(total));
  return std::regex_search(screen, m, re) ? std::stol(m[1]) : -1;
}

// Waits (60 s at most) until the "Profiling: N/40" count on screen passes `first`; returns the
// last count seen (-1 when absent) and leaves the last capture in `screen`.
long wait_for_progress_past(Tmux& tmux, long first, std::string& screen) {
  long later = -1;
  wait_until(
      [&] {
        screen = tmux.capture();
        later = profiling_count(screen, 40);
        return later > first;
      },
      60);
  return later;
}

int count_lines_with(const std::string& screen, const std::string& needle) {
  int n = 0;
  std::stringstream in(screen);
  for (std::string line; std::getline(in, line);) n += line.find(needle) != std::string::npos;
  return n;
}

std::string exit_line(const std::string& screen) {
  std::smatch m;
  return std::regex_search(screen, m, std::regex("AIPERF_EXIT=(\\d+)")) ? m[0].str() : "";
}

}  // namespace

TEST_CASE("simple UI redraws one progress line in place until the report", "[e2e][ui]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  // 40 requests, 2 at a time, each ~100 ms + 9 x 20 ms: a run of several seconds.
  MockServer mock({"--ttft", "100", "--itl", "20"}, tmp);
  Tmux tmux(tmp, profile_command(tmp, mock.url(), "simple", 40));

  long first = -1;
  REQUIRE(wait_until([&] { return (first = profiling_count(tmux.capture(), 40)) >= 0 && first < 40; }, 60));
  std::string screen;
  const long later = wait_for_progress_past(tmux, first, screen);
  REQUIRE(later > first);
  INFO(screen);
  CHECK(later > first);
  // Redrawn with \r, not printed line after line.
  CHECK(count_lines_with(screen, "Profiling:") == 1);

  REQUIRE(wait_until([&] { return !exit_line(screen = tmux.capture(500)).empty(); }, 120));
  INFO(screen);
  CHECK(exit_line(screen) == "AIPERF_EXIT=0");
  CHECK(count_lines_with(screen, "Profiling: 40/40 |") == 1);
  CHECK(screen.find("| 100% [") != std::string::npos);
  CHECK(screen.find("Records: 40/40") != std::string::npos);
  CHECK(screen.find("NVIDIA AIPerf | LLM Metrics") != std::string::npos);
}

TEST_CASE("dashboard draws on the alternate screen, updates, and leaves the report on the normal screen",
          "[e2e][ui]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "100", "--itl", "20"}, tmp);
  Tmux tmux(tmp, profile_command(tmp, mock.url(), "dashboard", 40));

  std::string screen;
  long first = -1;
  REQUIRE(wait_until(
      [&] {
        screen = tmux.capture();
        first = profiling_count(screen, 40);
        return first >= 0 && first < 40 && tmux.display("#{alternate_on}") == "1";
      },
      60));
  INFO(screen);
  CHECK(screen.find("NVIDIA AIPerf | Dashboard") != std::string::npos);
  CHECK(screen.find("Workers (2 registered, 2 healthy") != std::string::npos);
  CHECK(tmux.display("#{cursor_flag}") == "0");  // hidden while drawing
  const long later = wait_for_progress_past(tmux, first, screen);
  REQUIRE(later > first);
  // Live metrics arrive about once a second once records do.
  REQUIRE(wait_until([&] { return (screen = tmux.capture()).find("Time to First Token (ms)") != std::string::npos; }, 60));

  REQUIRE(wait_until([&] { return !exit_line(screen = tmux.capture(500)).empty(); }, 120));
  INFO(screen);
  CHECK(exit_line(screen) == "AIPERF_EXIT=0");
  CHECK(tmux.display("#{alternate_on} #{cursor_flag}") == "0 1");
  CHECK(screen.find("NVIDIA AIPerf | LLM Metrics") != std::string::npos);
  CHECK(screen.find("NVIDIA AIPerf | Dashboard") == std::string::npos);  // nothing left of the frame
}

TEST_CASE("Ctrl-C during the dashboard cancels, restores the terminal and prints the partial report",
          "[e2e][ui]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "100", "--itl", "20"}, tmp);
  Tmux tmux(tmp, profile_command(tmp, mock.url(), "dashboard", 2000));

  std::string screen;
  REQUIRE(wait_until(
      [&] {
        screen = tmux.capture();
        return profiling_count(screen, 2000) > 0 && tmux.display("#{alternate_on}") == "1";
      },
      60));
  tmux.send_keys("C-c");
  REQUIRE(wait_until([&] { return !exit_line(screen = tmux.capture(500)).empty(); }, 120));
  INFO(screen);
  CHECK(exit_line(screen) == "AIPERF_EXIT=130");  // interrupted, after writing the partial results
  CHECK(tmux.display("#{alternate_on} #{cursor_flag}") == "0 1");
  CHECK(screen.find("NVIDIA AIPerf | LLM Metrics") != std::string::npos);
  CHECK(screen.find("NVIDIA AIPerf | Dashboard") == std::string::npos);
}

TEST_CASE("Ctrl-C that aborts the run (before it started) still restores the terminal", "[e2e][ui]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  // Waiting for a remote worker that never comes: Ctrl-C there aborts instead of cancelling.
  const int base = aiperf::test::free_port_range(7);
  Tmux tmux(tmp, profile_command(tmp, mock.url(), "dashboard", 10,
                                 {"--zmq-host", "127.0.0.1", "--zmq-base-port", std::to_string(base),
                                  "--workers-remote", "1"}));
  std::string screen;
  REQUIRE(wait_until(
      [&] {
        screen = tmux.capture();
        return screen.find("stage: waiting_remote") != std::string::npos && tmux.display("#{alternate_on}") == "1";
      },
      60));
  tmux.send_keys("C-c");
  REQUIRE(wait_until([&] { return !exit_line(screen = tmux.capture(500)).empty(); }, 60));
  INFO(screen);
  CHECK(exit_line(screen) == "AIPERF_EXIT=130");
  CHECK(tmux.display("#{alternate_on} #{cursor_flag}") == "0 1");
  CHECK(screen.find("Error: interrupted") != std::string::npos);
  CHECK(screen.find("No profile results to export") != std::string::npos);
  CHECK(screen.find("NVIDIA AIPerf | Dashboard") == std::string::npos);
}
