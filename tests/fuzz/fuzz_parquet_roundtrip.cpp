// Fuzz target: bytes -> schema, writer options and rows. trawl::parquet::Writer writes them to
// memory and the independent test reader (tests/support/parquet_reader.cpp) must decode the same
// table: schema, every value, row counts, key/value metadata, created_by, and statistics equal to
// each chunk's true minimum and maximum. Names, metadata and values start as arbitrary bytes; the
// writer must reject exactly the invalid UTF-8 ones (checked against an own validator), which are
// then written repaired. Optionally a few bytes of the file are flipped afterwards, and the reader
// must decode or reject (ReadError) the result, never crash.
//
// Input layout (bytes past the end read as 0):
//   flags: bits 0-2 columns (1 + v % 6), 3-4 codec (none, snappy, zstd, zstd), 5 bulk mode
//          (only if the next byte is 'B'), 6 corrupt the file afterwards, 7 small row_group_bytes
//   ['B' when bit 5 is set]
//   row_group_rows byte, row_group_bytes byte (read differently in bulk mode, see read_header)
//   per column: type (bits 0-1) and name length (bits 2-5), then the name bytes
//   key/value count (% 4); per entry key length (% 16), key, value length (% 32), value
//   created_by length (% 32), created_by
//   when corrupting: flip count (1 + v % 4); per flip 3 bytes of offset and an xor byte
//   then the rows: normal mode reads values until the input ends (at most kMaxRows rows);
//   bulk mode generates many rows from a few parameter bytes (see read_bulk).
//
// Writer paths and how they are reached: dictionary encoding of strings and its per-chunk
// fallback to PLAIN (too many distinct values for the dictionary to pay off) need only a few
// rows; the fallback after kDictionaryProbeValues (16384) values with > 3/4 distinct, the
// fallback on a dictionary over 1 MiB, PLAIN string pages split at 1 MiB, and INT32/INT64 pages
// split at 1 MiB (262144 / 131072 values) need bulk mode. Not reached: dictionary-index pages
// split at 1 MiB (over 600,000 values in one chunk) and BOOLEAN pages split at 8 Mi values,
// too slow for a fuzz iteration; the unit tests cover the page-split logic they share.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/parquet_reader.h"
#include "trawl/io/byte_sink.h"
#include "trawl/sinks/parquet_writer.h"

namespace pq = trawl::parquet;
namespace tp = trawl::test::parquet;

namespace {

// Budgets keep one iteration in milliseconds (normal mode) or tens of them (bulk mode).
constexpr std::size_t kMaxRows = 4096;              // normal mode
constexpr std::size_t kStringBudget = 256 << 10;    // normal mode, bytes of string values
constexpr std::size_t kBulkStringBudget = 5 << 19;  // bulk mode: 2.5 MiB, over two 1 MiB pages
constexpr std::size_t kMaxStatBytes = 128;          // the writer omits longer string bounds
constexpr std::size_t kDefaultRowGroupBytes = 128 << 20;

// Reads the input front to back; past the end every byte is 0.
class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}
  bool empty() const { return p_ == end_; }
  std::uint8_t byte() { return p_ == end_ ? 0 : *p_++; }
  std::uint64_t le(int n) {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(byte()) << (8 * i);
    return v;
  }
  std::string bytes(std::size_t n) {
    n = std::min<std::size_t>(n, static_cast<std::size_t>(end_ - p_));
    std::string s(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return s;
  }

 private:
  const std::uint8_t* p_;
  const std::uint8_t* end_;
};

// UTF-8 per RFC 3629, written independently of the writer's validator: returns `s` with every
// byte that does not start a well-formed sequence (overlong forms, surrogates and code points
// above U+10FFFF are not well-formed) replaced by '?'.
std::string make_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = 0;
    std::uint32_t cp = 0, min = 0;
    if (c < 0x80)
      len = 1, cp = c;
    else if ((c & 0xE0) == 0xC0)
      len = 2, cp = c & 0x1Fu, min = 0x80;
    else if ((c & 0xF0) == 0xE0)
      len = 3, cp = c & 0x0Fu, min = 0x800;
    else if ((c & 0xF8) == 0xF0)
      len = 4, cp = c & 0x07u, min = 0x10000;
    bool ok = len > 0 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      ok = (b & 0xC0) == 0x80;
      cp = (cp << 6) | (b & 0x3Fu);
    }
    ok = ok && cp >= min && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    if (ok) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out.push_back('?');
      ++i;
    }
  }
  return out;
}

