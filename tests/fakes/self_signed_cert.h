// A throwaway self-signed certificate (EC P-256) for TLS tests, valid for 127.0.0.1 and
// localhost, generated with the OpenSSL API so tests need no files or CLI.
#pragma once
#include "fakes/fake_http_server.h"

namespace aiperf::testing {

TlsIdentity make_self_signed_identity();

}  // namespace aiperf::testing
