#include "trawl/io/bgzf.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace trawl {
namespace {

// A block's input is at most this, so that even incompressible data fits the 64 KiB block
// with its header and trailer (the size htslib uses).
constexpr std::size_t kBlockInput = 0xff00;
constexpr std::size_t kHeader = 18, kTrailer = 8, kMaxBlock = 0x10000;

// ISA-L's working memory for a level, kept per thread (its size is the largest level's).
unsigned char* level_buffer() {
  thread_local std::vector<unsigned char> buf(ISAL_DEF_LVL3_DEFAULT);
  return buf.data();
}

// One raw deflate stream of data[0, n) into out[0, room); 0 if it does not fit.
std::size_t deflate_block(const char* data, std::size_t n, char* out, std::size_t room, int level) {
  isal_zstream s;
  isal_deflate_stateless_init(&s);
  s.level = static_cast<std::uint32_t>(level);
  s.level_buf = level_buffer();
  s.level_buf_size = ISAL_DEF_LVL3_DEFAULT;
  s.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(data));
  s.avail_in = static_cast<std::uint32_t>(n);
  s.next_out = reinterpret_cast<std::uint8_t*>(out);
  s.avail_out = static_cast<std::uint32_t>(room);
  s.end_of_stream = 1;
  s.flush = NO_FLUSH;
  s.gzip_flag = IGZIP_DEFLATE;
  const int rc = isal_deflate_stateless(&s);
  if (rc == STATELESS_OVERFLOW) return 0;
  if (rc != COMP_OK) throw std::invalid_argument("bgzf: compression level " + std::to_string(level));
  return s.total_out;
}

// One final stored (uncompressed) deflate block: for data that deflate would make larger.
std::size_t store_block(const char* data, std::size_t n, char* out) {
  out[0] = 1;
  const auto len = static_cast<std::uint16_t>(n), nlen = static_cast<std::uint16_t>(~n);
  out[1] = static_cast<char>(len & 0xff);
  out[2] = static_cast<char>(len >> 8);
  out[3] = static_cast<char>(nlen & 0xff);
  out[4] = static_cast<char>(nlen >> 8);
  std::memcpy(out + 5, data, n);
  return n + 5;
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
  for (std::size_t at = 0; at < data.size(); at += kBlockInput) {
    const std::size_t n = std::min(kBlockInput, data.size() - at);
    const std::size_t start = out.size();
    out.resize(start + kMaxBlock);
    char* block = out.data() + start;
    std::size_t body = deflate_block(data.data() + at, n, block + kHeader, kMaxBlock - kHeader - kTrailer, level);
    if (body == 0) body = store_block(data.data() + at, n, block + kHeader);
    const std::size_t size = kHeader + body + kTrailer;
    write_header(block, size);
    put32(block + kHeader + body, crc32_gzip_refl(0, reinterpret_cast<const unsigned char*>(data.data() + at), n));
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
