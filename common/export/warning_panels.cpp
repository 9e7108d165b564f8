#include "export/warning_panels.h"

#include <cstdio>
#include <string_view>
#include <vector>

#include "export/metric_lookup.h"
#include "export/number_format.h"
#include "metrics/types/builtin_metrics.h"

namespace aiperf::exporting {

namespace {

int64_t avg_count(const proto::ProfileResults& r, std::string_view tag) {
  const proto::MetricResult* m = find_metric(r, tag);
  return m && m->has_avg() ? static_cast<int64_t>(m->avg()) : 0;
}

std::string one_decimal(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// Display width of a UTF-8 line (every code point one column: the panels use no wide ones).
std::size_t width(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string repeat(std::string_view glyph, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += glyph;
  return out;
}

// A Rich Panel(expand=False, padding=(0, 2)) with the title centred in the top border.
std::string panel(const std::string& title, const std::vector<std::string>& lines, bool unicode) {
  const std::string_view h = unicode ? "─" : "-", v = unicode ? "│" : "|";
  std::size_t inner = width(title) + 2;
  for (const auto& l : lines) inner = std::max(inner, width(l) + 4);
  const std::size_t left = (inner - width(title) - 2) / 2;
  std::string out = "\n";
  out += std::string(unicode ? "╭" : "+") + repeat(h, left) + " " + title + " " +
         repeat(h, inner - left - width(title) - 2) + (unicode ? "╮" : "+") + "\n";
  for (const auto& l : lines) {
    out += std::string(v) + "  " + l + std::string(inner - width(l) - 2, ' ') + std::string(v) + "\n";
  }
  out += std::string(unicode ? "╰" : "+") + repeat(h, inner) + (unicode ? "╯" : "+") + "\n";
  return out;
}

std::string share(int64_t part, int64_t total) {
  return grouped_int(part) + " of " + grouped_int(total) + " requests (" +
         one_decimal(100.0 * static_cast<double>(part) / static_cast<double>(total)) + "%)";
}

}  // namespace

std::string format_panel(const std::string& title, const std::vector<std::string>& lines, bool unicode_box) {
  return panel(title, lines, unicode_box);
}

std::string format_warning_panels(const proto::ProfileResults& results, bool unicode_box,
                                  double usage_diff_threshold_pct) {
  namespace t = metrics::types;
  std::string out;
  const int64_t total = avg_count(results, "request_count");
  if (total <= 0) return out;

  if (const int64_t n = avg_count(results, "osl_mismatch_count"); n > 0) {
    const proto::MetricResult* diff = find_metric(results, "osl_mismatch_diff_pct");
    char threshold[96];
    std::snprintf(threshold, sizeof threshold, "min(requested x %g%%, %g)", t::kOslMismatchPct,
                  t::kOslMismatchMaxTokens);
    out += panel("Output Sequence Length Mismatch Warning",
                 {share(n, total) + " produced an output length off the requested one by more than the threshold.",
                  std::string("Threshold (tokens): ") + threshold,
                  "Average mismatch: " + (diff && diff->has_avg() ? one_decimal(diff->avg()) + "%" : "N/A"), "",
                  "Likely cause: the server reached an end-of-sequence token before max_tokens.", "",
                  "To generate exactly max_tokens:",
                  "  - --extra-inputs ignore_eos:true (vLLM, TensorRT-LLM)",
                  "  - --extra-inputs min_tokens:<N> (vLLM, TensorRT-LLM, SGLang)",
                  "  - --use-server-token-count if the tokenizers may differ", "",
                  "Per-request values: osl_mismatch_diff_pct in profile_export.jsonl"},
                 unicode_box);
  }
  if (const int64_t n = avg_count(results, "usage_discrepancy_count"); n > 0) {
    // AIPerf 0.13's panel, word for word (its threshold printed with Python's :g).
    char threshold[32];
    std::snprintf(threshold, sizeof threshold, "%g", usage_diff_threshold_pct);
    out += panel("Token Count Discrepancy Warning",
                 {share(n, total) + " show a difference exceeding " + threshold + "% between:",
                  "  - API-reported usage tokens (from 'usage' field)",
                  "  - Client-computed token counts (from tokenization)", "", "Possible Causes:",
                  "  - Different tokenization methods (API vs client)", "  - API special tokens or preprocessing", "",
                  "Investigation Steps:", "  1. Review profile_export.jsonl for per-request usage_*_diff_pct values",
                  "  2. Verify client tokenizer matches the model's tokenizer",
                  std::string("  3. Use server token counts: --use-server-token-count ") +
                      "(disables client tokenization and diff metrics)",
                  std::string("  4. Adjust threshold: AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD=") + threshold},
                 unicode_box);
  }
  return out;
}

}  // namespace aiperf::exporting
