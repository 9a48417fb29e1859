#include "support/parquet_reader.h"

#include <snappy.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace trawl::test::parquet {
namespace {

[[noreturn]] void fail(const std::string& message) {
  throw ReadError("parquet reader: " + message);
}

std::string num(std::uint64_t v) { return std::to_string(v); }

// ----------------------------------------------------------------------------------------------
// Bounds-checked cursor over a byte range.

class Cursor {
 public:
  Cursor(const std::uint8_t* p, std::size_t n) : begin_(p), p_(p), end_(p + n) {}

  std::size_t remaining() const { return static_cast<std::size_t>(end_ - p_); }
  std::size_t consumed() const { return static_cast<std::size_t>(p_ - begin_); }
  bool at_end() const { return p_ == end_; }

  std::uint8_t byte() {
    if (p_ == end_) fail("truncated data");
    return *p_++;
  }

  const std::uint8_t* take(std::uint64_t n) {
    if (n > remaining())
      fail("truncated data (" + num(n) + " bytes wanted, " + num(remaining()) + " left)");
    const std::uint8_t* p = p_;
    p_ += n;
    return p;
  }

  std::uint32_t u32le() {
    const std::uint8_t* p = take(4);
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
           static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
  }

  // ULEB128, at most 64 bits (a tenth byte may only hold the top bit).
  std::uint64_t uvarint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const std::uint8_t b = byte();
      if (shift == 63 && (b & 0x7E)) fail("varint overflows 64 bits");
      v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
    fail("varint longer than 10 bytes");
  }

  std::int64_t zigzag() {
    const std::uint64_t u = uvarint();
    return static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
  }

 private:
  const std::uint8_t* begin_;
  const std::uint8_t* p_;
  const std::uint8_t* end_;
};

// ----------------------------------------------------------------------------------------------
// Generic Thrift compact protocol decoder: any value becomes a TValue tree, then the Parquet
// structs are picked out of it by field id with type checks. Unknown fields are decoded (so
// their bytes are validated and skipped) and ignored.

enum : std::uint8_t {
  kTrue = 1, kFalse = 2, kI8 = 3, kI16 = 4, kI32 = 5, kI64 = 6, kDouble = 7,
  kBinary = 8, kList = 9, kSet = 10, kMap = 11, kStruct = 12
};
constexpr int kMaxDepth = 64;  // nesting bound, so hostile input cannot exhaust the stack

struct TField;

struct TValue {
  std::uint8_t type = 0;  // bools use kTrue for both values
  std::int64_t i = 0;     // integers and bools
  std::string bin;
  std::vector<TValue> elems;   // list/set elements; map keys and values alternate
  std::vector<TField> fields;  // struct
};

struct TField {
  std::int16_t id;
  TValue value;
};

const char* type_name(std::uint8_t t) {
  switch (t) {
    case kTrue:
    case kFalse: return "bool";
    case kI8: return "i8";
    case kI16: return "i16";
    case kI32: return "i32";
    case kI64: return "i64";
    case kDouble: return "double";
    case kBinary: return "binary";
    case kList: return "list";
    case kSet: return "set";
    case kMap: return "map";
    case kStruct: return "struct";
  }
  return "invalid";
}

TValue read_value(Cursor& c, std::uint8_t type, int depth);

TValue read_struct(Cursor& c, int depth) {
  if (depth > kMaxDepth) fail("thrift: structs nested too deeply");
  TValue v;
  v.type = kStruct;
  std::int16_t last = 0;
  for (;;) {
    const std::uint8_t h = c.byte();
    if (h == 0) return v;
    const std::uint8_t type = h & 0x0F;
    const int delta = h >> 4;
    std::int64_t id = delta ? last + delta : c.zigzag();
    if (id < std::numeric_limits<std::int16_t>::min() ||
        id > std::numeric_limits<std::int16_t>::max())
      fail("thrift: field id " + std::to_string(id) + " out of range");
    last = static_cast<std::int16_t>(id);
    for (const auto& f : v.fields)
      if (f.id == last) fail("thrift: field " + std::to_string(id) + " appears twice");
    TValue f;
    if (type == kTrue || type == kFalse) {  // the value lives in the field header
      f.type = kTrue;
      f.i = type == kTrue;
    } else if (type >= kI8 && type <= kStruct) {
      f = read_value(c, type, depth + 1);
    } else {
      fail("thrift: field " + std::to_string(id) + " has invalid type " + std::to_string(type));
    }
    v.fields.push_back({last, std::move(f)});
  }
}

