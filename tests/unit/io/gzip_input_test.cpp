// Plain gzip input (io/gzip_input.h): one member or several concatenated (an empty one
// included) inflate to the original bytes whatever sizes the source hands over and the reader
// asks for; a truncated stream, a wrong CRC, a wrong length and bytes after the last member
// are errors, never silently short data (zero bytes after the last member are padding).
#include <doctest/doctest.h>
#include <zlib.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>

#include "support/gzip_bytes.h"
#include "support/random_text.h"
#include "trawl/io/gzip_input.h"

using namespace trawl;
using trawl::test::gzip_member;

namespace {


// Inflates `gz` whole: the source hands over at most `piece` bytes at a time, the reader asks
// for `ask` bytes at a time.
std::string inflate_all(const std::string& gz, std::size_t piece, std::size_t ask) {
  std::size_t at = 0;
  GzipInput in([&](char* dst, std::size_t n) {
    const std::size_t take = std::min({n, piece, gz.size() - at});
    std::copy_n(gz.data() + at, take, dst);
    at += take;
    return take;
  });
  std::string out, buf(ask, '\0');
  for (std::size_t got; (got = in.read(buf.data(), ask)) > 0;) out.append(buf, 0, got);
  CHECK(in.read(buf.data(), ask) == 0);  // the end stays the end
  return out;
}

}  // namespace

TEST_CASE("gzip input: members inflate to the original bytes at every piece and read size") {
  std::mt19937_64 rng(11);
  for (const std::size_t n : {std::size_t{1}, std::size_t{999}, std::size_t{70000}, std::size_t{3000000}}) {
    CAPTURE(n);
    const std::string a = test::random_text(rng, n, "ACGTN\n@+I#"), b = test::random_text(rng, n / 2 + 1, "ACGT\n");
    const std::string one = gzip_member(a, 6);
    const std::string many = one + gzip_member("", 1) + gzip_member(b, 1) + gzip_member(a, 9);
    for (const auto& [piece, ask] : {std::pair<std::size_t, std::size_t>{1 << 20, 1 << 20}, {7, 1 << 16}, {1 << 20, 13}, {65536, 3}}) {
      if ((piece < 64 || ask < 64) && n > 70000) continue;  // byte by byte only on small inputs
      CAPTURE(piece);
      CAPTURE(ask);
      CHECK(inflate_all(one, piece, ask) == a);
      CHECK(inflate_all(many, piece, ask) == a + b + a);
    }
  }
}

TEST_CASE("gzip input: truncated, corrupt and trailing data are errors") {
  std::mt19937_64 rng(5);
  const std::string text = test::random_text(rng, 200000, "ACGT\n");
  const std::string gz = gzip_member(text, 6);
  for (const std::size_t cut : {std::size_t{0}, std::size_t{5}, std::size_t{20}, gz.size() / 2, gz.size() - 8, gz.size() - 1})
    CHECK_THROWS_WITH_AS(inflate_all(gz.substr(0, cut), 1 << 20, 1 << 20), doctest::Contains("truncated"), std::runtime_error);
  std::string bad_crc = gz;
  bad_crc[gz.size() - 8] = static_cast<char>(bad_crc[gz.size() - 8] ^ 1);
  CHECK_THROWS_WITH_AS(inflate_all(bad_crc, 1 << 20, 1 << 20), doctest::Contains("checksum"), std::runtime_error);
  std::string bad_size = gz;
  bad_size[gz.size() - 1] = static_cast<char>(bad_size[gz.size() - 1] ^ 1);
  CHECK_THROWS_AS(inflate_all(bad_size, 1 << 20, 1 << 20), std::runtime_error);
  CHECK(inflate_all(gz + std::string(1000, '\0'), 100, 1 << 20) == text);  // padding, as gzip allows
  CHECK_THROWS_WITH_AS(inflate_all(gz + std::string(10, '\0') + "junk", 1 << 20, 1 << 20), doctest::Contains("after the end"), std::runtime_error);
  CHECK_THROWS_WITH_AS(inflate_all(gz + "junk", 1 << 20, 1 << 20), doctest::Contains("after the end"), std::runtime_error);
  std::string bad_body = gz;
  for (std::size_t i = 40; i < 60; ++i) bad_body[i] = '\xff';
  CHECK_THROWS_AS(inflate_all(bad_body, 1 << 20, 1 << 20), std::runtime_error);
}
