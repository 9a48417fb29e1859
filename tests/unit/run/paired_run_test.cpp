// Paired-end runs (-1/-2 and --interleaved): the rows are those of the same search over the
// interleaved file without paired input, with a mate column after text_id that is 1 for
// even record indexes and 2 for odd ones, for hits, count and contains, at any thread count
// and task size (batches hold whole pairs; long mates are never cut into windows).
// count --by pattern has no mate column. A pair whose names differ stops the run with an
// InputError and leaves no output file; -v reports both mate files.
#include <doctest/doctest.h>

#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/parquet_reader.h"
#include "support/temp_dir.h"
#include "trawl/core/errors.h"
#include "trawl/run/run.h"

using namespace trawl;
using trawl::test::read_file_bytes;
using trawl::test::TempDir;
namespace tp = trawl::test::parquet;

namespace {

class Details final : public RunObserver {
 public:
  bool wants_details() const override { return true; }
  void finished(const RunSummary& s) override { summary = s; }
  RunSummary summary;
};

const char* kPattern = "GATTACAGG";

// Seeded pairs as FASTQ: mate 1 in `r1`, mate 2 in `r2`, both in turn in `interleaved`;
// some mates long (a task of a few bases cannot hold them), some with the pattern or its
// reverse complement, a few empty.
struct Pairs {
  std::string r1, r2, interleaved;
};

Pairs make_pairs(unsigned seed, int pairs) {
  std::mt19937 rng(seed);
  auto seq = [&](std::size_t n) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s += "ACGT"[rng() % 4];
    const int plant = static_cast<int>(rng() % 4);
    if (n > 20 && plant == 1) s.replace(rng() % (n - 9), 9, kPattern);
    if (n > 20 && plant == 2) s.replace(rng() % (n - 9), 9, "CCTGTAATC");
    return s;
  };
  Pairs p;
  for (int i = 0; i < pairs; ++i) {
    const std::string name = "read" + std::to_string(i);
    for (int mate = 1; mate <= 2; ++mate) {
      const std::size_t n = rng() % 10 == 0 ? 0 : rng() % 10 == 0 ? 3000 : 30 + rng() % 120;
      const std::string s = seq(n);
      const std::string rec = "@" + name + "/" + std::to_string(mate) + " c\n" + s + "\n+\n" + std::string(n, 'I') + "\n";
      (mate == 1 ? p.r1 : p.r2) += rec;
      p.interleaved += rec;
    }
  }
  return p;
}

RunOptions base(const TempDir& dir, Command command) {
  RunOptions o;
  o.shape.command = command;
  o.patterns.inline_patterns = {std::string(kPattern), "p2=ACGTACGTAC"};
  o.search.k = 1;
  o.kernel = "scalar";
  o.threads = 1;
  o.output = dir.file("out.tsv");
  return o;
}

std::string run_to_text(RunOptions o) {
  RunObserver quiet;
  run(o, quiet);
  return read_file_bytes(o.output);
}

// The rows of a run over the interleaved file without paired input, with the mate column
// put after text_id: `text_idx_col` is the column (counted from 0) of the record index the
// rows carry (hits: --columns text_idx, dropped again), or -1 where rows are a record each
// in order (contains), whose index is then the row's.
std::string with_mates(const std::string& tsv, int text_idx_col, std::size_t text_id_col) {
  std::istringstream in(tsv);
  std::string line, out;
  for (std::uint64_t row = 0; std::getline(in, line); ++row) {
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string x; std::getline(fields, x, '\t');) f.push_back(x);
    std::string mate = "mate";
    if (row > 0) {
      const std::uint64_t idx = text_idx_col < 0 ? row - 1 : std::stoull(f[static_cast<std::size_t>(text_idx_col)]);
      mate = std::to_string(idx % 2 + 1);
    }
    if (text_idx_col >= 0) f.erase(f.begin() + text_idx_col);
    f.insert(f.begin() + static_cast<std::ptrdiff_t>(text_id_col + 1), mate);
    for (std::size_t i = 0; i < f.size(); ++i) out += f[i] + (i + 1 < f.size() ? "\t" : "\n");
  }
  return out;
}

}  // namespace