void check_elem_type(std::uint8_t t) {
  if (t < kTrue || t > kStruct) fail("thrift: invalid element type " + std::to_string(t));
}

TValue read_value(Cursor& c, std::uint8_t type, int depth) {
  if (depth > kMaxDepth) fail("thrift: values nested too deeply");
  TValue v;
  v.type = type;
  switch (type) {
    case kTrue:
    case kFalse: {  // only as a list/set/map element: one byte, 1 = true, 0 or 2 = false
      v.type = kTrue;
      const std::uint8_t b = c.byte();
      if (b > 2) fail("thrift: invalid bool element " + std::to_string(b));
      v.i = b == 1;
      break;
    }
    case kI8: v.i = static_cast<std::int8_t>(c.byte()); break;
    case kI16:
    case kI32:
    case kI64: {
      v.i = c.zigzag();
      const std::int64_t lim = type == kI16   ? std::numeric_limits<std::int16_t>::max()
                               : type == kI32 ? std::numeric_limits<std::int32_t>::max()
                                              : std::numeric_limits<std::int64_t>::max();
      if (v.i > lim || v.i < -lim - 1)
        fail(std::string("thrift: ") + type_name(type) + " out of range");
      break;
    }
    case kDouble: c.take(8); break;  // Parquet metadata has no doubles we need
    case kBinary: {
      const std::uint64_t n = c.uvarint();
      const std::uint8_t* p = c.take(n);
      v.bin.assign(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n));
      break;
    }
    case kList:
    case kSet: {
      const std::uint8_t h = c.byte();
      std::uint64_t n = h >> 4;
      if (n == 15) n = c.uvarint();
      const auto elem = static_cast<std::uint8_t>(h & 0x0F);
      check_elem_type(elem);
      // Every element takes at least one byte, so this bounds the allocation too.
      if (n > c.remaining())
        fail("thrift: list of " + num(n) + " elements in " + num(c.remaining()) + " bytes");
      v.elems.reserve(static_cast<std::size_t>(n));
      for (std::uint64_t k = 0; k < n; ++k) v.elems.push_back(read_value(c, elem, depth + 1));
      break;
    }
    case kMap: {
      const std::uint64_t n = c.uvarint();
      if (n == 0) break;
      const std::uint8_t kv = c.byte();
      const auto kt = static_cast<std::uint8_t>(kv >> 4), vt = static_cast<std::uint8_t>(kv & 0x0F);
      check_elem_type(kt);
      check_elem_type(vt);
      if (n > c.remaining() / 2)
        fail("thrift: map of " + num(n) + " entries in " + num(c.remaining()) + " bytes");
      for (std::uint64_t k = 0; k < n; ++k) {
        v.elems.push_back(read_value(c, kt, depth + 1));
        v.elems.push_back(read_value(c, vt, depth + 1));
      }
      break;
    }
    case kStruct: return read_struct(c, depth);
    default: fail("thrift: invalid type " + std::to_string(type));
  }
  return v;
}

// Typed access to the fields of a decoded struct; `what` names the struct in error messages.
class Fields {
 public:
  Fields(const TValue& s, std::string what) : s_(s), what_(std::move(what)) {
    if (s.type != kStruct) fail(what_ + ": not a struct");
  }

  const TValue* find(std::int16_t id, std::uint8_t type) const {
    for (const auto& [fid, v] : s_.fields) {
      if (fid != id) continue;
      if (v.type != type)
        fail(what_ + " field " + std::to_string(id) + ": " + type_name(v.type) + " instead of " +
             type_name(type));
      return &v;
    }
    return nullptr;
  }
  const TValue& get(std::int16_t id, std::uint8_t type) const {
    const TValue* v = find(id, type);
    if (!v) fail(what_ + ": required field " + std::to_string(id) + " is missing");
    return *v;
  }

