// The whole run (reader -> TBB pipeline -> sink) must produce byte-identical output for any
// thread count and any --batch-bases, including batch sizes that cut records into many
// windows, on random inputs and adversarial ones (k >= m, homopolymer plateaus crossing
// window borders, overhang at both record ends, --best across windows, both strands,
// patterns of different lengths).
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>

#include "support/pipeline_run.h"
#include "support/run_search.h"
#include "trawl/io/byte_sink.h"
#include "trawl/core/errors.h"
#include "trawl/run/pipeline.h"
#include "support/run_search.h"
#include "trawl/core/hit.h"
#include "trawl/io/reader.h"
#include "trawl/search/searcher.h"
#include "trawl/sinks/sinks.h"

using namespace trawl;

namespace {

using trawl::test::TempFile;

std::string run(const std::string& fasta_path, const PatternSet& patterns, const SearchOptions& opt,
                ResultShape shape, int threads, std::uint64_t batch_bases, bool paired,
                ReaderOptions reader_options = {}) {
  test::PipelineRun r;
  r.shape = shape;
  r.threads = threads;
  r.batch_bases = batch_bases;
  r.paired = paired;
  r.reader = reader_options;
  return test::run_tsv(fasta_path, patterns, opt, r);
}

}  // namespace

TEST_CASE("output is identical for every thread count and batch size, windows included") {
  std::mt19937_64 rng(20261202);
  const TempFile temp("trawl_pipeline_test");
  const char* path = temp.path.c_str();
  int configs = 0;
  // TRAWL_PIPELINE_ITERS: fewer random inputs for the slow ThreadSanitizer run.
  const char* iters_env = std::getenv("TRAWL_PIPELINE_ITERS");
  const int iters = iters_env ? std::atoi(iters_env) : 40;
  for (int iter = 0; iter < iters; ++iter) {
    SearchOptions opt;
    opt.alphabet.alphabet = iter % 5 == 4 ? Alphabet::ascii : iter % 2 ? Alphabet::dna : Alphabet::iupac;
    opt.both_strands = iter % 3 != 0;
    opt.selection = iter % 4 == 1 ? Selection::best : iter % 4 == 2 ? Selection::all_ends : Selection::local_minima;
    if (opt.alphabet.alphabet != Alphabet::ascii && iter % 3 == 1) opt.overhang = 0.5f;
    if (opt.alphabet.alphabet == Alphabet::iupac) opt.max_n_frac = 0.2f;
    const bool homopolymer = iter % 6 == 5;
    const std::string letters = opt.alphabet.alphabet == Alphabet::ascii ? "ab" : homopolymer ? "AAAAAAAT" : "ACGTN";
    // Patterns of different lengths; k up to beyond the shortest pattern (whole-record runs).
    std::vector<Pattern> pats;
    // Every fourth case is --paired: one pattern per record, so a wrong record index after a
    // windowed record would pair the wrong pattern.
    const bool paired = iter % 4 == 3;
    const int records = 1 + static_cast<int>(rng() % 6);
    const int npat = paired ? records : 1 + static_cast<int>(rng() % 3);
    for (int p = 0; p < npat; ++p) {
      std::string s(2 + rng() % 20, 'A');
      for (char& c : s) c = (opt.alphabet.alphabet == Alphabet::ascii ? "ab" : homopolymer ? "AAAT" : "ACGT")[rng() % (opt.alphabet.alphabet == Alphabet::ascii ? 2 : 4)];
      pats.push_back({"p" + std::to_string(p), s});
    }
    opt.k = static_cast<int>(rng() % (iter % 7 == 3 ? 25 : 4));
    PatternSet patterns(pats, opt);
    {
      std::ofstream f(path);
      for (int r = 0; r < records; ++r) {
        std::string s(rng() % (r % 2 == 0 ? 4000 : 600), 'A');
        for (char& c : s) c = letters[rng() % letters.size()];
        for (int plant = 0; plant < 5 && !s.empty(); ++plant) {
          const std::string& p = pats[rng() % pats.size()].seq;
          const std::size_t at = rng() % s.size();
          s.replace(at, std::min(p.size(), s.size() - at), p.substr(0, std::min(p.size(), s.size() - at)));
        }
        f << ">r" << r << "\n" << s << "\n";
      }
    }
    for (ResultShape shape : {ResultShape{Command::hits}, ResultShape{Command::count, true},
                              ResultShape{Command::contains}, ResultShape{Command::contains, false, false, true}}) {
      const std::string reference = run(path, patterns, opt, shape, 1, 1 << 20, paired);
      for (int threads : {1, 2, 8})
        for (std::uint64_t batch : {std::uint64_t{1}, std::uint64_t{37}, std::uint64_t{500}, std::uint64_t{1} << 20}) {
          CAPTURE(iter);
          CAPTURE(threads);
          CAPTURE(batch);
          CAPTURE(static_cast<int>(shape.command));
          REQUIRE(run(path, patterns, opt, shape, threads, batch, paired) == reference);
          ++configs;
        }
    }
  }
  MESSAGE("pipeline invariance: " << configs << " runs compared byte for byte");
}

