// Service section of RunConfig: processes, transport, logging, exit policy.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "config/config_enum.h"
#include "config/json_optional.h"

namespace aiperf::config {

// --ui-type, resolved by the CLI (a terminal gets the dashboard).
enum class UiType { kDashboard, kSimple, kNone };
constexpr auto enum_names(UiType) {
  using E = UiType;
  return std::array{EnumName<E>{E::kDashboard, "dashboard"}, EnumName<E>{E::kSimple, "simple"},
                    EnumName<E>{E::kNone, "none"}};
}
AIPERF_CONFIG_ENUM_JSON(UiType, "ui_type")

struct ServiceConfig {
  uint32_t workers = 1;                         // resolved local worker count
  uint32_t workers_remote = 0;                  // remote workers to wait for
  uint32_t record_processors = 1;
  std::string zmq_host;                         // empty = ipc
  std::string zmq_ipc_path;
  uint16_t zmq_base_port = 5660;
  std::string mesh_keys;                        // CURVE key folder for the tcp mesh ("" = unauthenticated)
  std::string log_level = "INFO";
  UiType ui_type = UiType::kNone;
  std::optional<uint16_t> api_port;             // --api-port: live HTTP API in the controller
  std::string api_host = "127.0.0.1";           // --api-host
  std::optional<double> fail_on_error_rate;     // percent
  std::string cli_command;                      // reconstructed command line
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ServiceConfig, workers, workers_remote, record_processors, zmq_host,
                                                zmq_ipc_path, zmq_base_port, mesh_keys, log_level, ui_type, api_port, api_host,
                                                fail_on_error_rate, cli_command)

}  // namespace aiperf::config
