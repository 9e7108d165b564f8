#include "export/console_table.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <functional>
#include <utility>
#include <optional>

#include "export/number_format.h"
#include "export/text_table.h"
#include "metrics/metric_flags.h"

namespace aiperf::exporting {

namespace {

// Rich wraps the unit onto a second line for long headers to keep the Metric column narrow.
constexpr std::size_t kMaxSingleLineHeader = 30;

std::string label(const proto::MetricResult& m) {
  const char separator = m.header().size() > kMaxSingleLineHeader ? '\n' : ' ';
  return m.header() + separator + "(" + m.unit() + ")";
}

std::string cell(bool present, double v) { return present ? grouped2(v) : "N/A"; }

// Buckets shown one by one under the Spec Decode table; j >= this fold into one ">=N" bucket.
constexpr int kAcceptanceHistogramCap = 8;

std::string percent_of(int64_t n, int64_t total) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", static_cast<double>(n) / static_cast<double>(total) * 100.0);
  return buf;
}

}  // namespace

std::string format_acceptance_histogram_line(const google::protobuf::RepeatedField<int64_t>& histogram) {
  int64_t total = 0;
  int max_bucket = -1;
  for (int j = 0; j < histogram.size(); ++j) {
    total += histogram[j];
    if (histogram[j] != 0) max_bucket = j;
  }
  if (total <= 0) return {};
  const bool overflow = max_bucket >= kAcceptanceHistogramCap;
  const int top = overflow ? kAcceptanceHistogramCap - 1 : max_bucket;
  std::string line = "Accepted drafts per step (% of steps):  ";
  for (int j = 0; j <= top; ++j) {
    if (j > 0) line += "   ";
    line += std::to_string(j) + ": " + percent_of(histogram[j], total);
  }
  if (overflow) {
    int64_t folded = 0;
    for (int j = kAcceptanceHistogramCap; j < histogram.size(); ++j) folded += histogram[j];
    line += "   >=" + std::to_string(kAcceptanceHistogramCap) + ": " + percent_of(folded, total);
  }
  return line;
}

namespace {

// The Rich console width AIPerf 0.13 renders its post-run console at (CONSOLE_EXPORT_WIDTH).
constexpr std::size_t kConsoleWidth = 140;

// Rich's word wrap: each word keeps its trailing space, and a word goes to the next line when
// it (without that space) no longer fits.
std::string rich_wrap(const std::string& text) {
  std::string out, line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    end = end == std::string::npos ? text.size() : text.find_first_not_of(' ', end);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    const std::size_t visible = word.find_last_not_of(' ') + 1;
    if (!line.empty() && line.size() + visible > kConsoleWidth) {
      out += line + "\n";
      line.clear();
    }
    line += word;
    start = end;
  }
  return out + line + "\n";
}

bool has_value(const proto::MetricResult* m) {
  return m && (m->has_avg() || m->has_sum() || m->has_min() || m->has_max() || m->has_p50());
}

}  // namespace

const char* const kCacheReportingHint =
    "Token usage is reported but no prompt-cache read tokens were seen "
    "(usage.prompt_tokens_details.cached_tokens absent). If your server uses "
    "prefix/KV caching, enable cache reporting so AIPerf can populate the "
    "prompt-cache metrics: vLLM --enable-prompt-tokens-details, SGLang "
    "--enable-cache-report (TRT-LLM reports it by default).";

bool usage_without_cache_reads(const proto::ProfileResults& results) {
  const proto::MetricResult* prompt = nullptr;
  const proto::MetricResult* read = nullptr;
  for (const auto& m : results.records()) {
    if (m.tag() == "total_usage_prompt_tokens") prompt = &m;
    if (m.tag() == "total_usage_prompt_cache_read_tokens") read = &m;
  }
  return has_value(prompt) && !has_value(read);
}

