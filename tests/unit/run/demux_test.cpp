// demux, end to end (run() with RunOptions::demux): on seeded random panels with planted
// barcodes, each record's assignment (best id, cost, hit, runner-up, ambiguous/unassigned)
// equals the one made from every pattern's lowest cost by the DP oracle, at every alphabet,
// strand option, N filter, --region, --min-margin, thread count and batch size (long records
// in windows included); a shuffled
// barcode file gives the same assignments byte for byte; the files of --out-dir hold each
// record once, in the file of its assignment, in input order (so together they are the
// input); 20,000 barcodes work through a pool of 16 open files; paired input follows
// --barcode-mate with both mates in the files of the pair; the Parquet assignments and report
// hold the TSV's values; bad barcode sets are usage errors.
#include <doctest/doctest.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/gzip_bytes.h"
#include "support/oracle.h"
#include "support/parquet_reader.h"
#include "support/random_text.h"
#include "support/temp_dir.h"
#include "trawl/core/errors.h"
#include "trawl/core/region.h"
#include "trawl/run/run.h"

using namespace trawl;
using trawl::test::read_file_bytes;
using trawl::test::TempDir;

namespace {

class Quiet final : public RunObserver {
 public:
  void finished(const RunSummary& s) override { summary = s; }
  RunSummary summary;
};

struct Barcode {
  std::string id, seq;
};

std::string mutate(std::mt19937_64& rng, std::string s, const std::string& letters, int edits) {
  for (int e = 0; e < edits && !s.empty(); ++e) {
    const std::size_t at = rng() % s.size();
    switch (rng() % 3) {
      case 0: s[at] = letters[rng() % letters.size()]; break;
      case 1: s.erase(at, 1); break;
      default: s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), letters[rng() % letters.size()]);
    }
  }
  return s;
}

std::string revcomp(const std::string& s) {
  std::string r(s.rbegin(), s.rend());
  for (char& c : r) c = c == 'A' ? 'T' : c == 'C' ? 'G' : c == 'G' ? 'C' : c == 'T' ? 'A' : c;
  return r;
}

struct Reads {
  std::string text;                  // the FASTQ file
  std::vector<std::string> records;  // each record as written
  std::vector<std::string> seqs, ids;
};

// Reads with 0, 1 or 2 barcodes planted in their first half (some reverse-complemented); a few
// are long enough to be searched in windows at a small batch size.
Reads make_reads(std::mt19937_64& rng, const std::vector<Barcode>& panel, const std::string& letters, int n,
                 const std::string& prefix = "r") {
  Reads reads;
  for (int r = 0; r < n; ++r) {
    std::string seq = test::random_text(rng, rng() % 12 == 0 ? 1000 + rng() % 1500 : 10 + rng() % 60, letters);
    const int planted = static_cast<int>(rng() % 4 == 0 ? 0 : rng() % 6 == 0 ? 2 : 1);
    for (int p = 0; p < planted; ++p) {
      std::string bc = mutate(rng, panel[rng() % panel.size()].seq, letters, static_cast<int>(rng() % 3));
      if (rng() % 4 == 0) bc = revcomp(bc);
      seq.insert(rng() % (seq.size() + 1) / 2, bc);
    }
    const std::string id = prefix + std::to_string(r);
    const std::string rec = "@" + id + (rng() % 2 ? " c" : "") + "\n" + seq + "\n+\n" + test::random_text(rng, seq.size(), "#5?I") + "\n";
    reads.text += rec;
    reads.records.push_back(rec);
    reads.seqs.push_back(seq);
    reads.ids.push_back(id);
  }
  return reads;
}

std::string barcode_fasta(const std::vector<Barcode>& panel) {
  std::string text;
  for (const Barcode& b : panel) text += ">" + b.id + "\n" + b.seq + "\n";
  return text;
}

// One oracle candidate: a pattern's lowest-cost hit (the first such in output order).
struct Best {
  std::string id;
  oracle::OracleHit hit;
  int mate;
};