  std::int64_t i64(std::int16_t id) const { return get(id, kI64).i; }
  std::int32_t i32(std::int16_t id) const { return static_cast<std::int32_t>(get(id, kI32).i); }
  std::optional<std::int64_t> opt_i64(std::int16_t id) const {
    const TValue* v = find(id, kI64);
    return v ? std::optional<std::int64_t>(v->i) : std::nullopt;
  }
  std::optional<std::int32_t> opt_i32(std::int16_t id) const {
    const TValue* v = find(id, kI32);
    return v ? std::optional<std::int32_t>(static_cast<std::int32_t>(v->i)) : std::nullopt;
  }
  std::optional<std::string> opt_bin(std::int16_t id) const {
    const TValue* v = find(id, kBinary);
    return v ? std::optional<std::string>(v->bin) : std::nullopt;
  }
  std::optional<bool> opt_bool(std::int16_t id) const {
    const TValue* v = find(id, kTrue);
    return v ? std::optional<bool>(v->i != 0) : std::nullopt;
  }
  // A list field whose elements must all be of elem_type.
  const std::vector<TValue>* list(std::int16_t id, std::uint8_t elem_type, bool required) const {
    const TValue* v = required ? &get(id, kList) : find(id, kList);
    if (!v) return nullptr;
    for (const TValue& e : v->elems)
      if (e.type != elem_type)
        fail(what_ + " field " + std::to_string(id) + ": list of " + type_name(e.type) +
             " instead of " + type_name(elem_type));
    return &v->elems;
  }
  // The id of the single member set in a union struct.
  std::int16_t union_member() const {
    if (s_.fields.size() != 1) fail(what_ + ": a union must have exactly one member set");
    return s_.fields[0].id;
  }
  const std::string& what() const { return what_; }

 private:
  const TValue& s_;
  std::string what_;
};

// ----------------------------------------------------------------------------------------------
// Metadata

PhysicalType physical_type(std::int32_t t, const std::string& what) {
  switch (t) {
    case 0: return PhysicalType::boolean;
    case 1: return PhysicalType::int32;
    case 2: return PhysicalType::int64;
    case 6: return PhysicalType::byte_array;
  }
  fail(what + ": unsupported physical type " + std::to_string(t));
}

Statistics read_statistics(const Fields& f) {
  Statistics s;
  s.max = f.opt_bin(1);
  s.min = f.opt_bin(2);
  s.null_count = f.opt_i64(3);
  s.distinct_count = f.opt_i64(4);
  s.max_value = f.opt_bin(5);
  s.min_value = f.opt_bin(6);
  s.is_max_value_exact = f.opt_bool(7);
  s.is_min_value_exact = f.opt_bool(8);
  return s;
}

ColumnChunk read_column_chunk(const TValue& v, const std::string& what) {
  const Fields cc(v, what);
  if (cc.find(1, kBinary))
    fail(what + ": column data in another file (file_path) is not supported");
  ColumnChunk chunk;
  chunk.file_offset = cc.i64(2);
  const Fields m(cc.get(3, kStruct), what + ".meta_data");
  chunk.type = physical_type(m.i32(1), m.what());
  for (const TValue& e : *m.list(2, kI32, true))
    chunk.encodings.push_back(static_cast<std::int32_t>(e.i));
  for (const TValue& e : *m.list(3, kBinary, true)) chunk.path_in_schema.push_back(e.bin);
  chunk.codec = m.i32(4);
  chunk.num_values = m.i64(5);
  chunk.total_uncompressed_size = m.i64(6);
  chunk.total_compressed_size = m.i64(7);
  chunk.data_page_offset = m.i64(9);
  if (m.find(10, kI64)) fail(m.what() + ": index pages are not supported");
  chunk.dictionary_page_offset = m.opt_i64(11);
  if (const TValue* s = m.find(12, kStruct))
    chunk.statistics = read_statistics(Fields(*s, m.what() + ".statistics"));
  return chunk;
}