bool is_utf8(std::string_view s) { return make_utf8(s) == s; }

// Byte-wise unsigned order, as Parquet orders UTF-8 statistics.
bool bytes_less(const std::string& a, const std::string& b) {
  const int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  return c != 0 ? c < 0 : a.size() < b.size();
}

struct MemorySink : trawl::ByteSink {
  std::vector<std::uint8_t> bytes;
  void write(const void* p, std::size_t n) override {
    bytes.insert(bytes.end(), static_cast<const std::uint8_t*>(p),
                 static_cast<const std::uint8_t*>(p) + n);
  }
};

// What the input asks for.
struct Case {
  std::vector<pq::Column> raw_schema, schema;  // names as given, and repaired
  pq::Compression compression = pq::Compression::none;
  std::size_t row_group_rows = 1, row_group_bytes = kDefaultRowGroupBytes;
  std::vector<std::pair<std::string, std::string>> raw_kv, kv;
  std::string raw_created_by, created_by;
  std::vector<std::pair<std::uint32_t, std::uint8_t>> flips;  // offset, xor mask
  std::size_t rows = 0;
  std::vector<tp::ColumnValues> values;  // the table, one per column
  // String values given as invalid UTF-8: (row, raw bytes) per column, in row order.
  std::vector<std::vector<std::pair<std::size_t, std::string>>> invalid;

  std::string describe() const {
    std::string s = "compression " + std::string(pq::compression_name(compression)) +
                    ", row_group_rows " + std::to_string(row_group_rows) + ", row_group_bytes " +
                    std::to_string(row_group_bytes) + ", rows " + std::to_string(rows) +
                    ", columns";
    static const char* names[] = {"int32", "int64", "utf8", "boolean"};
    for (const auto& c : schema) s += " " + c.name + ":" + names[static_cast<int>(c.type)];
    return s;
  }
};

[[noreturn]] void mismatch(const Case& c, const std::string& what) {
  std::fprintf(stderr, "parquet round trip: %s\n  case: %s\n", what.c_str(), c.describe().c_str());
  std::abort();
}

void read_header(Input& in, Case& c, bool corrupt, bool small_bytes, bool bulk,
                 std::uint8_t flags) {
  const std::size_t ncols = 1 + (flags & 7) % 6;
  const int codec = (flags >> 3) & 3;
  c.compression = codec == 0   ? pq::Compression::none
                  : codec == 1 ? pq::Compression::snappy
                               : pq::Compression::zstd;
  const std::uint8_t rows_byte = in.byte(), bytes_byte = in.byte();
  if (bulk) {
    // Large groups reach the dictionary probe (16384 values) and page splits; smaller ones
    // carry a dictionary fallback over into later chunks.
    c.row_group_rows = (rows_byte & 1) ? std::size_t{1} << 20 : 1000 + (rows_byte >> 1) * 200u;
    if (small_bytes) c.row_group_bytes = (1 + bytes_byte) * std::size_t{16 << 10};
  } else {
    c.row_group_rows = 1 + rows_byte % 64;
    if (small_bytes) c.row_group_bytes = 1 + bytes_byte * std::size_t{8};
  }
  for (std::size_t i = 0; i < ncols; ++i) {
    const std::uint8_t t = in.byte();
    const auto type = static_cast<pq::Type>(t & 3);
    std::string raw = in.bytes((t >> 2) & 15);
    // Repaired name: valid, non-empty and unique, as the writer requires.
    std::string name = make_utf8(raw);
    if (name.empty()) name = "c" + std::to_string(i);
    for (bool unique = false; !unique;) {
      unique = true;
      for (const auto& col : c.schema)
        if (col.name == name) unique = false;
      if (!unique) name += "_" + std::to_string(i);
    }
    c.raw_schema.push_back({std::move(raw), type});
    c.schema.push_back({std::move(name), type});
  }
  const std::size_t nkv = in.byte() % 4;
  for (std::size_t i = 0; i < nkv; ++i) {
    std::string key = in.bytes(in.byte() % 16);
    std::string value = in.bytes(in.byte() % 32);
    c.kv.emplace_back(make_utf8(key), make_utf8(value));
    c.raw_kv.emplace_back(std::move(key), std::move(value));
  }
  c.raw_created_by = in.bytes(in.byte() % 32);
  c.created_by = make_utf8(c.raw_created_by);
  if (corrupt) {
    const std::size_t n = 1 + in.byte() % 4;
    for (std::size_t i = 0; i < n; ++i) {
      const auto offset = static_cast<std::uint32_t>(in.le(3));
      c.flips.emplace_back(offset, static_cast<std::uint8_t>(in.byte() | 1));
    }
  }
  c.values.resize(ncols);
  c.invalid.resize(ncols);
}

