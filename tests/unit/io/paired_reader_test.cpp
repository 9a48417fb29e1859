// Paired-end input (ReaderOptions::mates): two mate files are read in lock-step and come
// out interleaved (record 2i mate 1, 2i + 1 mate 2), as an interleaved input does; mates are
// checked as they are read: names must agree once a comment and a trailing /1 or /2 are
// off, both files must end together (and an interleaved input hold whole pairs), and the
// two files must be one format. Each failure is an InputError naming the files and pair.
// Mates are read whole (no open sequence), chunks are never offered, and -v's input_of
// says which file a record came from.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/temp_dir.h"
#include "trawl/core/errors.h"
#include "trawl/io/reader.h"

using namespace trawl;
using trawl::test::TempDir;

namespace {

ReaderOptions mates(MateLayout layout, bool map_files = true) {
  ReaderOptions o;
  o.mates = layout;
  o.map_files = map_files;
  return o;
}

// "name\tseq" per record read; the InputError's message where one came (records before it
// are kept).
struct Read {
  std::vector<std::string> rows;
  std::string error;
};

Read read_all(const std::vector<std::string>& paths, ReaderOptions options) {
  Read out;
  FastxReader reader(paths, options);
  RecordBatch b;
  try {
    while (reader.next(b, 3)) {  // (a small limit: mates are read whole all the same)
      CHECK_FALSE(reader.sequence_open());
    }
  } catch (const InputError& e) {
    out.error = e.what();
  }
  for (std::size_t r = 0; r < b.size(); ++r) out.rows.push_back(std::string(b.name(r)) + "\t" + std::string(b.seq(r)));
  return out;
}

}  // namespace

TEST_CASE("paired reader: two files in lock-step, mate 1 then mate 2, mapped or buffered") {
  const TempDir dir("trawl_paired");
  const std::string r1 = dir.write("r1.fq", "@a/1\nACGT\n+\nIIII\n@b/1 x\nCC\n+\nII\n@c\nGGGG\n+\nIIII\n");
  const std::string r2 = dir.write("r2.fq", "@a/2\nTTTT\n+\nIIII\n@b/2 y\nAA\n+\nII\n@c comment\nA\n+\nI\n");
  for (const bool map : {true, false}) {
    CAPTURE(map);
    const Read got = read_all({r1, r2}, mates(MateLayout::two_files, map));
    CHECK(got.error.empty());
    CHECK(got.rows == std::vector<std::string>{"a/1\tACGT", "a/2\tTTTT", "b/1\tCC", "b/2\tAA", "c\tGGGG", "c\tA"});
  }
}

TEST_CASE("paired reader: FASTA mate files, one-line and multi-line, long mates whole") {
  const TempDir dir("trawl_paired");
  const std::string long_seq(5000, 'A');
  const std::string r1 = dir.write("r1.fa", ">p1\n" + long_seq + "\n>p2\nAC\nGT\n");
  const std::string r2 = dir.write("r2.fa", ">p1\nC\nC\n>p2\n" + long_seq + "\n");
  const Read got = read_all({r1, r2}, mates(MateLayout::two_files));
  CHECK(got.error.empty());
  CHECK(got.rows == std::vector<std::string>{"p1\t" + long_seq, "p1\tCC", "p2\tACGT", "p2\t" + long_seq});
}

TEST_CASE("paired reader: no chunks, and input_of says which mate file") {
  const TempDir dir("trawl_paired");
  const std::string r1 = dir.write("r1.fa", ">a\nACGT\n>b\nACGT\n");
  const std::string r2 = dir.write("r2.fa", ">a\nTTTT\n>b\nTTTT\n");
  FastxReader reader({r1, r2}, mates(MateLayout::two_files));
  FastaChunk chunk;
  CHECK_FALSE(reader.next_chunk(chunk, 1 << 20));
  RecordBatch b;
  while (reader.next(b)) {}
  CHECK(b.size() == 4);
  CHECK(reader.records_read() == 4);
  CHECK(reader.input_of(0) == 0);
  CHECK(reader.input_of(1) == 1);
  CHECK(reader.input_of(2) == 0);
  CHECK(reader.input_of(3) == 1);
  CHECK(reader.inputs() == std::vector<std::string>{r1, r2});
}

TEST_CASE("paired reader: names agree without a comment and a trailing /1 or /2") {
  const TempDir dir("trawl_paired");
  const std::string r1 = dir.write("r1.fa", ">x/1 one\nA\n>y/2\nA\n>z\nA\n");
  const std::string r2 = dir.write("r2.fa", ">x/2 two\nC\n>y/1\nC\n>z/2\nC\n");
  CHECK(read_all({r1, r2}, mates(MateLayout::two_files)).error.empty());
  ReaderOptions full = mates(MateLayout::two_files);
  full.full_header = true;  // the comment is in the name, and still not compared
  const Read got = read_all({r1, r2}, full);
  CHECK(got.error.empty());
  CHECK(got.rows.front() == "x/1 one\tA");
}

TEST_CASE("paired reader: names that differ are an error naming both files and the pair") {
  const TempDir dir("trawl_paired");
  const std::string r1 = dir.write("r1.fa", ">a/1\nA\n>b/1\nA\n>c/1\nA\n");
  const std::string r2 = dir.write("r2.fa", ">a/2\nC\n>bb/2\nC\n>c/2\nC\n");
  const Read got = read_all({r1, r2}, mates(MateLayout::two_files));
  CHECK(got.error == r1 + " and " + r2 + ": pair 2: mate names differ: 'b' and 'bb' "
                                         "(names must agree without a comment and a trailing /1 or /2)");
  CHECK(got.rows.size() == 4);  // the second pair is read, and nothing after it
  // (/3 is not a mate suffix.)
  const std::string r3 = dir.write("r3.fa", ">a/3\nC\n");
  const std::string r4 = dir.write("r4.fa", ">a/1\nC\n");
  CHECK(read_all({r3, r4}, mates(MateLayout::two_files)).error.find("pair 1: mate names differ: 'a/3' and 'a'") !=
        std::string::npos);
}

