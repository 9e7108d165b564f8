#include "chat_command.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include "chat_turn.h"
#include "environment.h"
#include "http/http_client.h"
#include "sse/sse_parser.h"
#include "time/clock.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::cli {
namespace {

using nlohmann::json;

struct ChatArgs {
  std::string model;
  std::string url = "http://localhost:8000";
  std::optional<std::string> system_prompt;
  std::optional<std::string> quick;
  bool history = true;
  std::optional<std::string> api_key;
  std::optional<std::string> tokenizer;
};

struct ChatTurnError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// AIPERF_CHAT_CONNECT_TIMEOUT / AIPERF_CHAT_READ_TIMEOUT: seconds, > 0.
double chat_env_seconds(const char* name, double fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const double s = std::strtod(v, &end);
  if (*end != '\0' || !(s > 0))
    throw std::invalid_argument(std::string(name) + " must be a number > 0, got '" + v + "'");
  return s;
}

// Ctrl-C ends the command quietly, as AIPerf's (at the prompt after a newline).
void chat_on_interrupt(int) {
  (void)!write(STDOUT_FILENO, "\n", 1);
  _exit(0);
}

class Chat {
 public:
  Chat(const ChatArgs& args, tok::TokenizerPtr tokenizer)
      : args_(args),
        url_(chat::chat_completions_url(args.url)),
        tokenizer_(std::move(tokenizer)),
        connect_s_(chat_env_seconds("AIPERF_CHAT_CONNECT_TIMEOUT", 10.0)),
        read_s_(chat_env_seconds("AIPERF_CHAT_READ_TIMEOUT", 300.0)) {
    const char* env_key = std::getenv("OPENAI_API_KEY");
    const std::string key = args.api_key.value_or(env_key ? env_key : "");
    headers_.emplace_back("Content-Type", "application/json");
    if (!key.empty()) headers_.emplace_back("Authorization", "Bearer " + key);
    if (args.system_prompt) system_ = json::array({{{"role", "system"}, {"content", *args.system_prompt}}});
    else system_ = json::array();
  }

  // Streams one turn, printing the reply live then the stats block; returns the assistant text
  // to keep in the history. Throws ChatTurnError with AIPerf's message for a failed request.
  std::string turn(const json& history, const std::string& message) {
    json messages = system_;
    for (const json& m : history) messages.push_back(m);
    messages.push_back({{"role", "user"}, {"content", message}});

    http::Request req;
    req.url = url_;
    req.headers = headers_;
    req.body = chat::request_body(messages, args_.model);

    chat::Reply reply;
    sse::SseParser parser;
    std::optional<std::string> sse_error;
    std::optional<std::string> timeout;
    boost::asio::steady_timer watchdog(io_);
    http::CancelHandlePtr handle;
    // Fails fast on an unreachable server, never cuts a long generation: connect_s_ until the
    // request is written, then read_s_ between chunks.
    auto arm = [&](double seconds, const std::string& what) {
      watchdog.expires_after(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(seconds)));
      watchdog.async_wait([&, what](const boost::system::error_code& ec) {
        if (ec) return;
        timeout = what;
        if (handle) handle->cancel();
      });
    };
    auto on_event = [&](sse::SseEvent& ev) {
      if (sse_error) return;
      if (ev.event.size() == 5 && strcasecmp(ev.event.c_str(), "error") == 0) {
        sse_error = "Error occurred in SSE response: " +
                    (ev.comment.empty() ? "Unknown error in SSE response: " + ev.data : ev.comment);
        if (handle) handle->cancel();
        return;
      }
      if (!ev.has_data) return;
      const auto [content, reasoning] = chat::add_chunk(reply, ev.data, ev.perf_ns);
      if (!reasoning.empty()) std::cout << reasoning << std::flush;
      if (!content.empty()) std::cout << content << std::flush;
    };
    http::SendOptions opts;
    opts.timeout_seconds = 1e9;  // the watchdog's deadlines instead
    opts.on_request_sent = [&](int64_t) { arm(read_s_, "Timeout on reading data from socket"); };
    opts.on_chunk = [&](int64_t perf_ns, const std::string& data) {
      parser.feed(data, perf_ns, on_event);
      if (!sse_error) arm(read_s_, "Timeout on reading data from socket");
    };
    http::Result result;
    arm(connect_s_, "Connection timeout to host " + url_);
    handle = client_.send(std::move(req), std::move(opts), [&](http::Result&& r) {
      result = std::move(r);
      watchdog.cancel();
    });
    io_.restart();
    io_.run();
    if (!result.error && !sse_error) parser.finish(steady_now_ns(), on_event);
    if (sse_error) throw ChatTurnError(*sse_error);
    if (timeout) throw ChatTurnError(*timeout);
    if (result.error) throw ChatTurnError(error_message(result));
    std::cout << "\n";

    auto count = [&](const std::string& text) -> std::optional<int64_t> {
      if (text.empty()) return std::nullopt;
      return static_cast<int64_t>(tokenizer_->encode(text).size());
    };
    const auto stats = chat::turn_stats(reply, result.start_perf_ns, count(reply.content), count(reply.reasoning));
    std::cout << chat::format_stats(stats) << std::endl;
    // The visible reply goes into the history; a reasoning-only reply keeps its reasoning.
    return reply.content.empty() ? reply.reasoning : reply.content;
  }

  const json& system() const { return system_; }

