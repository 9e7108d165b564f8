#include "endpoints/multipart.h"

#include <cctype>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "endpoints/endpoint.h"
#include "tokenizer/base64.h"

namespace aiperf::endpoints {

namespace {

// aiohttp quotes a filename with urllib's quote(value, safe=""): all but unreserved bytes.
std::string percent_encode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

// A field name as a quoted-string: backslash before '\' and '"'.
std::string quoted_name(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == '"') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::string multipart_body(const std::vector<FormField>& fields, std::string_view boundary) {
  std::string out;
  for (const FormField& f : fields) {
    out += "--";
    out += boundary;
    out += "\r\nContent-Type: ";
    if (f.filename) {
      out += f.content_type.empty() ? "application/octet-stream" : f.content_type;
    } else {
      out += "text/plain; charset=utf-8";
    }
    out += "\r\nContent-Disposition: form-data; name=\"" + quoted_name(f.name) + "\"";
    if (f.filename) out += "; filename=\"" + percent_encode(*f.filename) + "\"";
    out += "\r\n\r\n";
    out += f.value;
    out += "\r\n";
  }
  out += "--";
  out += boundary;
  out += "--\r\n";
  return out;
}

std::vector<FormField> form_fields(const nlohmann::ordered_json& payload) {
  if (!payload.is_object()) throw std::invalid_argument("a form-data payload must be a JSON object");
  std::vector<FormField> fields;
  for (const auto& [key, value] : payload.items()) {
    if (value.is_null()) continue;
    FormField f;
    f.name = key;
    if (value.is_object()) {
      auto b64 = value.find("b64_data");
      if (b64 != value.end() && b64->is_string()) {
        if (!tok::base64_decode(b64->get_ref<const std::string&>(), f.value))
          throw std::invalid_argument("Field '" + key + "': 'b64_data' is not valid base64.");
        auto name = value.find("filename");
        f.filename = name != value.end() && name->is_string() && !name->get_ref<const std::string&>().empty()
                         ? name->get<std::string>()
                         : key;
        auto type = value.find("content_type");
        if (type != value.end() && type->is_string()) f.content_type = type->get<std::string>();
        fields.push_back(std::move(f));
        continue;
      }
    }
    if (value.is_string()) {
      f.value = value.get<std::string>();
    } else if (value.is_boolean()) {
      f.value = value.get<bool>() ? "true" : "false";
    } else {
      f.value = value.dump();
    }
    fields.push_back(std::move(f));
  }
  return fields;
}

WireBody wire_body(const EndpointInfo& info, const std::string& payload, std::string_view boundary) {
  if (!info.requires_form_data) return {"application/json", payload};
  const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(payload, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) throw std::invalid_argument("a form-data payload must be a JSON object");
  return {"multipart/form-data; boundary=" + std::string(boundary), multipart_body(form_fields(parsed), boundary)};
}

}  // namespace aiperf::endpoints
