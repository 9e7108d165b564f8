#include "controller.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "bus/bus_client.h"
#include "bus/mesh_security.h"
#include "bus/reactor.h"
#include "control_preflight.h"
#include "endpoints/endpoint.h"
#include "endpoints/metric_context_for.h"
#include "export/records_jsonl_reader.h"
#include "lifecycle.h"
#include "log/log.h"
#include "mesh_setup.h"
#include "observers.h"
#include "process_manager.h"
#include "proxies.h"
#include "report.h"
#include "util/output_paths.h"
#include "util/uuid.h"

namespace aiperf::controller {
namespace {

constexpr int64_t kSecond = 1'000'000'000;

int g_signal_pipe[2] = {-1, -1};
void on_signal(int sig) {
  char c = static_cast<char>(sig);
  (void)!::write(g_signal_pipe[1], &c, 1);
}

// The lifecycle's adapters: the bus, the child processes, the signal pipe and the reactor.
class Controller final : public RunControl, LifecycleLink {
 public:
  explicit Controller(const config::RunConfig& config)
      : config_(config),
        endpoints_(config.service.zmq_host.empty()
                       ? bus::Endpoints::ipc(config.service.zmq_ipc_path)
                       : bus::Endpoints::tcp(config.service.zmq_host, config.service.zmq_base_port)),
        proxies_(endpoints_),
        bus_(endpoints_, "system_controller"),
        lifecycle_(config, system_clock(), *this, observers_) {}

  int run();

  void abort_run(const std::string& reason) override { lifecycle_.abort(reason); }
  void worker_lost(const std::string& worker_id, const std::string& reason) override {
    lifecycle_.worker_lost(worker_id, reason);
  }
  bus::Reactor& reactor() override { return reactor_; }

 private:
  void publish(const std::string& topic, proto::BusMessage& msg) override { bus_.publish(topic, msg); }
  void stop() override { reactor_.stop(); }

  void spawn_services();
  void on_bus();
  void check_children();
  void on_signal_pipe();
  std::optional<proto::ProfileResults> recover_results() const;