 private:
  // aiohttp's texts: a status error with the body's first 500 characters, else the transport's.
  std::string error_message(const http::Result& r) const {
    if (r.status == 0) return r.error->message;
    std::string body;
    for (const auto& c : r.chunks) body += c.data;
    if (body.size() > 500) body.resize(500);
    const auto b = body.find_first_not_of(" \t\r\n");
    body = b == std::string::npos ? "" : body.substr(b, body.find_last_not_of(" \t\r\n") - b + 1);
    const std::string reason = r.reason + (body.empty() ? "" : ": " + body);
    return std::to_string(r.status) + ", message='" + reason + "', url='" + url_ + "'";
  }

  const ChatArgs& args_;
  std::string url_;
  tok::TokenizerPtr tokenizer_;
  double connect_s_, read_s_;
  http::Headers headers_;
  json system_;
  // One client for the session: turns reuse its kept-alive connection, as aiohttp's session does.
  boost::asio::io_context io_;
  http::HttpClient client_{io_, {}};
};

// AIPerf's error panel: "╭─ Error running aiperf chat ─...╮", the message wrapped at 76
// columns, 80 wide.
std::string chat_error_panel(const std::string& message) {
  constexpr size_t kWidth = 76;
  // Greedy word wrap; a word longer than a line is cut.
  std::vector<std::string> lines;
  std::string current, word;
  auto flush_word = [&] {
    if (word.empty()) return;
    if (current.empty()) current = word;
    else if (current.size() + 1 + word.size() <= kWidth) current += " " + word;
    else {
      lines.push_back(current);
      current = word;
    }
    while (current.size() > kWidth) {
      lines.push_back(current.substr(0, kWidth));
      current.erase(0, kWidth);
    }
    word.clear();
  };
  for (char c : message) {
    if (c == ' ') {
      flush_word();
    } else if (c == '\n') {
      flush_word();
      lines.push_back(current);
      current.clear();
    } else {
      word += c;
    }
  }
  flush_word();
  if (!current.empty()) lines.push_back(current);
  auto repeat = [](const char* s, size_t n) {
    std::string out;
    for (size_t i = 0; i < n; ++i) out += s;
    return out;
  };
  const std::string title = " Error running aiperf chat ";
  std::string out = "\u256d\u2500" + title + repeat("\u2500", kWidth + 2 - 1 - title.size()) + "\u256e\n";
  for (const std::string& l : lines) out += "\u2502 " + l + std::string(kWidth - l.size(), ' ') + " \u2502\n";
  out += "\u2570" + repeat("\u2500", kWidth + 2) + "\u256f\n";
  return out;
}

}  // namespace

std::function<int()> add_chat_command(CLI::App& app) {
  auto args = std::make_shared<ChatArgs>();
  CLI::App* cmd = app.add_subcommand("chat", "Chat interactively with an endpoint, printing per-turn speed stats");
  cmd->add_option("-m,--model", args->model, "Model name served by the endpoint")->required();
  cmd->add_option("-u,--url", args->url, "Base URL of the OpenAI-compatible server (e.g. http://localhost:8000)");
  cmd->add_option("--system-prompt", args->system_prompt, "Optional system prompt prepended to the conversation");
  cmd->add_option("-q,--quick", args->quick, "Send a single MESSAGE and print the response + stats, then exit");
  cmd->add_flag("--history,!--no-history", args->history,
                "Retain and resend conversation history each turn (default); ignored with --quick");
  cmd->add_option("--api-key", args->api_key, "API key sent as a Bearer token (default: $OPENAI_API_KEY)");
  cmd->add_option("--tokenizer", args->tokenizer,
                  "Tokenizer for client-side token counts (default: the model name; `builtin`: no network)");
  return [args]() -> int {
    std::unique_ptr<Chat> chat;
    try {
      const tok::HubEnv env = hub_env();
      auto tokenizer = tok::load_tokenizer(
          tok::resolve_tokenizer_path(args->tokenizer.value_or(args->model), "main", true, env), env.tokenizer_cache);
      chat = std::make_unique<Chat>(*args, std::move(tokenizer));
    } catch (const tok::TokenizerError& e) {
      std::cerr << chat_error_panel("Failed to load tokenizer '" + args->tokenizer.value_or(args->model) +
                                    "': " + e.what());
      return 1;
    } catch (const std::exception& e) {
      std::cerr << chat_error_panel(e.what());
      return 1;
    }
    struct sigaction sa {};
    sa.sa_handler = chat_on_interrupt;
    sigaction(SIGINT, &sa, nullptr);
    if (args->quick) {
      try {
        chat->turn(json::array(), *args->quick);
      } catch (const ChatTurnError& e) {
        std::cout << std::flush;
        std::cerr << chat_error_panel(e.what());
        return 1;
      }
      return 0;
    }
    json history = json::array();
    std::cout << "Please enter a message for the chat model (Ctrl-D to exit):" << std::endl;
    for (;;) {
      std::cout << "> " << std::flush;
      std::string message;
      if (!std::getline(std::cin, message)) {
        std::cout << "\n";
        return 0;
      }
      try {
        const std::string assistant = chat->turn(history, message);
        if (args->history) {
          history.push_back({{"role", "user"}, {"content", message}});
          history.push_back({{"role", "assistant"}, {"content", assistant}});
        }
      } catch (const ChatTurnError& e) {
        // The session stays: the user can retry after a transient failure.
        std::cout << std::flush;
        std::cerr << "request failed: " << e.what() << std::endl;
      }
    }
  };
}

}  // namespace aiperf::cli
