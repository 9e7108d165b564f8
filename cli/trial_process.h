// What the multi-run and the sweep runner share: one trial is a child process
// (`aiperf profile-trial <dir>/run_config.json`) in its own artifact directory, and the first
// SIGINT/SIGTERM stops further trials (the running one is passed the signal).
#pragma once
#include <cstdint>
#include <string>

#include "config/run_config.h"
#include "options.h"

namespace aiperf::cli {

// The trial's config: `base` with its artifact directory, a fresh benchmark id, warmup off
// after the first trial (when asked), the per-trial seed (--vary-seed-per-trial) and its own
// IPC directory.
config::RunConfig trial_config(const config::RunConfig& base, const ProfileOptions::MultiRun& m, uint32_t trial,
                               const std::string& dir);

// Runs `aiperf profile-trial <config_path>` and waits: its exit code, 128 + signal if killed.
int run_child(const std::string& config_path);

void write_file(const std::string& path, const std::string& text);

// Installs the SIGINT/SIGTERM handler; stop_signal() is the first one received (0: none).
void install_trial_signals();
int stop_signal();
void note_stop_signal(int sig);

// Sleeps `seconds` unless a stop signal arrives; false if one did.
bool cooldown(double seconds);

}  // namespace aiperf::cli
