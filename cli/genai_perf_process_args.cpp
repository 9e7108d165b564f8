#include "genai_perf_process_args.h"

#include <algorithm>
#include <optional>

#include "genai_perf_options.h"

namespace aiperf::cli::genai_perf {
namespace {

struct Opt {
  std::vector<std::string> names;  // the long spelling first
  bool takes_value;
};

const std::vector<Opt>& opts() {
  static const std::vector<Opt> o = {
      {{"--input-directory", "-d"}, true}, {{"--artifact-dir"}, true},          {{"--checkpoint-dir"}, true},
      {{"--generate-plots"}, false},       {{"--enable-checkpointing"}, false}, {{"--profile-export-file"}, true},
      {{"--verbose", "-v"}, false},        {{"--help", "-h"}, false},
  };
  return o;
}

// argparse's "-d/--input-directory" naming of an option in its messages.
std::string label(const Opt& o) {
  std::string s;
  for (size_t i = 0; i < o.names.size(); ++i) s += (i ? "/" : "") + o.names[i];
  return s;
}

// The option a word names: an exact spelling, else a unique prefix of a long spelling
// (argparse's allow_abbrev). nullopt: not an option of this command.
std::optional<Opt> find(const std::string& word) {
  for (const Opt& o : opts())
    if (std::find(o.names.begin(), o.names.end(), word) != o.names.end()) return o;
  if (word.rfind("--", 0) != 0) return std::nullopt;
  std::vector<const Opt*> hits;
  for (const Opt& o : opts())
    if (o.names[0].rfind(word, 0) == 0) hits.push_back(&o);
  if (hits.size() > 1) {
    std::string names;
    for (const Opt* h : hits) names += (names.empty() ? "" : ", ") + h->names[0];
    throw GenAiPerfOptionError("ambiguous option: " + word + " could match " + names);
  }
  if (hits.empty()) return std::nullopt;
  return *hits.front();
}

}  // namespace

ProcessArgs parse_process_args(const std::vector<std::string>& words) {
  ProcessArgs a;
  std::vector<std::string> unknown;
  for (size_t i = 0; i < words.size(); ++i) {
    std::string w = words[i];
    std::optional<std::string> inline_value;
    if (w.rfind("--", 0) == 0 && w.find('=') != std::string::npos) {
      inline_value = w.substr(w.find('=') + 1);
      w = w.substr(0, w.find('='));
    } else if (w.size() > 2 && w[0] == '-' && w[1] != '-' && w.substr(0, 2) == "-d") {
      inline_value = w.substr(2);  // -dDIR
      w = "-d";
    }
    const std::optional<Opt> o = find(w);
    if (!o) {
      unknown.push_back(words[i]);
      continue;
    }
    std::string value;
    if (o->takes_value) {
      if (inline_value) {
        value = *inline_value;
      } else {
        // argparse takes the next word unless it looks like an option.
        if (i + 1 >= words.size() || (words[i + 1].size() > 1 && words[i + 1][0] == '-'))
          throw GenAiPerfOptionError("argument " + label(*o) + ": expected one argument");
        value = words[++i];
      }
    } else if (inline_value) {
      throw GenAiPerfOptionError("argument " + label(*o) + ": ignored explicit argument '" + *inline_value + "'");
    }
    const std::string& n = o->names[0];
    if (n == "--input-directory") a.input_path = value;
    else if (n == "--artifact-dir") a.artifact_dir = value;
    else if (n == "--checkpoint-dir") a.checkpoint_dir = value;
    else if (n == "--generate-plots") a.generate_plots = true;
    else if (n == "--enable-checkpointing") a.enable_checkpointing = true;
    else if (n == "--profile-export-file") a.profile_export_file = value;
    else if (n == "--verbose") a.verbose = true;
    else a.help = true;
  }
  if (a.help) return a;
  if (!unknown.empty()) {
    std::string list;
    for (const std::string& u : unknown) list += (list.empty() ? "" : " ") + u;
    throw GenAiPerfOptionError("unrecognized arguments: " + list);
  }
  return a;
}

std::string process_config_error(const ProcessArgs& a) {
  if (python_path(a.profile_export_file).find('/') != std::string::npos)
    return "Please use artifact_directory option to define intermediary paths to the profile_export_file.";
  return "";
}

std::string process_help() {
  return "usage: genai-perf process-export-files [-h] [--input-directory INPUT_PATH] [--artifact-dir ARTIFACT_DIR]\n"
         "                                       [--checkpoint-dir CHECKPOINT_DIR] [--generate-plots]\n"
         "                                       [--enable-checkpointing] [--profile-export-file PROFILE_EXPORT_FILE]\n"
         "                                       [-v]\n\n"
         "Merges the profile exports of several `genai-perf profile` runs of one configuration (each in its\n"
         "own subdirectory of the input directory: <name>.json and <name>_genai_perf.json) and writes\n"
         "GenAI-Perf's files for the whole: the merged profile_export.json, profile_export_genai_perf.json\n"
         "and .csv. Throughputs are the runs' sums; every other metric is recomputed over all requests.\n\n"
         "Process Export Files:\n"
         "  --input-directory, -d INPUT_PATH   the directory holding one subdirectory per run (default: aggregated)\n\n"
         "Output:\n"
         "  --artifact-dir ARTIFACT_DIR   where the merged files go: <dir>/<model>-<service kind>-<type>-<load>\n"
         "                                (default: artifacts)\n"
         "  --checkpoint-dir CHECKPOINT_DIR   echoed in input_config (default: checkpoint)\n"
         "  --generate-plots   echoed in input_config (GenAI-Perf 0.0.16 draws no plots here)\n"
         "  --enable-checkpointing   echoed in input_config (nothing is checkpointed here)\n"
         "  --profile-export-file PROFILE_EXPORT_FILE   the merged export's name, and the prefix of the\n"
         "                                <name>_genai_perf files (default: profile_export.json)\n\n"
         "Other:\n"
         "  --verbose, -v   say which runs were merged\n"
         "  --help, -h      this help\n";
}

std::string python_path(const std::string& p) {
  if (p.empty()) return ".";
  const bool absolute = p.front() == '/';
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= p.size()) {
    const size_t end = p.find('/', start);
    const std::string part = p.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!part.empty() && part != ".") parts.push_back(part);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  std::string out = absolute ? "/" : "";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "/" : "") + parts[i];
  return out.empty() ? "." : out;
}

}  // namespace aiperf::cli::genai_perf
