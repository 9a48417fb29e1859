#include "trawl/io/bgzf.h"

#include <libdeflate.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <algorithm>
#include <new>
#include <stdexcept>

namespace trawl {
namespace {

// A block's input is at most this, so that even incompressible data fits the 64 KiB block
// with its header and trailer (the size htslib uses).
constexpr std::size_t kBlockInput = 0xff00;
constexpr std::size_t kHeader = 18, kTrailer = 8, kMaxBlock = 0x10000;

struct CompressorFree {
  void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};

libdeflate_compressor* compressor(int level) {
  thread_local std::unique_ptr<libdeflate_compressor, CompressorFree> c;
  thread_local int c_level = -1;
  if (!c || c_level != level) {
    c.reset(libdeflate_alloc_compressor(level));
    if (!c) throw std::bad_alloc();
    c_level = level;
  }
  return c.get();
}

void put16(char* p, std::uint32_t v) {
  p[0] = static_cast<char>(v & 0xff);
  p[1] = static_cast<char>((v >> 8) & 0xff);
}
void put32(char* p, std::uint32_t v) {
  put16(p, v & 0xffff);
  put16(p + 2, v >> 16);
}

// gzip header with the BGZF extra field: subfield 'BC' holding the block size - 1.
void write_header(char* p, std::size_t block_size) {
  static constexpr unsigned char kFixed[16] = {0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, 'B', 'C', 2, 0};
  std::memcpy(p, kFixed, sizeof kFixed);
  put16(p + 16, static_cast<std::uint32_t>(block_size - 1));
}

}  // namespace

void bgzf_compress(std::string_view data, UninitializedVector<char>& out, int level) {
  libdeflate_compressor* c = compressor(level);
  for (std::size_t at = 0; at < data.size(); at += kBlockInput) {
    const std::size_t n = std::min(kBlockInput, data.size() - at);
    const std::size_t start = out.size();
    out.resize(start + kMaxBlock);
    char* block = out.data() + start;
    std::size_t body = libdeflate_deflate_compress(c, data.data() + at, n, block + kHeader,
                                                   kMaxBlock - kHeader - kTrailer);
    if (body == 0) throw std::logic_error("bgzf: a block did not fit");
    const std::size_t size = kHeader + body + kTrailer;
    write_header(block, size);
    put32(block + kHeader + body, libdeflate_crc32(0, data.data() + at, n));
    put32(block + kHeader + body + 4, static_cast<std::uint32_t>(n));
    out.resize(start + size);
  }
}

std::string_view bgzf_eof_block() {
  static constexpr char kEof[28] = {'\x1f', '\x8b', '\x08', '\x04', 0, 0, 0, 0, 0, '\xff', '\x06', 0,
                                    'B', 'C', '\x02', 0, '\x1b', 0, '\x03', 0, 0, 0, 0, 0, 0, 0, 0, 0};
  return {kEof, sizeof kEof};
}

}  // namespace trawl
