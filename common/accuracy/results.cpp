#include "accuracy/results.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "metrics/metric_flags.h"
#include "util/output_paths.h"

namespace aiperf::accuracy {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

std::string dump(const ordered_json& j) { return j.dump(-1, ' ', false, ordered_json::error_handler_t::replace); }

// Python's f"{v:.{digits}f}" for the ratios here (0..1, or 0..100 for percents).
std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

double ratio(uint64_t a, uint64_t b) { return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0; }

}  // namespace

std::string format_graded_record(const GradedRecord& r) {
  ordered_json j;
  j["session_num"] = r.session_num;
  j["conversation_id"] = r.conversation_id.empty() ? ordered_json() : ordered_json(r.conversation_id);
  j["x_request_id"] = r.x_request_id.empty() ? ordered_json() : ordered_json(r.x_request_id);
  j["worker_id"] = r.worker_id;
  j["benchmark_phase"] = r.phase;
  j["timestamp_ns"] = r.timestamp_ns;
  j["task"] = r.task.empty() ? ordered_json() : ordered_json(r.task);
  j["grader_name"] = r.grader_name;
  j["passed"] = r.result.correct;
  j["unparsed"] = r.result.unparsed;
  j["confidence"] = r.result.confidence;
  j["expected"] = r.result.ground_truth;
  j["actual"] = r.result.extracted_answer;
  j["explanation"] = r.result.reasoning;
  j["model_output"] = r.model_output;
  if (r.model_thinking) j["model_thinking"] = *r.model_thinking;
  // AIPerf writes the record with exclude_none: absent optional fields are left out.
  for (const char* key : {"conversation_id", "x_request_id", "task"})
    if (j[key].is_null()) j.erase(key);
  return dump(j);
}

Summary summarize(const std::vector<std::string>& lines, size_t* skipped) {
  Summary s;
  for (const auto& line : lines) {
    json j = json::parse(line, nullptr, false);
    if (!j.is_object()) {
      if (skipped) ++*skipped;
      continue;
    }
    const bool passed = j.value("passed", false), unparsed = j.value("unparsed", false);
    auto add = [&](TaskStats& t) {
      ++t.total;
      t.passed += passed;
      t.unparsed += unparsed;
    };
    add(s.overall);
    if (j.contains("task") && j["task"].is_string()) add(s.per_task[j["task"].get<std::string>()]);
  }
  return s;
}

std::vector<proto::MetricResult> summary_metrics(const Summary& s) {
  std::vector<proto::MetricResult> out;
  if (s.overall.total == 0) return out;
  auto metric = [&](const std::string& tag, const std::string& header, uint64_t count, uint64_t sum) {
    proto::MetricResult m;
    m.set_tag(tag);
    m.set_header(header);
    m.set_unit("ratio");
    m.set_count(count);
    m.set_sum(static_cast<double>(sum));
    // Not in the console's metric table (AIPerf's MetricConsoleGroup.NONE): the accuracy table shows them.
    m.set_flags(metrics::flags::kNoConsole);
    out.push_back(std::move(m));
  };
  metric("accuracy.overall", "Accuracy (Overall)", s.overall.total, s.overall.passed);
  for (const auto& [task, t] : s.per_task)
    metric("accuracy.task." + task, "Accuracy (" + task + ")", t.total, t.passed);
  metric("accuracy.unparsed", "Accuracy Unparsed (Overall)", s.overall.total, s.overall.unparsed);
  for (const auto& [task, t] : s.per_task)
    metric("accuracy.unparsed.task." + task, "Accuracy Unparsed (" + task + ")", t.total, t.unparsed);
  return out;
}

