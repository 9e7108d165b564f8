// Weka / agentic trace replay options of AIPerf 0.13's "Input" group: --use-think-time-only,
// --ignore-trace-delays, --max-context-length (read by the weka_trace loader),
// --[no-]allow-dataset-wrap (AIPerf's agentic replay timing only: accepted, no effect here) and
// --dataset-filter (public datasets that declare filters: none of ours).
#include <set>
#include <string>

#include "options.h"
#include "public_datasets.h"
#include "validators.h"
#include "util/text.h"

namespace aiperf::cli {
void add_agentic_trace_options(CLI::App& app, ProfileOptions& o) {
  auto& a = o.config.input.agentic_trace;
  const char* g = "Input";
  app.add_flag("--ignore-trace-delays", a.ignore_trace_delays,
               "weka_trace: no timestamps or delays; turns follow each other at once")
      ->group(g);
  app.add_flag("--use-think-time-only", a.use_think_time_only,
               "weka_trace: the delay before a turn is its recorded think_time (else the idle gap)")
      ->group(g);
  o.input.max_context_length = add_optional(app, "--max-context-length", a.max_context_length,
                                            "weka_trace: drop traces whose recorded peak in + out tokens exceeds this")
                                   ->check(CLI::Range(uint64_t{1}, std::numeric_limits<uint64_t>::max()))
                                   ->group(g);
  app.add_flag("--allow-dataset-wrap,!--no-allow-dataset-wrap", o.input.allow_dataset_wrap,
               "Agentic replay only (no effect in the modes we have)")
      ->group(g);
  app.add_option("--dataset-filter", o.input.dataset_filters, "key=value filter of a public dataset (repeatable)")
      ->group(g);
}

void check_agentic_trace_options(const ProfileOptions& o, bool type_given) {
  const auto& in = o.config.input;
  if (in.agentic_trace.ignore_trace_delays && in.agentic_trace.use_think_time_only)
    throw OptionError(
        "--ignore-trace-delays and --use-think-time-only are mutually exclusive (each sets Turn.delay "
        "differently).");
  if (!o.input.dataset_filters.empty()) {
    std::set<std::string> keys;
    for (const std::string& item : o.input.dataset_filters) {
      const size_t eq = item.find('=');
      const std::string key = eq == std::string::npos ? "" : util::trim(item.substr(0, eq));
      const std::string value = eq == std::string::npos ? "" : util::trim(item.substr(eq + 1));
      if (key.empty() || value.empty())
        throw OptionError("Invalid --dataset-filter '" + item + "'; expected non-empty key=value");
      if (!keys.insert(key).second) throw OptionError("Duplicate --dataset-filter key '" + key + "'");
    }
    if (in.public_dataset.empty()) throw OptionError("--dataset-filter requires --public-dataset");
    // AIPerf fails when the dataset loads; we know now (no public dataset of ours takes filters).
    throw OptionError("Public dataset '" + in.public_dataset + "' does not support --dataset-filter");
  }
  // An auto-detected file may be a Weka trace, so only an explicit other type (or no file) is refused.
  const bool weka = in.custom_dataset_type == config::CustomDatasetType::kWekaTrace;
  const dataset::PublicDatasetInfo* pub = dataset::find_public_dataset(in.public_dataset);
  const bool weka_public =
      !o.input.hf_weka_dataset.empty() || (pub && pub->family == dataset::PublicFamily::kWekaTrace);
  const bool maybe_weka = weka || weka_public || (!type_given && !in.input_file.empty());
  if (in.agentic_trace.max_context_length && !maybe_weka)
    throw OptionError(
        "--max-context-length only applies to Weka trace replay (--custom-dataset-type weka_trace or a weka "
        "--public-dataset). It filters by recorded peak prompt+output length at load time; other formats do not "
        "implement this filter. Drop --max-context-length or switch to a Weka dataset.");
}

}  // namespace aiperf::cli
