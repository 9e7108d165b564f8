#include "bus/zap_handler.h"

#include <mutex>
#include <thread>
#include <vector>

#include <zmq.hpp>
#include <zmq_addon.hpp>

#include "bus/mesh_keys.h"
#include "bus/socket.h"
#include "log/log.h"
#include "time/clock.h"

namespace aiperf::bus {
namespace {
constexpr int64_t kRelogInterval = 10'000'000'000;

std::string frame_text(const zmq::message_t& m) { return std::string(static_cast<const char*>(m.data()), m.size()); }
}  // namespace

ZapAuthorizer::ZapAuthorizer(std::string mesh_dir, std::set<std::string> always)
    : dir_(std::move(mesh_dir)), always_(std::move(always)) {}

bool ZapAuthorizer::allow(const std::string& key, const std::string& address, const std::string& domain,
                          int64_t now_ns) {
  if (always_.count(key) || load_authorized(dir_).count(key)) return true;
  ++refusals_;
  Seen& seen = refused_[{key, address}];
  if (seen.count++ == 0 || now_ns - seen.logged_at >= kRelogInterval) {
    seen.logged_at = now_ns;
    AIPERF_LOG(kWarning) << "mesh: refused CURVE client key " << key << " from " << address << " on " << domain
                         << " (not in " << dir_ << "/authorized/; attempt " << seen.count << ")";
  }
  return false;
}

void start_zap_handler(const std::string& mesh_dir, const std::set<std::string>& always) {
  static std::once_flag once;
  std::call_once(once, [&] {
    zmq::socket_t rep(context(), zmq::socket_type::rep);
    rep.set(zmq::sockopt::linger, 0);
    rep.bind("inproc://zeromq.zap.01");  // before any CURVE bind, so no handshake skips it
    std::thread([rep = std::move(rep), authorizer = ZapAuthorizer(mesh_dir, always)]() mutable {
      for (;;) {
        std::vector<zmq::message_t> req;
        try {
          if (!zmq::recv_multipart(rep, std::back_inserter(req))) continue;
        } catch (const zmq::error_t& e) {
          if (e.num() == EINTR) continue;
          return;  // context gone: the process is exiting
        }
        // [version, request id, domain, address, routing id, mechanism, credentials...]
        bool ok = false;
        std::string status_text = "not authorised";
        if (req.size() >= 7 && frame_text(req[5]) == "CURVE" && req[6].size() == 32) {
          char z85[41] = {};
          zmq_z85_encode(z85, static_cast<const uint8_t*>(req[6].data()), 32);
          ok = authorizer.allow(z85, frame_text(req[3]), frame_text(req[2]), steady_now_ns());
        } else {
          status_text = "CURVE required";
        }
        std::vector<zmq::message_t> reply;
        reply.emplace_back(std::string("1.0"));
        // REP must answer every request, even a malformed one, or it stops receiving.
        if (req.size() > 1) reply.emplace_back(req[1].data(), req[1].size());
        else reply.emplace_back();
        reply.emplace_back(std::string(ok ? "200" : "400"));
        reply.emplace_back(ok ? std::string("OK") : status_text);
        reply.emplace_back(std::string());  // user id
        reply.emplace_back(std::string());  // metadata
        try {
          zmq::send_multipart(rep, reply);
        } catch (const zmq::error_t&) {
          return;
        }
      }
    }).detach();
  });
}

}  // namespace aiperf::bus