  const config::RunConfig& config_;
  bus::Endpoints endpoints_;
  Proxies proxies_;
  bus::BusClient bus_;
  bus::Reactor reactor_;
  ProcessManager processes_;
  Observers observers_;
  RunLifecycle lifecycle_;
};

void Controller::spawn_services() {
  const std::string address = config_.service.zmq_host.empty()
                                  ? "ipc://" + config_.service.zmq_ipc_path
                                  : "tcp://" + config_.service.zmq_host + ":" + std::to_string(config_.service.zmq_base_port);
  const std::string log_file = config_.output.artifact_dir + "/logs/aiperf.log";
  auto spawn = [&](const std::string& type, uint32_t index = 0) {
    const std::string id = type + "_" + util::short_id();
    std::vector<std::string> args{"service", "--type",     type,     "--service-id", id,
                                  "--index", std::to_string(index), "--controller", address,
                                  "--log-file", log_file, "--log-level", config_.service.log_level};
    // Children on tcp bind and connect CURVE sockets too, with the controller's key pair.
    if (bus::mesh_security()) args.insert(args.end(), {"--mesh-keys", config_.service.mesh_keys});
    processes_.spawn(id, args);
    lifecycle_.expect(id, type);
  };
  spawn("dataset");
  spawn("timing");
  spawn("records");
  spawn("telemetry");
  for (uint32_t i = 0; i < config_.service.record_processors; ++i) spawn("record_processor", i);
  for (uint32_t i = 0; i < config_.service.workers; ++i) spawn("worker");
}

int Controller::run() {
  if (pipe2(g_signal_pipe, O_NONBLOCK | O_CLOEXEC) == 0) {
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    reactor_.add_fd(g_signal_pipe[0], [this] { on_signal_pipe(); });
  }
  bus_.wait_ready(30 * kSecond);
  bus_.subscribe(bus::topic::kRegister);
  bus_.subscribe(bus::topic::kResponse);
  bus_.subscribe(bus::topic::kPhase);
  bus_.subscribe(bus::topic::kResults);
  bus_.subscribe(bus::topic::kFailed);
  bus_.subscribe(bus::topic::kProgress);
  bus_.subscribe(bus::topic::kHeartbeat);
  bus_.subscribe(bus::topic::kLiveMetrics);
  bus_.subscribe(bus::topic::kTelemetry);
  reactor_.add_socket(bus_.sub_socket(), [this] { on_bus(); });

  spawn_services();
  lifecycle_.begin();
  reactor_.call_every(100'000'000, [this] { check_children(); });
  observers_ = make_observers(config_, *this);
  reactor_.call_every(250'000'000, [this] {
    for (auto& o : observers_) o->tick(steady_now_ns());
  });
  reactor_.run();
  for (auto& o : observers_) o->finish();

  bus_.subscribe("");  // nothing more to read; shut everyone down
  proto::BusMessage shutdown;
  shutdown.mutable_command()->set_kind(proto::COMMAND_SHUTDOWN);
  bus_.publish(bus::topic::kCommand, shutdown);
  processes_.stop_all(2000);

  const std::string& failure = lifecycle_.failure();
  if (!failure.empty()) {
    std::cerr << "Error: " << failure << "\n";
    AIPERF_LOG(kError) << failure;
  }
  auto& results = lifecycle_.results();
  // A second interrupt means "stop now": no recovery.
  if (!results && lifecycle_.signals() < 2) results = recover_results();
  const int interrupted = lifecycle_.first_signal() ? 128 + lifecycle_.first_signal() : 0;
  if (!results) {
    std::cout << "No profile results to export\nLog File: " << config_.output.artifact_dir << "/logs/aiperf.log\n";
    return interrupted ? interrupted : 1;
  }
  const int rc = write_report(config_, *results, lifecycle_.telemetry(), lifecycle_.whole());
  return interrupted ? interrupted : rc;
}

// The records service published nothing (it died, or the run ended before it could): the
// summary is recomputed from the records it wrote to profile_export.jsonl, which it writes as
// they arrive, in whole lines.
std::optional<proto::ProfileResults> Controller::recover_results() const {
  if (!lifecycle_.reached_running()) return std::nullopt;
  const std::string path = util::artifact_file(config_, "profile_export.jsonl");
  const endpoints::EndpointInfo* ep = endpoints::find_endpoint(config_.endpoint.type);
  if (!ep || ::access(path.c_str(), R_OK) != 0) return std::nullopt;
  try {
    metrics::Aggregator aggregator(endpoints::metric_context_for(config_, *ep));
    const exporting::JsonlSpan span = exporting::read_records_jsonl(path, aggregator, {}, /*allow_torn_tail=*/true);
    if (span.records == 0) return std::nullopt;
    proto::ProfileResults results = aggregator.finalize();
    results.set_total_expected(span.records);
    results.set_start_ns(span.start_ns);
    results.set_end_ns(span.end_ns);
    results.set_was_cancelled(true);
    AIPERF_LOG(kWarning) << "summary recomputed from the " << span.records << " records in " << path;
    std::cerr << "Summary recomputed from the " << span.records << " records in " << path << "\n";
    return results;
  } catch (const std::exception& e) {
    AIPERF_LOG(kError) << "cannot recompute the summary: " << e.what();
    return std::nullopt;
  }
}

void Controller::check_children() {
  for (const auto& exit : processes_.reap()) lifecycle_.on_child_exit(exit.service_id, exit.exit_code);
  lifecycle_.tick();
}

void Controller::on_signal_pipe() {
  char c;
  while (::read(g_signal_pipe[0], &c, 1) == 1) lifecycle_.on_signal(c);
}

void Controller::on_bus() {
  std::string topic;
  proto::BusMessage msg;
  while (!reactor_.stopped() && bus_.receive(topic, msg)) {
    if (!topic.empty()) lifecycle_.on_message(msg);
  }
}

}  // namespace

int run_profile(const config::RunConfig& config) {
  // --reset-kv-cache: once per run (each trial of a multi-run), before any service starts.
  if (!reset_kv_cache_before_run(config)) return 1;
  try {
    setup_mesh(config.service);  // before the proxies bind
    Controller controller(config);
    return controller.run();
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    AIPERF_LOG(kError) << e.what();
    return 1;
  }
}

}  // namespace aiperf::controller