// Normal mode: values straight from the input, row by row, until it ends.
void read_rows(Input& in, Case& c) {
  std::vector<std::deque<std::string>> recent(c.schema.size());  // last values per string column
  std::size_t string_bytes = 0;
  while (!in.empty() && c.rows < kMaxRows) {
    for (std::size_t j = 0; j < c.schema.size(); ++j) {
      tp::ColumnValues& v = c.values[j];
      const std::uint8_t b = in.byte();
      switch (c.schema[j].type) {
        // Integers: odd b, the value follows; even b, a small value, so repeats and ties occur.
        case pq::Type::int32:
          v.i32.push_back(b & 1 ? static_cast<std::int32_t>(in.le(4))
                                : static_cast<std::int8_t>(b) >> 1);
          break;
        case pq::Type::int64:
          v.i64.push_back(b & 1 ? static_cast<std::int64_t>(in.le(8))
                                : static_cast<std::int8_t>(b) >> 1);
          break;
        case pq::Type::boolean: v.boolean.push_back(b & 1); break;
        case pq::Type::utf8: {
          // < 0x40: one of the column's last 16 values again (0 = the previous one, so runs form);
          // < 0xF8: a new value of (b - 0x40) % 32 bytes; else a long one (< 2048 bytes) repeating
          // a short segment, cheap in input bytes and past the 128-byte statistics limit.
          std::string raw;
          auto& last = recent[j];
          if (b < 0x40 && !last.empty()) {
            raw = last[b % last.size()];
          } else if (b < 0xF8) {
            raw = in.bytes((b - 0x40u) % 32);
          } else {
            const std::size_t len = in.le(2) % 2048;
            const std::string seg = in.bytes(1 + in.byte() % 16);
            for (std::size_t k = 0; k < len && !seg.empty(); ++k)
              raw.push_back(seg[k % seg.size()]);
          }
          if (string_bytes + raw.size() > kStringBudget) raw.clear();
          string_bytes += raw.size();
          std::string value = make_utf8(raw);
          if (value != raw) c.invalid[j].emplace_back(c.rows, raw);
          if (b >= 0x40 || last.empty()) {
            last.push_front(value);
            if (last.size() > 16) last.pop_back();
          }
          v.str.push_back(std::move(value));
          break;
        }
      }
    }
    ++c.rows;
  }
}

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Bulk mode: a row count class, a seed and one parameter byte per column generate the rows.
// The page-split row counts take a few hundred ms, so only one exact byte value selects each.
void read_bulk(Input& in, Case& c) {
  const std::uint8_t rc = in.byte();
  if (rc == 0xF2)
    c.rows = 131072 + 1000;  // two INT64 pages
  else if (rc == 0xF3)
    c.rows = 262144 + 1000;  // two INT32 pages
  else if (rc & 1)
    c.rows = 16383 + (rc >> 1) % 4;  // around the dictionary probe
  else
    c.rows = 1 + in.le(2) % 6000;
  std::uint64_t seed = in.le(4);
  std::vector<std::uint8_t> param(c.schema.size());
  std::size_t string_row_bytes = 0;
  static const std::size_t lengths[4] = {0, 40, 300, 2100};  // 2100: a dictionary passes 1 MiB
  for (std::size_t j = 0; j < c.schema.size(); ++j) {
    param[j] = in.byte();
    if (c.schema[j].type == pq::Type::utf8) string_row_bytes += lengths[(param[j] >> 3) & 3] + 24;
  }
  if (string_row_bytes) c.rows = std::min(c.rows, kBulkStringBudget / string_row_bytes);
  // Distinct values of a string column; 12288 vs 12289 sits on the probe's 3/4 threshold.
  const std::uint64_t cardinality[8] = {
      1, 2, 1000, 12288, 12289, 16384, std::uint64_t{1} << 62, 1 + seed % 40000};
  for (std::size_t j = 0; j < c.schema.size(); ++j) {
    const std::uint8_t p = param[j];
    tp::ColumnValues& v = c.values[j];
    std::uint64_t rng = seed + j;
    for (std::size_t i = 0; i < c.rows; ++i) {
      const std::uint64_t r = splitmix(rng);
      switch (c.schema[j].type) {
        case pq::Type::int32: {
          const std::int64_t x = (p & 3) == 0   ? static_cast<std::int64_t>(r)
                                 : (p & 3) == 1 ? static_cast<std::int64_t>(i)
                                 : (p & 3) == 2 ? static_cast<std::int8_t>(p)
                                                : static_cast<std::int64_t>(r % 17) - 8;
          v.i32.push_back(static_cast<std::int32_t>(x));
          break;
        }
        case pq::Type::int64:
          v.i64.push_back((p & 3) == 0   ? static_cast<std::int64_t>(r)
                          : (p & 3) == 1 ? static_cast<std::int64_t>(i)
                          : (p & 3) == 2 ? static_cast<std::int8_t>(p)
                                         : static_cast<std::int64_t>(r % 17) - 8);
          break;
        case pq::Type::boolean:
          v.boolean.push_back((p & 3) == 0   ? (r & 1) != 0
                              : (p & 3) == 1 ? true
                              : (p & 3) == 2 ? false
                                             : i % 3 == 0);
          break;
        case pq::Type::utf8: {
          const std::uint64_t card = cardinality[p & 7];
          const std::uint64_t k = (p & 32) ? i % card : r % card;
          // A two-byte prefix (U+00E9) sorts after ASCII only under unsigned byte order.
          std::string s = (p & 64) ? "\xC3\xA9" : "";
          s += std::to_string(k);
          while (s.size() < lengths[(p >> 3) & 3])
            s.push_back(static_cast<char>('a' + (s.size() + k) % 26));
          v.str.push_back(std::move(s));
          break;
        }
      }
    }
  }
}