// The assignments row the oracle expects for one record (pair), from the candidates of the
// mates that carry the barcode.
std::string oracle_row(const std::string& text_id, std::vector<Best> best, int margin, bool paired) {
  std::sort(best.begin(), best.end(), [](const Best& a, const Best& b) {
    return a.hit.cost != b.hit.cost ? a.hit.cost < b.hit.cost : a.id < b.id;
  });
  std::string row = text_id + "\t";
  if (best.empty()) return row + "unassigned" + (paired ? "\t*\t*\t*\t*\t*\t*\t*\t*" : "\t*\t*\t*\t*\t*\t*\t*");
  const bool ambiguous = best.size() > 1 && best[1].hit.cost - best[0].hit.cost < margin;
  const Best& b = best[0];
  row += (ambiguous ? "ambiguous" : b.id) + "\t" + b.id + "\t" + std::to_string(b.hit.cost) + "\t" +
         (b.hit.strand == Strand::fwd ? "+" : "-") + "\t" + std::to_string(b.hit.start) + "\t" + std::to_string(b.hit.end);
  if (paired) row += "\t" + std::to_string(b.mate);
  row += best.size() > 1 ? "\t" + best[1].id + "\t" + std::to_string(best[1].hit.cost) : "\t*\t*";
  return row;
}

// Each pattern's lowest-cost oracle hit in `seq` (within `region`'s parts), as candidates of
// `mate`.
void oracle_candidates(const std::vector<Barcode>& panel, const std::string& seq, const SearchOptions& opt,
                       const std::optional<Region>& region, int mate, std::map<std::string, Best>& out) {
  std::vector<Span> parts{{0, seq.size()}};
  if (region) region->spans(seq.size(), parts);
  for (const Barcode& b : panel)
    for (const Span& part : parts) {
      const std::string_view text = std::string_view(seq).substr(part.offset, part.length);
      for (oracle::OracleHit h : oracle::search(b.seq, text, opt)) {
        h.start += part.offset;
        h.end += part.offset;
        const auto at = out.find(b.id);
        // Lowest cost, then mate 1, then the first in output order (the oracle's order).
        if (at == out.end() || h.cost < at->second.hit.cost) out[b.id] = Best{b.id, h, mate};
      }
    }
}

std::vector<std::string> table_rows(const std::string& path) {
  std::istringstream in(read_file_bytes(path));
  std::vector<std::string> rows;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) rows.push_back(line);
  return rows;
}

std::string gunzip(const std::string& path) { return trawl::test::gunzip_file(path); }

// The files of a folder by name (.gz ones decompressed), hidden ones too.
std::map<std::string, std::string> folder_files(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    files[name] = name.ends_with(".gz") ? gunzip(e.path().string()) : read_file_bytes(e.path().string());
  }
  return files;
}

std::vector<Barcode> random_panel(std::mt19937_64& rng, std::size_t n, std::size_t len) {
  std::vector<Barcode> panel;
  for (std::size_t i = 0; i < n; ++i)
    panel.push_back({"bc" + std::to_string(rng() % 1000) + "_" + std::to_string(i), test::random_text(rng, len, "ACGT")});
  return panel;
}

RunOptions demux_options(const std::string& barcodes, int k) {
  RunOptions o;
  o.demux.on = true;
  o.shape.command = Command::hits;
  o.patterns.fasta = barcodes;
  o.search.k = k;
  o.kernel = "scalar";
  return o;
}

}  // namespace