TEST_CASE("paired run: -1/-2 and --interleaved rows are the interleaved file's with a mate column") {
  const TempDir dir("trawl_paired_run");
  const Pairs pairs = make_pairs(31, 60);
  const std::string r1 = dir.write("r1.fq", pairs.r1), r2 = dir.write("r2.fq", pairs.r2);
  const std::string il = dir.write("il.fq", pairs.interleaved);
  struct Case {
    Command command;
    bool per_pair, zeros;
    int text_idx_col;
    std::size_t text_id_col;
  };
  for (const Case c : {Case{Command::hits, false, false, 8, 1}, Case{Command::count, false, true, -2, 1},
                       Case{Command::contains, false, false, -1, 0}, Case{Command::contains, true, false, -2, 1}}) {
    CAPTURE(static_cast<int>(c.command));
    CAPTURE(c.per_pair);
    RunOptions plain = base(dir, c.command);
    plain.shape.per_pair = c.per_pair;
    plain.shape.zeros = c.zeros;
    plain.inputs = {il};
    if (c.command == Command::hits) plain.columns.extra = {"text_idx"};
    std::string want;
    if (c.text_idx_col == -2) {
      // count / contains --by pair: every (pattern, record) pair, in record order, so the
      // record index is the row's over the number of patterns.
      const std::string text = run_to_text(plain);
      std::istringstream in(text);
      std::string line;
      for (std::uint64_t row = 0; std::getline(in, line); ++row) {
        const std::size_t tab = line.find('\t', line.find('\t') + 1);
        want += line.substr(0, tab + 1) + (row == 0 ? "mate" : std::to_string((row - 1) / 2 % 2 + 1)) +
                line.substr(tab) + "\n";
      }
    } else {
      want = with_mates(run_to_text(plain), c.text_idx_col, c.text_id_col);
    }
    CHECK(want.find("\t2\t") != std::string::npos);  // mate 2 rows are there to check
    for (const int threads : {1, 2})
      for (const std::uint64_t batch : {std::uint64_t{1}, std::uint64_t{200}, std::uint64_t{1} << 20}) {
        CAPTURE(threads);
        CAPTURE(batch);
        RunOptions files = base(dir, c.command);
        files.shape = plain.shape;
        files.mate1 = r1;
        files.mate2 = r2;
        files.threads = threads;
        files.batch_bases = batch;
        CHECK(run_to_text(files) == want);
        RunOptions interleaved = files;
        interleaved.mate1.clear();
        interleaved.mate2.clear();
        interleaved.interleaved = true;
        interleaved.inputs = {il};
        CHECK(run_to_text(interleaved) == want);
      }
  }
}

TEST_CASE("paired run: count --by pattern has no mate column, its records count mates") {
  const TempDir dir("trawl_paired_run");
  const Pairs pairs = make_pairs(7, 40);
  RunOptions plain = base(dir, Command::count);
  plain.shape.per_pattern_totals = true;
  plain.inputs = {dir.write("il.fq", pairs.interleaved)};
  RunOptions files = plain;
  files.inputs.clear();
  files.mate1 = dir.write("r1.fq", pairs.r1);
  files.mate2 = dir.write("r2.fq", pairs.r2);
  const std::string want = run_to_text(plain);
  CHECK(want.rfind("pat_id\tcount\trecords\n", 0) == 0);
  CHECK(run_to_text(files) == want);
}

TEST_CASE("paired run: Parquet has the mate column") {
  const TempDir dir("trawl_paired_run");
  RunOptions o = base(dir, Command::contains);
  o.mate1 = dir.write("r1.fa", ">a\nGATTACAGG\n");
  o.mate2 = dir.write("r2.fa", ">a\nTTTT\n");
  o.output = dir.file("out.parquet");
  RunObserver quiet;
  run(o, quiet);
  const std::string bytes = read_file_bytes(o.output);
  const tp::File f = tp::read_file(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  REQUIRE(f.columns.size() == 3);
  CHECK(f.columns[1].name == "mate");
  CHECK(f.values[1].i32 == std::vector<std::int32_t>{1, 2});
  CHECK(f.values[2].boolean == std::vector<bool>{true, false});
}

TEST_CASE("paired run: mate names that differ fail the run and leave no output file") {
  const TempDir dir("trawl_paired_run");
  RunOptions o = base(dir, Command::hits);
  o.mate1 = dir.write("r1.fa", ">a\nGATTACAGG\n>b\nA\n");
  o.mate2 = dir.write("r2.fa", ">a\nTTTT\n>c\nA\n");
  RunObserver quiet;
  std::string error;
  try {
    run(o, quiet);
  } catch (const InputError& e) {
    error = e.what();
  }
  CHECK(error.find(": pair 2: mate names differ: 'b' and 'c'") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(o.output));
}

TEST_CASE("paired run: -v counts each mate file's records and bases") {
  const TempDir dir("trawl_paired_run");
  RunOptions o = base(dir, Command::count);
  o.mate1 = dir.write("r1.fa", ">a\nGATTACAGG\n>b\nAC\n");
  o.mate2 = dir.write("r2.fa", ">a\nTTTT\n>b\nA\n");
  o.batch_bases = 3;
  Details details;
  run(o, details);
  REQUIRE(details.summary.report.inputs.size() == 2);
  CHECK(details.summary.inputs == std::vector<std::string>{o.mate1, o.mate2});
  CHECK(details.summary.report.inputs[0].records == 2);
  CHECK(details.summary.report.inputs[0].bases == 11);
  CHECK(details.summary.report.inputs[1].records == 2);
  CHECK(details.summary.report.inputs[1].bases == 5);
}
