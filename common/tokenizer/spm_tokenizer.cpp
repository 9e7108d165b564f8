#include "tokenizer/spm_tokenizer.h"

#include <dlfcn.h>

#include <filesystem>

#include "tokenizer/spm_shim.h"
#include "tokenizer/unicode_util.h"

namespace aiperf::tok {

namespace {

constexpr std::string_view kSpace = "\xE2\x96\x81";  // U+2581, SentencePiece's whitespace mark

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

struct SpmApi {
  decltype(&aiperf_spm_load) load;
  decltype(&aiperf_spm_free) free;
  decltype(&aiperf_spm_encode) encode;
  decltype(&aiperf_spm_piece_count) piece_count;
  decltype(&aiperf_spm_piece) piece;
  decltype(&aiperf_spm_piece_type) piece_type;
  decltype(&aiperf_spm_bos_id) bos_id;
  decltype(&aiperf_spm_eos_id) eos_id;
};

namespace {

// The shim sits in <prefix>/lib/aiperf next to <prefix>/bin (build tree and install alike);
// the configured path is the fallback for binaries elsewhere (tests in other directories).
const SpmApi* load_api() {
  static const SpmApi* api = []() -> const SpmApi* {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    void* lib = nullptr;
    for (const fs::path& p : {exe.parent_path() / ".." / "lib" / "aiperf" / "libaiperf_spm.so",
                              fs::path(AIPERF_SPM_SHIM_PATH)}) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
      // The sanitizers' runtimes refuse RTLD_DEEPBIND; a link namespace of its own isolates
      // the shim's protobuf just as well (only C types cross the shim's API).
      lib = ::dlmopen(LM_ID_NEWLM, p.c_str(), RTLD_NOW | RTLD_LOCAL);
#else
      lib = ::dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
#endif
      if (lib != nullptr) break;
    }
    if (lib == nullptr) return nullptr;
    auto* a = new SpmApi;
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(lib, name));
      return fn != nullptr;
    };
    bool ok = sym(a->load, "aiperf_spm_load") && sym(a->free, "aiperf_spm_free") &&
              sym(a->encode, "aiperf_spm_encode") && sym(a->piece_count, "aiperf_spm_piece_count") &&
              sym(a->piece, "aiperf_spm_piece") && sym(a->piece_type, "aiperf_spm_piece_type") &&
              sym(a->bos_id, "aiperf_spm_bos_id") && sym(a->eos_id, "aiperf_spm_eos_id");
    return ok ? a : nullptr;
  }();
  return api;
}

void append_ids(void* ctx, const int* ids, size_t n) {
  auto* out = static_cast<std::vector<TokenId>*>(ctx);
  out->insert(out->end(), ids, ids + n);
}

}  // namespace

SpmTokenizer::SpmTokenizer(const std::string& path, bool split_special) : api_(load_api()), path_(path) {
  if (api_ == nullptr) {
    throw TokenizerError(path + ": SentencePiece support unavailable (cannot load libaiperf_spm.so: " +
                         std::string(AIPERF_SPM_SHIM_PATH) + ")");
  }
  char err[256] = {0};
  sp_ = api_->load(path.c_str(), err, sizeof err);
  if (sp_ == nullptr) throw TokenizerError(path + ": cannot load SentencePiece model: " + err);
  const int n = api_->piece_count(sp_);
  pieces_.reserve(n);
  types_.reserve(n);
  for (int id = 0; id < n; ++id) {
    size_t len = 0;
    const char* p = api_->piece(sp_, id, &len);
    pieces_.emplace_back(p, len);
    types_.push_back(static_cast<uint8_t>(api_->piece_type(sp_, id)));
  }
  if (split_special) {
    std::vector<AddedTokenSpec> specs;
    for (int id = 0; id < n; ++id) {
      if (!is_special(id) || pieces_[id].empty()) continue;
      AddedTokenSpec spec;
      spec.content = pieces_[id];
      spec.id = id;
      specs.push_back(std::move(spec));
    }
    if (!specs.empty()) specials_ = std::make_unique<AddedTokenMatcher>(specs);
  }
  // The model proto's add_dummy_prefix is not exposed by the public API; its effect is.
  std::vector<TokenId> a;
  encode_plain("a", a);
  dummy_prefix_ = !a.empty() && a[0] >= 0 && a[0] < n && pieces_[a[0]].starts_with(kSpace);
  if (int bos = api_->bos_id(sp_); bos >= 0) {
    separator_ = bos;
  } else if (int eos = api_->eos_id(sp_); eos >= 0) {
    separator_ = eos;
  }
}

SpmTokenizer::~SpmTokenizer() {
  if (sp_ != nullptr) api_->free(sp_);
}

bool SpmTokenizer::is_special(TokenId id) const {
  return (types_[id] & (kAiperfSpmControl | kAiperfSpmUnknown)) != 0;
}

void SpmTokenizer::encode_plain(std::string_view text, std::vector<TokenId>& out) const {
  if (text.empty()) return;
  char err[256] = {0};
  if (api_->encode(sp_, text.data(), text.size(), append_ids, &out, err, sizeof err) != 0) {
    throw TokenizerError(path_ + ": SentencePiece encode failed: " + err);
  }
}

std::vector<TokenId> SpmTokenizer::encode(std::string_view text) const {
  std::string repaired;
  if (!uni::is_valid_utf8(text)) {
    repaired = uni::from_utf8_lossy(text);
    text = repaired;
  }
  std::vector<TokenId> out;
  if (!specials_) {
    encode_plain(text, out);
    return out;
  }
  std::vector<Segment> segments;
  specials_->split(text, segments);
  for (const Segment& s : segments) {
    if (s.id >= 0) {
      out.push_back(s.id);
    } else {
      encode_plain(text.substr(s.begin, s.end - s.begin), out);
    }
  }
  return out;
}

std::string SpmTokenizer::decode(std::span<const TokenId> ids, bool skip_special_tokens) const {
  std::string text, bytes;
  auto flush_bytes = [&] {
    if (uni::is_valid_utf8(bytes)) {
      text += bytes;
    } else {
      for (size_t i = 0; i < bytes.size(); ++i) text += "\xEF\xBF\xBD";
    }
    bytes.clear();
  };
  for (TokenId id : ids) {
    if (id < 0 || static_cast<size_t>(id) >= pieces_.size()) continue;
    if (skip_special_tokens && is_special(id)) continue;
    const std::string& piece = pieces_[id];
    if ((types_[id] & kAiperfSpmByte) != 0 && piece.size() == 6) {
      bytes.push_back(static_cast<char>(hex_digit(piece[3]) * 16 + hex_digit(piece[4])));
      continue;
    }
    flush_bytes();
    for (size_t pos = 0; pos < piece.size();) {
      if (std::string_view(piece).substr(pos, kSpace.size()) == kSpace) {
        text += ' ';
        pos += kSpace.size();
      } else {
        text += piece[pos++];
      }
    }
  }
  flush_bytes();
  if (dummy_prefix_ && !text.empty() && text[0] == ' ') text.erase(0, 1);
  return text;
}

}  // namespace aiperf::tok
