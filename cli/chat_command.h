// `aiperf chat`: AIPerf 0.13's interactive sanity check of an OpenAI-compatible endpoint. Each
// message is streamed to /v1/chat/completions, the reply printed as it arrives, then its TTFT,
// TPS, ITL and prompt-cache line (chat_turn.h). Multi-turn by default; --no-history sends each
// message alone, --quick sends one and exits.
#pragma once
#include <functional>

#include <CLI/CLI.hpp>

namespace aiperf::cli {

// Registers the subcommand; the returned function runs it (exit code) once it was parsed.
std::function<int()> add_chat_command(CLI::App& app);

}  // namespace aiperf::cli
