// Unit tests of the Parquet writer: the encoding building blocks against golden bytes, and the file
// layout, decoded here with a minimal Thrift compact reader. Reader interoperability (DuckDB,
// hyparquet, arrow-rs) is tested by tests/parquet/run_crosscheck.sh.
#include <doctest/doctest.h>
#include "trawl/sinks/parquet_writer.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "support/parquet_reader.h"

namespace pq = trawl::parquet;
namespace tp = trawl::test::parquet;
using pq::detail::Bytes;

namespace {

Bytes bytes(std::initializer_list<int> v) {
  Bytes b;
  for (int x : v) b.push_back(static_cast<std::uint8_t>(x));
  return b;
}

struct MemorySink : trawl::ByteSink {
  std::string data;
  void write(const void* p, std::size_t n) override { data.append(static_cast<const char*>(p), n); }
};

// --- a minimal Thrift compact protocol reader, enough to decode what the writer emits ---------

struct TValue {
  int type = 0;
  std::int64_t i = 0;  // integers and bools
  std::string s;       // binary
  std::vector<TValue> list;
  std::vector<std::pair<int, TValue>> fields;  // struct

  bool has(int id) const {
    for (const auto& f : fields)
      if (f.first == id) return true;
    return false;
  }
  const TValue& operator[](int id) const {
    for (const auto& f : fields)
      if (f.first == id) return f.second;
    throw std::runtime_error("no field " + std::to_string(id));
  }
};

class TReader {
 public:
  TReader(const std::uint8_t* p, std::size_t n) : p_(p), end_(p + n) {}
  std::size_t consumed(const std::uint8_t* start) const { return static_cast<std::size_t>(p_ - start); }

  TValue read_struct() {
    TValue v;
    v.type = 12;
    int last = 0;
    for (;;) {
      const std::uint8_t b = byte();
      if (b == 0) break;
      const int type = b & 0x0F;
      const int id = (b >> 4) ? last + (b >> 4) : static_cast<int>(zigzag());
      last = id;
      TValue f;
      if (type == 1 || type == 2) {
        f.type = type;
        f.i = type == 1;
      } else {
        f = read_value(type);
      }
      v.fields.emplace_back(id, std::move(f));
    }
    return v;
  }

 private:
  std::uint8_t byte() {
    if (p_ >= end_) throw std::runtime_error("thrift: truncated");
    return *p_++;
  }
  std::uint64_t uvarint() {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const std::uint8_t b = byte();
      v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
  }
  std::int64_t zigzag() {
    const std::uint64_t u = uvarint();
    return static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
  }
  TValue read_value(int type) {
    TValue v;
    v.type = type;
    switch (type) {
      case 3: v.i = static_cast<std::int8_t>(byte()); break;
      case 4: case 5: case 6: v.i = zigzag(); break;
      case 8: {
        const std::size_t n = uvarint();
        for (std::size_t k = 0; k < n; ++k) v.s += static_cast<char>(byte());
        break;
      }
      case 9: case 10: {
        const std::uint8_t h = byte();
        std::size_t n = h >> 4;
        if (n == 15) n = uvarint();
        for (std::size_t k = 0; k < n; ++k) v.list.push_back(read_value(h & 0x0F));
        break;
      }
      case 12: return read_struct();
      default: throw std::runtime_error("thrift: unexpected type " + std::to_string(type));
    }
    return v;
  }