std::string format_results_csv(const Summary& s) {
  auto cell = [](const std::string& v) {
    if (v.find_first_of(",\"\r\n") == std::string::npos) return v;
    std::string q = "\"";
    for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  std::string out = "task,correct,total,unparsed,accuracy\r\n";
  auto row = [&](const std::string& name, const TaskStats& t) {
    out += cell(name) + "," + std::to_string(t.passed) + "," + std::to_string(t.total) + "," +
           std::to_string(t.unparsed) + "," + fixed(ratio(t.passed, t.total), 4) + "\r\n";
  };
  if (s.overall.total == 0) return out;
  row("OVERALL", s.overall);
  for (const auto& [task, t] : s.per_task) row(task, t);
  return out;
}

namespace {

size_t display_width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace

std::string format_console(const proto::ProfileResults& results, bool unicode) {
  const proto::MetricResult* overall = nullptr;
  const proto::MetricResult* unparsed_overall = nullptr;
  std::vector<const proto::MetricResult*> tasks;
  std::map<std::string, uint64_t> unparsed_by_task;
  const std::string task_prefix = "accuracy.task.", unparsed_prefix = "accuracy.unparsed.task.";
  for (const auto& m : results.records()) {
    if (m.tag() == "accuracy.overall") overall = &m;
    else if (m.tag() == "accuracy.unparsed") unparsed_overall = &m;
    else if (m.tag().rfind(task_prefix, 0) == 0) tasks.push_back(&m);
    else if (m.tag().rfind(unparsed_prefix, 0) == 0)
      unparsed_by_task[m.tag().substr(unparsed_prefix.size())] = static_cast<uint64_t>(m.sum());
  }
  if (!overall && tasks.empty()) return "";
  auto pct = [](const proto::MetricResult& m) {
    return fixed(100.0 * ratio(static_cast<uint64_t>(m.sum()), m.count()), 2) + "%";
  };
  std::vector<std::vector<std::string>> rows;
  for (const auto* m : tasks) {
    const std::string name = m->tag().substr(task_prefix.size());
    rows.push_back({name, std::to_string(static_cast<uint64_t>(m->sum())), std::to_string(m->count()),
                    std::to_string(unparsed_by_task[name]), pct(*m)});
  }
  if (overall) {
    rows.push_back({"OVERALL", std::to_string(static_cast<uint64_t>(overall->sum())), std::to_string(overall->count()),
                    std::to_string(unparsed_overall ? static_cast<uint64_t>(unparsed_overall->sum()) : 0),
                    pct(*overall)});
  }
  const std::vector<std::string> headers = {"Task", "Correct", "Total", "Unparsed", "Accuracy"};
  std::vector<size_t> w(headers.size());
  for (size_t c = 0; c < headers.size(); ++c) {
    w[c] = std::max<size_t>(display_width(headers[c]), c == 0 ? 30 : 0);  // Task: min_width=30
    for (const auto& r : rows) w[c] = std::max(w[c], display_width(r[c]));
  }
  // Rich's box.HEAVY_HEAD (or box.ASCII on a pipe), show_lines=True.
  struct Box {
    const char *tl, *h, *tm, *tr, *v, *hl, *hm, *hr, *ml, *m, *mm, *mr, *bl, *b, *bm, *br, *rv;
  };
  const Box u{"┏", "━", "┳", "┓", "┃", "┡", "━", "╇", "├", "─", "┼", "┤", "└", "─", "┴", "┘", "│"};
  const Box a{"+", "-", "+", "+", "|", "|", "-", "+", "|", "-", "+", "|", "+", "-", "+", "+", "|"};
  const Box& bx = unicode ? u : a;
  auto rule = [&](const char* l, const char* fill, const char* mid, const char* r) {
    std::string s = l;
    for (size_t c = 0; c < w.size(); ++c) {
      for (size_t k = 0; k < w[c] + 2; ++k) s += fill;
      s += c + 1 < w.size() ? mid : r;
    }
    return s + "\n";
  };
  auto line = [&](const std::vector<std::string>& cells, const char* v) {
    std::string s = v;
    for (size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(w[c] - display_width(cells[c]), ' ');
      s += " " + (c == 0 ? cells[c] + pad : pad + cells[c]) + " " + v;
    }
    return s + "\n";
  };
  size_t width = 1;
  for (size_t x : w) width += x + 3;
  const std::string title = "Accuracy Benchmark Results";
  const size_t left = (width - title.size()) / 2;
  std::string out = "\n" + std::string(left, ' ') + title + std::string(width - title.size() - left, ' ') + "\n";
  out += rule(bx.tl, bx.h, bx.tm, bx.tr);
  out += line(headers, bx.v);
  out += rule(bx.hl, bx.hm, bx.hr, unicode ? "┩" : "|");
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) out += rule(bx.ml, bx.m, bx.mm, bx.mr);
    out += line(rows[i], bx.rv);
  }
  out += rule(bx.bl, bx.b, bx.bm, bx.br);
  if (overall && overall->count() && unparsed_overall && unparsed_overall->count() &&
      static_cast<uint64_t>(unparsed_overall->sum()) >= unparsed_overall->count()) {
    out +=
        "Warning: every accuracy response was unparsed (accuracy=0). The grader could not extract an answer from any "
        "model output. Verify the inference server returns valid completions for this benchmark before trusting the "
        "accuracy CSV.\n";
  }
  return out;
}

Summary merge_fragments(const std::string& fragments_dir, const std::string& jsonl_target,
                        const std::string& csv_target) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fragments_dir, ec))
    if (e.path().extension() == ".jsonl") files.push_back(e.path());
  if (files.empty()) return {};
  std::sort(files.begin(), files.end());
  struct Line {
    uint64_t session = 0;
    std::string request, text;
  };
  std::vector<Line> lines;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::string text;
    while (std::getline(in, text)) {
      if (text.empty()) continue;
      json j = json::parse(text, nullptr, false);
      if (!j.is_object()) continue;  // a processor killed mid-line
      lines.push_back({j.value("session_num", uint64_t{0}), j.value("x_request_id", std::string()), std::move(text)});
    }
  }
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    return a.session != b.session ? a.session < b.session : a.request < b.request;
  });
  std::string body;
  std::vector<std::string> texts;
  for (auto& l : lines) {
    body += l.text + "\n";
    texts.push_back(std::move(l.text));
  }
  util::write_file_atomically(jsonl_target, body);
  Summary s = summarize(texts);
  util::write_file_atomically(csv_target, format_results_csv(s));
  fs::remove_all(fragments_dir, ec);
  return s;
}

}  // namespace aiperf::accuracy