void read_schema(const Fields& meta, File& file) {
  const std::vector<TValue>& schema = *meta.list(2, kStruct, true);
  if (schema.empty()) fail("FileMetaData.schema is empty (no root element)");
  const Fields root(schema[0], "schema root");
  if (root.find(1, kI32)) fail("schema root has a physical type (a flat schema's root is a group)");
  if (const auto name = root.opt_bin(4)) file.root_name = *name;
  const std::int32_t children = root.i32(5);
  if (children < 0 || static_cast<std::size_t>(children) != schema.size() - 1)
    fail("schema root has " + std::to_string(children) + " children but " + num(schema.size() - 1) +
         " more elements follow (only flat schemas are supported)");
  for (std::size_t i = 1; i < schema.size(); ++i) {
    const Fields e(schema[i], "schema element " + num(i));
    if (const auto n = e.opt_i32(5); n && *n != 0)
      fail(e.what() + ": nested groups are not supported");
    SchemaColumn col;
    col.type = physical_type(e.i32(1), e.what());
    if (e.i32(3) != 0) fail(e.what() + ": only REQUIRED columns are supported");
    col.name = e.get(4, kBinary).bin;
    col.converted_type = e.opt_i32(6);
    if (const TValue* lt = e.find(10, kStruct))
      col.logical_type = Fields(*lt, e.what() + ".logicalType").union_member();
    file.columns.push_back(std::move(col));
  }
}

// ----------------------------------------------------------------------------------------------
// Pages

struct Decoder {
  explicit Decoder(const Limits& l) : limits(l) {}

  const Limits& limits;
  std::uint64_t string_bytes = 0;
  std::vector<std::uint8_t> scratch;  // decompressed page body

  // Returns the uncompressed page body (pointing into the file when the codec is UNCOMPRESSED).
  std::pair<const std::uint8_t*, std::size_t> decompress(std::int32_t codec,
                                                         const std::uint8_t* body,
                                                         std::size_t stored, std::size_t size) {
    if (size > limits.max_page_bytes) fail("page of " + num(size) + " bytes exceeds the limit");
    switch (codec) {
      case kCodecUncompressed:
        if (stored != size)
          fail("uncompressed page stores " + num(stored) + " bytes but declares " + num(size));
        return {body, size};
      case kCodecSnappy: {
        std::size_t n = 0;
        const auto* in = reinterpret_cast<const char*>(body);
        if (!snappy::GetUncompressedLength(in, stored, &n)) fail("snappy: corrupt page");
        if (n != size)
          fail("snappy page decompresses to " + num(n) + " bytes, header says " + num(size));
        scratch.resize(std::max<std::size_t>(size, 1));
        if (!snappy::RawUncompress(in, stored, reinterpret_cast<char*>(scratch.data())))
          fail("snappy: corrupt page");
        return {scratch.data(), size};
      }
      case kCodecZstd: {
        // Check the frame's declared size before allocating for it.
        const unsigned long long n = ZSTD_getFrameContentSize(body, stored);
        if (n == ZSTD_CONTENTSIZE_ERROR) fail("zstd: not a zstd frame");
        if (n != ZSTD_CONTENTSIZE_UNKNOWN && n != size)
          fail("zstd frame holds " + num(n) + " bytes, page header says " + num(size));
        scratch.resize(std::max<std::size_t>(size, 1));
        const std::size_t r = ZSTD_decompress(scratch.data(), size, body, stored);
        if (ZSTD_isError(r)) fail(std::string("zstd: ") + ZSTD_getErrorName(r));
        if (r != size)
          fail("zstd page decompresses to " + num(r) + " bytes, header says " + num(size));
        return {scratch.data(), size};
      }
    }
    fail("unsupported codec " + std::to_string(codec));
  }

  void add_string(ColumnValues& out, std::string s) {
    string_bytes += s.size();
    if (string_bytes > limits.max_string_bytes) fail("decoded strings exceed the limit");
    out.str.push_back(std::move(s));
  }

