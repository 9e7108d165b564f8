#include "media_decode.h"

#include <csetjmp>
#include <cstdio>
#include <stdexcept>

#include <jpeglib.h>
#include <png.h>

namespace aiperf::test {

std::string base64_decode(const std::string& text) {
  static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  uint32_t buf = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    const size_t v = alphabet.find(c);
    if (v == std::string::npos) throw std::runtime_error("not base64");
    buf = (buf << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buf >> bits) & 0xff));
    }
  }
  return out;
}

Dimensions png_dimensions(const std::string& bytes) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()))
    throw std::runtime_error(std::string("libpng: ") + image.message);
  // Decode the pixels too: a truncated stream fails here, not at the header.
  image.format = PNG_FORMAT_RGB;
  std::string pixels(PNG_IMAGE_SIZE(image), '\0');
  if (!png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr))
    throw std::runtime_error(std::string("libpng: ") + image.message);
  return {image.width, image.height};
}

namespace {
struct JpegErr {
  jpeg_error_mgr mgr;
  std::jmp_buf jump;
};
void jpeg_fail(j_common_ptr c) { std::longjmp(reinterpret_cast<JpegErr*>(c->err)->jump, 1); }
}  // namespace

Dimensions jpeg_dimensions(const std::string& bytes) {
  jpeg_decompress_struct cinfo{};
  JpegErr err{};
  cinfo.err = jpeg_std_error(&err.mgr);
  err.mgr.error_exit = jpeg_fail;
  if (setjmp(err.jump)) {
    jpeg_destroy_decompress(&cinfo);
    throw std::runtime_error("libjpeg: bad JPEG");
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  jpeg_read_header(&cinfo, TRUE);
  jpeg_start_decompress(&cinfo);
  std::string row(static_cast<size_t>(cinfo.output_width) * cinfo.output_components, '\0');
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW r = reinterpret_cast<JSAMPROW>(row.data());
    jpeg_read_scanlines(&cinfo, &r, 1);
  }
  const Dimensions d{cinfo.output_width, cinfo.output_height};
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return d;
}

WavHeader wav_header(const std::string& b) {
  if (b.size() < 44) throw std::runtime_error("WAV shorter than its header");
  auto u32 = [&](size_t o) {
    return static_cast<uint32_t>(static_cast<uint8_t>(b[o])) | static_cast<uint32_t>(static_cast<uint8_t>(b[o + 1])) << 8 |
           static_cast<uint32_t>(static_cast<uint8_t>(b[o + 2])) << 16 |
           static_cast<uint32_t>(static_cast<uint8_t>(b[o + 3])) << 24;
  };
  auto u16 = [&](size_t o) {
    return static_cast<uint16_t>(static_cast<uint8_t>(b[o]) | static_cast<uint8_t>(b[o + 1]) << 8);
  };
  WavHeader h;
  h.riff = b.substr(0, 4);
  h.riff_size = u32(4);
  h.wave = b.substr(8, 4);
  h.fmt = b.substr(12, 4);
  h.fmt_size = u32(16);
  h.format = u16(20);
  h.channels = u16(22);
  h.sample_rate = u32(24);
  h.byte_rate = u32(28);
  h.block_align = u16(32);
  h.bits = u16(34);
  h.data = b.substr(36, 4);
  h.data_size = u32(40);
  return h;
}

}  // namespace aiperf::test