// Dense hits make `hits` tasks smaller than --batch-bases (and windows of one long record
// of different sizes, growing back after it); the output must not notice.
TEST_CASE("tasks sized by hit density give the same output as fixed sizes") {
  const TempFile temp("trawl_pipeline_dense");
  const char* path = temp.path.c_str();
  std::mt19937_64 rng(20261203);
  auto letters = [&](std::size_t n, const char* from) {
    std::string s(n, ' ');
    for (char& c : s) c = from[rng() % 2];
    return s;
  };
  std::string ab;
  for (int i = 0; i < 150000; ++i) ab += "ab";
  {
    std::ofstream f(path);
    f << ">sparse0\n" << letters(100000, "cd") << "\n";  // no hits: tasks grow
    f << ">dense_long\n" << ab << "\n";                  // 150,000 hits in one record
    for (int r = 0; r < 200; ++r) f << ">short" << r << "\n" << ab.substr(0, 128) << "\n";
    f << ">sparse1\n" << letters(50000, "cd") << "\n";
    for (int r = 0; r < 50; ++r) f << ">mixed" << r << "\n" << letters(3000, "cd") << ab.substr(0, 2000) << "\n";
  }
  SearchOptions opt;
  opt.alphabet.alphabet = Alphabet::ascii;
  opt.both_strands = false;
  opt.k = 0;
  const PatternSet patterns({{"ab", "ab"}}, opt);
  const ResultShape shape{Command::hits};
  // 16 KiB fixed: the smallest size the density rule picks, so it never adapts.
  const std::string fixed = run(path, patterns, opt, shape, 1, 1 << 14, false);
  std::size_t rows = 0;
  for (char c : fixed) rows += c == '\n';
  CHECK(rows == 1 + 150000 + 200 * 64 + 50 * 1000);
  for (int threads : {1, 2, 8}) {
    CAPTURE(threads);
    CHECK(run(path, patterns, opt, shape, threads, 1 << 20, false) == fixed);
    CHECK(run(path, patterns, opt, shape, threads, 1 << 18, false) == fixed);
  }
}

