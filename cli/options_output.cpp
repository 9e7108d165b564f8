// Output and tokenizer groups (spec §2.1).
#include "options.h"

namespace aiperf::cli {

void add_output_options(CLI::App& app, ProfileOptions& o) {
  auto& out = o.config.output;
  const char* g = "Output";
  add_optional(app, "--artifact-dir,--output-artifact-dir", o.artifact_dir, "Artifact directory")->group(g);
  app.add_option("--profile-export-prefix,--profile-export-file", out.profile_export_prefix, "Export file prefix")->group(g);
  // "raw" (profile_export_raw.jsonl) is not implemented yet, so it is refused, not ignored.
  app.add_option("--export-level,--profile-export-level", out.export_level, "summary or records")
      ->check(CLI::IsMember({"summary", "records"}))->group(g);
  auto& t = o.config.tokenizer;
  app.add_option("--tokenizer", t.name, "Tokenizer: local dir/file or bundled name (default: model)")->group("Tokenizer");
  app.add_option("--tokenizer-revision", t.revision, "Tokenizer revision")->group("Tokenizer");
  app.add_flag("--tokenizer-trust-remote-code", t.trust_remote_code, "")->group("Tokenizer");
}

}  // namespace aiperf::cli