TEST_CASE("demux: assignments = the oracle's (lowest cost, ties ambiguous), at every option, order of barcodes and threads") {
  std::mt19937_64 rng(32032);
  for (int iter = 0; iter < 36; ++iter) {
    CAPTURE(iter);
    TempDir dir("trawl_demux");
    const Alphabet alphabet = iter % 3 == 0 ? Alphabet::dna : iter % 3 == 1 ? Alphabet::iupac : Alphabet::ascii;
    const std::string letters = alphabet == Alphabet::ascii ? "ACGTacgt" : alphabet == Alphabet::iupac ? "ACGTN" : "ACGT";
    // Short barcodes, some near-duplicates: ties and close runners-up are common.
    std::vector<Barcode> panel = random_panel(rng, 2 + rng() % 6, 6 + rng() % 6);
    if (iter % 2) panel.push_back({"near" + std::to_string(iter), mutate(rng, panel[0].seq, "ACGT", 1)});
    const Reads reads = make_reads(rng, panel, letters, 1 + static_cast<int>(rng() % 50));
    RunOptions o = demux_options(dir.write("bc.fa", barcode_fasta(panel)), static_cast<int>(rng() % 3));
    o.inputs = {dir.write("in.fq", reads.text)};
    o.search.alphabet.alphabet = alphabet;
    o.search.alphabet.ignore_case = alphabet == Alphabet::ascii && iter % 2;
    o.search.both_strands = iter % 4 != 1;
    o.max_n_frac_given = iter % 5 == 0;
    o.search.max_n_frac = 0.1f;
    const char* regions[] = {"1:40", "-30:-1", "5:-1", "1:12,-12:-1"};
    if (iter % 3 == 2) o.region = regions[(iter / 3) % 4];
    o.demux.min_margin = 1 + static_cast<int>(iter % 4 == 3);
    CAPTURE(o.region.value_or("whole records"));
    CAPTURE(o.search.k);
    std::vector<std::string> want;
    const SearchOptions opt = effective_search(o);
    const std::optional<Region> region = o.region ? Region::parse(*o.region) : std::nullopt;
    std::size_t unassigned = 0;
    for (std::size_t r = 0; r < reads.seqs.size(); ++r) {
      std::map<std::string, Best> best;
      oracle_candidates(panel, reads.seqs[r], opt, region, 0, best);
      std::vector<Best> candidates;
      for (auto& [id, b] : best) candidates.push_back(b);
      unassigned += candidates.empty();
      want.push_back(oracle_row(reads.ids[r], candidates, o.demux.min_margin, false));
    }
    o.demux.assignments = dir.file("a.tsv");
    std::string first;
    for (const int threads : {1, 2, 3}) {
      for (const std::uint64_t batch : {std::uint64_t{1} << 20, std::uint64_t{200}}) {
        o.threads = threads;
        o.batch_bases = batch;
        Quiet q;
        run(o, q);
        const std::vector<std::string> rows = table_rows(o.demux.assignments);
        REQUIRE(rows.size() == want.size());
        for (std::size_t r = 0; r < rows.size(); ++r) CHECK(rows[r] == want[r]);
        CHECK(q.summary.demuxed);
        CHECK(q.summary.unassigned_reads == unassigned);
        CHECK(q.summary.assigned + q.summary.ambiguous + q.summary.unassigned_reads == reads.seqs.size());
        if (first.empty()) first = read_file_bytes(o.demux.assignments);
      }
    }
    // The barcode file shuffled: the same assignments, byte for byte.
    std::shuffle(panel.begin(), panel.end(), rng);
    o.patterns.fasta = dir.write("shuffled.fa", barcode_fasta(panel));
    Quiet q;
    run(o, q);
    CHECK(read_file_bytes(o.demux.assignments) == first);
  }
}

TEST_CASE("demux: --out-dir files hold every record once, in its assignment file in order, and the report counts them") {
  std::mt19937_64 rng(7);
  for (int iter = 0; iter < 8; ++iter) {
    CAPTURE(iter);
    TempDir dir("trawl_demux_files");
    const std::vector<Barcode> panel = random_panel(rng, 3 + rng() % 5, 10);
    const Reads reads = make_reads(rng, panel, "ACGT", 50 + static_cast<int>(rng() % 200));
    RunOptions o = demux_options(dir.write("bc.fa", barcode_fasta(panel)), 1);
    o.inputs = {dir.write("in.fq", reads.text)};
    o.demux.assignments = dir.file("a.tsv");
    o.demux.report = dir.file("report.tsv");
    o.demux.out_dir = dir.file("out");
    o.demux.out_pattern = iter % 2 ? "{id}.fq.gz" : "x_{id}.fq";
    o.demux.max_open = 1 + iter % 3;
    o.demux.all_files = iter % 4 == 3;
    o.threads = 1 + iter % 3;
    o.batch_bases = iter % 2 ? 300 : 1 << 20;
    Quiet q;
    run(o, q);
    const std::vector<std::string> rows = table_rows(o.demux.assignments);
    REQUIRE(rows.size() == reads.records.size());
    std::map<std::string, std::string> want;
    std::map<std::string, std::uint64_t> count;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const std::string assigned = rows[r].substr(rows[r].find('\t') + 1, rows[r].find('\t', rows[r].find('\t') + 1) - rows[r].find('\t') - 1);
      const std::string name = iter % 2 ? assigned + ".fq.gz" : "x_" + assigned + ".fq";
      want[name] += reads.records[r];
      ++count[assigned];
    }
    if (o.demux.all_files)
      for (const std::string id : {std::string("ambiguous"), std::string("unassigned")})
        want.try_emplace(iter % 2 ? id + ".fq.gz" : "x_" + id + ".fq");
    if (o.demux.all_files)
      for (const Barcode& b : panel) want.try_emplace(iter % 2 ? b.id + ".fq.gz" : "x_" + b.id + ".fq");
    CHECK(folder_files(o.demux.out_dir) == want);  // no temporary folder left either
    // The report: every barcode (zeros too), then ambiguous and unassigned.
    const std::vector<std::string> report = table_rows(o.demux.report);
    REQUIRE(report.size() == panel.size() + 2);
    for (std::size_t i = 0; i < report.size(); ++i) {
      const std::string id = i < panel.size() ? panel[i].id : i == panel.size() ? "ambiguous" : "unassigned";
      CHECK(report[i].substr(0, report[i].find('\t')) == id);
      const std::size_t at = id.size() + 1;
      CHECK(report[i].substr(at, report[i].find('\t', at) - at) == std::to_string(count[id]));
    }
    CHECK(q.summary.assigned + q.summary.ambiguous + q.summary.unassigned_reads == reads.records.size());
  }
}