// A one-line record of a mapped file longer than a batch has its end searched by every
// thread (the pipeline's LineEndFinder, in parts of 4 MiB): the hits, the last ones at the
// record's very end included, must be those of the file read through buffers (no mapping,
// no finder).
TEST_CASE("long one-line records: the line end found in parallel gives the hits of buffered reading") {
  std::mt19937_64 rng(20261203);
  const TempFile temp("trawl_pipeline_long");
  const char* path = temp.path.c_str();
  const std::string pattern = "GATTACAGATTACAGG";
  {
    std::ofstream f(path);
    for (const std::size_t len : {std::size_t{6} << 20, std::size_t{9} << 20, std::size_t{1} << 10}) {
      std::string s(len, 'A');
      for (char& c : s) c = "ACGT"[rng() & 3];
      for (int plant = 0; plant < 20; ++plant) s.replace(rng() % (len - pattern.size()), pattern.size(), pattern);
      s.replace(len - pattern.size(), pattern.size(), pattern);  // a hit ending at the last base
      f << ">r" << len << "\n" << s << "\n";
    }
  }
  SearchOptions opt;
  opt.k = 1;
  PatternSet patterns(std::vector<Pattern>{{"p", pattern}}, opt);
  const ResultShape shape{Command::hits};
  const std::string whole = run(path, patterns, opt, shape, 1, std::uint64_t{1} << 20, false, ReaderOptions{false, 0, false});
  CHECK(whole.find(std::to_string((std::size_t{9} << 20))) != std::string::npos);
  for (int threads : {1, 2, 8}) {
    CAPTURE(threads);
    CHECK(run(path, patterns, opt, shape, threads, std::uint64_t{1} << 20, false) == whole);
  }
}

// A long record in lines is searched while it is read: its first windows see only the part
// read so far, and a window whose runs reach past that part (a homopolymer run of 1.5 MiB,
// longer than the reader's steps of 1 MiB; k >= m) is searched again once the whole record is
// there. The output must be that of the same records on one line each (lent whole from the
// mapped file), for every command, thread count and batch size, mapped or buffered, with
// '\n' and "\r\n" line ends.
TEST_CASE("long records in lines, searched while read, give the hits of the whole record") {
  std::mt19937_64 rng(20261206);
  const TempFile lines_file("trawl_pipeline_lines"), one_line_file("trawl_pipeline_oneline");
  std::vector<std::string> seqs;
  for (const std::size_t len : {std::size_t{5} << 19, std::size_t{300}, std::size_t{3} << 19}) {
    std::string s(len, 'A');
    for (char& c : s) c = "ACGTN"[rng() % 5];
    if (len == (std::size_t{5} << 19)) s.replace(len / 8, std::size_t{3} << 19, std::size_t{3} << 19, 'A');
    seqs.push_back(s);
  }
  {
    std::ofstream lines(lines_file.path), one_line(one_line_file.path);
    for (std::size_t r = 0; r < seqs.size(); ++r) {
      lines << ">r" << r << " desc\n";
      const std::size_t width = r == 0 ? 61 : 80;
      for (std::size_t at = 0; at < seqs[r].size(); at += width)
        lines << seqs[r].substr(at, width) << (r == 2 ? "\r\n" : "\n");
      one_line << ">r" << r << " desc\n" << seqs[r] << "\n";
    }
  }
  struct Case {
    std::string pattern;
    int k;
    Selection selection;
    Command command;
  };
  const Case cases[] = {{"ACGTNACGTA", 2, Selection::local_minima, Command::hits},
                        {"ACGTNACGTA", 2, Selection::local_minima, Command::count},
                        {"ACGTNACGTA", 2, Selection::local_minima, Command::contains},
                        {"AAAAAAAAAAAA", 1, Selection::local_minima, Command::hits},
                        {"AAAAAAAAAAAA", 1, Selection::all_ends, Command::count},
                        {"CAAAAC", 6, Selection::best, Command::hits}};
  for (const Case& c : cases) {
    SearchOptions opt;
    opt.k = c.k;
    opt.selection = c.selection;
    opt.max_n_frac = 1.0f;
    const PatternSet patterns(std::vector<Pattern>{{"p", c.pattern}, {"q", "ACGTTGCA"}}, opt);
    const ResultShape shape{c.command, c.command == Command::count};
    const std::string whole = run(one_line_file.path, patterns, opt, shape, 1, std::uint64_t{1} << 20, false);
    // (TRAWL_PIPELINE_ITERS set: the ThreadSanitizer run, two threads only.)
    const bool quick = std::getenv("TRAWL_PIPELINE_ITERS") != nullptr;
    for (const bool map_files : {true, false})
      for (int threads : {1, 2, 8})
        for (std::uint64_t batch : {std::uint64_t{1} << 14, std::uint64_t{1} << 20}) {
          if (quick && (threads != 2 || !map_files)) continue;
          CAPTURE(c.pattern);
          CAPTURE(static_cast<int>(c.command));
          CAPTURE(map_files);
          CAPTURE(threads);
          CAPTURE(batch);
          CHECK(run(lines_file.path, patterns, opt, shape, threads, batch, false, ReaderOptions{false, 0, map_files}) == whole);
        }
  }
}