std::string format_console_table(const proto::ProfileResults& results, const std::string& title, bool unicode_box) {
  auto table = [&](proto::ConsoleGroup group, const std::string& table_title) {
    return format_metric_table(
        results, table_title,
        [group](const proto::MetricResult& m) {
          return m.console_group() == group && !metrics::has_any_flag(m.flags(), metrics::flags::kHiddenFromConsole);
        },
        unicode_box);
  };
  // AIPerf 0.13's metrics exporter prints one table per console group with shown metrics, in
  // this order, each titled "<title>: <Group>" except the main one.
  static constexpr std::pair<proto::ConsoleGroup, const char*> kGroups[] = {
      {proto::CONSOLE_GROUP_EFFECTIVE, ": Effective"},
      {proto::CONSOLE_GROUP_ACTIVE, ": Active"},
      {proto::CONSOLE_GROUP_USAGE, ": Usage"},
      {proto::CONSOLE_GROUP_DEFAULT, ""}};
  std::string out;
  for (const auto& entry : kGroups) out += table(entry.first, title + entry.second);
  // Then, when the server reports usage without prompt-cache reads, the cache-reporting hint.
  if (usage_without_cache_reads(results)) out += "\n" + rich_wrap(kCacheReportingHint);
  // Its Spec Decode exporter comes next (two blank lines, as each exporter starts), the table
  // followed by the pooled accepted-draft histogram on one line.
  const std::string spec_decode = table(proto::CONSOLE_GROUP_SPEC_DECODE, title + ": Spec Decode");
  if (!spec_decode.empty()) out += "\n\n" + spec_decode;
  const std::string histogram = format_acceptance_histogram_line(results.pooled_spec_decode_histogram());
  if (!histogram.empty()) out += "  " + histogram + "\n";
  return out;
}

std::string format_metric_table(const proto::ProfileResults& results, const std::string& title,
                                const std::function<bool(const proto::MetricResult&)>& show, bool unicode_box) {
  std::vector<const proto::MetricResult*> shown;
  for (const auto& m : results.records()) {
    if (show(m)) shown.push_back(&m);
  }
  if (shown.empty()) return {};
  // display_order 0 means "none": such metrics go last, keeping their result order.
  auto order = [](const proto::MetricResult* m) { return m->display_order() == 0 ? INT_MAX : m->display_order(); };
  std::stable_sort(shown.begin(), shown.end(), [&](auto* a, auto* b) { return order(a) < order(b); });

  TextTable t;
  t.title = "NVIDIA AIPerf | " + title;
  t.headers = {"Metric", "avg", "min", "max", "p99", "p90", "p50", "std"};
  t.justify.assign(t.headers.size(), Justify::kRight);
  for (const auto* m : shown) {
    t.rows.push_back({label(*m), cell(m->has_avg(), m->avg()), cell(m->has_min(), m->min()),
                      cell(m->has_max(), m->max()), cell(m->has_p99(), m->p99()), cell(m->has_p90(), m->p90()),
                      cell(m->has_p50(), m->p50()), cell(m->has_std(), m->std())});
  }
  return render_table(t, unicode_box);
}

std::string format_error_table(const proto::ProfileResults& results, bool unicode_box) {
  if (results.error_summary_size() == 0) return {};
  TextTable t;
  t.title = "NVIDIA AIPerf | Error Summary";
  t.headers = {"Code", "Type", "Message", "Count"};
  t.justify = {Justify::kRight, Justify::kRight, Justify::kLeft, Justify::kRight};
  for (const auto& e : results.error_summary()) {
    const auto& d = e.error_details();
    // AIPerf tests truthiness: a code of 0 prints as N/A too.
    t.rows.push_back({d.code() != 0 ? std::to_string(d.code()) : "N/A", d.type().empty() ? "N/A" : d.type(),
                      d.message(), grouped_int(static_cast<int64_t>(e.count()))});
  }
  return render_table(t, unicode_box);
}

}  // namespace aiperf::exporting
