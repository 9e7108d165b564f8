// Whether this host can hold the concurrency asked for, and how: enough local worker
// processes for the open-file limit, and enough source addresses for the ephemeral ports.
// A run either delivers its concurrency or is refused here, before anything starts: a
// client queueing its own requests would measure its queue, not the server.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

#include "options.h"
#include "util/fd_limit.h"

namespace aiperf::cli {
namespace {

// Connections one source address should open to one server address and port. connect()
// takes the even half of the ephemeral port range first (Linux 4.6+, the odd half is left to
// bind()); past it every connect() scans the taken ports in the kernel, and at 100 000 streams
// over five addresses (20 000 each) connects slowed to 20 s. So: the even half, less a margin
// for ports other programs hold.
uint64_t ports_per_source() {
  uint64_t low = 32768, high = 60999;
  std::ifstream("/proc/sys/net/ipv4/ip_local_port_range") >> low >> high;
  const uint64_t range = high >= low ? high - low + 1 : 1;
  return std::max<uint64_t>(1, range / 2 * 8 / 10);
}

std::string host_of(const std::string& url) {
  std::string rest = url;
  if (const auto scheme = rest.find("://"); scheme != std::string::npos) rest = rest.substr(scheme + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (!rest.empty() && rest.front() == '[') return rest.substr(1, rest.find(']') - 1);
  return rest.substr(0, rest.find(':'));
}

bool is_loopback_v4(const std::string& host) {
  if (host == "localhost") return true;
  in_addr a{};
  return ::inet_pton(AF_INET, host.c_str(), &a) == 1 && (ntohl(a.s_addr) >> 24) == 127;
}

std::string v4_text(uint32_t host_order) {
  in_addr a{htonl(host_order)};
  char buf[INET_ADDRSTRLEN];
  return ::inet_ntop(AF_INET, &a, buf, sizeof buf);
}

// "ADDR" or an IPv4 range "FIRST-LAST" -> addresses; throws OptionError.
void expand_address(const std::string& item, std::vector<std::string>& out) {
  const auto bad = [&] { return OptionError("--local-address: '" + item + "' is not an IP address or FIRST-LAST IPv4 range"); };
  if (const auto dash = item.find('-'); dash != std::string::npos) {
    in_addr first{}, last{};
    if (::inet_pton(AF_INET, item.substr(0, dash).c_str(), &first) != 1 ||
        ::inet_pton(AF_INET, item.substr(dash + 1).c_str(), &last) != 1)
      throw bad();
    const uint32_t lo = ntohl(first.s_addr), hi = ntohl(last.s_addr);
    if (hi < lo || hi - lo >= 65536) throw OptionError("--local-address: range '" + item + "' is empty or over 65536 addresses");
    for (uint64_t a = lo; a <= hi; ++a) out.push_back(v4_text(static_cast<uint32_t>(a)));
    return;
  }
  in_addr v4{};
  in6_addr v6{};
  if (::inet_pton(AF_INET, item.c_str(), &v4) != 1 && ::inet_pton(AF_INET6, item.c_str(), &v6) != 1) throw bad();
  out.push_back(item);
}

// True when this host has `address` (binding it succeeds), without taking a port.
bool address_is_local(const std::string& address) {
  sockaddr_storage ss{};
  socklen_t len = 0;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&ss);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&ss);
  if (::inet_pton(AF_INET, address.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    len = sizeof *v4;
  } else if (::inet_pton(AF_INET6, address.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    len = sizeof *v6;
  } else {
    return false;
  }
  const int fd = ::socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const int one = 1;
  ::setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&ss), len) == 0;
  ::close(fd);
  return ok;
}

uint64_t env_u64(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  if (*end) throw OptionError(std::string(name) + ": '" + v + "' is not a whole number");
  return n;
}

}  // namespace

void add_connection_options(CLI::App& app, ProfileOptions& o) {
  app.add_option("--local-address", o.local_address_items,
                 "Ours: bind connections to these source addresses in turn (ADDR or FIRST-LAST IPv4 "
                 "range, comma-separated), so that one server can take more connections than one "
                 "address has ephemeral ports; loopback servers get 127.0.0.x automatically")
      ->delimiter(',')->group("Endpoint");
}

void finalize_connection_plan(ProfileOptions& o) {
  auto& c = o.config;
  auto& e = c.endpoint;
  e.connection_limit = env_u64("AIPERF_HTTP_CONNECTION_LIMIT", 0);
  if (const char* verify = std::getenv("AIPERF_HTTP_SSL_VERIFY"))
    e.verify_tls = std::string(verify) != "false" && std::string(verify) != "0";

  const uint64_t concurrency = std::max<uint64_t>(c.loadgen.profiling.concurrency.value_or(0),
                                                  c.loadgen.warmup.concurrency.value_or(0));
  const bool local_only = c.service.workers_remote == 0;

  // Workers: each holds at most its open-file capacity (the soft limit is raised to the
  // hard one in each process; children inherit the hard limit). The service options then
  // start at least as many.
  const uint64_t per_worker = util::connection_capacity(util::hard_fd_limit());
  const uint64_t capped_per_worker = e.connection_limit ? std::min(per_worker, e.connection_limit) : per_worker;
  if (concurrency > 0 && local_only) {
    const uint64_t needed = (concurrency + capped_per_worker - 1) / capped_per_worker;
    if (o.service.workers_max && *o.service.workers_max < needed)
      throw OptionError("--concurrency " + std::to_string(concurrency) + " needs " + std::to_string(needed) +
                        " worker processes (each holds " + std::to_string(capped_per_worker) +
                        " connections under this host's open-file limit); raise --workers-max or `ulimit -Hn`");
    o.service.workers_min = static_cast<uint32_t>(needed);  // finalize_service_options applies it
  }

  // Source addresses: one address reaches one server address and port over at most the
  // ephemeral port range.
  for (const auto& item : o.local_address_items) expand_address(item, e.local_addresses);
  if (local_only) {
    for (const auto& a : e.local_addresses)
      if (!address_is_local(a)) throw OptionError("--local-address: " + a + " is not an address of this host");
  }
  if (concurrency == 0) return;
  const uint64_t ports = ports_per_source();
  const uint64_t per_url = (concurrency + e.urls.size() - 1) / e.urls.size();
  const uint64_t sources = std::max<uint64_t>(1, e.local_addresses.size());
  if (per_url <= ports * sources) return;
  const uint64_t needed = (per_url + ports - 1) / ports;
  const bool loopback = std::all_of(e.urls.begin(), e.urls.end(), [](const std::string& u) { return is_loopback_v4(host_of(u)); });
  if (loopback && e.local_addresses.empty() && needed <= 254) {
    for (uint32_t i = 1; i <= needed; ++i) e.local_addresses.push_back("127.0.0." + std::to_string(i));
    return;
  }
  throw OptionError("--concurrency " + std::to_string(concurrency) + " needs " + std::to_string(needed) +
                    " source addresses towards each server (one address has " + std::to_string(ports) +
                    " ephemeral ports); give them with --local-address");
}

}  // namespace aiperf::cli