TEST_CASE("paired reader: mate files of unequal length") {
  const TempDir dir("trawl_paired");
  const std::string two = dir.write("two.fq", "@a\nA\n+\nI\n@b\nA\n+\nI\n");
  const std::string three = dir.write("three.fq", "@a\nA\n+\nI\n@b\nA\n+\nI\n@c\nA\n+\nI\n\n");
  SUBCASE("the first ends first") {
    const Read got = read_all({two, three}, mates(MateLayout::two_files));
    CHECK(got.error == two + " and " + three + ": " + two + " ends after 2 records but " + three +
                           " has more: the mate files must hold the same number");
    CHECK(got.rows.size() == 4);
  }
  SUBCASE("the second ends first") {
    const Read got = read_all({three, two}, mates(MateLayout::two_files));
    CHECK(got.error == three + " and " + two + ": " + two + " ends after 2 records but " + three +
                           " has more: the mate files must hold the same number");
    CHECK(got.rows.size() == 5);
  }
  SUBCASE("an empty file against one that is not") {
    const std::string empty = dir.write("empty.fq", "");
    CHECK(read_all({empty, two}, mates(MateLayout::two_files)).error.find(empty + " ends after 0 records") !=
          std::string::npos);
    CHECK(read_all({empty, empty}, mates(MateLayout::two_files)).error.empty());
  }
}

TEST_CASE("paired reader: a mate file cut inside its last record") {
  const TempDir dir("trawl_paired");
  const std::string r1 = dir.write("r1.fq", "@a\nACGT\n+\nIIII\n@b\nACGT\n+\nIIII\n");
  const std::string r2 = dir.write("r2.fq", "@a\nACGT\n+\nIIII\n@b\nACGT\n+\nII");
  const Read got = read_all({r1, r2}, mates(MateLayout::two_files));
  CHECK(got.error.find(r2 + ": record 2 'b': quality length 2") == 0);
}

TEST_CASE("paired reader: FASTA mates of FASTQ ones are an error") {
  const TempDir dir("trawl_paired");
  const std::string fa = dir.write("r1.fa", ">a\nACGT\n");
  const std::string fq = dir.write("r2.fq", "@a\nACGT\n+\nIIII\n");
  CHECK(read_all({fa, fq}, mates(MateLayout::two_files)).error ==
        fa + " and " + fq + ": " + fa + " is FASTA but " + fq + " is FASTQ: the two mate files must be one format");
  CHECK(read_all({fq, fa}, mates(MateLayout::two_files)).error.find(fq + " is FASTQ but " + fa + " is FASTA") !=
        std::string::npos);
}

TEST_CASE("paired reader: interleaved input, whole pairs per file") {
  const TempDir dir("trawl_paired");
  const std::string a = dir.write("a.fq", "@p/1\nAC\n+\nII\n@p/2\nGT\n+\nII\n@q 1:N\nA\n+\nI\n@q 2:N\nC\n+\nI\n");
  const std::string b = dir.write("b.fq", "@r/1\nT\n+\nI\n@r/2\nG\n+\nI\n");
  const Read got = read_all({a, b}, mates(MateLayout::interleaved));
  CHECK(got.error.empty());
  CHECK(got.rows == std::vector<std::string>{"p/1\tAC", "p/2\tGT", "q\tA", "q\tC", "r/1\tT", "r/2\tG"});
  FastxReader reader({a}, mates(MateLayout::interleaved));
  FastaChunk chunk;
  CHECK_FALSE(reader.next_chunk(chunk, 1 << 20));
}

TEST_CASE("paired reader: an interleaved input with an odd number of records") {
  const TempDir dir("trawl_paired");
  const std::string even = dir.write("even.fa", ">p\nA\n>p\nC\n");
  const std::string odd = dir.write("odd.fa", ">p\nA\n>p\nC\n>q\nG\n");
  const Read got = read_all({odd}, mates(MateLayout::interleaved));
  CHECK(got.error == odd + ": an odd number of records (3): interleaved mates come in pairs, mate 1 then mate 2");
  CHECK(got.rows.size() == 3);
  // A pair does not span two inputs: the count is each file's.
  CHECK(read_all({even, odd}, mates(MateLayout::interleaved)).error.find(odd + ": an odd number of records (3)") == 0);
  CHECK(read_all({odd, odd}, mates(MateLayout::interleaved)).error.find(odd + ": an odd number of records (3)") == 0);
}

TEST_CASE("paired reader: interleaved names that differ name the file, pair and records") {
  const TempDir dir("trawl_paired");
  const std::string first = dir.write("first.fa", ">a\nA\n>a\nC\n");
  const std::string in = dir.write("in.fa", ">p/1\nA\n>p/2\nC\n>q/1\nG\n>r/2\nT\n");
  CHECK(read_all({in}, mates(MateLayout::interleaved)).error ==
        in + ": pair 2 (records 3 and 4): mate names differ: 'q' and 'r' "
             "(names must agree without a comment and a trailing /1 or /2)");
  // Counted in the file where the pair is.
  CHECK(read_all({first, in}, mates(MateLayout::interleaved)).error.find(in + ": pair 2 (records 3 and 4)") == 0);
}