TEST_CASE("demux: 20000 barcodes (a file each with --all-files) through a pool of 16 open files") {
  std::mt19937_64 rng(20000);
  TempDir dir("trawl_demux_many");
  std::vector<Barcode> panel;
  for (int i = 0; i < 20000; ++i) panel.push_back({"b" + std::to_string(i), test::random_text(rng, 16, "ACGT")});
  std::string text;
  std::map<std::string, std::string> want;
  std::vector<std::string> records;
  for (int r = 0; r < 3000; ++r) {
    const Barcode& b = panel[static_cast<std::size_t>(r) * 7 % panel.size()];
    const std::string rec = ">r" + std::to_string(r) + "\n" + b.seq + test::random_text(rng, 8, "ACGT") + "\n";
    text += rec;
    records.push_back(rec);
  }
  RunOptions o = demux_options(dir.write("bc.fa", barcode_fasta(panel)), 0);
  o.search.both_strands = false;
  o.inputs = {dir.write("in.fa", text)};
  o.demux.assignments = dir.file("a.tsv");
  o.demux.out_dir = dir.file("out");
  o.demux.out_pattern = "{id}.fa.gz";
  o.demux.max_open = 16;
  o.demux.all_files = true;
  o.kernel = "auto";  // (the scalar kernel alone would take most of the time)
  o.threads = 2;
  Quiet q;
  run(o, q);
  const std::vector<std::string> rows = table_rows(o.demux.assignments);
  REQUIRE(rows.size() == records.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::string assigned = rows[r].substr(rows[r].find('\t') + 1, rows[r].find('\t', rows[r].find('\t') + 1) - rows[r].find('\t') - 1);
    want[assigned + ".fa.gz"] += records[r];
  }
  CHECK(want.size() > 2900);
  for (const Barcode& b : panel) want.try_emplace(b.id + ".fa.gz");
  want.try_emplace("ambiguous.fa.gz");
  want.try_emplace("unassigned.fa.gz");
  CHECK(folder_files(o.demux.out_dir) == want);
}

TEST_CASE("demux: paired input, --barcode-mate decides and both mates follow into {mate} files") {
  std::mt19937_64 rng(2);
  const char* mates[] = {"1", "2", "either"};
  for (int iter = 0; iter < 9; ++iter) {
    CAPTURE(iter);
    TempDir dir("trawl_demux_pairs");
    const std::vector<Barcode> panel = random_panel(rng, 4, 10);
    const int n = 5 + static_cast<int>(rng() % 60);
    const Reads m1 = make_reads(rng, panel, "ACGT", n), m2 = make_reads(rng, panel, "ACGT", n);
    RunOptions o = demux_options(dir.write("bc.fa", barcode_fasta(panel)), 1);
    o.search.alphabet.alphabet = Alphabet::dna;
    o.mate1 = dir.write("r1.fq", m1.text);
    o.mate2 = dir.write("r2.fq", m2.text);
    o.demux.barcode_mate = mates[iter % 3];
    o.demux.assignments = dir.file("a.tsv");
    o.demux.out_dir = dir.file("out");
    o.demux.out_pattern = "{id}_R{mate}.fq";
    o.threads = 1 + iter % 2;
    o.batch_bases = iter % 2 ? 250 : 1 << 20;
    std::vector<std::string> want_rows;
    std::map<std::string, std::string> want_files;
    const SearchOptions opt = effective_search(o);
    for (int p = 0; p < n; ++p) {
      std::map<std::string, Best> best;
      if (o.demux.barcode_mate != "2") oracle_candidates(panel, m1.seqs[p], opt, std::nullopt, 1, best);
      if (o.demux.barcode_mate != "1") {
        std::map<std::string, Best> second;
        oracle_candidates(panel, m2.seqs[p], opt, std::nullopt, 2, second);
        for (auto& [id, b] : second)
          if (!best.count(id) || b.hit.cost < best[id].hit.cost) best[id] = b;
      }
      std::vector<Best> candidates;
      for (auto& [id, b] : best) candidates.push_back(b);
      want_rows.push_back(oracle_row(m1.ids[p], candidates, 1, true));
      const std::string& row = want_rows.back();
      const std::size_t tab = row.find('\t');
      const std::string assigned = row.substr(tab + 1, row.find('\t', tab + 1) - tab - 1);
      want_files[assigned + "_R1.fq"] += m1.records[static_cast<std::size_t>(p)];
      want_files[assigned + "_R2.fq"] += m2.records[static_cast<std::size_t>(p)];
    }
    Quiet q;
    run(o, q);
    CHECK(table_rows(o.demux.assignments) == want_rows);
    CHECK(folder_files(o.demux.out_dir) == want_files);
    CHECK(q.summary.assigned + q.summary.ambiguous + q.summary.unassigned_reads == static_cast<std::uint64_t>(n));
  }
}

