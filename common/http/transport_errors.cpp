#include "http/transport_errors.h"

#include <cstdio>
#include <string>

#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

namespace aiperf::http {

namespace {

std::string cannot_connect(const ParsedUrl& url, const char* ssl, const std::string& reason) {
  return "Cannot connect to host " + url.host + ":" + std::to_string(url.port) + " ssl:" + ssl +
         " [" + reason + "]";
}

bool is_disconnect(const boost::system::error_code& ec) {
  namespace e = boost::asio::error;
  return ec == e::eof || ec == e::connection_reset || ec == e::connection_aborted ||
         ec == e::broken_pipe || ec == boost::asio::ssl::error::stream_truncated;
}

}  // namespace

Error connect_error(const ParsedUrl& url, const boost::system::error_code& ec, bool dns) {
  return Error{std::nullopt, dns ? "ClientConnectorDNSError" : "ClientConnectorError",
               cannot_connect(url, "default", ec.message())};
}

Error tls_error(const ParsedUrl& url, const boost::system::error_code& ec, SSL* ssl) {
  const bool verify_failed = ec.category() == boost::asio::error::get_ssl_category() &&
                             ERR_GET_REASON(ec.value()) == SSL_R_CERTIFICATE_VERIFY_FAILED;
  if (verify_failed) {
    const long result = ssl ? SSL_get_verify_result(ssl) : X509_V_OK;
    return Error{std::nullopt, "ClientConnectorCertificateError",
                 cannot_connect(url, "True",
                                std::string("certificate verify failed: ") +
                                    X509_verify_cert_error_string(result))};
  }
  if (is_disconnect(ec)) {
    return Error{std::nullopt, "ClientConnectorSSLError",
                 cannot_connect(url, "default", "connection closed during TLS handshake")};
  }
  return Error{std::nullopt, "ClientConnectorSSLError", cannot_connect(url, "default", ec.message())};
}

Error io_error(const boost::system::error_code& ec) {
  if (is_disconnect(ec)) return Error{std::nullopt, "ServerDisconnectedError", "Server disconnected"};
  return Error{std::nullopt, "ClientOSError", "[Errno " + std::to_string(ec.value()) + "] " + ec.message()};
}

Error protocol_error(const boost::system::error_code& ec) {
  return Error{std::nullopt, "ClientResponseError", "Invalid HTTP response: " + ec.message()};
}

Error timeout_error(double timeout_seconds) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g", timeout_seconds);
  return Error{std::nullopt, "TimeoutError",
               std::string("Request timed out after ") + seconds + " seconds"};
}

Error cancelled_error() {
  return Error{499, "RequestCancellationError", "Request cancelled by external signal"};
}

}  // namespace aiperf::http