// Writes the case; every failure of the writer on valid input is a bug.
std::vector<std::uint8_t> write(const Case& c) {
  // Invalid names or metadata must be rejected up front.
  bool raw_valid = is_utf8(c.raw_created_by);
  for (std::size_t i = 0; i < c.raw_schema.size(); ++i) {
    const std::string& name = c.raw_schema[i].name;
    raw_valid = raw_valid && !name.empty() && is_utf8(name);
    for (std::size_t k = 0; k < i; ++k) raw_valid = raw_valid && c.raw_schema[k].name != name;
  }
  for (const auto& [key, value] : c.raw_kv) raw_valid = raw_valid && is_utf8(key) && is_utf8(value);
  if (!raw_valid) {
    MemorySink sink;
    try {
      pq::Writer w(sink, c.raw_schema, c.compression, c.raw_kv, c.row_group_rows, c.row_group_bytes,
                   c.raw_created_by);
      mismatch(c, "the writer accepted a bad column name, key/value or created_by");
    } catch (const std::runtime_error&) {
    }
  }

  MemorySink sink;
  try {
    pq::Writer w(sink, c.schema, c.compression, c.kv, c.row_group_rows, c.row_group_bytes,
                 c.created_by);
    std::vector<std::size_t> next_invalid(c.schema.size(), 0);
    for (std::size_t r = 0; r < c.rows; ++r) {
      for (std::size_t j = 0; j < c.schema.size(); ++j) {
        const tp::ColumnValues& v = c.values[j];
        switch (c.schema[j].type) {
          case pq::Type::int32: w.append_int32(j, v.i32[r]); break;
          case pq::Type::int64: w.append_int64(j, v.i64[r]); break;
          case pq::Type::boolean: w.append_bool(j, v.boolean[r]); break;
          case pq::Type::utf8: {
            const auto& invalid = c.invalid[j];
            std::size_t& k = next_invalid[j];
            if (k < invalid.size() && invalid[k].first == r) {
              bool rejected = false;
              try {
                w.append_string(j, invalid[k].second);
              } catch (const std::runtime_error&) {
                rejected = true;
              }
              if (!rejected)
                mismatch(c, "the writer accepted invalid UTF-8 in row " + std::to_string(r));
              ++k;
            }
            w.append_string(j, v.str[r]);
            break;
          }
        }
      }
      w.end_row();
    }
    w.close();
    if (w.rows_written() != c.rows)
      mismatch(c, "rows_written() is " + std::to_string(w.rows_written()));
    if (w.bytes_written() != sink.bytes.size())
      mismatch(c, "bytes_written() is " + std::to_string(w.bytes_written()) + ", the sink got " +
                      std::to_string(sink.bytes.size()));
  } catch (const std::exception& e) {
    mismatch(c, std::string("the writer failed on valid input: ") + e.what());
  }
  return std::move(sink.bytes);
}

