#include "analyze_turn_messages.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

namespace aiperf::cli::analyze {
namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;  // keeps a message's keys in the order sent
using oj = nlohmann::ordered_json;

// Python truthiness of a JSON value.
bool truthy(const ojson& v) {
  if (v.is_null()) return false;
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number()) return v.get<double>() != 0;
  if (v.is_string() || v.is_array() || v.is_object()) return !v.empty();
  return true;
}

const ojson& get(const ojson& object, const char* name) {
  static const ojson kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(name);
  return it == object.end() ? kNull : *it;
}

std::string string_or(const ojson& v, const std::string& fallback) {
  return v.is_string() && !v.get<std::string>().empty() ? v.get<std::string>() : fallback;
}

// Python's str() of a JSON scalar (a role that is not a string).
std::string py_str(const ojson& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "None";
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  return v.dump();
}

// Length and prefix in code points (Python string semantics) of UTF-8 text.
size_t code_points(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}
std::string first_code_points(const std::string& s, size_t n) {
  size_t count = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (count == n) return s.substr(0, i);
      ++count;
    }
  }
  return s;
}

std::string short_id(const std::string& s, size_t n) { return first_code_points(s.empty() ? "?" : s, n); }

// A conversation id shortened where ids share a long prefix: "<trace>::<suffix>" keeps the suffix.
std::string disp_id(const std::string& conv) {
  const size_t sep = conv.find("::");
  if (sep != std::string::npos) return short_id(conv.substr(0, sep), 10) + "\xE2\x80\xA6::" + conv.substr(sep + 2);
  return short_id(conv, 20) + "\xE2\x80\xA6";
}

// (role, body) of one message: plain {role, content: string} keeps the text; anything else
// (multimodal parts, tool calls, other fields) is shown as the JSON that was sent.
std::pair<std::string, std::string> display_message(const oj& m) {
  if (!m.is_object()) {
    if (m.is_null()) return {"?", ""};
    if (m.is_string()) return {"?", m.get<std::string>()};
    return {"?", m.dump()};
  }
  auto role_it = m.find("role");
  const std::string role = role_it == m.end() ? "?" : py_str(*role_it);
  oj rest = oj::object();
  for (auto it = m.begin(); it != m.end(); ++it)
    if (it.key() != "role") rest[it.key()] = it.value();
  const bool only_content = rest.empty() || (rest.size() == 1 && rest.contains("content"));
  if (only_content) {
    if (rest.empty() || rest["content"].is_null()) return {role, ""};
    if (rest["content"].is_string()) return {role, rest["content"].get<std::string>()};
  }
  return {role, rest.dump()};
}

std::string with_commas(size_t v) {
  std::string d = std::to_string(v);
  for (int i = static_cast<int>(d.size()) - 3; i > 0; i -= 3) d.insert(static_cast<size_t>(i), ",");
  return d;
}

}  // namespace

std::vector<std::string> find_raw_records(const std::string& path) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return {path};
  std::vector<std::string> shards;
  const fs::path folder = fs::path(path) / "raw_records";
  if (fs::is_directory(folder, ec)) {
    for (const auto& entry : fs::directory_iterator(folder, ec))
      if (entry.is_regular_file() && entry.path().extension() == ".jsonl") shards.push_back(entry.path().string());
    std::sort(shards.begin(), shards.end());
    if (!shards.empty()) return shards;
  }
  const fs::path single = fs::path(path) / "profile_export_raw.jsonl";
  if (fs::is_regular_file(single, ec)) return {single.string()};
  return {};
}

