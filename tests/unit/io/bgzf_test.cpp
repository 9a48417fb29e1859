// BGZF output (io/bgzf.h): blocks made separately concatenate into one gzip stream that zlib
// reads back byte for byte; every block is a gzip member with the 'BC' extra field giving its
// size, at most 64 KiB; empty input gives no block; the end block is the standard one.
#include <doctest/doctest.h>
#include <zlib.h>

#include <random>
#include <string>

#include "support/random_text.h"
#include "trawl/io/bgzf.h"

using namespace trawl;

namespace {

// Inflates every gzip member of `bytes` in turn.
std::string gunzip_all(const UninitializedVector<char>& bytes) {
  std::string out;
  std::size_t at = 0;
  while (at < bytes.size()) {
    z_stream z{};
    REQUIRE(inflateInit2(&z, 16 + MAX_WBITS) == Z_OK);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + at));
    z.avail_in = static_cast<uInt>(bytes.size() - at);
    char buf[1 << 16];
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
      z.next_out = reinterpret_cast<Bytef*>(buf);
      z.avail_out = sizeof buf;
      rc = inflate(&z, Z_NO_FLUSH);
      REQUIRE((rc == Z_OK || rc == Z_STREAM_END));
      out.append(buf, sizeof buf - z.avail_out);
    }
    at = bytes.size() - z.avail_in;
    inflateEnd(&z);
  }
  return out;
}

}  // namespace

TEST_CASE("bgzf: separately compressed parts concatenate into the original bytes") {
  std::mt19937_64 rng(7);
  for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{0xff00}, std::size_t{0xff01}, std::size_t{300000}}) {
    CAPTURE(n);
    const std::string a = test::random_text(rng, n, "ACGT\n"), b = test::random_text(rng, n / 3 + 1, "ACGTN@+\n");
    UninitializedVector<char> out;
    bgzf_compress(a, out, 3);
    bgzf_compress(b, out, 0);
    const std::string_view eof = bgzf_eof_block();
    out.insert(out.end(), eof.begin(), eof.end());
    CHECK(gunzip_all(out) == a + b);
    // Walk the blocks by their BC field: sizes add up to the whole.
    std::size_t at = 0, blocks = 0;
    while (at < out.size()) {
      REQUIRE(at + 18 <= out.size());
      CHECK(static_cast<unsigned char>(out[at]) == 0x1f);
      CHECK(out[at + 12] == 'B');
      CHECK(out[at + 13] == 'C');
      const std::size_t size = 1 + (static_cast<unsigned char>(out[at + 16]) | static_cast<unsigned char>(out[at + 17]) << 8);
      CHECK(size <= 0x10000);
      at += size;
      ++blocks;
    }
    CHECK(at == out.size());
    CHECK(blocks == (n + 0xff00 - 1) / 0xff00 + (n / 3 + 1 + 0xff00 - 1) / 0xff00 + 1);
  }
}

TEST_CASE("bgzf: empty input adds nothing, incompressible input fits its blocks") {
  UninitializedVector<char> out;
  bgzf_compress({}, out, 3);
  CHECK(out.empty());
  std::mt19937_64 rng(3);
  std::string noise(200000, '\0');
  for (char& c : noise) c = static_cast<char>(rng());
  bgzf_compress(noise, out, 3);
  CHECK(gunzip_all(out) == noise);
  CHECK(bgzf_eof_block().size() == 28);
}
