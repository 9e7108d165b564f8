#include "http/http_client.h"

#include "http/client_core.h"

namespace aiperf::http {

struct HttpClient::Impl {
  std::shared_ptr<ClientCore> core;
};

HttpClient::HttpClient(boost::asio::io_context& io, ClientOptions options)
    : impl_(std::make_unique<Impl>(Impl{std::make_shared<ClientCore>(io, std::move(options))})) {}

HttpClient::~HttpClient() { impl_->core->shutdown(); }

CancelHandlePtr HttpClient::send(Request request, SendOptions options,
                                 std::function<void(Result&&)> done) {
  return impl_->core->send(std::move(request), std::move(options), std::move(done));
}

void HttpClient::close_idle() { impl_->core->close_idle(); }

}  // namespace aiperf::http
