// Maps transport failures to the error records AIPerf (aiohttp) produces, so error
// summaries group the same way: `type` is the aiohttp exception class name.
#pragma once
#include <boost/system/error_code.hpp>

#include "http/http_client.h"
#include "http/url.h"

typedef struct ssl_st SSL;

namespace aiperf::http {

// DNS or TCP connect failure: ClientConnectorError / ClientConnectorDNSError,
// "Cannot connect to host H:P ssl:default [<OS message>]".
Error connect_error(const ParsedUrl& url, const boost::system::error_code& ec, bool dns);

// TLS handshake failure: ClientConnectorCertificateError when verification failed
// (with OpenSSL's verify reason), ClientConnectorSSLError otherwise.
Error tls_error(const ParsedUrl& url, const boost::system::error_code& ec, SSL* ssl);

// Failure after the connection is up: the peer closing or resetting it is
// ServerDisconnectedError; anything else ClientOSError.
Error io_error(const boost::system::error_code& ec);

// A response that is not valid HTTP/1.x.
Error protocol_error(const boost::system::error_code& ec);

Error timeout_error(double timeout_seconds);
Error cancelled_error();

}  // namespace aiperf::http
