// The command-line side of a config file: its translation as profile arguments, merged under the
// options typed on the command line, and error messages pointing back at the file.
#include <algorithm>
#include <cctype>
#include <set>

#include <CLI/CLI.hpp>

#include "config_file.h"

namespace aiperf::cli::config_file {

std::vector<std::string> to_args(const Translation& t) {
  std::vector<std::string> out;
  for (const Arg& a : t.args) {
    if (a.values.empty()) out.push_back(a.option);
    for (const std::string& v : a.values) out.insert(out.end(), {a.option, v});
  }
  return out;
}

std::optional<std::string> take_config_option(std::vector<std::string>& args) {
  std::optional<std::string> file;
  for (size_t i = 0; i < args.size();) {
    const std::string& a = args[i];
    std::optional<std::string> value;
    size_t n = 0;
    if (a == "--config" || a == "-f") {
      if (i + 1 >= args.size()) throw ConfigFileError(a + ": expected a file name");
      value = args[i + 1];
      n = 2;
    } else if (a.rfind("--config=", 0) == 0) {
      value = a.substr(9);
      n = 1;
    } else if (a.size() > 2 && a.rfind("-f", 0) == 0) {
      value = a.substr(2);
      n = 1;
    }
    if (!value) {
      ++i;
      continue;
    }
    if (file) throw ConfigFileError("--config: given more than once");
    file = *value;
    args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i + n));
  }
  return file;
}

std::vector<std::string> merge(Translation& t, const std::vector<std::string>& cli_args, const CLI::App& app) {
  std::set<const CLI::Option*> given;
  for (const std::string& w : cli_args) {
    if (w.size() < 2 || w[0] != '-') continue;
    const std::string name = w.substr(0, w.find('='));
    if (const CLI::Option* o = app.get_option_no_throw(name)) given.insert(o);
  }
  t.args.erase(std::remove_if(t.args.begin(), t.args.end(),
                              [&](const Arg& a) {
                                const CLI::Option* o = app.get_option_no_throw(a.option);
                                // --fixed-schedule from the file yields to --no-fixed-schedule too.
                                return (o != nullptr && given.count(o)) ||
                                       (a.option == "--fixed-schedule" &&
                                        std::find(cli_args.begin(), cli_args.end(), "--no-fixed-schedule") != cli_args.end());
                              }),
               t.args.end());
  for (auto it = t.sweep_values.begin(); it != t.sweep_values.end();) {
    const CLI::Option* o = app.get_option_no_throw(it->first);
    it = o != nullptr && given.count(o) ? t.sweep_values.erase(it) : std::next(it);
  }
  std::vector<std::string> out = to_args(t);
  out.insert(out.end(), cli_args.begin(), cli_args.end());
  return out;
}

std::vector<std::string> swept_options(const Translation& t) {
  std::vector<std::string> out;
  for (const auto& [option, values] : t.sweep_values) out.push_back(option);
  return out;
}

void retype_sweep(const Translation& t, sweep::Extracted& extracted) {
  for (sweep::Parameter& p : extracted.parameters) {
    const auto it = t.sweep_values.find(p.option);
    if (it == t.sweep_values.end() || it->second.size() != p.values.size()) continue;
    p.values = it->second;
    if (const auto path = t.sweep_paths.find(p.option); path != t.sweep_paths.end()) p.path = path->second;
  }
}

std::string annotate(const std::string& message, const Translation& t) {
  for (const Arg& a : t.args) {
    const size_t at = message.find(a.option);
    if (at == std::string::npos) continue;
    const size_t end = at + a.option.size();
    // Whole option names only (--concurrency is not --concurrency-ramp-duration).
    if (end < message.size() && (std::isalnum(static_cast<unsigned char>(message[end])) || message[end] == '-')) continue;
    return message + " (set by " + a.origin + ")";
  }
  return message;
}

}  // namespace aiperf::cli::config_file
