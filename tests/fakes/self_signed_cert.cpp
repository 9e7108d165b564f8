#include "fakes/self_signed_cert.h"

#include <memory>
#include <stdexcept>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace aiperf::testing {

namespace {

template <auto Free>
struct Deleter {
  template <class T>
  void operator()(T* p) const { Free(p); }
};

std::string bio_string(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<size_t>(size));
}

void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("self-signed cert: ") + what);
}

}  // namespace

TlsIdentity make_self_signed_identity() {
  std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY_free>> key(EVP_EC_gen("P-256"));
  check(key != nullptr, "key generation");
  std::unique_ptr<X509, Deleter<X509_free>> cert(X509_new());
  check(X509_set_version(cert.get(), 2) == 1, "version");
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 24 * 3600);
  check(X509_set_pubkey(cert.get(), key.get()) == 1, "pubkey");
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  check(X509_set_issuer_name(cert.get(), name) == 1, "issuer");

  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert.get(), cert.get(), nullptr, nullptr, 0);
  for (auto [nid, value] : {std::pair{NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost"},
                            std::pair{NID_basic_constraints, "critical,CA:TRUE"}}) {
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    check(ext != nullptr, "extension");
    X509_add_ext(cert.get(), ext, -1);
    X509_EXTENSION_free(ext);
  }
  check(X509_sign(cert.get(), key.get(), EVP_sha256()) > 0, "sign");

  std::unique_ptr<BIO, Deleter<BIO_free>> cert_bio(BIO_new(BIO_s_mem()));
  std::unique_ptr<BIO, Deleter<BIO_free>> key_bio(BIO_new(BIO_s_mem()));
  check(PEM_write_bio_X509(cert_bio.get(), cert.get()) == 1, "cert pem");
  check(PEM_write_bio_PrivateKey(key_bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) == 1,
        "key pem");
  return TlsIdentity{bio_string(cert_bio.get()), bio_string(key_bio.get())};
}

}  // namespace aiperf::testing