std::vector<TurnRecord> load_turn_records(const std::vector<std::string>& files, std::vector<std::string>& skipped) {
  std::vector<TurnRecord> records;
  for (const std::string& file : files) {
    std::ifstream in(file);
    if (!in) {
      skipped.push_back(file + ": cannot open");
      continue;
    }
    std::string line;
    for (size_t number = 1; std::getline(in, line); ++number) {
      if (line.find_first_not_of(" \t\r\n") == std::string::npos) continue;
      ojson r = ojson::parse(line, nullptr, false);
      if (r.is_discarded() || !r.is_object()) {
        skipped.push_back(file + ":" + std::to_string(number) + ": " +
                          (r.is_discarded() ? "invalid JSON" : "not a JSON object") + ", skipped");
        continue;
      }
      const ojson& md = get(r, "metadata");
      const ojson& pl = get(r, "payload");
      TurnRecord t;
      t.conv = truthy(get(md, "conversation_id")) ? py_str(get(md, "conversation_id")) : "(none)";
      t.turn = get(md, "turn_index");
      const ojson& depth = get(md, "agent_depth");
      t.depth = depth.is_number_integer() ? depth.get<int64_t>() : 0;
      t.parent_corr = string_or(get(md, "parent_correlation_id"), "");
      t.x_corr = string_or(get(md, "x_correlation_id"), "");
      t.model = get(pl, "model");
      t.max_tokens = truthy(get(pl, "max_completion_tokens")) ? get(pl, "max_completion_tokens") : get(pl, "max_tokens");
      t.phase = get(md, "benchmark_phase");
      t.cancelled = truthy(get(md, "was_cancelled"));
      t.error = truthy(get(r, "error"));
      if (get(pl, "messages").is_array()) t.messages = get(pl, "messages");
      const ojson& start = get(md, "request_start_ns");
      t.start_ns = start.is_number() ? start.get<int64_t>() : 0;
      records.push_back(std::move(t));
    }
  }
  return records;
}