TEST_CASE("demux: a duplicate, empty or reserved barcode id, or an id with '/', is a usage error and writes nothing") {
  TempDir dir("trawl_demux_bad");
  const std::string input = dir.write("in.fq", "@r\nACGTACGT\n+\nIIIIIIII\n");
  const std::pair<const char*, const char*> cases[] = {
      {">a\nACGT\n>a\nGGGG\n", "given twice"},
      {">a\nACGT\n>b\n\n", "empty"},
      {">ambiguous\nACGT\n", "demux's own"},
      {">x/y\nACGT\n", "cannot be part of a file name"}};
  for (const auto& [fasta, message] : cases) {
    CAPTURE(fasta);
    RunOptions o = demux_options(dir.write("bc.fa", fasta), 0);
    o.inputs = {input};
    o.demux.out_dir = dir.file("out");
    o.demux.assignments = dir.file("a.tsv");
    Quiet q;
    try {
      run(o, q);
      FAIL("no error");
    } catch (const UsageError& e) {
      CHECK(std::string(e.what()).find(message) != std::string::npos);
    }
    CHECK(!std::filesystem::exists(o.demux.assignments));
    CHECK((!std::filesystem::exists(o.demux.out_dir) || std::filesystem::is_empty(o.demux.out_dir)));
  }
}

TEST_CASE("demux: Parquet --assignments and --report hold the values of the TSV ones") {
  std::mt19937_64 rng(11);
  TempDir dir("trawl_demux_parquet");
  const std::vector<Barcode> panel = random_panel(rng, 5, 9);
  const Reads reads = make_reads(rng, panel, "ACGT", 300);
  RunOptions o = demux_options(dir.write("bc.fa", barcode_fasta(panel)), 1);
  o.inputs = {dir.write("in.fq", reads.text)};
  o.demux.assignments = dir.file("a.tsv");
  o.demux.report = dir.file("r.tsv");
  o.row_group_rows = 64;  // several row groups
  Quiet q;
  run(o, q);
  o.demux.assignments = dir.file("a.parquet");
  o.demux.report = dir.file("r.parquet");
  run(o, q);
  // Each Parquet file as TSV: its column names, then its rows (-1 for a missing number: '*').
  auto as_tsv = [](const std::string& path) {
    const std::string bytes = read_file_bytes(path);
    const test::parquet::File f =
        test::parquet::read_file(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    std::string text;
    for (std::size_t c = 0; c < f.columns.size(); ++c) text += (c ? "\t" : "") + f.columns[c].name;
    text += '\n';
    for (std::int64_t r = 0; r < f.num_rows; ++r) {
      for (std::size_t c = 0; c < f.columns.size(); ++c) {
        const test::parquet::ColumnValues& v = f.values[c];
        const auto i = static_cast<std::size_t>(r);
        std::string cell = f.columns[c].type == test::parquet::PhysicalType::int32 ? std::to_string(v.i32[i])
                           : f.columns[c].type == test::parquet::PhysicalType::int64 ? std::to_string(v.i64[i])
                                                                                     : v.str[i];
        text += (c ? "\t" : "") + (cell == "-1" ? std::string("*") : cell);
      }
      text += '\n';
    }
    return text;
  };
  CHECK(as_tsv(dir.file("a.parquet")) == read_file_bytes(dir.file("a.tsv")));
  // The report's Parquet has no fraction column (the writer has no floating-point type).
  std::string report;
  std::istringstream lines(read_file_bytes(dir.file("r.tsv")));
  for (std::string line; std::getline(lines, line);) {
    const std::size_t a = line.find('\t'), b = line.find('\t', a + 1), c = line.find('\t', b + 1);
    report += line.substr(0, b) + line.substr(c) + "\n";
  }
  CHECK(as_tsv(dir.file("r.parquet")) == report);
}
