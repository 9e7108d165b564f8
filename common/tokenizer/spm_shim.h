// C interface of libaiperf_spm.so, the one place libsentencepiece is linked. Debian's
// libsentencepiece exports its bundled protobuf 3.14, which clashes with the system protobuf
// the rest of aiperf links (crash at start-up), so spm_tokenizer.cpp loads this shim with
// dlopen(RTLD_LOCAL | RTLD_DEEPBIND): each library then binds to its own protobuf.
#pragma once
#include <cstddef>

extern "C" {

enum AiperfSpmPieceType { kAiperfSpmControl = 1, kAiperfSpmUnknown = 2, kAiperfSpmByte = 4 };

// Returns a handle, or null with a message in err.
void* aiperf_spm_load(const char* path, char* err, size_t err_len);
void aiperf_spm_free(void* handle);
// Calls sink once with all ids; returns 0, or -1 with a message in err.
int aiperf_spm_encode(void* handle, const char* text, size_t len, void (*sink)(void* ctx, const int* ids, size_t n),
                      void* ctx, char* err, size_t err_len);
int aiperf_spm_piece_count(void* handle);
// The piece text of id (0 <= id < count); owned by the model, valid until free.
const char* aiperf_spm_piece(void* handle, int id, size_t* len);
int aiperf_spm_piece_type(void* handle, int id);  // AiperfSpmPieceType bits
int aiperf_spm_bos_id(void* handle);
int aiperf_spm_eos_id(void* handle);
}
