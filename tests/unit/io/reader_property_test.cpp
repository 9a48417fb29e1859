// The reader as a whole against the records a stream was made from: seeded random FASTA
// (one-line and multi-line, empty records) and FASTQ streams (qualities that start with '@'
// or '>'), headers with comments, LF or CRLF, each plain, gzip and BGZF, read from a file
// (mapped and buffered, record by record and in chunks) and from stdin. The expected records
// come from the generator, not from any parser.
#include <doctest/doctest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/gzip_bytes.h"
#include "trawl/core/errors.h"
#include "trawl/io/reader.h"

using namespace trawl;

namespace {

struct Made {
  std::string bytes;
  std::vector<std::string> rows;  // "name\tsequence" of each record, as trawl names them
};

// A random stream of one format and the records it holds.
Made make_stream(std::mt19937_64& rng, bool fastq) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const std::string eol = pick(3) == 0 ? "\r\n" : "\n";
  Made m;
  const int records = pick(30);
  for (int r = 0; r < records; ++r) {
    std::string name;
    const int name_len = 1 + pick(10);
    for (int i = 0; i < name_len; ++i) name += "ACxyz019_.:|-"[pick(13)];
    std::string header = name;
    if (pick(3) == 0) header += (pick(2) ? " " : "\t") + std::string("some comment >@ here");
    std::string seq;
    const int len = pick(8) == 0 ? 0 : pick(6) == 0 ? 200 + pick(400) : 1 + pick(60);
    for (int i = 0; i < len; ++i) seq += "ACGTNacgtnRY"[pick(12)];
    m.rows.push_back(name + "\t" + seq);
    if (fastq) {
      std::string qual;
      for (int i = 0; i < len; ++i) qual += static_cast<char>(i == 0 && pick(3) == 0 ? "@>"[pick(2)] : '!' + pick(94));
      m.bytes += "@" + header + eol + seq + eol + "+" + (pick(4) == 0 ? header : "") + eol + qual + eol;
      continue;
    }
    m.bytes += ">" + header + eol;
    const int width = pick(3) == 0 ? len + 1 : 1 + pick(80);  // one line, or lines of `width`
    for (int at = 0; at < len; at += width) m.bytes += seq.substr(static_cast<std::size_t>(at), static_cast<std::size_t>(width)) + eol;
  }
  if (!m.bytes.empty() && pick(4) == 0) m.bytes.resize(m.bytes.size() - eol.size());  // no last line end
  return m;
}

std::string gzip(const std::string& bytes) { return trawl::test::gzip_member(bytes); }

// BGZF: gzip members of at most 64 KiB, each with the 'BC' extra field giving its size, and
// the empty end-of-file member.
std::string bgzf(const std::string& bytes) {
  auto put16 = [](std::string& s, unsigned v) { s += static_cast<char>(v & 255); s += static_cast<char>(v >> 8); };
  auto put32 = [&](std::string& s, std::uint32_t v) { put16(s, v & 0xFFFF); put16(s, v >> 16); };
  std::string out;
  std::size_t at = 0;
  do {
    const std::size_t n = std::min<std::size_t>(bytes.size() - at, 60000);
    z_stream z{};
    REQUIRE(deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    std::string deflated(deflateBound(&z, n) + 16, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + at));
    z.avail_in = static_cast<uInt>(n);
    z.next_out = reinterpret_cast<Bytef*>(deflated.data());
    z.avail_out = static_cast<uInt>(deflated.size());
    REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
    deflated.resize(z.total_out);
    deflateEnd(&z);
    std::string block = {'\x1f', '\x8b', '\x08', '\x04', 0, 0, 0, 0, 0, '\xff'};
    put16(block, 6);
    block += "BC";
    put16(block, 2);
    put16(block, static_cast<unsigned>(deflated.size() + 25));  // block size - 1
    block += deflated;
    put32(block, static_cast<std::uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(bytes.data() + at), static_cast<uInt>(n))));
    put32(block, static_cast<std::uint32_t>(n));
    out += block;
    at += n;
  } while (at < bytes.size());
  static const unsigned char kEof[28] = {0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, 0x42, 0x43,
                                         2, 0, 0x1b, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  out.append(reinterpret_cast<const char*>(kEof), sizeof kEof);
  return out;
}

std::vector<std::string> rows_of(const RecordBatch& b) {
  std::vector<std::string> rows;
  for (std::size_t r = 0; r < b.size(); ++r) rows.push_back(std::string(b.name(r)) + "\t" + std::string(b.seq(r)));
  return rows;
}