std::string le_bytes(std::uint64_t v, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s.push_back(static_cast<char>(v >> (8 * i)));
  return s;
}

// The PLAIN bytes of the smallest and largest value of rows [a, b) of column j.
std::pair<std::string, std::string> true_bounds(const Case& c, std::size_t j, std::size_t a,
                                                std::size_t b) {
  const tp::ColumnValues& v = c.values[j];
  switch (c.schema[j].type) {
    case pq::Type::int32: {
      const auto [lo, hi] = std::minmax_element(v.i32.begin() + a, v.i32.begin() + b);
      return {le_bytes(static_cast<std::uint32_t>(*lo), 4),
              le_bytes(static_cast<std::uint32_t>(*hi), 4)};
    }
    case pq::Type::int64: {
      const auto [lo, hi] = std::minmax_element(v.i64.begin() + a, v.i64.begin() + b);
      return {le_bytes(static_cast<std::uint64_t>(*lo), 8),
              le_bytes(static_cast<std::uint64_t>(*hi), 8)};
    }
    case pq::Type::boolean: {
      const bool any_false =
          std::find(v.boolean.begin() + a, v.boolean.begin() + b, false) != v.boolean.begin() + b;
      const bool any_true =
          std::find(v.boolean.begin() + a, v.boolean.begin() + b, true) != v.boolean.begin() + b;
      return {std::string(1, any_false ? '\0' : '\1'), std::string(1, any_true ? '\1' : '\0')};
    }
    case pq::Type::utf8: {
      const auto [lo, hi] = std::minmax_element(v.str.begin() + a, v.str.begin() + b, bytes_less);
      return {*lo, *hi};
    }
  }
  return {};
}

// Bytes of row r: `plain` as PLAIN stores it (a whole byte per boolean), `raw` the value bytes
// alone. The writer's row-group size estimate lies between the two.
std::pair<std::size_t, std::size_t> row_bytes(const Case& c, std::size_t r) {
  std::size_t plain = 0, raw = 0;
  for (std::size_t j = 0; j < c.schema.size(); ++j) {
    switch (c.schema[j].type) {
      case pq::Type::int32: plain += 4, raw += 4; break;
      case pq::Type::int64: plain += 8, raw += 8; break;
      case pq::Type::boolean: plain += 1; break;
      case pq::Type::utf8:
        plain += 4 + c.values[j].str[r].size(), raw += c.values[j].str[r].size();
        break;
    }
  }
  return {plain, raw};
}

// The first index where a and b differ (a.size() if a is b's prefix); 0 when both are empty.
template <class V>
std::size_t first_difference(const V& a, const V& b) {
  return static_cast<std::size_t>(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first -
                                  a.begin());
}

