// Full-screen terminal control with plain ANSI escapes: the alternate screen, a hidden cursor
// and no echo while the dashboard runs, and a restore that runs on every way out — the normal
// finish, an exception unwinding the controller, and fatal signals (abort, segfault), so a
// crash never leaves the user's shell on a blank alternate screen with no cursor.
#pragma once
#include <optional>
#include <string_view>

namespace aiperf::controller::ui::terminal {

struct Size {
  int cols = 80;
  int rows = 24;
};

// The window size of terminal `fd`, nullopt when it is not a terminal.
std::optional<Size> size(int fd);

// Switches terminal `fd` to the alternate screen, hides the cursor and turns echo off (Ctrl-C
// still raises SIGINT). The first call installs the fatal-signal restore handlers.
void enter_fullscreen(int fd);

// Leaves the alternate screen, shows the cursor, restores the saved terminal modes.
// Idempotent and async-signal-safe.
void leave_fullscreen();

bool in_fullscreen();

// write(2) all of `text` to `fd`, retrying short writes and EINTR; false on error.
bool write_all(int fd, std::string_view text);

}  // namespace aiperf::controller::ui::terminal
