#include "terminal.h"

#include <signal.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

namespace aiperf::controller::ui::terminal {
namespace {

constexpr char kEnter[] = "\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J";
constexpr char kLeave[] = "\x1b[?25h\x1b[?1049l";

// Plain globals: the signal handler reads them, so no locks and no allocation.
volatile sig_atomic_t g_active = 0;
int g_fd = -1;
struct termios g_saved;
bool g_have_saved = false;

constexpr int kFatalSignals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGQUIT};
struct sigaction g_previous[sizeof kFatalSignals / sizeof kFatalSignals[0]];
bool g_handlers_installed = false;

void on_fatal_signal(int sig) {
  leave_fullscreen();
  // Hand the signal to whoever had it before (normally the default action: core dump).
  for (std::size_t i = 0; i < sizeof kFatalSignals / sizeof kFatalSignals[0]; ++i) {
    if (kFatalSignals[i] == sig) sigaction(sig, &g_previous[i], nullptr);
  }
  raise(sig);
}

void install_handlers() {
  if (g_handlers_installed) return;
  g_handlers_installed = true;
  struct sigaction sa {};
  sa.sa_handler = on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_NODEFER;
  for (std::size_t i = 0; i < sizeof kFatalSignals / sizeof kFatalSignals[0]; ++i)
    sigaction(kFatalSignals[i], &sa, &g_previous[i]);
}

}  // namespace

std::optional<Size> size(int fd) {
  struct winsize ws {};
  if (!::isatty(fd) || ::ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0 || ws.ws_row == 0) return std::nullopt;
  return Size{ws.ws_col, ws.ws_row};
}

bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void enter_fullscreen(int fd) {
  if (g_active) return;
  install_handlers();
  g_fd = fd;
  g_have_saved = ::tcgetattr(fd, &g_saved) == 0;
  if (g_have_saved) {
    struct termios quiet = g_saved;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);  // typed keys would scribble over the frame
    ::tcsetattr(fd, TCSANOW, &quiet);
  }
  g_active = 1;
  write_all(fd, kEnter);
}

void leave_fullscreen() {
  if (!g_active) return;
  g_active = 0;
  if (g_have_saved) ::tcsetattr(g_fd, TCSANOW, &g_saved);
  // Only async-signal-safe calls here (write, tcsetattr): this also runs in signal handlers.
  const char* p = kLeave;
  std::size_t left = sizeof kLeave - 1;
  while (left > 0) {
    const ssize_t n = ::write(g_fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

bool in_fullscreen() { return g_active != 0; }

}  // namespace aiperf::controller::ui::terminal
