// aiperf-mock-server: OpenAI-compatible mock LLM server for tests, benchmarks and the quick start.
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <exception>

#include "cli_options.h"
#include "engine_options.h"
#include "environment.h"
#include "mock_server.h"
#include "process_group.h"
#include "util/fd_limit.h"
#include "text_pool_loader.h"

int main(int argc, char** argv) {
  using namespace aiperf::mock;
  // Blocked first thing: io threads inherit the mask, and a signal arriving during start-up
  // waits for sigwait below instead of killing the process half-started.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  CLI::App app{"aiperf-mock-server: OpenAI-compatible mock LLM inference server"};
  MockConfig config;
  add_mock_options(app, config);
  CLI11_PARSE(app, argc, argv);
  if (const std::string error = check_engine_options(config); !error.empty()) {
    std::fprintf(stderr, "aiperf-mock-server: %s\n", error.c_str());
    return 2;
  }

  try {
    TextPool pool = load_text_pool(config, aiperf::cli::hub_env());
    if (config.logs_info())
      std::fprintf(stderr,
                   "aiperf-mock-server: %zu output pieces (%s), %u io threads, ttft %.3g ms, itl %.3g ms\n",
                   pool.size(), config.no_tokenizer ? "built-in words" : config.tokenizer.c_str(),
                   config.workers, config.effective_ttft_ms(), config.effective_itl_ms());
    if (config.engine.enabled() && config.logs_info())
      std::fprintf(stderr,
                   "aiperf-mock-server: engine model: %u slots, prefill %.6g tokens/s, decode step %.6g + %.6g x n ms\n",
                   config.engine.slots, config.engine.prefill_tokens_per_s, config.engine.step_ms,
                   config.engine.step_per_seq_ms);
    // Each process may hold as many connections as its hard open-file limit allows.
    const uint64_t fds = aiperf::util::raise_fd_limit();
    if (config.logs_info())
      std::fprintf(stderr, "aiperf-mock-server: %u process(es), up to %llu connections each (open-file limit)\n",
                   config.processes, static_cast<unsigned long long>(aiperf::util::connection_capacity(fds)));
    if (config.processes > 1 && config.grpc_port >= 0) {
      std::fprintf(stderr, "aiperf-mock-server: --grpc-port serves from one process only (no --processes)\n");
      return 2;
    }
    if (config.processes > 1) return serve_in_processes(config, pool, signals);
    MockServer server(config, std::move(pool));
    server.start();
    // Scripts and tests wait for this exact line (the gRPC one, when on, comes first).
    if (!server.grpc_url().empty()) std::printf("aiperf-mock-server gRPC listening on %s\n", server.grpc_url().c_str());
    std::printf("aiperf-mock-server listening on %s\n", server.url().c_str());
    std::fflush(stdout);
    int received = 0;
    sigwait(&signals, &received);
    server.stop();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "aiperf-mock-server: %s\n", e.what());
    return 1;
  }
  return 0;
}