  // PLAIN: exactly `count` values filling exactly [p, p + n).
  void decode_plain(PhysicalType type, const std::uint8_t* p, std::size_t n, std::size_t count,
                    ColumnValues& out) {
    Cursor c(p, n);
    switch (type) {
      case PhysicalType::int32:
        if (n / 4 != count || n % 4)
          fail("PLAIN INT32 page of " + num(n) + " bytes for " + num(count) + " values");
        for (std::size_t i = 0; i < count; ++i)
          out.i32.push_back(static_cast<std::int32_t>(c.u32le()));
        break;
      case PhysicalType::int64:
        if (n / 8 != count || n % 8)
          fail("PLAIN INT64 page of " + num(n) + " bytes for " + num(count) + " values");
        for (std::size_t i = 0; i < count; ++i) {
          const std::uint64_t lo = c.u32le(), hi = c.u32le();
          out.i64.push_back(static_cast<std::int64_t>(lo | hi << 32));
        }
        break;
      case PhysicalType::boolean:
        // Bit-packed LSB first, no length prefix; only the last byte may be partly used.
        if (n != count / 8 + (count % 8 != 0))
          fail("PLAIN BOOLEAN page of " + num(n) + " bytes for " + num(count) + " values");
        for (std::size_t i = 0; i < count; ++i) out.boolean.push_back((p[i / 8] >> (i % 8)) & 1);
        c.take(n);
        break;
      case PhysicalType::byte_array:
        if (count > n / 4)
          fail("PLAIN BYTE_ARRAY page of " + num(n) + " bytes for " + num(count) + " values");
        for (std::size_t i = 0; i < count; ++i) {
          const std::uint32_t len = c.u32le();
          const std::uint8_t* s = c.take(len);
          add_string(out, std::string(reinterpret_cast<const char*>(s), len));
        }
        break;
    }
    if (!c.at_end())
      fail("PLAIN page has " + num(c.remaining()) + " bytes after its " + num(count) + " values");
  }

  // RLE / bit-packed hybrid of `count` values of `width` bits, filling exactly [p, p + n).
  // The writer pads only the last bit-packed group and emits no run past the last value, so
  // either is an error here.
  static void decode_hybrid(const std::uint8_t* p, std::size_t n, int width, std::size_t count,
                            std::vector<std::uint32_t>& out) {
    Cursor c(p, n);
    const std::uint64_t mask = (std::uint64_t{1} << width) - 1;
    const std::size_t value_bytes = static_cast<std::size_t>(width + 7) / 8;
    out.clear();
    while (out.size() < count) {
      const std::size_t left = count - out.size();
      const std::uint64_t h = c.uvarint();
      if (h & 1) {  // bit-packed: (h >> 1) groups of 8 values
        const std::uint64_t groups = h >> 1;
        if (groups == 0) fail("empty bit-packed run");
        if (groups > left / 8 + 1 || (groups - 1) * 8 >= left)
          fail("bit-packed run of " + num(groups * 8) + " values where " + num(left) + " remain");
        const std::uint8_t* q = c.take(groups * static_cast<std::uint64_t>(width));
        std::uint64_t acc = 0;
        int bits = 0;
        const std::size_t take = std::min<std::size_t>(left, static_cast<std::size_t>(groups * 8));
        for (std::size_t k = 0; k < take; ++k) {
          while (bits < width) {
            acc |= static_cast<std::uint64_t>(*q++) << bits;
            bits += 8;
          }
          out.push_back(static_cast<std::uint32_t>(acc & mask));
          acc >>= width;
          bits -= width;
        }
      } else {  // RLE: (h >> 1) copies of one value
        const std::uint64_t run = h >> 1;
        if (run == 0) fail("empty RLE run");
        if (run > left) fail("RLE run of " + num(run) + " values where " + num(left) + " remain");
        const std::uint8_t* q = c.take(value_bytes);
        std::uint64_t v = 0;
        for (std::size_t b = 0; b < value_bytes; ++b)
          v |= static_cast<std::uint64_t>(q[b]) << (8 * b);
        if (v > mask)
          fail("RLE value " + num(v) + " wider than " + std::to_string(width) + " bits");
        out.insert(out.end(), static_cast<std::size_t>(run), static_cast<std::uint32_t>(v));
      }
    }
    if (!c.at_end())
      fail("RLE/bit-packed data has " + num(c.remaining()) + " bytes after its values");
  }

  static void append_from_dictionary(PhysicalType type, const ColumnValues& dict,
                                     const std::vector<std::uint32_t>& indices, std::size_t entries,
                                     Decoder& d, ColumnValues& out) {
    for (const std::uint32_t i : indices) {
      if (i >= entries)
        fail("dictionary index " + num(i) + " out of range (" + num(entries) + " entries)");
      switch (type) {
        case PhysicalType::int32: out.i32.push_back(dict.i32[i]); break;
        case PhysicalType::int64: out.i64.push_back(dict.i64[i]); break;
        case PhysicalType::boolean: out.boolean.push_back(dict.boolean[i]); break;
        case PhysicalType::byte_array: d.add_string(out, dict.str[i]); break;
      }
    }
  }