std::vector<std::string> read_by_record(const std::string& path, ReaderOptions options) {
  FastxReader reader({path}, options);
  RecordBatch b;
  while (reader.next(b)) {}
  return rows_of(b);
}

std::vector<std::string> read_by_chunk(const std::string& path, ReaderOptions options, std::uint64_t target) {
  FastxReader reader({path}, options);
  std::vector<std::string> rows;
  RecordBatch b, parsed;
  FastaChunk chunk;
  for (;;) {
    if (reader.next_chunk(chunk, target)) {
      for (const std::string& row : rows_of(b)) rows.push_back(row);
      b.clear();
      parsed.clear();
      FastxReader::parse_chunk(chunk, parsed);
      for (const std::string& row : rows_of(parsed)) rows.push_back(row);
      continue;
    }
    if (!reader.next(b)) break;
  }
  for (const std::string& row : rows_of(b)) rows.push_back(row);
  return rows;
}

// The same through stdin: a pipe put in place of file descriptor 0 while a thread writes.
std::vector<std::string> read_stdin(const std::string& bytes) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const int saved = ::dup(0);
  REQUIRE(::dup2(fds[0], 0) == 0);
  ::close(fds[0]);
  std::thread writer([&] {
    std::size_t at = 0;
    while (at < bytes.size()) {
      const ssize_t n = ::write(fds[1], bytes.data() + at, bytes.size() - at);
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
  });
  std::vector<std::string> rows;
  std::string error;
  try {
    rows = read_by_record("-", ReaderOptions{});
  } catch (const InputError& e) {
    error = e.what();
  }
  writer.join();
  ::dup2(saved, 0);
  ::close(saved);
  CHECK(error.empty());
  return rows;
}

}  // namespace

TEST_CASE("reader property: every stream reads back as the records it was made from") {
  std::mt19937_64 rng(20261206);
  const std::string path = "/tmp/trawl_reader_property." + std::to_string(::getpid());
  for (int iter = 0; iter < 120; ++iter) {
    const bool fastq = iter % 2 == 1;
    const Made m = make_stream(rng, fastq);
    for (int packing = 0; packing < 3; ++packing) {
      CAPTURE(iter);
      CAPTURE(packing);
      CAPTURE(m.bytes);
      const std::string bytes = packing == 0 ? m.bytes : packing == 1 ? gzip(m.bytes) : bgzf(m.bytes);
      std::ofstream(path, std::ios::binary) << bytes;
      CHECK(read_by_record(path, ReaderOptions{false, 0, true}) == m.rows);
      CHECK(read_by_record(path, ReaderOptions{false, packing == 2 ? 2 : 0, false}) == m.rows);
      for (const std::uint64_t target : {std::uint64_t{1}, std::uint64_t{97}, std::uint64_t{1} << 20})
        CHECK(read_by_chunk(path, ReaderOptions{false, 0, iter % 4 < 2}, target) == m.rows);
      if (iter % 8 < 2) CHECK(read_stdin(bytes) == m.rows);
    }
  }
  std::remove(path.c_str());
}

TEST_CASE("reader property: a stream that mixes FASTA and FASTQ records is an error naming the line, in either order") {
  std::mt19937_64 rng(7);
  const std::string path = "/tmp/trawl_reader_property_mixed." + std::to_string(::getpid());
  int checked = 0;
  for (int iter = 0; iter < 60; ++iter) {
    const bool fasta_first = iter % 2 == 0;
    const Made a = make_stream(rng, !fasta_first), b = make_stream(rng, fasta_first);
    if (a.rows.empty() || b.rows.empty() || a.bytes.back() != '\n') continue;
    const std::string bytes = a.bytes + b.bytes;
    const std::string want = fasta_first ? "a line that starts with '@' (a FASTQ record?) after FASTA records" : "a FASTA record ('>') after FASTQ records";
    for (int packing = 0; packing < 3; ++packing) {
      CAPTURE(iter);
      CAPTURE(packing);
      std::ofstream(path, std::ios::binary) << (packing == 0 ? bytes : packing == 1 ? gzip(bytes) : bgzf(bytes));
      for (const bool map_files : {true, false}) {
        std::string error;
        try {
          read_by_record(path, ReaderOptions{false, 0, map_files});
        } catch (const InputError& e) {
          error = e.what();
        }
        CHECK(error.find(want) != std::string::npos);
        try {
          read_by_chunk(path, ReaderOptions{false, 0, map_files}, 97);
          error.clear();
        } catch (const InputError& e) {
          error = e.what();
        }
        CHECK(error.find(want) != std::string::npos);
        ++checked;
      }
    }
  }
  CHECK(checked > 60);
  std::remove(path.c_str());
}
