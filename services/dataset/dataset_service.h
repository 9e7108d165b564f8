// Dataset service: the process around DatasetCore (dataset_core.h), which loads or synthesizes
// the conversations and writes inputs.json. At configure it publishes the DatasetReady the core
// returns; it serves conversations to workers on a ROUTER socket.
#pragma once
#include <zmq.hpp>

#include "bus/channel.h"
#include "dataset.pb.h"
#include "dataset_core.h"
#include "service/service.h"

namespace aiperf::dataset {

class DatasetService final : public service::Service {
 public:
  DatasetService(service::Identity identity, bus::Endpoints endpoints);

 private:
  void on_configure(const config::RunConfig& config) override;
  void on_requests();

  bus::Channel<proto::ConversationResponse, proto::ConversationRequest> router_;
  DatasetCore core_;
};

}  // namespace aiperf::dataset