  const std::uint8_t* p_;
  const std::uint8_t* end_;
};

std::uint32_t u32_at(const std::string& s, std::size_t pos) {
  std::uint32_t v;
  std::memcpy(&v, s.data() + pos, 4);
  return v;
}

// Checks the magic bytes and footer length, and returns the decoded FileMetaData.
TValue footer(const std::string& file) {
  REQUIRE(file.size() >= 12);
  CHECK(file.compare(0, 4, "PAR1") == 0);
  CHECK(file.compare(file.size() - 4, 4, "PAR1") == 0);
  const std::uint32_t len = u32_at(file, file.size() - 8);
  REQUIRE(len + 12 <= file.size());
  const auto* start = reinterpret_cast<const std::uint8_t*>(file.data()) + file.size() - 8 - len;
  TReader r(start, len);
  TValue meta = r.read_struct();
  CHECK(r.consumed(start) == len);  // the footer length covers exactly the FileMetaData
  return meta;
}

struct Page {
  TValue header;
  std::string body;  // as stored (compressed if the chunk is)
  std::size_t end;   // offset after the page
};

Page page_at(const std::string& file, std::size_t offset) {
  const auto* start = reinterpret_cast<const std::uint8_t*>(file.data()) + offset;
  TReader r(start, file.size() - offset);
  Page p;
  p.header = r.read_struct();
  const std::size_t body = offset + r.consumed(start);
  const auto size = static_cast<std::size_t>(p.header[3].i);
  p.body = file.substr(body, size);
  p.end = body + size;
  return p;
}

// Decodes the RLE / bit-packed hybrid (reference implementation for the round-trip test).
std::vector<std::uint32_t> rle_decode(const Bytes& in, std::size_t n, int width) {
  std::vector<std::uint32_t> out;
  std::size_t pos = 0;
  auto uvarint = [&] {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const std::uint8_t b = in.at(pos++);
      v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
  };
  while (out.size() < n) {
    const std::uint64_t h = uvarint();
    if (h & 1) {
      const std::size_t count = (h >> 1) * 8;
      std::uint64_t acc = 0;
      int bits = 0;
      for (std::size_t k = 0; k < count; ++k) {
        while (bits < width) {
          acc |= static_cast<std::uint64_t>(in.at(pos++)) << bits;
          bits += 8;
        }
        out.push_back(static_cast<std::uint32_t>(acc & ((1ULL << width) - 1)));
        acc >>= width;
        bits -= width;
      }
    } else {
      std::uint32_t value = 0;
      for (int b = 0; b < width; b += 8) value |= static_cast<std::uint32_t>(in.at(pos++)) << b;
      out.insert(out.end(), h >> 1, value);
    }
  }
  CHECK(pos == in.size());
  out.resize(n);  // padding of the last bit-packed group
  return out;
}

const std::vector<pq::Column> kHitsLike = {
    {"pat_id", pq::Type::utf8}, {"cost", pq::Type::int32}, {"start", pq::Type::int64},
    {"contains", pq::Type::boolean}};

void add_row(pq::Writer& w, std::string_view id, std::int32_t cost, std::int64_t start, bool b) {
  w.append_string(0, id);
  w.append_int32(1, cost);
  w.append_int64(2, start);
  w.append_bool(3, b);
  w.end_row();
}

}  // namespace