void check(const Case& c, const tp::File& f) {
  const std::size_t ncols = c.schema.size();
  if (f.version != 1) mismatch(c, "FileMetaData.version is " + std::to_string(f.version));
  // Schema.
  if (f.columns.size() != ncols)
    mismatch(c, std::to_string(f.columns.size()) + " columns read back");
  for (std::size_t j = 0; j < ncols; ++j) {
    const tp::SchemaColumn& col = f.columns[j];
    const bool utf8 = c.schema[j].type == pq::Type::utf8;
    static const tp::PhysicalType physical[] = {tp::PhysicalType::int32, tp::PhysicalType::int64,
                                                tp::PhysicalType::byte_array,
                                                tp::PhysicalType::boolean};
    if (col.name != c.schema[j].name)
      mismatch(c, "column " + std::to_string(j) + " is named '" + col.name + "'");
    if (col.type != physical[static_cast<int>(c.schema[j].type)])
      mismatch(c, "column " + std::to_string(j) + " has the wrong physical type");
    // Strings carry both annotations (ConvertedType UTF8 and LogicalType STRING), others none.
    if (col.converted_type !=
            (utf8 ? std::optional<std::int32_t>(tp::kConvertedUtf8) : std::nullopt) ||
        col.logical_type != (utf8 ? std::optional<std::int16_t>(1) : std::nullopt))
      mismatch(c, "column " + std::to_string(j) + " has the wrong type annotations");
  }
  // File-level metadata.
  if (f.num_rows < 0 || static_cast<std::uint64_t>(f.num_rows) != c.rows)
    mismatch(c, "FileMetaData.num_rows is " + std::to_string(f.num_rows));
  if (f.key_value_metadata.size() != c.kv.size()) mismatch(c, "key/value metadata count differs");
  for (std::size_t i = 0; i < c.kv.size(); ++i)
    if (f.key_value_metadata[i].first != c.kv[i].first ||
        f.key_value_metadata[i].second != c.kv[i].second)
      mismatch(c, "key/value metadata entry " + std::to_string(i) + " differs");
  if (f.created_by != c.created_by) mismatch(c, "created_by differs");
  if (!f.column_orders || *f.column_orders != std::vector<std::int16_t>(ncols, 1))
    mismatch(c, "column_orders is not TypeDefinedOrder for every column (statistics are written)");

  // Row groups: bounded by rows and bytes, chunks back to back from offset 4 to the footer,
  // statistics equal to the true bounds.
  std::size_t row = 0;
  std::int64_t offset = 4;
  for (std::size_t g = 0; g < f.row_groups.size(); ++g) {
    const tp::RowGroup& rg = f.row_groups[g];
    const std::string where = "row group " + std::to_string(g);
    const auto n = static_cast<std::size_t>(rg.num_rows);
    if (n > c.row_group_rows || n > c.rows - row)
      mismatch(c, where + " has " + std::to_string(n) + " rows");
    std::size_t plain = 0, raw_before_last = 0;
    for (std::size_t r = row; r < row + n; ++r) {
      const auto [p, raw] = row_bytes(c, r);
      plain += p;
      if (r + 1 < row + n) raw_before_last += raw;
    }
    if (raw_before_last >= c.row_group_bytes) mismatch(c, where + " goes on past row_group_bytes");
    if (g + 1 < f.row_groups.size() && n < c.row_group_rows && plain < c.row_group_bytes)
      mismatch(c, where + " ends before row_group_rows or row_group_bytes is reached");
    std::int64_t compressed = 0, uncompressed = 0;
    if (rg.file_offset && *rg.file_offset != offset)
      mismatch(c, where + ": file_offset differs from its first page");
    for (std::size_t j = 0; j < ncols; ++j) {
      const tp::ColumnChunk& ch = rg.columns[j];
      const std::string at = where + ", column " + std::to_string(j);
      if (ch.start() != offset) mismatch(c, at + ": the chunk does not follow the previous one");
      offset = ch.end();
      compressed += ch.total_compressed_size;
      uncompressed += ch.total_uncompressed_size;
      static const std::int32_t codecs[] = {tp::kCodecUncompressed, tp::kCodecSnappy,
                                            tp::kCodecZstd};
      if (ch.codec != codecs[static_cast<int>(c.compression)]) mismatch(c, at + ": wrong codec");
      const bool has_dictionary = ch.dictionary_entries.has_value();
      const bool declares_dictionary = std::find(ch.encodings.begin(), ch.encodings.end(),
                                                 tp::kEncodingRleDictionary) != ch.encodings.end();
      if (has_dictionary != declares_dictionary)
        mismatch(c, at + ": encodings list RLE_DICTIONARY wrongly");
      if (has_dictionary && c.schema[j].type != pq::Type::utf8)
        mismatch(c, at + ": a dictionary for a non-string column");
      if (!ch.statistics) mismatch(c, at + ": no statistics");
      const tp::Statistics& s = *ch.statistics;
      if (s.null_count != 0) mismatch(c, at + ": null_count is not 0");
      if (s.min || s.max) mismatch(c, at + ": deprecated min/max are written");
      // min_value/max_value must be the exact bounds (so min <= every value <= max). Strings may
      // leave them out, but only when a bound is longer than the writer's limit.
      const auto [lo, hi] = true_bounds(c, j, row, row + n);
      if (s.min_value.has_value() != s.max_value.has_value())
        mismatch(c, at + ": only one bound is written");
      if (!s.min_value) {
        if (c.schema[j].type != pq::Type::utf8 ||
            (lo.size() <= kMaxStatBytes && hi.size() <= kMaxStatBytes))
          mismatch(c, at + ": min_value/max_value are missing");
      } else if (*s.min_value != lo || *s.max_value != hi) {
        mismatch(c, at + ": min_value/max_value are not the chunk's smallest and largest value");
      }
    }
    if (rg.total_byte_size != uncompressed)
      mismatch(c, where + ": total_byte_size differs from its chunks' sum");
    if (rg.total_compressed_size && *rg.total_compressed_size != compressed)
      mismatch(c, where + ": total_compressed_size differs from its chunks' sum");
    row += n;
  }
  if (row != c.rows) mismatch(c, "row groups hold " + std::to_string(row) + " rows");
  if (static_cast<std::uint64_t>(offset) != f.footer_offset)
    mismatch(c, "bytes between the last chunk and the footer");

  // Values.
  for (std::size_t j = 0; j < ncols; ++j) {
    if (f.values[j] == c.values[j]) continue;
    const tp::ColumnValues& got = f.values[j];
    const tp::ColumnValues& want = c.values[j];
    const std::size_t r = std::max(
        {first_difference(got.i32, want.i32), first_difference(got.i64, want.i64),
         first_difference(got.str, want.str), first_difference(got.boolean, want.boolean)});
    mismatch(c, "column " + std::to_string(j) + " ('" + c.schema[j].name + "') differs from row " +
                    std::to_string(r));
  }
}

