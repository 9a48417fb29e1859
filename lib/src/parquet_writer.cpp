// Streaming Parquet writer. Format references: apache/parquet-format parquet.thrift,
// Encodings.md, Compression.md; Thrift compact protocol spec. Field choices follow
// shared/reference/parquet-notes.md §3 (every Thrift-required field is written, because
// DuckDB, arrow-rs and Arrow C++ reject files that omit one).
#include "trawl/parquet_writer.h"

#include <zstd.h>
#include <snappy.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>

namespace trawl::parquet {

static_assert(std::endian::native == std::endian::little,
              "PLAIN encoding is little-endian; buffers are copied to pages as they are");

namespace {

// Values from parquet.thrift.
enum PhysicalType : std::int32_t { kBoolean = 0, kInt32 = 1, kInt64 = 2, kByteArray = 6 };
enum Encoding : std::int32_t { kPlain = 0, kRle = 3, kRleDictionary = 8 };
enum PageType : std::int32_t { kDataPage = 0, kDictionaryPage = 2 };
enum Codec : std::int32_t { kUncompressed = 0, kSnappy = 1, kZstd = 6 };
constexpr std::int32_t kConvertedUtf8 = 0;
constexpr std::int32_t kRequired = 0;

// Pages of about 1 MiB keep readers' per-page buffers small (the common writer default).
constexpr std::size_t kPageBytes = 1 << 20;
// A dictionary larger than this rarely pays off and would make one page huge; fall back to PLAIN.
constexpr std::size_t kMaxDictionaryBytes = 1 << 20;
// After this many values, a dictionary holding more than 3/4 distinct values is dropped early:
// hashing every value of a high-cardinality column (match_region) only costs time. Late enough
// that a vocabulary of a few thousand pattern ids has shown its repeats.
constexpr std::size_t kDictionaryProbeValues = 16384;
// Longer string bounds are left out of the statistics rather than truncated (notes §3.8): they
// bloat the footer and nobody prunes on a 100 kbp match_region.
constexpr std::size_t kMaxStatBytes = 128;
constexpr std::size_t kMaxPageBytes = std::numeric_limits<std::int32_t>::max();

[[noreturn]] void fail(const std::string& message) {
  throw std::runtime_error("parquet writer: " + message);
}

std::int32_t physical_type(Type t) {
  switch (t) {
    case Type::int32: return kInt32;
    case Type::int64: return kInt64;
    case Type::utf8: return kByteArray;
    case Type::boolean: return kBoolean;
  }
  return kByteArray;
}

const char* type_name(Type t) {
  switch (t) {
    case Type::int32: return "int32";
    case Type::int64: return "int64";
    case Type::utf8: return "utf8";
    case Type::boolean: return "boolean";
  }
  return "?";
}

std::int32_t codec_id(Compression c) {
  switch (c) {
    case Compression::none: return kUncompressed;
    case Compression::snappy: return kSnappy;
    case Compression::zstd: return kZstd;
  }
  return kUncompressed;
}

std::string_view as_chars(const std::uint8_t* p, std::size_t n) {
  return {reinterpret_cast<const char*>(p), n};
}

std::uint32_t read_u32le(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

void append(detail::Bytes& out, std::string_view s) {
  out.insert(out.end(), s.begin(), s.end());
}

// A chunk's string dictionary: entries stored PLAIN-encoded back to back, so the dictionary page
// body is `data` as is; an open-addressing hash table avoids a heap node per distinct value.
struct Dictionary {
  detail::Bytes data;
  std::vector<std::uint32_t> offsets;  // start of each entry (its length prefix) in data
  std::vector<std::size_t> hashes;     // per entry, so growing the table needs no rehashing
  std::vector<std::uint32_t> slots;    // entry index + 1; 0 = empty
  std::vector<std::uint32_t> indices;  // one per value of the chunk

  std::size_t size() const { return offsets.size(); }

  std::string_view entry(std::uint32_t i) const {
    const std::size_t begin = offsets[i] + 4;
    const std::size_t end = i + 1 < offsets.size() ? offsets[i + 1] : data.size();
    return as_chars(data.data() + begin, end - begin);
  }

  void add_value(std::string_view v) {
    // Ids and strands come in runs; skip the hash for a repeat of the previous value.
    if (!indices.empty() && entry(indices.back()) == v) {
      indices.push_back(indices.back());
      return;
    }
    if (slots.empty()) slots.assign(1024, 0);
    const std::size_t h = std::hash<std::string_view>{}(v);
    const std::size_t mask = slots.size() - 1;
    for (std::size_t s = h & mask;; s = (s + 1) & mask) {
      const std::uint32_t e = slots[s];
      if (e == 0) {
        const auto index = static_cast<std::uint32_t>(offsets.size());
        offsets.push_back(static_cast<std::uint32_t>(data.size()));
        hashes.push_back(h);
        detail::put_u32le(data, static_cast<std::uint32_t>(v.size()));
        append(data, v);
        slots[s] = index + 1;
        if (offsets.size() * 2 > slots.size()) grow();
        indices.push_back(index);
        return;
      }
      if (hashes[e - 1] == h && entry(e - 1) == v) {
        indices.push_back(e - 1);
        return;
      }
    }
  }

  void grow() {
    slots.assign(slots.size() * 2, 0);
    const std::size_t mask = slots.size() - 1;
    for (std::uint32_t i = 0; i < offsets.size(); ++i) {
      std::size_t s = hashes[i] & mask;
      while (slots[s] != 0) s = (s + 1) & mask;
      slots[s] = i + 1;
    }
  }

  void clear() {
    data.clear();
    offsets.clear();
    hashes.clear();
    indices.clear();
    std::fill(slots.begin(), slots.end(), 0);
  }
};

// The buffered values of one column for the current row group. Buffers keep their capacity
// across row groups, so steady state allocates nothing per value.
struct ColumnState {
  Column column;
  std::size_t count = 0;  // values buffered in this row group
  std::vector<std::int32_t> i32;
  std::vector<std::int64_t> i64;
  std::vector<std::uint8_t> bools;  // one byte per value, bit-packed when the page is written
  detail::Bytes plain;              // utf8 values PLAIN-encoded, when not dictionary-encoded
  std::uint64_t string_bytes = 0;   // sum of utf8 value lengths
  bool use_dictionary = false;
  // Set once a dictionary did not pay off: trawl's columns keep their character through a file,
  // so later chunks of that column go straight to PLAIN instead of hashing every value again.
  bool dictionary_disabled = false;
  Dictionary dictionary;
};

// What footer metadata needs from a written column chunk.
struct ChunkInfo {
  std::int64_t data_page_offset = -1;
  std::int64_t dictionary_page_offset = -1;
  std::int64_t uncompressed = 0;  // page headers included, as ColumnMetaData requires
  std::int64_t compressed = 0;
  bool has_min_max = false;
  std::string_view min, max;  // PLAIN bytes of the bounds (strings without length prefix)
  std::uint8_t min_buf[8] = {}, max_buf[8] = {};
};

}  // namespace

std::optional<Compression> parse_compression(std::string_view name) {
  if (name == "zstd") return Compression::zstd;
  if (name == "snappy") return Compression::snappy;
  if (name == "none") return Compression::none;
  return std::nullopt;
}

std::string_view compression_name(Compression c) {
  switch (c) {
    case Compression::none: return "none";
    case Compression::snappy: return "snappy";
    case Compression::zstd: return "zstd";
  }
  return "?";
}

// ----------------------------------------------------------------------------------------------
// Encoding building blocks

namespace detail {

void put_uvarint(Bytes& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

void put_u32le(Bytes& out, std::uint32_t v) {
  const std::uint8_t b[4] = {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8),
                             static_cast<std::uint8_t>(v >> 16),
                             static_cast<std::uint8_t>(v >> 24)};
  out.insert(out.end(), b, b + 4);
}

int bit_width(std::uint32_t max_value) { return static_cast<int>(std::bit_width(max_value)); }

namespace {

void put_rle_run(Bytes& out, std::uint32_t value, std::size_t count, int width) {
  put_uvarint(out, static_cast<std::uint64_t>(count) << 1);
  for (int b = 0; b < width; b += 8) out.push_back(static_cast<std::uint8_t>(value >> b));
}

// Bit-packs n values (LSB first) in groups of 8; only the final run of a page may need padding.
void put_bit_packed(Bytes& out, const std::uint32_t* v, std::size_t n, int width) {
  const std::size_t groups = (n + 7) / 8;
  put_uvarint(out, (static_cast<std::uint64_t>(groups) << 1) | 1);
  std::uint64_t acc = 0;
  int bits = 0;
  for (std::size_t i = 0; i < groups * 8; ++i) {
    acc |= static_cast<std::uint64_t>(i < n ? v[i] : 0) << bits;
    bits += width;
    while (bits >= 8) {
      out.push_back(static_cast<std::uint8_t>(acc));
      acc >>= 8;
      bits -= 8;
    }
  }
}

}  // namespace

void rle_hybrid_encode(Bytes& out, const std::uint32_t* v, std::size_t n, int width) {
  // Values not yet emitted always form the contiguous range [pending, i), so a bit-packed run is
  // packed straight from the input. Before an RLE run, the pending values must fill whole groups
  // of 8; the run lends the values needed to pad them.
  std::size_t pending = 0;
  std::size_t i = 0;
  while (i < n) {
    std::size_t j = i + 1;
    while (j < n && v[j] == v[i]) ++j;
    const std::size_t pad = (8 - (i - pending) % 8) % 8;
    if (j - i >= pad + 8) {
      if (i + pad > pending) put_bit_packed(out, v + pending, i + pad - pending, width);
      put_rle_run(out, v[i], j - i - pad, width);
      pending = j;
    }
    i = j;
  }
  if (pending < n) put_bit_packed(out, v + pending, n - pending, width);
}

bool is_valid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    // ASCII fast path, 8 bytes at a time (ids and sequences are nearly always ASCII).
    if (end - p >= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      if ((w & 0x8080808080808080ULL) == 0) {
        p += 8;
        continue;
      }
    }
    const unsigned char c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    int extra;
    std::uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
      cp = c & 0x07;
    } else {
      return false;  // continuation byte, overlong 2-byte lead, or beyond U+10FFFF
    }
    if (end - p <= extra) return false;
    for (int k = 1; k <= extra; ++k) {
      if ((p[k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (p[k] & 0x3F);
    }
    if ((extra == 2 && cp < 0x800) || (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;  // overlong, out of range, or a surrogate
    p += extra + 1;
  }
  return true;
}

// ThriftWriter ---------------------------------------------------------------------------------

void ThriftWriter::field_header(std::int16_t id, std::uint8_t type) {
  const int delta = id - last_id_;
  if (delta > 0 && delta <= 15) {
    out_.push_back(static_cast<std::uint8_t>((delta << 4) | type));
  } else {
    out_.push_back(type);
    put_uvarint(out_, zigzag(id));
  }
  last_id_ = id;
}

void ThriftWriter::push() {
  stack_.push_back(last_id_);
  last_id_ = 0;
}

void ThriftWriter::field_i32(std::int16_t id, std::int32_t v) {
  field_header(id, kI32);
  put_uvarint(out_, zigzag(v));
}

void ThriftWriter::field_i64(std::int16_t id, std::int64_t v) {
  field_header(id, kI64);
  put_uvarint(out_, zigzag(v));
}

void ThriftWriter::field_bool(std::int16_t id, bool v) { field_header(id, v ? kTrue : kFalse); }

void ThriftWriter::field_binary(std::int16_t id, std::string_view v) {
  field_header(id, kBinary);
  put_uvarint(out_, v.size());
  append(out_, v);
}

void ThriftWriter::begin_struct(std::int16_t id) {
  field_header(id, kStruct);
  push();
}

void ThriftWriter::begin_list(std::int16_t id, std::uint8_t elem_type, std::size_t size) {
  field_header(id, kList);
  if (size <= 14) {
    out_.push_back(static_cast<std::uint8_t>((size << 4) | elem_type));
  } else {
    out_.push_back(static_cast<std::uint8_t>(0xF0 | elem_type));
    put_uvarint(out_, size);
  }
}

void ThriftWriter::elem_i32(std::int32_t v) { put_uvarint(out_, zigzag(v)); }

void ThriftWriter::elem_binary(std::string_view v) {
  put_uvarint(out_, v.size());
  append(out_, v);
}

void ThriftWriter::begin_elem_struct() { push(); }

void ThriftWriter::end_struct() {
  out_.push_back(0);
  if (!stack_.empty()) {
    last_id_ = stack_.back();
    stack_.pop_back();
  }
}

}  // namespace detail

// ----------------------------------------------------------------------------------------------
// Writer

using detail::Bytes;
using detail::ThriftWriter;

struct Writer::Impl {
  ByteSink& out;
  std::vector<ColumnState> columns;
  Compression compression;
  std::vector<std::pair<std::string, std::string>> key_value_metadata;
  std::size_t row_group_rows;
  std::size_t row_group_bytes;
  std::string created_by;

  std::size_t rows_in_group = 0;
  std::size_t buffered_bytes = 0;
  std::uint64_t total_rows = 0;
  std::uint64_t offset = 0;  // bytes written so far = file offset of the next byte
  Bytes row_groups_meta;     // serialized RowGroup structs, spliced into the footer at close
  std::size_t num_row_groups = 0;
  enum class State { open, closed, failed } state = State::open;

  Bytes page, compressed, header;  // scratch, reused for every page
  std::unique_ptr<ZSTD_CCtx, std::size_t (*)(ZSTD_CCtx*)> zstd{nullptr, ZSTD_freeCCtx};

  Impl(ByteSink& sink, Compression c) : out(sink), compression(c) {}

  void emit(const void* data, std::size_t n) {
    out.write(data, n);
    offset += n;
  }

  ColumnState& column(std::size_t col, Type type, const char* call) {
    if (state != State::open) fail(std::string(call) + " called after close() or a failed write");
    if (col >= columns.size())
      fail(std::string(call) + ": column index " + std::to_string(col) + " out of range (" +
           std::to_string(columns.size()) + " columns)");
    ColumnState& c = columns[col];
    if (c.column.type != type)
      fail(std::string(call) + ": column '" + c.column.name + "' has type " +
           type_name(c.column.type));
    if (c.count != rows_in_group)
      fail(std::string(call) + ": column '" + c.column.name + "' already has a value in row " +
           std::to_string(total_rows));
    return c;
  }

  // One page: header, then the (compressed) body. Sizes in the header are per page; the chunk
  // totals include header bytes.
  void write_page(std::int32_t page_type, const std::uint8_t* body, std::size_t size,
                  std::size_t num_values, std::int32_t encoding, ChunkInfo& info) {
    const std::uint8_t* data = body;
    std::size_t stored = size;
    if (compression == Compression::zstd) {
      if (!zstd) {
        zstd.reset(ZSTD_createCCtx());
        if (!zstd) fail("cannot create a zstd context");
      }
      compressed.resize(ZSTD_compressBound(size));
      stored = ZSTD_compressCCtx(zstd.get(), compressed.data(), compressed.size(), body, size,
                                 ZSTD_CLEVEL_DEFAULT);
      if (ZSTD_isError(stored)) fail(std::string("zstd: ") + ZSTD_getErrorName(stored));
      data = compressed.data();
    } else if (compression == Compression::snappy) {
      compressed.resize(snappy::MaxCompressedLength(size));
      snappy::RawCompress(reinterpret_cast<const char*>(body), size,
                          reinterpret_cast<char*>(compressed.data()), &stored);
      data = compressed.data();
    }
    if (size > kMaxPageBytes || stored > kMaxPageBytes)
      fail("a page exceeds 2 GiB (a single value that large cannot be stored)");

    header.clear();
    ThriftWriter h(header);
    h.field_i32(1, page_type);
    h.field_i32(2, static_cast<std::int32_t>(size));
    h.field_i32(3, static_cast<std::int32_t>(stored));
    if (page_type == kDataPage) {
      h.begin_struct(5);
      h.field_i32(1, static_cast<std::int32_t>(num_values));
      h.field_i32(2, encoding);
      h.field_i32(3, kRle);  // level encodings are required even though no levels are stored
      h.field_i32(4, kRle);
      h.end_struct();
      if (info.data_page_offset < 0) info.data_page_offset = static_cast<std::int64_t>(offset);
    } else {
      h.begin_struct(7);
      h.field_i32(1, static_cast<std::int32_t>(num_values));
      h.field_i32(2, kPlain);
      h.end_struct();
      info.dictionary_page_offset = static_cast<std::int64_t>(offset);
    }
    h.end_struct();

    emit(header.data(), header.size());
    emit(data, stored);
    info.uncompressed += static_cast<std::int64_t>(header.size() + size);
    info.compressed += static_cast<std::int64_t>(header.size() + stored);
  }

  void write_fixed_width_pages(const void* values, std::size_t n, std::size_t width,
                               ChunkInfo& info) {
    const auto* p = static_cast<const std::uint8_t*>(values);
    const std::size_t per_page = kPageBytes / width;
    for (std::size_t i = 0; i < n; i += per_page) {
      const std::size_t k = std::min(per_page, n - i);
      write_page(kDataPage, p + i * width, k * width, k, kPlain, info);
    }
  }

  template <class T>
  void set_int_stats(const std::vector<T>& v, std::size_t n, ChunkInfo& info) {
    const auto [lo, hi] = std::minmax_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n));
    std::memcpy(info.min_buf, &*lo, sizeof(T));
    std::memcpy(info.max_buf, &*hi, sizeof(T));
    info.min = as_chars(info.min_buf, sizeof(T));
    info.max = as_chars(info.max_buf, sizeof(T));
    info.has_min_max = true;
  }

  void set_string_stats(std::string_view lo, std::string_view hi, ChunkInfo& info) {
    if (lo.size() > kMaxStatBytes || hi.size() > kMaxStatBytes) return;
    info.min = lo;
    info.max = hi;
    info.has_min_max = true;
  }

  // Turns the dictionary-encoded values back into PLAIN (when the dictionary grew too large or
  // does not pay off); the column then stays PLAIN for the rest of the file.
  static void drop_dictionary(ColumnState& c) {
    c.dictionary_disabled = true;
    c.plain.clear();
    for (const std::uint32_t index : c.dictionary.indices) {
      const std::string_view v = c.dictionary.entry(index);
      detail::put_u32le(c.plain, static_cast<std::uint32_t>(v.size()));
      append(c.plain, v);
    }
    c.dictionary.clear();
    c.use_dictionary = false;
  }

  void write_string_chunk(ColumnState& c, ChunkInfo& info) {
    const std::size_t n = c.count;
    // Bit width >= 1 even for a one-entry dictionary: width 0 is legal but a needless edge case.
    const int width = c.use_dictionary ? std::max(1, detail::bit_width(static_cast<std::uint32_t>(
                                                         c.dictionary.size() - 1)))
                                       : 0;
    if (c.use_dictionary) {
      // Keep the dictionary only if it beats PLAIN before compression (bit-packed size as bound).
      const std::uint64_t dictionary_cost = c.dictionary.data.size() + (n * width + 7) / 8;
      if (dictionary_cost >= 4 * n + c.string_bytes) drop_dictionary(c);
    }
    if (c.use_dictionary) {
      const Dictionary& d = c.dictionary;
      std::string_view lo = d.entry(0), hi = lo;
      for (std::uint32_t i = 1; i < d.size(); ++i) {
        lo = std::min(lo, d.entry(i));
        hi = std::max(hi, d.entry(i));
      }
      set_string_stats(lo, hi, info);
      write_page(kDictionaryPage, d.data.data(), d.data.size(), d.size(), kPlain, info);
      const std::size_t per_page = std::max<std::size_t>(8, kPageBytes * 8 / width / 8 * 8);
      for (std::size_t i = 0; i < n; i += per_page) {
        const std::size_t k = std::min(per_page, n - i);
        page.clear();
        page.push_back(static_cast<std::uint8_t>(width));
        detail::rle_hybrid_encode(page, d.indices.data() + i, k, width);
        write_page(kDataPage, page.data(), page.size(), k, kRleDictionary, info);
      }
      return;
    }
    // PLAIN: pages are slices of the buffer, cut at value boundaries after about kPageBytes.
    const std::uint8_t* p = c.plain.data();
    const std::size_t size = c.plain.size();
    std::string_view lo, hi;
    bool first = true;
    for (std::size_t pos = 0; pos < size;) {
      const std::size_t start = pos;
      std::size_t k = 0;
      do {
        const std::uint32_t len = read_u32le(p + pos);
        const std::string_view v = as_chars(p + pos + 4, len);
        if (first || v < lo) lo = v;
        if (first || v > hi) hi = v;
        first = false;
        pos += 4 + len;
        ++k;
      } while (pos < size && pos - start < kPageBytes);
      write_page(kDataPage, p + start, pos - start, k, kPlain, info);
    }
    set_string_stats(lo, hi, info);
  }

  void write_chunk(ColumnState& c, ChunkInfo& info) {
    const std::size_t n = c.count;
    switch (c.column.type) {
      case Type::int32:
        set_int_stats(c.i32, n, info);
        write_fixed_width_pages(c.i32.data(), n, 4, info);
        break;
      case Type::int64:
        set_int_stats(c.i64, n, info);
        write_fixed_width_pages(c.i64.data(), n, 8, info);
        break;
      case Type::boolean: {
        const bool any_true = std::find(c.bools.begin(), c.bools.end(), 1) != c.bools.end();
        const bool any_false = std::find(c.bools.begin(), c.bools.end(), 0) != c.bools.end();
        info.min_buf[0] = any_false ? 0 : 1;
        info.max_buf[0] = any_true ? 1 : 0;
        info.min = as_chars(info.min_buf, 1);
        info.max = as_chars(info.max_buf, 1);
        info.has_min_max = true;
        const std::size_t per_page = kPageBytes * 8;
        for (std::size_t i = 0; i < n; i += per_page) {
          const std::size_t k = std::min(per_page, n - i);
          page.assign((k + 7) / 8, 0);
          for (std::size_t j = 0; j < k; ++j)
            page[j >> 3] |= static_cast<std::uint8_t>(c.bools[i + j] << (j & 7));
          write_page(kDataPage, page.data(), page.size(), k, kPlain, info);
        }
        break;
      }
      case Type::utf8:
        write_string_chunk(c, info);
        break;
    }
  }

  void reset(ColumnState& c) {
    c.count = 0;
    c.i32.clear();
    c.i64.clear();
    c.bools.clear();
    c.plain.clear();
    c.string_bytes = 0;
    c.dictionary.clear();
    c.use_dictionary = c.column.type == Type::utf8 && !c.dictionary_disabled;
  }

  // Writes the buffered rows as one row group and records its metadata for the footer.
  void flush_row_group() {
    const auto group_offset = static_cast<std::int64_t>(offset);
    std::int64_t group_uncompressed = 0, group_compressed = 0;
    ThriftWriter w(row_groups_meta);
    w.begin_list(1, ThriftWriter::kStruct, columns.size());
    for (ColumnState& c : columns) {
      ChunkInfo info;
      write_chunk(c, info);
      group_uncompressed += info.uncompressed;
      group_compressed += info.compressed;
      const bool dictionary = info.dictionary_page_offset >= 0;

      w.begin_elem_struct();  // ColumnChunk
      w.field_i64(2, 0);      // file_offset: deprecated, but required by the Thrift IDL
      w.begin_struct(3);      // ColumnMetaData
      w.field_i32(1, physical_type(c.column.type));
      if (dictionary) {
        w.begin_list(2, ThriftWriter::kI32, 3);
        w.elem_i32(kPlain);  // the dictionary page
        w.elem_i32(kRle);
        w.elem_i32(kRleDictionary);
      } else {
        w.begin_list(2, ThriftWriter::kI32, 2);
        w.elem_i32(kPlain);
        w.elem_i32(kRle);  // declared level encoding (no levels are stored)
      }
      w.begin_list(3, ThriftWriter::kBinary, 1);
      w.elem_binary(c.column.name);
      w.field_i32(4, codec_id(compression));
      w.field_i64(5, static_cast<std::int64_t>(c.count));
      w.field_i64(6, info.uncompressed);
      w.field_i64(7, info.compressed);
      w.field_i64(9, info.data_page_offset);
      if (dictionary) w.field_i64(11, info.dictionary_page_offset);
      w.begin_struct(12);  // Statistics
      w.field_i64(3, 0);   // null_count
      if (info.has_min_max) {
        w.field_binary(5, info.max);
        w.field_binary(6, info.min);
      }
      w.end_struct();
      w.end_struct();
      w.end_struct();
      reset(c);
    }
    w.field_i64(2, group_uncompressed);  // total_byte_size
    w.field_i64(3, static_cast<std::int64_t>(rows_in_group));
    w.field_i64(5, group_offset);  // file_offset of the first page
    w.field_i64(6, group_compressed);
    w.end_struct();
    ++num_row_groups;
    rows_in_group = 0;
    buffered_bytes = 0;
  }

  void write_footer() {
    Bytes meta;
    ThriftWriter w(meta);
    w.field_i32(1, 1);  // version
    w.begin_list(2, ThriftWriter::kStruct, columns.size() + 1);
    w.begin_elem_struct();  // root of the (flat) schema tree
    w.field_binary(4, "schema");
    w.field_i32(5, static_cast<std::int32_t>(columns.size()));
    w.end_struct();
    for (const ColumnState& c : columns) {
      w.begin_elem_struct();
      w.field_i32(1, physical_type(c.column.type));
      w.field_i32(3, kRequired);
      w.field_binary(4, c.column.name);
      if (c.column.type == Type::utf8) {
        // Both annotations: DuckDB reads VARCHAR only via converted_type, others prefer logicalType.
        w.field_i32(6, kConvertedUtf8);
        w.begin_struct(10);  // LogicalType union
        w.begin_struct(1);   // STRING: StringType {}
        w.end_struct();
        w.end_struct();
      }
      w.end_struct();
    }
    w.field_i64(3, static_cast<std::int64_t>(total_rows));
    w.begin_list(4, ThriftWriter::kStruct, num_row_groups);
    meta.insert(meta.end(), row_groups_meta.begin(), row_groups_meta.end());
    if (!key_value_metadata.empty()) {
      w.begin_list(5, ThriftWriter::kStruct, key_value_metadata.size());
      for (const auto& [key, value] : key_value_metadata) {
        w.begin_elem_struct();
        w.field_binary(1, key);
        w.field_binary(2, value);
        w.end_struct();
      }
    }
    w.field_binary(6, created_by);
    // Declares min_value/max_value as ordered by type (signed ints, unsigned bytes, false<true).
    w.begin_list(7, ThriftWriter::kStruct, columns.size());
    for (std::size_t i = 0; i < columns.size(); ++i) {
      w.begin_elem_struct();
      w.begin_struct(1);  // TYPE_ORDER: TypeDefinedOrder {}
      w.end_struct();
      w.end_struct();
    }
    w.end_struct();

    if (meta.size() > std::numeric_limits<std::uint32_t>::max()) fail("footer exceeds 4 GiB");
    Bytes tail;
    detail::put_u32le(tail, static_cast<std::uint32_t>(meta.size()));
    append(tail, "PAR1");
    emit(meta.data(), meta.size());
    emit(tail.data(), tail.size());
  }
};

Writer::Writer(ByteSink& out, std::vector<Column> schema, Compression compression,
               std::vector<std::pair<std::string, std::string>> key_value_metadata,
               std::size_t row_group_rows, std::size_t row_group_bytes, std::string created_by)
    : impl_(std::make_unique<Impl>(out, compression)) {
  if (schema.empty()) fail("the schema has no columns");
  if (row_group_rows == 0) fail("row_group_rows must be at least 1");
  for (std::size_t i = 0; i < schema.size(); ++i) {
    const std::string& name = schema[i].name;
    if (name.empty()) fail("column " + std::to_string(i) + " has an empty name");
    if (!detail::is_valid_utf8(name)) fail("column name is not valid UTF-8");
    for (std::size_t j = 0; j < i; ++j)
      if (schema[j].name == name) fail("duplicate column name '" + name + "'");
  }
  for (const auto& [key, value] : key_value_metadata)
    if (!detail::is_valid_utf8(key) || !detail::is_valid_utf8(value))
      fail("key/value metadata '" + key + "' is not valid UTF-8");
  if (!detail::is_valid_utf8(created_by)) fail("created_by is not valid UTF-8");

  Impl& m = *impl_;
  m.key_value_metadata = std::move(key_value_metadata);
  m.row_group_rows = row_group_rows;
  m.row_group_bytes = std::max<std::size_t>(row_group_bytes, 1);
  m.created_by = std::move(created_by);
  m.columns.resize(schema.size());
  for (std::size_t i = 0; i < schema.size(); ++i) {
    m.columns[i].column = std::move(schema[i]);
    m.reset(m.columns[i]);
  }
  m.emit("PAR1", 4);
}

Writer::~Writer() = default;

void Writer::append_int32(std::size_t col, std::int32_t v) {
  ColumnState& c = impl_->column(col, Type::int32, "append_int32");
  c.i32.push_back(v);
  ++c.count;
  impl_->buffered_bytes += 4;
}

void Writer::append_int64(std::size_t col, std::int64_t v) {
  ColumnState& c = impl_->column(col, Type::int64, "append_int64");
  c.i64.push_back(v);
  ++c.count;
  impl_->buffered_bytes += 8;
}

void Writer::append_bool(std::size_t col, bool v) {
  ColumnState& c = impl_->column(col, Type::boolean, "append_bool");
  c.bools.push_back(v ? 1 : 0);
  ++c.count;
  impl_->buffered_bytes += 1;
}

void Writer::append_string(std::size_t col, std::string_view v) {
  ColumnState& c = impl_->column(col, Type::utf8, "append_string");
  if (v.size() > kMaxPageBytes - 4)
    fail("column '" + c.column.name + "': a value of " + std::to_string(v.size()) +
         " bytes exceeds the 2 GiB page limit");
  if (!detail::is_valid_utf8(v))
    fail("column '" + c.column.name + "', row " + std::to_string(impl_->total_rows) +
         ": value is not valid UTF-8");
  if (c.use_dictionary) {
    Dictionary& d = c.dictionary;
    d.add_value(v);
    if (d.data.size() > kMaxDictionaryBytes ||
        (d.indices.size() == kDictionaryProbeValues && d.size() * 4 > kDictionaryProbeValues * 3))
      Impl::drop_dictionary(c);
  } else {
    detail::put_u32le(c.plain, static_cast<std::uint32_t>(v.size()));
    append(c.plain, v);
  }
  c.string_bytes += v.size();
  ++c.count;
  impl_->buffered_bytes += 4 + v.size();
}

void Writer::end_row() {
  Impl& m = *impl_;
  if (m.state != Impl::State::open) fail("end_row called after close() or a failed write");
  for (const ColumnState& c : m.columns)
    if (c.count != m.rows_in_group + 1)
      fail("end_row: column '" + c.column.name + "' has no value in row " +
           std::to_string(m.total_rows));
  ++m.rows_in_group;
  ++m.total_rows;
  if (m.rows_in_group >= m.row_group_rows || m.buffered_bytes >= m.row_group_bytes) {
    try {
      m.flush_row_group();
    } catch (...) {
      m.state = Impl::State::failed;
      throw;
    }
  }
}

void Writer::close() {
  Impl& m = *impl_;
  if (m.state != Impl::State::open) fail("close called twice or after a failed write");
  for (const ColumnState& c : m.columns)
    if (c.count != m.rows_in_group)
      fail("close: row " + std::to_string(m.total_rows) + " is incomplete (end_row not called)");
  try {
    if (m.rows_in_group > 0) m.flush_row_group();
    m.write_footer();
    m.state = Impl::State::closed;
  } catch (...) {
    m.state = Impl::State::failed;
    throw;
  }
}

std::uint64_t Writer::rows_written() const { return impl_->total_rows; }
std::uint64_t Writer::bytes_written() const { return impl_->offset; }

}  // namespace trawl::parquet
