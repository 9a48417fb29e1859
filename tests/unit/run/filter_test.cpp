// filter, end to end (run() with RunOptions::records): on seeded random FASTA/FASTQ (one-line
// and wrapped, records long enough to be cut into windows) the matched records are exactly
// those `contains` says, in input order, at every alphabet, strand option, k, --region,
// thread count and batch size; the output and --unmatched together are the input's records byte for byte
// (qualities kept); --invert swaps the two files; .gz outputs are BGZF that zlib reads back;
// the run's summary counts both sides.
#include <doctest/doctest.h>
#include <zlib.h>

#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/gzip_bytes.h"
#include "support/random_text.h"
#include "support/temp_dir.h"
#include "trawl/run/run.h"

using namespace trawl;
using trawl::test::read_file_bytes;
using trawl::test::TempDir;

namespace {

struct Input {
  std::string text;                  // the file
  std::vector<std::string> records;  // each record as filter writes it (one sequence line)
  std::vector<std::string> ids;
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

Input make_input(std::mt19937_64& rng, bool fastq, const std::vector<std::string>& patterns,
                 const std::string& letters) {
  Input in;
  const int n = 1 + static_cast<int>(rng() % 40);
  for (int r = 0; r < n; ++r) {
    const std::size_t len = rng() % 8 == 0 ? 2000 + rng() % 3000 : rng() % 120;
    std::string seq = test::random_text(rng, len, letters);
    if (rng() % 3 == 0 && !seq.empty()) {
      const std::string planted = mutate(rng, patterns[rng() % patterns.size()], letters, static_cast<int>(rng() % 3));
      seq.insert(rng() % seq.size(), planted);
    }
    const std::string id = "r" + std::to_string(r);
    const std::string header = id + (rng() % 2 ? " some comment" : "");
    in.ids.push_back(id);
    if (fastq) {
      const std::string qual = test::random_text(rng, seq.size(), "!#5?IJ");
      in.records.push_back("@" + header + "\n" + seq + "\n+\n" + qual + "\n");
      in.text += "@" + header + "\n" + seq + "\n+" + (rng() % 2 ? id : "") + "\n" + qual + "\n";
    } else {
      in.records.push_back(">" + header + "\n" + seq + "\n");
      std::string wrapped;
      const std::size_t width = rng() % 2 ? 60 : 100000;
      for (std::size_t i = 0; i < seq.size(); i += width) wrapped += seq.substr(i, width) + "\n";
      in.text += ">" + header + "\n" + wrapped;
    }
  }
  return in;
}

class Quiet final : public RunObserver {
 public:
  void finished(const RunSummary& s) override { summary = s; }
  RunSummary summary;
};

// contains' rows for the same search: each record's id (first column) and flag (last).
std::vector<std::pair<std::string, bool>> contains_rows(RunOptions o, const TempDir& dir) {
  o.records = {};
  o.shape.command = Command::contains;
  o.output = dir.file("contains.tsv");
  Quiet q;
  run(o, q);
  std::istringstream rows(read_file_bytes(o.output));
  std::string line;
  std::getline(rows, line);  // header
  std::vector<std::pair<std::string, bool>> out;
  while (std::getline(rows, line))
    out.emplace_back(line.substr(0, line.find('\t')), line.substr(line.rfind('\t') + 1) == "true");
  return out;
}

// The ids of the records `contains` says have a hit.
std::vector<std::string> contains_ids(const RunOptions& o, const TempDir& dir) {
  std::vector<std::string> ids;
  for (const auto& [id, hit] : contains_rows(o, dir))
    if (hit) ids.push_back(id);
  return ids;
}

std::string gunzip(const std::string& path) { return trawl::test::gunzip_file(path); }

}  // namespace

TEST_CASE("filter: matched records = contains, in order, at every option; the two sides partition the input") {
  std::mt19937_64 rng(20261207);
  const char* alphabets[] = {"dna", "iupac", "ascii"};
  for (int iter = 0; iter < 60; ++iter) {
    CAPTURE(iter);
    TempDir dir("trawl_filter");
    const Alphabet alphabet = iter % 3 == 0 ? Alphabet::dna : iter % 3 == 1 ? Alphabet::iupac : Alphabet::ascii;
    const std::string letters = alphabet == Alphabet::ascii ? "ACGTacgt" : alphabet == Alphabet::iupac ? "ACGTN" : "ACGT";
    std::vector<std::string> patterns;
    for (int p = 0; p < 1 + iter % 3; ++p) patterns.push_back(test::random_text(rng, 8 + rng() % 13, "ACGT"));
    const Input in = make_input(rng, iter % 2 == 0, patterns, letters);
    RunOptions o;
    o.patterns.inline_patterns = patterns;
    o.inputs = {dir.write("in.fx", in.text)};
    o.search.alphabet.alphabet = alphabet;
    o.search.alphabet.ignore_case = alphabet == Alphabet::ascii && iter % 2;
    o.search.both_strands = alphabet != Alphabet::ascii && iter % 4 != 1;
    o.search.k = static_cast<int>(rng() % 4);
    o.kernel = "scalar";
    o.threads = 1;
    const char* regions[] = {"1:40", "-50:-1", "20:-1", "-3000:2500"};
    if (iter % 3 == 2) o.region = regions[iter % 4];
    CAPTURE(o.region.value_or("whole records"));
    CAPTURE(alphabets[static_cast<int>(alphabet == Alphabet::ascii ? 2 : alphabet == Alphabet::iupac)]);
    const std::vector<std::string> expected = contains_ids(o, dir);

    o.records.on = true;
    o.shape.command = Command::contains;
    o.records.unmatched = dir.file("other.fx");
    std::string first_output;
    for (const int threads : {1, 2}) {
      for (const std::uint64_t batch : {std::uint64_t{1} << 20, std::uint64_t{500}}) {
        o.threads = threads;
        o.batch_bases = batch;
        o.output = dir.file("kept.fx");
        Quiet q;
        run(o, q);
        const std::string kept = read_file_bytes(o.output), other = read_file_bytes(o.records.unmatched);
        if (first_output.empty()) first_output = kept + "|" + other;
        CHECK(kept + "|" + other == first_output);
        std::string want_kept, want_other;
        std::size_t e = 0;
        for (std::size_t r = 0; r < in.records.size(); ++r) {
          const bool hit = e < expected.size() && expected[e] == in.ids[r];
          e += hit;
          (hit ? want_kept : want_other) += in.records[r];
        }
        CHECK(kept == want_kept);
        CHECK(other == want_other);
        CHECK(q.summary.filtered);
        CHECK(q.summary.matched == expected.size());
        CHECK(q.summary.unmatched == in.records.size() - expected.size());
      }
    }
    // --invert swaps the files; .gz names compress (BGZF).
    o.records.invert = true;
    o.output = dir.file("kept.fx.gz");
    o.records.unmatched = dir.file("other.fx.gz");
    Quiet q;
    run(o, q);
    CHECK(gunzip(o.output) + "|" + gunzip(o.records.unmatched) ==
          first_output.substr(first_output.find('|') + 1) + "|" + first_output.substr(0, first_output.find('|')));
  }
}

TEST_CASE("filter: paired input keeps mates together, each pair on the side --pair-match gives it") {
  std::mt19937_64 rng(31);
  const char* rules[] = {"any", "both", "first", "second"};
  for (int iter = 0; iter < 16; ++iter) {
    CAPTURE(iter);
    TempDir dir("trawl_filter_pairs");
    const std::vector<std::string> patterns = {test::random_text(rng, 12 + rng() % 8, "ACGT")};
    Input mate1 = make_input(rng, true, patterns, "ACGT"), mate2 = make_input(rng, true, patterns, "ACGT");
    // As many mates 2 as mates 1, named alike (r0 .. rN-1: make_input's names).
    const std::size_t pairs = std::min(mate1.records.size(), mate2.records.size());
    auto prefix = [&](const Input& in) {
      std::string text;
      for (std::size_t r = 0; r < pairs; ++r) text += in.records[r];
      return text;
    };
    RunOptions o;
    o.patterns.inline_patterns = patterns;
    o.mate1 = dir.write("r1.fq", prefix(mate1));
    o.mate2 = dir.write("r2.fq", prefix(mate2));
    o.search.alphabet.alphabet = Alphabet::dna;
    o.search.both_strands = iter % 2 == 0;
    o.search.k = static_cast<int>(rng() % 3);
    o.kernel = "scalar";
    o.threads = 1;
    // Each mate's flag from contains (rows text_id, mate, contains in record order).
    std::vector<bool> flag;
    for (const auto& row : contains_rows(o, dir)) flag.push_back(row.second);
    REQUIRE(flag.size() == 2 * pairs);

    const std::string rule = rules[iter % 4];
    o.records.on = true;
    o.shape.command = Command::contains;
    o.records.pair_match = rule;
    o.records.unmatched = dir.file("rest1.fq");
    o.records.output2 = dir.file("kept2.fq");
    o.records.unmatched2 = dir.file("rest2.fq.gz");
    o.output = dir.file("kept1.fq");
    std::string want[4];
    for (std::size_t p = 0; p < pairs; ++p) {
      const bool a = flag[2 * p], b = flag[2 * p + 1];
      const bool in = rule == "any" ? a || b : rule == "both" ? a && b : rule == "first" ? a : b;
      want[in ? 0 : 1] += mate1.records[p];
      want[in ? 2 : 3] += mate2.records[p];
    }
    for (const int threads : {1, 2}) {
      for (const std::uint64_t batch : {std::uint64_t{1} << 20, std::uint64_t{300}}) {
        o.threads = threads;
        o.batch_bases = batch;
        Quiet q;
        run(o, q);
        CHECK(read_file_bytes(o.output) == want[0]);
        CHECK(read_file_bytes(o.records.unmatched) == want[1]);
        CHECK(read_file_bytes(o.records.output2) == want[2]);
        CHECK(gunzip(o.records.unmatched2) == want[3]);
      }
    }
    // One output: the mates interleaved.
    RunOptions one = o;
    one.records.unmatched = one.records.output2 = one.records.unmatched2 = "";
    Quiet q;
    run(one, q);
    std::string interleaved;
    for (std::size_t p = 0; p < pairs; ++p) {
      const bool a = flag[2 * p], b = flag[2 * p + 1];
      const bool in = rule == "any" ? a || b : rule == "both" ? a && b : rule == "first" ? a : b;
      if (in) interleaved += mate1.records[p] + mate2.records[p];
    }
    CHECK(read_file_bytes(one.output) == interleaved);
  }
}