  // Decodes the pages of one column chunk, checking them against its metadata, and appends the
  // values to `out`.
  void read_chunk(const std::uint8_t* file, ColumnChunk& chunk, const std::string& what,
                  ColumnValues& out) {
    const auto start = static_cast<std::size_t>(chunk.start());
    Cursor pages(file + start, static_cast<std::size_t>(chunk.total_compressed_size));
    ColumnValues dict;
    std::size_t dict_entries = 0;
    std::vector<std::uint32_t> indices;
    std::uint64_t values = 0, uncompressed = 0;
    bool used_plain = false;
    while (!pages.at_end()) {
      const std::size_t offset = start + pages.consumed();
      const std::string where = what + ", page at offset " + num(offset);
      const std::size_t before = pages.consumed();
      const TValue header = read_struct(pages, 0);
      const std::size_t header_bytes = pages.consumed() - before;
      const Fields h(header, where + " (PageHeader)");
      const std::int32_t page_type = h.i32(1);
      const std::int32_t size = h.i32(2), stored = h.i32(3);
      if (size < 0 || stored < 0) fail(where + ": negative page size");
      const std::uint8_t* body = pages.take(static_cast<std::size_t>(stored));
      uncompressed += header_bytes + static_cast<std::uint64_t>(size);

      if (page_type == 2) {  // DICTIONARY_PAGE: at most one, first, where the metadata says
        if (before != 0 || chunk.dictionary_entries)
          fail(where + ": a dictionary page must be the first page of the chunk");
        if (!chunk.dictionary_page_offset ||
            static_cast<std::size_t>(*chunk.dictionary_page_offset) != offset)
          fail(where + ": dictionary page not at ColumnMetaData.dictionary_page_offset");
        const Fields dh(h.get(7, kStruct), where + " (DictionaryPageHeader)");
        const std::int32_t n = dh.i32(1);
        const std::int32_t encoding = dh.i32(2);
        if (n < 0) fail(where + ": negative dictionary size");
        if (encoding != kEncodingPlain && encoding != kEncodingPlainDictionary)
          fail(where + ": dictionary encoding " + std::to_string(encoding) + " is not PLAIN");
        const auto [p, len] = decompress(chunk.codec, body, static_cast<std::size_t>(stored),
                                         static_cast<std::size_t>(size));
        decode_plain(chunk.type, p, len, static_cast<std::size_t>(n), dict);
        dict_entries = static_cast<std::size_t>(n);
        chunk.dictionary_entries = dict_entries;
        continue;
      }
      if (page_type != 0)
        fail(where + ": page type " + std::to_string(page_type) + " is not supported");

      // DATA_PAGE (v1)
      if (chunk.plain_pages + chunk.dictionary_pages == 0) {
        if (static_cast<std::size_t>(chunk.data_page_offset) != offset)
          fail(where + ": first data page not at ColumnMetaData.data_page_offset");
        if (chunk.dictionary_page_offset && !chunk.dictionary_entries)
          fail(where + ": dictionary_page_offset is set but the chunk has no dictionary page");
      }
      const Fields dh(h.get(5, kStruct), where + " (DataPageHeader)");
      const std::int32_t n = dh.i32(1);
      const std::int32_t encoding = dh.i32(2);
      dh.i32(3);  // definition and repetition level encodings are required fields, even
      dh.i32(4);  // though REQUIRED flat columns store no levels
      if (n < 0) fail(where + ": negative num_values");
      if (static_cast<std::uint64_t>(n) > static_cast<std::uint64_t>(chunk.num_values) - values)
        fail(where + ": pages hold more values than ColumnMetaData.num_values (" +
             num(chunk.num_values) + ")");
      const auto [p, len] = decompress(chunk.codec, body, static_cast<std::size_t>(stored),
                                       static_cast<std::size_t>(size));
      const auto count = static_cast<std::size_t>(n);
      if (encoding == kEncodingPlain) {
        decode_plain(chunk.type, p, len, count, out);
        used_plain = true;
        ++chunk.plain_pages;
      } else if (encoding == kEncodingRleDictionary || encoding == kEncodingPlainDictionary) {
        if (!chunk.dictionary_entries)
          fail(where + ": dictionary-encoded page without a dictionary page");
        // One byte of bit width, then the hybrid-encoded indices with no length prefix.
        if (len < 1) fail(where + ": dictionary-encoded page without its bit-width byte");
        const int width = p[0];
        if (width > 32) fail(where + ": bit width " + std::to_string(width) + " exceeds 32");
        decode_hybrid(p + 1, len - 1, width, count, indices);
        append_from_dictionary(chunk.type, dict, indices, dict_entries, *this, out);
        ++chunk.dictionary_pages;
      } else {
        fail(where + ": data page encoding " + std::to_string(encoding) + " is not supported");
      }
      values += count;
    }

    if (values != static_cast<std::uint64_t>(chunk.num_values))
      fail(what + ": pages hold " + num(values) + " values, ColumnMetaData.num_values is " +
           num(chunk.num_values));
    if (chunk.plain_pages + chunk.dictionary_pages == 0) fail(what + ": no data page");
    if (uncompressed != static_cast<std::uint64_t>(chunk.total_uncompressed_size))
      fail(what + ": pages (headers included) take " + num(uncompressed) +
           " bytes uncompressed, ColumnMetaData.total_uncompressed_size is " +
           num(chunk.total_uncompressed_size));
    // Every encoding used must be declared in ColumnMetaData.encodings.
    const auto declared = [&](std::int32_t e) {
      return std::find(chunk.encodings.begin(), chunk.encodings.end(), e) != chunk.encodings.end();
    };
    if ((used_plain || chunk.dictionary_entries) && !declared(kEncodingPlain) &&
        !declared(kEncodingPlainDictionary))
      fail(what + ": PLAIN is used but not listed in ColumnMetaData.encodings");
    if (chunk.dictionary_pages && !declared(kEncodingRleDictionary) &&
        !declared(kEncodingPlainDictionary))
      fail(what + ": RLE_DICTIONARY is used but not listed in ColumnMetaData.encodings");
  }
};

}  // namespace