oj build_turn_payload(std::vector<TurnRecord> records, size_t n_files, const TurnLimits& limits) {
  const size_t cap = static_cast<size_t>(std::max<int64_t>(limits.content_cap, 0));
  const size_t limit = static_cast<size_t>(std::max<int64_t>(limits.conversations, 0));
  const size_t max_turns = static_cast<size_t>(std::max<int64_t>(limits.max_turns, 0));
  std::map<std::string, std::string> corr_to_conv;
  for (const TurnRecord& r : records)
    if (!r.x_corr.empty()) corr_to_conv[r.x_corr] = r.conv;

  // Which session replayed a conversation: by x_correlation_id in order of first request,
  // else (older exports) the repeat count of (conversation, turn_index).
  std::vector<size_t> by_time(records.size());
  for (size_t i = 0; i < by_time.size(); ++i) by_time[i] = i;
  std::stable_sort(by_time.begin(), by_time.end(),
                   [&](size_t a, size_t b) { return records[a].start_ns < records[b].start_ns; });
  std::map<std::string, std::map<std::string, int>> lanes_by_conv;
  std::map<std::pair<std::string, std::string>, int> seen_turn;
  for (size_t i : by_time) {
    TurnRecord& r = records[i];
    if (!r.x_corr.empty()) {
      auto& lanes = lanes_by_conv[r.conv];
      auto it = lanes.find(r.x_corr);
      if (it == lanes.end()) it = lanes.emplace(r.x_corr, static_cast<int>(lanes.size())).first;
      r.replay = it->second;
    } else {
      r.replay = seen_turn[{r.conv, r.turn.dump()}]++;
    }
  }
  std::vector<std::string> conv_keys;
  std::map<std::string, std::vector<size_t>> by_conv;
  for (size_t i = 0; i < records.size(); ++i) {
    const TurnRecord& r = records[i];
    const std::string key = r.replay == 0 ? r.conv : r.conv + " \xC2\xB7 replay " + std::to_string(r.replay + 1);
    if (!by_conv.count(key)) conv_keys.push_back(key);
    by_conv[key].push_back(i);
  }
  // Roots first, then by first request time, then by id.
  std::map<std::string, std::tuple<int64_t, int64_t, std::string>> order_key;
  for (const std::string& c : conv_keys) {
    int64_t depth = INT64_MAX, start = INT64_MAX;
    for (size_t i : by_conv[c]) depth = std::min(depth, records[i].depth), start = std::min(start, records[i].start_ns);
    order_key[c] = {depth, start, c};
  }
  std::vector<std::string> conv_order = conv_keys;
  std::sort(conv_order.begin(), conv_order.end(),
            [&](const std::string& a, const std::string& b) { return order_key[a] < order_key[b]; });
  const size_t total_convs = conv_order.size();
  const size_t shown = std::min(limit, total_convs);

  size_t n_msgs = 0;
  std::vector<std::pair<ojson, size_t>> roles;  // first-seen order, for most_common's ties
  for (const TurnRecord& r : records)
    for (const ojson& m : r.messages) {
      ++n_msgs;
      const ojson role = m.is_object() && m.contains("role") ? m["role"] : ojson("?");
      auto it = std::find_if(roles.begin(), roles.end(), [&](const auto& p) { return p.first == role; });
      if (it == roles.end()) roles.emplace_back(role, 1);
      else ++it->second;
    }
  std::stable_sort(roles.begin(), roles.end(), [](const auto& a, const auto& b) { return a.second > b.second; });

  std::map<std::pair<std::string, std::string>, size_t> intern;
  oj table = oj::array(), convs = oj::array();
  for (size_t ci = 0; ci < shown; ++ci) {
    const std::string& conv = conv_order[ci];
    std::vector<size_t> turns = by_conv[conv];
    std::stable_sort(turns.begin(), turns.end(), [&](size_t a, size_t b) {
      const ojson& ta = records[a].turn;
      const ojson& tb = records[b].turn;
      const double ka = ta.is_number() ? ta.get<double>() : 0, kb = tb.is_number() ? tb.get<double>() : 0;
      return ka != kb ? ka < kb : records[a].start_ns < records[b].start_ns;
    });
    int64_t depth = INT64_MAX;
    std::string parent_corr;
    std::set<std::string> models;
    for (size_t i : turns) {
      depth = std::min(depth, records[i].depth);
      if (parent_corr.empty()) parent_corr = records[i].parent_corr;
      const ojson& model = records[i].model;
      models.insert(truthy(model) ? py_str(model) : "?");
    }
    std::string models_joined;
    for (const std::string& m : models) models_joined += (models_joined.empty() ? "" : ",") + m;
    const size_t nt = turns.size();
    size_t more = 0;
    if (nt > max_turns) {
      more = nt - max_turns;
      turns.resize(max_turns);
    }
    std::string lane;
    for (size_t i : turns)
      if (!records[i].x_corr.empty()) {
        lane = records[i].x_corr;
        break;
      }
    const std::string sep = " \xC2\xB7 ";
    const size_t cut = conv.find(sep);
    const std::string base = cut == std::string::npos ? conv : conv.substr(0, cut);
    const std::string replay_tag = cut == std::string::npos ? "" : conv.substr(cut + sep.size());
    oj turns_json = oj::array();
    for (size_t i : turns) {
      const TurnRecord& r = records[i];
      oj ids = oj::array();
      for (const auto& m : r.messages) {
        const auto key = display_message(oj(m));
        auto it = intern.find(key);
        if (it == intern.end()) {
          it = intern.emplace(key, table.size()).first;
          const size_t len = code_points(key.second);
          oj entry;
          entry["role"] = key.first;
          entry["len"] = len;
          entry["body"] = first_code_points(key.second, cap);
          entry["trunc"] = len > cap ? len - cap : 0;
          table.push_back(entry);
        }
        ids.push_back(it->second);
      }
      oj t;
      t["ti"] = r.turn;
      t["phase"] = r.phase;
      t["maxTokens"] = r.max_tokens;
      t["cancelled"] = r.cancelled;
      t["error"] = r.error;
      t["ids"] = ids;
      turns_json.push_back(t);
    }
    const auto parent = corr_to_conv.find(parent_corr);
    oj c;
    c["id"] = base;
    c["disp"] = disp_id(base);
    c["kind"] = depth == 0 ? std::string("root") : "subagent (depth " + std::to_string(depth) + ")";
    c["isRoot"] = depth == 0;
    c["parent"] = parent_corr.empty() || parent == corr_to_conv.end() ? oj(nullptr) : oj(disp_id(parent->second));
    c["lane"] = lane.empty() ? oj(nullptr) : oj(short_id(lane, 8));
    c["models"] = models_joined;
    c["nt"] = nt;
    c["moreTurns"] = more;
    c["replayTag"] = replay_tag;
    c["turns"] = turns_json;
    convs.push_back(c);
  }
  oj legend = oj::array();
  for (const auto& [role, count] : roles) legend.push_back(oj::array({oj(role), count}));
  oj out;
  out["stat"] = with_commas(total_convs) + " conversations (" + with_commas(shown) + " shown) \xC2\xB7 " +
                with_commas(records.size()) + " turns \xC2\xB7 " + with_commas(n_msgs) + " message refs (" +
                with_commas(table.size()) + " unique) \xC2\xB7 from " + std::to_string(n_files) + " raw shard(s)";
  out["legend"] = legend;
  out["msgs"] = table;
  out["convs"] = convs;
  return out;
}