TEST_SUITE("parquet writer") {

TEST_CASE("zigzag and varints") {
  CHECK(pq::detail::zigzag(0) == 0);
  CHECK(pq::detail::zigzag(-1) == 1);
  CHECK(pq::detail::zigzag(1) == 2);
  CHECK(pq::detail::zigzag(-2) == 3);
  CHECK(pq::detail::zigzag(std::numeric_limits<std::int64_t>::max()) == ~std::uint64_t{1});
  CHECK(pq::detail::zigzag(std::numeric_limits<std::int64_t>::min()) == ~std::uint64_t{0});

  auto varint = [](std::uint64_t v) {
    Bytes b;
    pq::detail::put_uvarint(b, v);
    return b;
  };
  CHECK(varint(0) == bytes({0x00}));
  CHECK(varint(127) == bytes({0x7F}));
  CHECK(varint(128) == bytes({0x80, 0x01}));
  CHECK(varint(50399) == bytes({0xDF, 0x89, 0x03}));  // docs/parquet.md §2
  CHECK(varint(~std::uint64_t{0}).size() == 10);

  Bytes le;
  pq::detail::put_u32le(le, 0x04030201);
  CHECK(le == bytes({1, 2, 3, 4}));
}

TEST_CASE("bit widths") {
  CHECK(pq::detail::bit_width(0) == 0);
  CHECK(pq::detail::bit_width(1) == 1);
  CHECK(pq::detail::bit_width(7) == 3);
  CHECK(pq::detail::bit_width(8) == 4);
  CHECK(pq::detail::bit_width(0xFFFFFFFF) == 32);
}

TEST_CASE("RLE / bit-packed hybrid") {
  SUBCASE("golden bit-packed run from Encodings.md") {
    const std::uint32_t v[] = {0, 1, 2, 3, 4, 5, 6, 7};
    Bytes out;
    pq::detail::rle_hybrid_encode(out, v, 8, 3);
    CHECK(out == bytes({0x03, 0x88, 0xC6, 0xFA}));
  }
  SUBCASE("a long run is one RLE run") {
    const std::vector<std::uint32_t> v(100, 5);
    Bytes out;
    pq::detail::rle_hybrid_encode(out, v.data(), v.size(), 3);
    CHECK(out == bytes({0xC8, 0x01, 0x05}));  // varint(100 << 1), value in 1 byte
  }
  SUBCASE("values wider than a byte are stored little-endian in RLE runs") {
    const std::vector<std::uint32_t> v(8, 0x1234);
    Bytes out;
    pq::detail::rle_hybrid_encode(out, v.data(), v.size(), 13);
    CHECK(out == bytes({0x10, 0x34, 0x12}));
  }
  SUBCASE("short tail is zero-padded to a group of 8") {
    const std::uint32_t v[] = {1, 0, 1};
    Bytes out;
    pq::detail::rle_hybrid_encode(out, v, 3, 1);
    CHECK(out == bytes({0x03, 0x05}));
  }
  SUBCASE("a run after unaligned values lends values to fill the group") {
    std::vector<std::uint32_t> v = {1, 2, 3};
    v.insert(v.end(), 20, 7);
    Bytes out;
    pq::detail::rle_hybrid_encode(out, v.data(), v.size(), 3);
    // 8 bit-packed values (1,2,3 + five 7s), then an RLE run of the remaining 15 sevens.
    CHECK(out.size() == 1 + 3 + 1 + 1);
    CHECK(out[0] == 0x03);
    CHECK(out[4] == 30);
    CHECK(out[5] == 7);
    CHECK(rle_decode(out, v.size(), 3) == v);
  }
  SUBCASE("random sequences round-trip") {
    std::mt19937 rng(7);  // 32-bit results
    for (int trial = 0; trial < 300; ++trial) {
      const int width = 1 + static_cast<int>(rng() % 20);
      const std::size_t n = rng() % 2000;
      std::vector<std::uint32_t> v;
      while (v.size() < n) {
        const auto value = static_cast<std::uint32_t>(rng() & ((1u << width) - 1));
        const std::size_t run = rng() % 3 == 0 ? rng() % 40 : 1;
        v.insert(v.end(), std::min(run, n - v.size()), value);
      }
      Bytes out;
      pq::detail::rle_hybrid_encode(out, v.data(), v.size(), width);
      REQUIRE(rle_decode(out, v.size(), width) == v);
    }
  }
}

TEST_CASE("Thrift compact encoder") {
  Bytes out;
  pq::detail::ThriftWriter w(out);
  using W = pq::detail::ThriftWriter;
  SUBCASE("short field headers, zigzag ints, stop byte") {
    w.field_i32(1, 1);
    w.field_i64(2, -1);
    w.field_binary(3, "ab");
    w.end_struct();
    CHECK(out == bytes({0x15, 0x02, 0x16, 0x01, 0x18, 0x02, 'a', 'b', 0x00}));
  }
  SUBCASE("bools live in the field header") {
    w.field_bool(1, true);
    w.field_bool(2, false);
    w.end_struct();
    CHECK(out == bytes({0x11, 0x12, 0x00}));
  }
  SUBCASE("a field id jump over 15 uses the long form") {
    w.field_i32(1, 0);
    w.field_i32(20, 0);
    w.end_struct();
    CHECK(out == bytes({0x15, 0x00, 0x05, 0x28, 0x00, 0x00}));
  }
  SUBCASE("nested structs restore the enclosing field id") {
    w.field_i32(1, 0);
    w.begin_struct(5);
    w.field_i32(1, 0);
    w.end_struct();
    w.field_i32(6, 0);  // delta 1 from field 5, not from the nested field 1
    w.end_struct();
    CHECK(out == bytes({0x15, 0x00, 0x4C, 0x15, 0x00, 0x00, 0x15, 0x00, 0x00}));
  }
  SUBCASE("list headers, short and long") {
    w.begin_list(1, W::kI32, 2);
    w.elem_i32(1);
    w.elem_i32(-1);
    w.begin_list(2, W::kBinary, 15);
    for (int i = 0; i < 15; ++i) w.elem_binary("");
    w.begin_list(3, W::kStruct, 1);
    w.begin_elem_struct();
    w.field_i32(1, 0);
    w.end_struct();
    w.end_struct();
    Bytes want = bytes({0x19, 0x25, 0x02, 0x01, 0x19, 0xF8, 0x0F});
    want.insert(want.end(), 15, 0x00);
    const Bytes tail = bytes({0x19, 0x1C, 0x15, 0x00, 0x00, 0x00});
    want.insert(want.end(), tail.begin(), tail.end());
    CHECK(out == want);
  }
  SUBCASE("the test reader decodes what the writer writes") {
    w.field_i64(3, std::numeric_limits<std::int64_t>::min());
    w.begin_struct(4);
    w.field_binary(2, "x");
    w.end_struct();
    w.end_struct();
    TReader r(out.data(), out.size());
    const TValue v = r.read_struct();
    CHECK(v[3].i == std::numeric_limits<std::int64_t>::min());
    CHECK(v[4][2].s == "x");
  }
}

TEST_CASE("UTF-8 validation") {
  using pq::detail::is_valid_utf8;
  CHECK(is_valid_utf8(""));
  CHECK(is_valid_utf8("ACGTACGTACGTACGTN"));
  CHECK(is_valid_utf8("é日本語🧬 and some ascii after"));
  CHECK(is_valid_utf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF
  CHECK_FALSE(is_valid_utf8("\x80"));
  CHECK_FALSE(is_valid_utf8("abcdefgh\xFF"));
  CHECK_FALSE(is_valid_utf8("\xC0\x80"));          // overlong
  CHECK_FALSE(is_valid_utf8("\xE0\x80\x80"));      // overlong
  CHECK_FALSE(is_valid_utf8("\xED\xA0\x80"));      // surrogate
  CHECK_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // > U+10FFFF
  CHECK_FALSE(is_valid_utf8("\xE6\x97"));          // truncated
  CHECK_FALSE(is_valid_utf8("\xC3("));
}

TEST_CASE("parse_compression") {
  CHECK(pq::parse_compression("zstd") == pq::Compression::zstd);
  CHECK(pq::parse_compression("snappy") == pq::Compression::snappy);
  CHECK(pq::parse_compression("none") == pq::Compression::none);
  CHECK_FALSE(pq::parse_compression("gzip"));
  CHECK_FALSE(pq::parse_compression("ZSTD"));
  CHECK(pq::compression_name(pq::Compression::snappy) == "snappy");
}

TEST_CASE("zero rows: magic, footer, schema") {
  MemorySink sink;
  pq::Writer w(sink, kHitsLike, pq::Compression::zstd, {{"k", "v"}}, 1000, 1 << 20, "trawl test");
  w.close();
  CHECK(sink.data.size() == w.bytes_written());
  const TValue meta = footer(sink.data);
  CHECK(u32_at(sink.data, sink.data.size() - 8) + 12 == sink.data.size());  // nothing but the footer
  CHECK(meta[1].i == 1);  // version
  CHECK(meta[3].i == 0);  // num_rows
  CHECK(meta[4].list.empty());
  CHECK(meta[6].s == "trawl test");
  CHECK(meta[5].list.at(0)[1].s == "k");
  CHECK(meta[5].list.at(0)[2].s == "v");
  const auto& schema = meta[2].list;
  REQUIRE(schema.size() == 5);
  CHECK(schema[0][4].s == "schema");
  CHECK(schema[0][5].i == 4);
  CHECK(schema[1][4].s == "pat_id");
  CHECK(schema[1][1].i == 6);  // BYTE_ARRAY
  CHECK(schema[1][3].i == 0);  // REQUIRED
  CHECK(schema[1][6].i == 0);  // ConvertedType UTF8
  CHECK(schema[1][10].has(1));  // LogicalType STRING
  CHECK(schema[2][1].i == 1);  // INT32
  CHECK_FALSE(schema[2].has(6));
  CHECK(schema[3][1].i == 2);  // INT64
  CHECK(schema[4][1].i == 0);  // BOOLEAN
  CHECK(meta[7].list.size() == 4);  // column_orders
  CHECK(meta[7].list[0].has(1));
}

TEST_CASE("uncompressed layout: pages, offsets, sizes, statistics") {
  MemorySink sink;
  pq::Writer w(sink, kHitsLike, pq::Compression::none, {}, 100);
  for (int i = 0; i < 10; ++i) add_row(w, i % 2 ? "b" : "a", i - 5, 1000 + i, i == 3);
  w.close();
  const TValue meta = footer(sink.data);
  CHECK(meta[3].i == 10);
  REQUIRE(meta[4].list.size() == 1);
  const TValue& group = meta[4].list[0];
  CHECK(group[3].i == 10);
  CHECK(group[5].i == 4);  // the first page follows the magic bytes
  const auto& chunks = group[1].list;
  REQUIRE(chunks.size() == 4);

  std::size_t expected_start = 4;
  std::int64_t sum_compressed = 0;
  for (const TValue& chunk : chunks) {
    CHECK(chunk[2].i == 0);  // file_offset (deprecated, required)
    const TValue& md = chunk[3];
    CHECK(md[4].i == 0);  // UNCOMPRESSED
    CHECK(md[5].i == 10);
    CHECK(md[6].i == md[7].i);
    const std::size_t first = static_cast<std::size_t>(md.has(11) ? md[11].i : md[9].i);
    CHECK(first == expected_start);  // chunks are contiguous and their sizes exact
    // Walk the chunk's pages: the sizes (headers included) must add up to total_compressed_size.
    std::size_t pos = first;
    std::int64_t values = 0;
    while (pos < first + static_cast<std::size_t>(md[7].i)) {
      const Page p = page_at(sink.data, pos);
      CHECK(p.header[2].i == p.header[3].i);
      if (p.header[1].i == 0) {
        CHECK(p.header[5][3].i == 3);  // RLE level encodings, present although unused
        CHECK(p.header[5][4].i == 3);
        values += p.header[5][1].i;
      }
      pos = p.end;
    }
    CHECK(pos == first + static_cast<std::size_t>(md[7].i));
    CHECK(values == 10);
    CHECK(md[12][3].i == 0);  // null_count
    expected_start = pos;
    sum_compressed += md[7].i;
  }
  CHECK(group[6].i == sum_compressed);
  CHECK(expected_start + u32_at(sink.data, sink.data.size() - 8) + 8 == sink.data.size());

  // pat_id: dictionary ["a", "b"], then indices 0,1,0,1,... with bit width 1.
  const TValue& pat = chunks[0][3];
  CHECK(pat[2].list.size() == 3);
  CHECK(pat[2].list[2].i == 8);  // RLE_DICTIONARY
  const Page dict = page_at(sink.data, static_cast<std::size_t>(pat[11].i));
  CHECK(dict.header[1].i == 2);
  CHECK(dict.header[7][1].i == 2);
  CHECK(dict.body == std::string("\1\0\0\0a\1\0\0\0b", 10));
  const Page idx = page_at(sink.data, static_cast<std::size_t>(pat[9].i));
  CHECK(idx.header[5][2].i == 8);
  CHECK(idx.body == std::string("\x01\x05\xAA\x02", 4));  // width 1, 2 groups: 0101...
  CHECK(pat[12][6].s == "a");
  CHECK(pat[12][5].s == "b");

  // cost: PLAIN int32 -5..4, stats as PLAIN bytes.
  const TValue& cost = chunks[1][3];
  const Page cp = page_at(sink.data, static_cast<std::size_t>(cost[9].i));
  CHECK(cp.header[5][2].i == 0);
  REQUIRE(cp.body.size() == 40);
  CHECK(static_cast<std::int32_t>(u32_at(cp.body, 0)) == -5);
  CHECK(static_cast<std::int32_t>(u32_at(cp.body, 36)) == 4);
  CHECK(static_cast<std::int32_t>(u32_at(cost[12][6].s, 0)) == -5);
  CHECK(static_cast<std::int32_t>(u32_at(cost[12][5].s, 0)) == 4);

  // start: PLAIN int64.
  const TValue& start = chunks[2][3];
  CHECK(page_at(sink.data, static_cast<std::size_t>(start[9].i)).body.size() == 80);
  CHECK(start[12][6].s.size() == 8);

  // contains: bit-packed LSB first, only row 3 true.
  const TValue& flag = chunks[3][3];
  const Page fp = page_at(sink.data, static_cast<std::size_t>(flag[9].i));
  CHECK(fp.body == std::string("\x08\x00", 2));
  CHECK(flag[12][6].s == std::string("\0", 1));
  CHECK(flag[12][5].s == "\1");
}

TEST_CASE("empty strings and a one-entry dictionary") {
  MemorySink sink;
  pq::Writer w(sink, {{"s", pq::Type::utf8}}, pq::Compression::none, {});
  for (int i = 0; i < 20; ++i) {
    w.append_string(0, "");
    w.end_row();
  }
  w.close();
  const TValue meta = footer(sink.data);
  const TValue& md = meta[4].list.at(0)[1].list.at(0)[3];
  const Page dict = page_at(sink.data, static_cast<std::size_t>(md[11].i));
  CHECK(dict.body == std::string(4, '\0'));
  const Page data = page_at(sink.data, static_cast<std::size_t>(md[9].i));
  CHECK(data.body == std::string("\x01\x28\x00", 3));  // width 1, one RLE run of 20 zeros
  CHECK(md[12][5].s.empty());
  CHECK(md[12][6].s.empty());
}

TEST_CASE("high-cardinality strings fall back to PLAIN; long bounds are left out") {
  MemorySink sink;
  pq::Writer w(sink, {{"s", pq::Type::utf8}}, pq::Compression::none, {});
  const std::string long_value(200, 'x');
  for (int i = 0; i < 30; ++i) {
    w.append_string(0, i == 7 ? long_value : "v" + std::to_string(i));
    w.end_row();
  }
  w.close();
  const TValue meta = footer(sink.data);
  const TValue& md = meta[4].list.at(0)[1].list.at(0)[3];
  CHECK_FALSE(md.has(11));
  CHECK(md[2].list.size() == 2);
  CHECK(md[12][3].i == 0);
  CHECK_FALSE(md[12].has(5));
  CHECK_FALSE(md[12].has(6));
  const Page p = page_at(sink.data, static_cast<std::size_t>(md[9].i));
  CHECK(p.header[5][2].i == 0);
  CHECK(p.body.compare(0, 6, std::string("\2\0\0\0v0", 6)) == 0);
}

TEST_CASE("many row groups, each compression") {
  for (const auto compression : {pq::Compression::none, pq::Compression::snappy, pq::Compression::zstd}) {
    CAPTURE(pq::compression_name(compression));
    MemorySink sink;
    pq::Writer w(sink, kHitsLike, compression, {}, 7);
    for (int i = 0; i < 1000; ++i) add_row(w, "p" + std::to_string(i % 13), i, -i, i % 3 == 0);
    CHECK(w.rows_written() == 1000);
    w.close();
    const TValue meta = footer(sink.data);
    CHECK(meta[3].i == 1000);
    REQUIRE(meta[4].list.size() == 143);  // 142 x 7 + 6
    std::int64_t rows = 0;
    std::int64_t next = 4;
    for (const TValue& group : meta[4].list) {
      rows += group[3].i;
      CHECK(group[5].i == next);
      for (const TValue& chunk : group[1].list) {
        const TValue& md = chunk[3];
        CHECK(md[4].i == (compression == pq::Compression::none ? 0 : compression == pq::Compression::snappy ? 1 : 6));
        CHECK(md[5].i == group[3].i);
        CHECK((md.has(11) ? md[11].i : md[9].i) == next);
        next += md[7].i;
      }
    }
    CHECK(rows == 1000);
    CHECK(meta[4].list.back()[3].i == 6);
    CHECK(static_cast<std::size_t>(next) + u32_at(sink.data, sink.data.size() - 8) + 8 == sink.data.size());
  }
}

TEST_CASE("row groups are also bounded by bytes") {
  MemorySink sink;
  pq::Writer w(sink, {{"s", pq::Type::utf8}}, pq::Compression::zstd, {}, 1 << 20, 1000);
  const std::string value(96, 'A');  // 100 buffered bytes per row
  for (int i = 0; i < 95; ++i) {
    w.append_string(0, value);
    w.end_row();
  }
  w.close();
  const TValue meta = footer(sink.data);
  REQUIRE(meta[4].list.size() == 10);
  CHECK(meta[4].list[0][3].i == 10);
  CHECK(meta[4].list[9][3].i == 5);
}

TEST_CASE("rows appended in bulk make the same file as rows appended value by value") {
  // Runs of ids across batch borders, batches of 1 row and of many, row groups cut inside a
  // batch, every compression: the bytes must be the same.
  std::mt19937_64 rng(3);
  for (const auto compression : {pq::Compression::none, pq::Compression::zstd}) {
    MemorySink by_value, bulk;
    pq::Writer wv(by_value, kHitsLike, compression, {}, 3000);
    pq::Writer wb(bulk, kHitsLike, compression, {}, 3000);
    pq::RowBatch batch;
    batch.columns.resize(kHitsLike.size());
    int row = 0;
    while (row < 20000) {
      const int n = rng() % 4 == 0 ? 1 : static_cast<int>(rng() % 2500);
      batch.clear();
      for (int i = 0; i < n; ++i, ++row) {
        const std::string id = "p" + std::to_string((row / 37) % 11);
        const auto cost = static_cast<std::int32_t>(rng() % 4);
        add_row(wv, id, cost, row, cost == 0);
        batch.columns[0].add_string(id);
        batch.columns[1].i32.push_back(cost);
        batch.columns[2].i64.push_back(row);
        batch.columns[3].bools.push_back(cost == 0);
      }
      batch.rows = static_cast<std::size_t>(n);
      wb.append_rows(batch);
    }
    wv.close();
    wb.close();
    CHECK(bulk.data == by_value.data);
    const tp::File f = tp::read_file(reinterpret_cast<const std::uint8_t*>(bulk.data.data()), bulk.data.size());
    CHECK(f.num_rows == row);
    CHECK(f.row_groups.size() == static_cast<std::size_t>((row + 2999) / 3000));
  }
}

TEST_CASE("a dictionary that outgrows its bound after its first page ends the row group") {
  // 300,000 values of 10 ids pass the dictionary probe and fill a first data page; then
  // 40,000 distinct values of 40 bytes take the dictionary past 1 MiB. The row group ends
  // there, and the column is PLAIN from the next one on; every value reads back.
  MemorySink sink;
  pq::Writer w(sink, {{"s", pq::Type::utf8}}, pq::Compression::zstd, {});
  std::vector<std::string> values;
  for (int i = 0; i < 300000; ++i) values.push_back("v" + std::to_string(i % 10));
  for (int i = 0; i < 40000; ++i) values.push_back(std::string(32, 'x') + std::to_string(10000000 + i));
  pq::RowBatch batch;
  batch.columns.resize(1);
  for (std::size_t at = 0; at < values.size(); at += 50000) {
    batch.clear();
    for (std::size_t i = at; i < std::min(values.size(), at + 50000); ++i) batch.columns[0].add_string(values[i]);
    batch.rows = std::min<std::size_t>(50000, values.size() - at);
    w.append_rows(batch);
  }
  w.close();
  const tp::File f = tp::read_file(reinterpret_cast<const std::uint8_t*>(sink.data.data()), sink.data.size());
  CHECK(f.values[0].str == values);
  REQUIRE(f.row_groups.size() == 2);
  const tp::ColumnChunk& first = f.row_groups[0].columns[0];
  CHECK(first.dictionary_entries.has_value());
  CHECK(first.dictionary_pages >= 2);
  CHECK(f.row_groups[0].num_rows < 340000);
  const tp::ColumnChunk& second = f.row_groups[1].columns[0];
  CHECK_FALSE(second.dictionary_entries.has_value());
  CHECK(second.plain_pages >= 1);
}

TEST_CASE("append_rows checks a batch before it appends any of it") {
  MemorySink sink;
  pq::Writer w(sink, kHitsLike, pq::Compression::none, {});
  pq::RowBatch batch;
  batch.columns.resize(kHitsLike.size());
  batch.columns[0].add_string("a", 2);
  batch.columns[1].i32 = {1, 2};
  batch.columns[2].i64 = {1};  // one short
  batch.columns[3].bools = {0, 1};
  batch.rows = 2;
  CHECK_THROWS_WITH_AS(w.append_rows(batch), doctest::Contains("'start' has 1 values for 2 rows"), std::runtime_error);
  batch.columns[2].i64.push_back(2);
  batch.columns[0].clear();
  batch.columns[0].add_string("\xFF", 2);
  CHECK_THROWS_WITH_AS(w.append_rows(batch), doctest::Contains("not valid UTF-8"), std::runtime_error);
  batch.columns[0].clear();
  batch.columns[0].add_string("a");
  batch.columns[0].add_string("b");
  w.append_rows(batch);  // nothing of the failed batches was appended
  batch.columns.pop_back();
  CHECK_THROWS_WITH_AS(w.append_rows(batch), doctest::Contains("3 columns for a schema of 4"), std::runtime_error);
  w.close();
  const tp::File f = tp::read_file(reinterpret_cast<const std::uint8_t*>(sink.data.data()), sink.data.size());
  CHECK(f.values[0].str == std::vector<std::string>{"a", "b"});
}

TEST_CASE("misuse throws std::runtime_error") {
  MemorySink sink;
  CHECK_THROWS_AS(pq::Writer(sink, {}, pq::Compression::none, {}), std::runtime_error);
  CHECK_THROWS_AS(pq::Writer(sink, {{"a", pq::Type::int32}, {"a", pq::Type::int64}}, pq::Compression::none, {}),
                  std::runtime_error);
  CHECK_THROWS_AS(pq::Writer(sink, {{"", pq::Type::int32}}, pq::Compression::none, {}), std::runtime_error);

  pq::Writer w(sink, kHitsLike, pq::Compression::none, {});
  CHECK_THROWS_WITH_AS(w.append_int64(1, 1), doctest::Contains("'cost' has type int32"), std::runtime_error);
  CHECK_THROWS_AS(w.append_int32(9, 1), std::runtime_error);
  CHECK_THROWS_WITH_AS(w.append_string(0, "\xFF"), doctest::Contains("not valid UTF-8"), std::runtime_error);
  w.append_string(0, "a");
  CHECK_THROWS_WITH_AS(w.append_string(0, "b"), doctest::Contains("already has a value"), std::runtime_error);
  CHECK_THROWS_WITH_AS(w.end_row(), doctest::Contains("'cost' has no value"), std::runtime_error);
  w.append_int32(1, 1);
  w.append_int64(2, 1);
  w.append_bool(3, true);
  w.end_row();
  w.append_string(0, "a");
  CHECK_THROWS_WITH_AS(w.close(), doctest::Contains("incomplete"), std::runtime_error);
  w.append_int32(1, 1);
  w.append_int64(2, 1);
  w.append_bool(3, true);
  w.end_row();
  w.close();
  CHECK(footer(sink.data)[3].i == 2);
  CHECK_THROWS_AS(w.close(), std::runtime_error);
  CHECK_THROWS_AS(w.append_string(0, "a"), std::runtime_error);
}

}  // TEST_SUITE