File read_file(const std::uint8_t* data, std::size_t size, const Limits& limits) {
  if (size < 12) fail("file of " + num(size) + " bytes is too short (at least 12)");
  if (std::memcmp(data, "PAR1", 4) != 0) fail("no PAR1 magic at the start");
  if (std::memcmp(data + size - 4, "PAR1", 4) != 0) fail("no PAR1 magic at the end");
  const std::uint32_t footer_len = Cursor(data + size - 8, 4).u32le();
  if (footer_len > size - 12) fail("footer length " + num(footer_len) + " exceeds the file");
  File file;
  file.footer_offset = size - 8 - footer_len;

  Cursor footer(data + file.footer_offset, footer_len);
  const TValue meta_value = read_struct(footer, 0);
  if (!footer.at_end())
    fail("FileMetaData is followed by " + num(footer.remaining()) + " stray footer bytes");
  const Fields meta(meta_value, "FileMetaData");
  file.version = meta.i32(1);
  read_schema(meta, file);
  file.num_rows = meta.i64(3);
  if (file.num_rows < 0) fail("negative FileMetaData.num_rows");
  const std::size_t ncols = file.columns.size();

  // Row groups and their column chunks, checked against the schema and the file layout.
  std::uint64_t rows = 0, total_values = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;  // [start, end) of every chunk
  const std::vector<TValue>& groups = *meta.list(4, kStruct, true);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const Fields rg(groups[g], "row group " + num(g));
    RowGroup group;
    group.total_byte_size = rg.i64(2);
    group.num_rows = rg.i64(3);
    group.file_offset = rg.opt_i64(5);
    group.total_compressed_size = rg.opt_i64(6);
    if (const TValue* o = rg.find(7, kI16)) group.ordinal = static_cast<std::int16_t>(o->i);
    if (group.num_rows <= 0)
      fail(rg.what() + ": num_rows " + std::to_string(group.num_rows) + " (must be positive)");
    rows += static_cast<std::uint64_t>(group.num_rows);
    if (rows > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      fail("row count overflows");
    const std::vector<TValue>& chunks = *rg.list(1, kStruct, true);
    if (chunks.size() != ncols)
      fail(rg.what() + " has " + num(chunks.size()) + " column chunks for " + num(ncols) +
           " columns");
    for (std::size_t j = 0; j < ncols; ++j) {
      const std::string what = rg.what() + ", column " + num(j);
      ColumnChunk chunk = read_column_chunk(chunks[j], what);
      const SchemaColumn& col = file.columns[j];
      if (chunk.type != col.type) fail(what + ": physical type differs from the schema's");
      if (chunk.path_in_schema != std::vector<std::string>{col.name})
        fail(what + ": path_in_schema is not [name]");
      if (chunk.codec != kCodecUncompressed && chunk.codec != kCodecSnappy &&
          chunk.codec != kCodecZstd)
        fail(what + ": unsupported codec " + std::to_string(chunk.codec));
      // REQUIRED flat columns: one value per row.
      if (chunk.num_values != group.num_rows)
        fail(what + ": num_values " + std::to_string(chunk.num_values) + " but the row group has " +
             std::to_string(group.num_rows) + " rows");
      total_values += static_cast<std::uint64_t>(chunk.num_values);
      if (total_values > limits.max_values) fail("the file holds more values than the limit");
      // The chunk's pages: [dictionary_page_offset or data_page_offset, + total_compressed_size),
      // inside the data area between the leading magic and the footer.
      if (chunk.data_page_offset < 4 ||
          static_cast<std::uint64_t>(chunk.data_page_offset) >= file.footer_offset)
        fail(what + ": data_page_offset " + std::to_string(chunk.data_page_offset) +
             " outside the data area");
      if (chunk.dictionary_page_offset && (*chunk.dictionary_page_offset < 4 ||
                                           *chunk.dictionary_page_offset >= chunk.data_page_offset))
        fail(what + ": dictionary_page_offset is not before data_page_offset");
      if (chunk.total_compressed_size <= 0 || chunk.total_uncompressed_size < 0 ||
          static_cast<std::uint64_t>(chunk.total_compressed_size) >
              file.footer_offset - static_cast<std::uint64_t>(chunk.start()))
        fail(what + ": total_compressed_size " + std::to_string(chunk.total_compressed_size) +
             " outside the data area");
      ranges.emplace_back(chunk.start(), chunk.end());
      group.columns.push_back(std::move(chunk));
    }
    file.row_groups.push_back(std::move(group));
  }
  if (rows != static_cast<std::uint64_t>(file.num_rows))
    fail("row groups hold " + num(rows) + " rows, FileMetaData.num_rows is " +
         std::to_string(file.num_rows));
  std::sort(ranges.begin(), ranges.end());
  for (std::size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i].first < ranges[i - 1].second)
      fail("column chunks overlap at offset " + std::to_string(ranges[i].first));

  if (const auto* kvs = meta.list(5, kStruct, false)) {
    for (std::size_t i = 0; i < kvs->size(); ++i) {
      const Fields kv((*kvs)[i], "key_value_metadata " + num(i));
      file.key_value_metadata.emplace_back(kv.get(1, kBinary).bin, kv.opt_bin(2));
    }
  }
  file.created_by = meta.opt_bin(6);
  if (const auto* orders = meta.list(7, kStruct, false)) {
    if (orders->size() != ncols)
      fail("column_orders has " + num(orders->size()) + " entries for " + num(ncols) + " columns");
    file.column_orders.emplace();
    for (std::size_t i = 0; i < orders->size(); ++i)
      file.column_orders->push_back(Fields((*orders)[i], "column_orders " + num(i)).union_member());
  }

  // Values.
  Decoder decoder(limits);
  file.values.resize(ncols);
  for (std::size_t g = 0; g < file.row_groups.size(); ++g)
    for (std::size_t j = 0; j < ncols; ++j)
      decoder.read_chunk(data, file.row_groups[g].columns[j],
                         "row group " + num(g) + ", column " + num(j), file.values[j]);
  return file;
}

}  // namespace trawl::test::parquet
