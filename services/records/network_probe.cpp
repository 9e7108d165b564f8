#include "network_probe.h"

#include <cerrno>
#include <chrono>
#include <cstring>

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "http/url.h"
#include "time/clock.h"

namespace aiperf::records {
namespace {

// Python's OSError subclass for a connect errno, as ErrorDetails.from_exception names it.
std::string python_error_type(int err) {
  switch (err) {
    case ECONNREFUSED: return "ConnectionRefusedError";
    case ECONNRESET: return "ConnectionResetError";
    case ECONNABORTED: return "ConnectionAbortedError";
    case ETIMEDOUT: return "TimeoutError";
    case EPERM:
    case EACCES: return "PermissionError";
    default: return "OSError";
  }
}

class TcpConnector final : public Connector {
 public:
  TcpConnector(const std::vector<ProbeTarget>& targets, double timeout_s) : timeout_s_(timeout_s) {
    // Resolved once, so a probe times the connect and not DNS (a failed lookup is retried per
    // probe, as the reference falls back to resolving at each connect).
    for (const auto& t : targets) resolved_.push_back(resolve(t));
  }

  ProbeSample probe(size_t index, const ProbeTarget& target) override {
    ProbeSample s;
    s.target = index;
    s.timestamp_ns = wall_now_ns();
    std::optional<sockaddr_storage>& addr = resolved_[index];
    if (!addr) addr = resolve(target);
    if (!addr) {
      s.error_type = "gaierror";
      s.error_message = "[Errno -2] Name or service not known";
      return s;
    }
    const int fd = ::socket(addr->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return failed(s, errno, target);
    const socklen_t len = addr->ss_family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
    const int64_t start = steady_now_ns();
    int err = 0;
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&*addr), len) != 0) {
      err = errno;
      if (err == EINPROGRESS) {
        pollfd p{fd, POLLOUT, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(timeout_s_ * 1000));
        if (ready == 0) {
          ::close(fd);
          s.error_type = "TimeoutError";  // asyncio.wait_for's: an empty message
          return s;
        }
        socklen_t elen = sizeof err;
        if (ready < 0) err = errno;
        else if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) != 0) err = errno;
      }
    }
    const int64_t end = steady_now_ns();
    ::close(fd);
    if (err != 0) return failed(s, err, target);
    s.rtt_ns = end - start;
    return s;
  }

 private:
  static std::optional<sockaddr_storage> resolve(const ProbeTarget& t) {
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    if (::getaddrinfo(t.host.c_str(), std::to_string(t.port).c_str(), &hints, &res) != 0 || !res) return std::nullopt;
    sockaddr_storage out{};
    std::memcpy(&out, res->ai_addr, res->ai_addrlen);
    ::freeaddrinfo(res);
    return out;
  }

  static ProbeSample failed(ProbeSample s, int err, const ProbeTarget& t) {
    s.error_type = python_error_type(err);
    s.error_message = "[Errno " + std::to_string(err) + "] Connect call failed ('" + t.host + "', " +
                      std::to_string(t.port) + ")";
    return s;
  }

  double timeout_s_;
  std::vector<std::optional<sockaddr_storage>> resolved_;
};

}  // namespace

std::vector<ProbeTarget> probe_targets(const std::vector<std::string>& urls) {
  std::vector<ProbeTarget> out;
  for (const std::string& url : urls) {
    const auto parsed = http::parse_url(url.find("://") == std::string::npos ? "http://" + url : url);
    if (!parsed || parsed->host.empty()) continue;
    bool seen = false;
    for (const auto& t : out) seen |= t.host == parsed->host && t.port == parsed->port;
    if (!seen) out.push_back({url, parsed->host, parsed->port});
  }
  return out;
}

std::unique_ptr<Connector> tcp_connector(const std::vector<ProbeTarget>& targets, double timeout_s) {
  return std::make_unique<TcpConnector>(targets, timeout_s);
}

std::string network_latency_jsonl(const ProbeSample& s, const ProbeTarget& target) {
  // The reference's NetworkLatencySample, None fields left out.
  nlohmann::ordered_json j;
  j["timestamp_ns"] = s.timestamp_ns;
  j["target_url"] = target.url;
  j["target_host"] = target.host;
  j["target_port"] = target.port;
  j["probe_type"] = "tcp_connect";
  if (s.rtt_ns) j["rtt_ns"] = *s.rtt_ns;
  j["success"] = s.rtt_ns.has_value();
  if (!s.rtt_ns) j["error"] = {{"type", s.error_type}, {"message", s.error_message}};
  return j.dump();
}

std::optional<double> mean_rtt_ns(const std::vector<ProbeSample>& samples) {
  double sum = 0;
  uint64_t n = 0;
  for (const auto& s : samples) {
    if (!s.rtt_ns) continue;
    sum += static_cast<double>(*s.rtt_ns);
    ++n;
  }
  if (n == 0) return std::nullopt;
  return sum / static_cast<double>(n);
}

uint64_t successful_samples(const std::vector<ProbeSample>& samples) {
  uint64_t n = 0;
  for (const auto& s : samples) n += s.rtt_ns.has_value();
  return n;
}

NetworkProber::NetworkProber(std::vector<ProbeTarget> targets, double interval_s, std::unique_ptr<Connector> connector)
    : targets_(std::move(targets)), interval_s_(interval_s), connector_(std::move(connector)) {}

// Shutting down without results: the thread stops, no top-up probes.
NetworkProber::~NetworkProber() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void NetworkProber::start() {
  std::lock_guard lock(mu_);
  if (thread_.joinable() || finished_ || targets_.empty()) return;
  thread_ = std::thread([this] { run(); });
}

void NetworkProber::run() {
  std::unique_lock lock(mu_);
  const auto interval = std::chrono::duration<double>(interval_s_);
  while (!stopping_) {
    lock.unlock();
    std::vector<ProbeSample> round;
    for (size_t i = 0; i < targets_.size(); ++i) round.push_back(connector_->probe(i, targets_[i]));
    lock.lock();
    samples_.insert(samples_.end(), round.begin(), round.end());
    wake_.wait_for(lock, interval, [this] { return stopping_; });
  }
}

const std::vector<ProbeSample>& NetworkProber::finish() {
  {
    std::lock_guard lock(mu_);
    if (finished_) return samples_;
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mu_);
  finished_ = true;
  const int64_t deadline = steady_now_ns() + kTopUpBudgetNs;
  for (size_t i = 0; i < targets_.size(); ++i) {
    uint64_t successes = 0;
    for (const auto& s : samples_) successes += s.target == i && s.rtt_ns;
    for (int attempts = 0; successes < kMinSamples && attempts < 2 * kMinSamples && steady_now_ns() < deadline;
         ++attempts) {
      samples_.push_back(connector_->probe(i, targets_[i]));
      successes += samples_.back().rtt_ns.has_value();
    }
    if (steady_now_ns() >= deadline) break;
  }
  return samples_;
}

}  // namespace aiperf::records
