// A blocking HTTP/1.1 GET over loopback for tests of the live API (plain POSIX sockets, so the
// client shares no code with the server under test). 5 s socket timeouts.
#pragma once
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <optional>
#include <string>

namespace aiperf::test {

struct HttpReply {
  int status = 0;
  std::string head;  // status line and headers
  std::string body;
};

// nullopt when the connection fails or the reply is not HTTP.
inline std::optional<HttpReply> http_request(int port, const std::string& method, const std::string& path) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::nullopt;
  timeval tv{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string raw;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    const std::string req = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if (::send(fd, req.data(), req.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(req.size())) {
      char buf[65536];
      for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) raw.append(buf, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  const auto split = raw.find("\r\n\r\n");
  if (raw.rfind("HTTP/1.1 ", 0) != 0 || split == std::string::npos) return std::nullopt;
  HttpReply reply;
  reply.status = std::stoi(raw.substr(9, 3));
  reply.head = raw.substr(0, split);
  reply.body = raw.substr(split + 4);
  return reply;
}

inline std::optional<HttpReply> http_get(int port, const std::string& path) { return http_request(port, "GET", path); }

}  // namespace aiperf::test