std::string turn_messages_html(const oj& payload, const std::string& title) {
  std::string data;
  for (char c : payload.dump()) data += c == '<' ? std::string("\\u003c") : std::string(1, c);
  std::string safe_title;
  for (char c : title) {
    if (c == '<') safe_title += "&lt;";
    else if (c == '>') safe_title += "&gt;";
    else if (c == '&') safe_title += "&amp;";
    else safe_title += c;
  }
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "script-src 'unsafe-inline'\">\n<title>" +
         safe_title +
         " \xE2\x80\x94 turn messages</title>\n<style>\n"
         "body{margin:16px;font-family:'DejaVu Sans',Verdana,sans-serif;font-size:14px;color:#1a1a1a}\n"
         "details{margin:2px 0 2px 16px}summary{cursor:pointer;padding:2px 0}\n"
         ".conv>summary{font-weight:bold}.meta{color:#666;font-weight:normal}\n"
         ".role{display:inline-block;min-width:70px;font-weight:bold}\n"
         ".role-system{color:#8e44ad}.role-user{color:#1f77b4}.role-assistant{color:#2ca02c}.role-tool{color:#d35400}\n"
         "pre{white-space:pre-wrap;word-break:break-word;background:#f6f6f6;padding:8px;margin:4px 0 4px 16px}\n"
         ".bad{color:#c0392b}\n</style>\n</head>\n<body>\n<h2>" +
         safe_title +
         "</h2>\n<p id=\"stat\"></p>\n<p id=\"legend\"></p>\n<div id=\"tree\"></div>\n"
         "<script type=\"application/json\" id=\"aiperf-turns\">" +
         data +
         "</script>\n<script>\n"
         "(function () {\n"
         "  'use strict';\n"
         "  var P = JSON.parse(document.getElementById('aiperf-turns').textContent);\n"
         "  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls;\n"
         "    if (text !== undefined) e.textContent = text; return e; }\n"
         "  document.getElementById('stat').textContent = P.stat;\n"
         "  document.getElementById('legend').textContent = 'Roles: ' + P.legend.map(function (r) {\n"
         "    return r[0] + ' ' + r[1]; }).join(' \\u00b7 ');\n"
         "  function message(id) {\n"
         "    var m = P.msgs[id], d = el('details');\n"
         "    var s = el('summary'); s.appendChild(el('span', 'role role-' + m.role, m.role));\n"
         "    s.appendChild(el('span', 'meta', ' ' + m.len + ' chars')); d.appendChild(s);\n"
         "    d.addEventListener('toggle', function () { if (d.dataset.built) return; d.dataset.built = 1;\n"
         "      d.appendChild(el('pre', '', m.body + (m.trunc ? '\\n\\u2026 ' + m.trunc + ' more chars' : ''))); });\n"
         "    return d; }\n"
         "  function turn(t) {\n"
         "    var d = el('details'), s = el('summary');\n"
         "    s.textContent = 'turn ' + t.ti + ' \\u00b7 ' + t.ids.length + ' messages';\n"
         "    var meta = [];\n"
         "    if (t.phase) meta.push(t.phase); if (t.maxTokens !== null) meta.push('max tokens ' + t.maxTokens);\n"
         "    s.appendChild(el('span', 'meta', meta.length ? ' (' + meta.join(', ') + ')' : ''));\n"
         "    if (t.error) s.appendChild(el('span', 'bad', ' error'));\n"
         "    if (t.cancelled) s.appendChild(el('span', 'bad', ' cancelled'));\n"
         "    d.appendChild(s);\n"
         "    d.addEventListener('toggle', function () { if (d.dataset.built) return; d.dataset.built = 1;\n"
         "      t.ids.forEach(function (id) { d.appendChild(message(id)); }); });\n"
         "    return d; }\n"
         "  var tree = document.getElementById('tree');\n"
         "  P.convs.forEach(function (c) {\n"
         "    var d = el('details', 'conv'), s = el('summary', '', c.disp + (c.replayTag ? ' \\u00b7 ' + c.replayTag : ''));\n"
         "    var meta = [c.kind, c.nt + ' turns', c.models];\n"
         "    if (c.parent) meta.push('parent ' + c.parent); if (c.lane) meta.push('session ' + c.lane);\n"
         "    s.appendChild(el('span', 'meta', ' \\u2014 ' + meta.join(' \\u00b7 '))); s.title = c.id; d.appendChild(s);\n"
         "    d.addEventListener('toggle', function () { if (d.dataset.built) return; d.dataset.built = 1;\n"
         "      c.turns.forEach(function (t) { d.appendChild(turn(t)); });\n"
         "      if (c.moreTurns) d.appendChild(el('p', 'meta', c.moreTurns + ' more turns not shown (--max-turns)')); });\n"
         "    tree.appendChild(d); });\n"
         "})();\n</script>\n</body>\n</html>\n";
}

}  // namespace aiperf::cli::analyze
