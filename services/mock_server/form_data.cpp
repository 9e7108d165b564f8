#include "form_data.h"

#include <algorithm>
#include <cctype>

namespace aiperf::mock {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The value of parameter `key` in a header like `form-data; name="x"; filename="y"`: quoted
// (backslash escapes undone) or a bare token.
std::optional<std::string> header_param(std::string_view header, std::string_view key) {
  size_t pos = 0;
  while ((pos = header.find(';', pos)) != std::string_view::npos) {
    std::string_view rest = trim(header.substr(pos + 1));
    const size_t eq = rest.find('=');
    if (eq != std::string_view::npos && lower(trim(rest.substr(0, eq))) == key) {
      std::string_view v = trim(rest.substr(eq + 1));
      std::string out;
      if (!v.empty() && v.front() == '"') {
        for (size_t i = 1; i < v.size() && v[i] != '"'; ++i) {
          if (v[i] == '\\' && i + 1 < v.size()) ++i;
          out.push_back(v[i]);
        }
      } else {
        out = std::string(v.substr(0, v.find(';')));
      }
      return out;
    }
    ++pos;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> form_boundary(std::string_view content_type) {
  const std::string_view type = trim(content_type.substr(0, content_type.find(';')));
  if (lower(type) != "multipart/form-data") return std::nullopt;
  auto boundary = header_param(content_type, "boundary");
  if (!boundary || boundary->empty()) return std::nullopt;
  return boundary;
}

std::optional<std::vector<FormPart>> parse_form_data(std::string_view body, std::string_view boundary) {
  const std::string delimiter = "--" + std::string(boundary);
  size_t pos = body.find(delimiter);
  if (pos == std::string_view::npos) return std::nullopt;
  std::vector<FormPart> parts;
  while (true) {
    pos += delimiter.size();
    if (body.substr(pos, 2) == "--") return parts;  // closing delimiter
    if (body.substr(pos, 2) != "\r\n") return std::nullopt;
    pos += 2;
    const size_t head_end = body.find("\r\n\r\n", pos);
    if (head_end == std::string_view::npos) return std::nullopt;
    const size_t next = body.find("\r\n" + delimiter, head_end + 4);
    if (next == std::string_view::npos) return std::nullopt;
    FormPart part;
    std::string_view head = body.substr(pos, head_end - pos);
    while (!head.empty()) {
      const size_t eol = head.find("\r\n");
      std::string_view line = head.substr(0, eol);
      head = eol == std::string_view::npos ? std::string_view{} : head.substr(eol + 2);
      const size_t colon = line.find(':');
      if (colon == std::string_view::npos) continue;
      const std::string key = lower(trim(line.substr(0, colon)));
      const std::string_view value = trim(line.substr(colon + 1));
      if (key == "content-type") part.content_type = std::string(value);
      if (key == "content-disposition") {
        if (auto name = header_param(value, "name")) part.name = *name;
        part.filename = header_param(value, "filename");
      }
    }
    if (part.name.empty()) return std::nullopt;
    part.value = std::string(body.substr(head_end + 4, next - head_end - 4));
    parts.push_back(std::move(part));
    pos = next + 2;
  }
}

const FormPart* find_part(const std::vector<FormPart>& parts, std::string_view name) {
  for (const FormPart& p : parts) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

}  // namespace aiperf::mock
