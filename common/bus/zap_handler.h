// ZAP handler (ZeroMQ RFC 27): the authentication hook every CURVE server socket of a process
// consults, at inproc://zeromq.zap.01 of that process's context. It accepts a client only if
// its long-term public key is authorised and logs every refusal with the key and the peer's
// address. Without a handler libzmq would accept any client that knows the server's public
// key, which is public by design, so a process starts the handler before its first CURVE bind.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace aiperf::bus {

// The decision and its logging, separate from the socket loop so tests can drive it.
class ZapAuthorizer {
 public:
  // `mesh_dir`/authorized/*.pub is re-read for every handshake, so a key copied there
  // during a run is accepted without a restart; `always` (the controller's own key) needs no file.
  ZapAuthorizer(std::string mesh_dir, std::set<std::string> always);

  // True to accept; a refusal is logged (first time per key and address, then at most every
  // 10 s with a count: a refused client reconnects every 100 ms).
  bool allow(const std::string& key_z85, const std::string& address, const std::string& domain, int64_t now_ns);
  uint64_t refusals() const { return refusals_; }

 private:
  struct Seen {
    uint64_t count = 0;
    int64_t logged_at = 0;
  };
  std::string dir_;
  std::set<std::string> always_;
  std::map<std::pair<std::string, std::string>, Seen> refused_;
  uint64_t refusals_ = 0;
};

// Binds inproc://zeromq.zap.01 in bus::context() and serves it on a detached thread for the
// life of the process. Idempotent; throws if the address is taken by someone else.
void start_zap_handler(const std::string& mesh_dir, const std::set<std::string>& always);

}  // namespace aiperf::bus