// With more than two threads a mapped file's chunks are read and indexed in parts of 256 KiB
// on any thread and the parts joined (the pipeline's LineIndexer): records, hits and the NUL
// error of a chunk of many parts must be those of one thread.
TEST_CASE("chunks indexed in parts by several threads give the output and errors of one thread") {
  std::mt19937_64 rng(20261204);
  const TempFile temp("trawl_pipeline_index");
  const char* path = temp.path.c_str();
  const std::string pattern = "ACGTTGCAAGGT";
  std::string fasta;
  for (int r = 0; fasta.size() < (std::size_t{3} << 20); ++r) {  // three MiB-chunks and more
    std::string s(50 + rng() % 400, 'A');
    for (char& c : s) c = "ACGT"[rng() & 3];
    if (r % 7 == 0) s.replace(rng() % (s.size() - pattern.size()), pattern.size(), pattern);
    fasta += ">r" + std::to_string(r) + (r % 3 == 0 ? " some description\n" : "\n") + s + (r % 11 == 0 ? "\r\n" : "\n");
  }
  SearchOptions opt;
  opt.k = 1;
  PatternSet patterns(std::vector<Pattern>{{"p", pattern}}, opt);
  auto write = [&](const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; };
  auto error_of = [&](int threads) -> std::string {
    try {
      run(path, patterns, opt, ResultShape{Command::count, true}, threads, std::uint64_t{1} << 20, false);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  write(fasta);
  const std::string one = run(path, patterns, opt, ResultShape{Command::hits}, 1, std::uint64_t{1} << 20, false);
  CHECK(std::count(one.begin(), one.end(), '\n') > 1000);
  for (int threads : {3, 8}) {
    CAPTURE(threads);
    CHECK(run(path, patterns, opt, ResultShape{Command::hits}, threads, std::uint64_t{1} << 20, false) == one);
  }
  // A NUL byte in a later part of the second chunk: the same record and line named.
  std::size_t seq_line = fasta.find('\n', std::size_t{7} << 18) + 1;
  if (fasta[seq_line] == '>') seq_line = fasta.find('\n', seq_line) + 1;  // past a header
  fasta[seq_line + 3] = '\0';
  write(fasta);
  const std::string message = error_of(1);
  CHECK(message.find("NUL byte") != std::string::npos);
  for (int threads : {3, 8}) {
    CAPTURE(threads);
    CHECK(error_of(threads) == message);
  }
}

TEST_CASE("TSV hits rows spell every hit's fields, for long names and large positions") {
  // The TSV writer formats through raw pointers, cached per-pair prefixes and digit tables;
  // here every row is compared with a plain std::string rendering of the searcher's hits.
  std::mt19937_64 rng(20261204);
  const TempFile temp("trawl_tsv_rows_test");
  for (int iter = 0; iter < 6; ++iter) {
    SearchOptions opt;
    opt.alphabet.alphabet = iter % 3 == 2 ? Alphabet::ascii : Alphabet::dna;
    opt.both_strands = opt.alphabet.alphabet != Alphabet::ascii;
    opt.k = 1 + iter % 3;
    const std::string letters = opt.alphabet.alphabet == Alphabet::ascii ? "abc" : "ACGT";
    // Ids around the cached prefix's capacity, long enough to need the uncached path too.
    std::vector<Pattern> pats;
    for (int p = 0; p < 3; ++p) {
      std::string s(8 + rng() % 12, 'A');
      for (char& c : s) c = letters[rng() % letters.size()];
      pats.push_back({std::string(1 + rng() % 240, static_cast<char>('P' + p)), s});
    }
    PatternSet patterns(pats, opt);
    std::vector<std::pair<std::string, std::string>> records;
    for (int r = 0; r < 4; ++r) {
      // Lengths up to 120,000: positions of one to six digits.
      std::string s(r == 0 ? 50 : rng() % 120000, 'a');
      for (char& c : s) c = letters[rng() % letters.size()];
      for (int plant = 0; plant < 300 && !s.empty(); ++plant) {
        const std::string& p = pats[rng() % pats.size()].seq;
        const std::size_t at = rng() % s.size();
        s.replace(at, std::min(p.size(), s.size() - at), p.substr(0, std::min(p.size(), s.size() - at)));
      }
      records.push_back({"r" + std::to_string(r) + std::string(rng() % 300, 'x'), s});
    }
    {
      std::ofstream f(temp.path);
      for (const auto& [name, seq] : records) f << ">" << name << "\n" << seq << "\n";
    }
    for (bool sam : {false, true}) {
      HitColumns columns;
      columns.sam = sam;
      columns.extra = {ExtraColumn::pattern_start, ExtraColumn::pattern_end, ExtraColumn::pat_idx,
                       ExtraColumn::text_idx};
      test::StringSink out;
      auto sink = make_tsv_hits_sink(out, patterns, opt.alphabet, columns);
      FastxReader reader({temp.path}, {});
      PipelineOptions popt;
      popt.threads = 2;
      popt.batch_bases = 1 << 14;
      run_pipeline(reader, patterns, opt, scalar_kernel(), *sink, popt);

      std::string want = "pat_id\ttext_id\tcost\tstrand\tstart\tend\tmatch_region\tcigar\tpattern_start\tpattern_end\tpat_idx\ttext_idx\n";
      std::size_t rows = 0;
      for (std::size_t r = 0; r < records.size(); ++r) {
        const std::string& text = records[r].second;
        const HitList all = test::reference_hits(patterns, opt, scalar_kernel(), text, r);
        for (std::uint32_t p = 0; p < patterns.size(); ++p) {
          HitList hits;
          for (const Hit& h : all.hits)
            if (h.pattern_idx == p) hits.hits.push_back(h);
          hits.cigar_ops = all.cigar_ops;
          for (const Hit& h : hits.hits) {
            std::string region = text.substr(h.start, h.end - h.start);
            const bool reverse = h.strand == Strand::rc;
            if (reverse && !sam) {
              std::reverse(region.begin(), region.end());
              for (char& c : region) c = static_cast<char>(opt.alphabet.complement(static_cast<std::uint8_t>(c)));
            }
            std::string cigar;
            append_cigar(cigar, hits.cigar(h), reverse && sam);
            want += pats[p].id + "\t" + records[r].first + "\t" + std::to_string(h.cost) + "\t" +
                    (reverse ? "-" : "+") + "\t" + std::to_string(h.start) + "\t" +
                    std::to_string(h.end) + "\t" + region + "\t" + cigar + "\t" +
                    std::to_string(h.pattern_start) + "\t" + std::to_string(h.pattern_end) + "\t" +
                    std::to_string(p) + "\t" + std::to_string(r) + "\n";
            ++rows;
          }
        }
      }
      CAPTURE(iter);
      CAPTURE(sam);
      CHECK(rows > 200);
      CHECK(out.bytes == want);
    }
  }
}