// Decodes the input into a case (layout at the top of the file).
Case read_case(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const std::uint8_t flags = in.byte();
  // Bulk iterations are slow; a marker byte keeps random mutations from landing there often.
  const bool bulk = (flags & 32) && in.byte() == 'B';
  const bool corrupt = flags & 64, small_bytes = flags & 128;
  Case c;
  read_header(in, c, corrupt, small_bytes, bulk, flags);
  if (bulk)
    read_bulk(in, c);
  else
    read_rows(in, c);
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Case c = read_case(data, size);
  std::vector<std::uint8_t> file = write(c);
  // Tighter than the defaults: a fuzz iteration has no business with more.
  tp::Limits limits;
  limits.max_values = std::uint64_t{1} << 22;
  limits.max_page_bytes = std::uint64_t{64} << 20;
  limits.max_string_bytes = std::uint64_t{64} << 20;
  try {
    check(c, tp::read_file(file.data(), file.size(), limits));
  } catch (const tp::ReadError& e) {
    mismatch(c, std::string("the test reader rejects the writer's file: ") + e.what());
  }

  if (!c.flips.empty()) {
    for (const auto& [offset, mask] : c.flips) file[offset % file.size()] ^= mask;
    try {
      tp::read_file(file.data(), file.size(), limits);
    } catch (const tp::ReadError&) {
      // rejected, as designed; anything else escaping is a bug
    }
  }
  return 0;
}
