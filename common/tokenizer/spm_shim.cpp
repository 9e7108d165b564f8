// libaiperf_spm.so: see spm_shim.h for why this is a separate, dlopen()ed library.
#include "tokenizer/spm_shim.h"

#include <sentencepiece_processor.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

using Processor = sentencepiece::SentencePieceProcessor;

void set_error(char* err, size_t err_len, const std::string& msg) {
  if (err == nullptr || err_len == 0) return;
  std::strncpy(err, msg.c_str(), err_len - 1);
  err[err_len - 1] = '\0';
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) void* aiperf_spm_load(const char* path, char* err, size_t err_len) {
  auto* sp = new Processor();
  auto status = sp->Load(path);
  if (!status.ok()) {
    set_error(err, err_len, status.ToString());
    delete sp;
    return nullptr;
  }
  return sp;
}

__attribute__((visibility("default"))) void aiperf_spm_free(void* handle) { delete static_cast<Processor*>(handle); }

__attribute__((visibility("default"))) int aiperf_spm_encode(void* handle, const char* text, size_t len,
                                                             void (*sink)(void*, const int*, size_t), void* ctx,
                                                             char* err, size_t err_len) {
  std::vector<int> ids;
  auto status = static_cast<Processor*>(handle)->Encode(absl::string_view(text, len), &ids);
  if (!status.ok()) {
    set_error(err, err_len, status.ToString());
    return -1;
  }
  sink(ctx, ids.data(), ids.size());
  return 0;
}

__attribute__((visibility("default"))) int aiperf_spm_piece_count(void* handle) {
  return static_cast<Processor*>(handle)->GetPieceSize();
}

__attribute__((visibility("default"))) const char* aiperf_spm_piece(void* handle, int id, size_t* len) {
  const std::string& piece = static_cast<Processor*>(handle)->IdToPiece(id);
  *len = piece.size();
  return piece.data();
}

__attribute__((visibility("default"))) int aiperf_spm_piece_type(void* handle, int id) {
  auto* sp = static_cast<Processor*>(handle);
  return (sp->IsControl(id) ? kAiperfSpmControl : 0) | (sp->IsUnknown(id) ? kAiperfSpmUnknown : 0) |
         (sp->IsByte(id) ? kAiperfSpmByte : 0);
}

__attribute__((visibility("default"))) int aiperf_spm_bos_id(void* handle) {
  return static_cast<Processor*>(handle)->bos_id();
}

__attribute__((visibility("default"))) int aiperf_spm_eos_id(void* handle) {
  return static_cast<Processor*>(handle)->eos_id();
}
}
