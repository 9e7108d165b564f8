// BusClient: a service's connection to the event bus (PUB -> controller XSUB|XPUB -> SUB).
// Frames: [topic, BusMessage]. Topics end with '$' so "cmd$" never prefix-matches "cmd.x$".
#pragma once
#include <string>
#include <string_view>

#include <zmq.hpp>

#include "bus/endpoints.h"
#include "control.pb.h"
#include "time/clock.h"

namespace aiperf::bus {

namespace topic {
inline constexpr std::string_view kCommand = "cmd$";            // broadcast commands
inline constexpr std::string_view kRegister = "reg$";           // service -> controller
inline constexpr std::string_view kResponse = "resp$";          // command responses
inline constexpr std::string_view kHeartbeat = "hb$";
inline constexpr std::string_view kPhase = "phase$";            // timing phase events
inline constexpr std::string_view kDataset = "dataset$";        // dataset ready
inline constexpr std::string_view kProgress = "progress$";      // records progress
inline constexpr std::string_view kResults = "results$";        // final profile results
inline constexpr std::string_view kFailed = "failed$";          // fatal service errors
inline constexpr std::string_view kLost = "lost$";              // controller: a service died, run goes on
inline constexpr std::string_view kLiveMetrics = "live$";       // records: metrics so far
inline constexpr std::string_view kTelemetry = "telemetry$";    // telemetry results
std::string command_for(std::string_view service_id);           // "cmd.<id>$"
std::string ack_for(std::string_view service_id);               // "ack.<id>$"
std::string probe_for(std::string_view service_id);             // "probe.<id>$"
}  // namespace topic

class BusClient {
 public:
  BusClient(const Endpoints& endpoints, std::string service_id);

  void subscribe(std::string_view topic);
  void publish(std::string_view topic, proto::BusMessage& msg);  // stamps the version
  bool receive(std::string& topic, proto::BusMessage& msg);     // non-blocking; false if none

  // Publishes a probe to itself until it comes back, proving both directions work.
  // Throws std::runtime_error after `timeout_ns`.
  void wait_ready(Nanos timeout_ns);

  zmq::socket_t& sub_socket() { return sub_; }
  const std::string& service_id() const { return service_id_; }

 private:
  std::string service_id_;
  std::string bus_frontend_;
  zmq::socket_t pub_;
  zmq::socket_t sub_;
};

}  // namespace aiperf::bus
