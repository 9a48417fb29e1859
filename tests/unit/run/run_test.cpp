// run() (run/run.h), end to end on tiny files: the output file holds the command's rows and
// appears only once the run is done (written under a temporary name in the same folder,
// which the observer hears of first); the observer hears started() with the run's settings,
// warning() where k is not below the shortest pattern, progress() only when it asks for it,
// and finished() with the summary run() returns (records, residues, hits as the summary
// counts them, command, kernel). Invalid options and patterns are UsageErrors with the first
// problem's message; a missing input is an InputError that leaves no output file; a --paired
// count mismatch is an InputError after which no output file is left either. The output
// name picks the format: .gz compresses, .parquet writes Parquet.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/parquet_reader.h"
#include "support/temp_dir.h"
#include "trawl/core/errors.h"
#include "trawl/kernel/kernel.h"
#include "trawl/run/run.h"

using namespace trawl;
using trawl::test::read_file_bytes;
using trawl::test::TempDir;
namespace tp = trawl::test::parquet;

namespace {

class Recorder final : public RunObserver {
 public:
  explicit Recorder(bool progress = false, bool details = false) : wants_(progress), details_(details) {}
  void warning(const std::string& message) override { warnings.push_back(message); }
  void started(const RunStart& s) override {
    ++starts;
    start = s;
    start_kernel = s.kernel;
  }
  void temp_file_created(const std::string& path) override {
    temp_files.push_back(path);
    temp_existed = std::filesystem::exists(path);
  }
  bool wants_progress() const override { return wants_; }
  bool wants_details() const override { return details_; }
  void progress(const RunStats& s) override {
    ++progress_calls;
    last_progress = s;
  }
  void finished(const RunSummary& s) override {
    ++finishes;
    summary = s;
  }

  std::vector<std::string> warnings;
  int starts = 0, finishes = 0, progress_calls = 0;
  RunStart start;
  std::string start_kernel;
  std::vector<std::string> temp_files;
  bool temp_existed = false;
  RunStats last_progress;
  RunSummary summary;

 private:
  bool wants_;
  bool details_;
};

// Three records: GATTACA forward in r0, reverse complemented (TGTAATC) in r2.
const char* kInput = ">r0 first\nCCGATTACACC\n>r1\nTTTTT\n>r2\nAATGTAATCAA\n";

RunOptions options(const TempDir& dir, const std::string& output = "out.tsv") {
  RunOptions o;
  o.patterns.inline_patterns = {"GATTACA"};
  o.inputs = {dir.write("in.fa", kInput)};
  o.output = dir.file(output);
  o.search.alphabet.alphabet = Alphabet::dna;
  o.search.k = 0;
  o.kernel = "scalar";
  o.threads = 1;
  return o;
}

std::string usage_error(const RunOptions& o, Recorder& rec) {
  try {
    run(o, rec);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no usage error)";
}

std::string input_error(const RunOptions& o, Recorder& rec) {
  try {
    run(o, rec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no input error)";
}

// Files in the folder other than the input.
std::vector<std::string> outputs_in(const TempDir& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    if (e.path().filename() != "in.fa" && e.path().filename() != "patterns.txt") out.push_back(e.path().filename());
  return out;
}

const char* kHitsRows =
    "pat_id\ttext_id\tcost\tstrand\tstart\tend\tmatch_region\tcigar\n"
    "pattern\tr0\t0\t+\t2\t9\tGATTACA\t7=\n"
    "pattern\tr2\t0\t-\t2\t9\tGATTACA\t7=\n";

}  // namespace

TEST_CASE("run: hits end to end, the observer told of start, temporary file and finish") {
  const TempDir dir("trawl_run");
  const RunOptions o = options(dir);
  Recorder rec;
  const RunSummary s = run(o, rec);
  CHECK(read_file_bytes(o.output) == kHitsRows);
  CHECK(s.stats.records == 3);
  CHECK(s.stats.bases == 11 + 5 + 11);
  CHECK(s.stats.hits == 2);
  CHECK(s.command == Command::hits);
  CHECK(std::string(s.kernel) == "scalar");
  CHECK(s.seconds >= 0);
  CHECK(rec.starts == 1);
  CHECK(rec.start.patterns == 1);
  CHECK(rec.start.k == 0);
  CHECK(rec.start.alphabet == Alphabet::dna);
  CHECK(rec.start.both_strands);
  CHECK(rec.start_kernel == "scalar");
  CHECK(rec.start.threads == 1);
  CHECK(rec.warnings.empty());
  CHECK(rec.progress_calls == 0);  // not asked for
  CHECK(rec.finishes == 1);
  CHECK(rec.summary.stats.records == s.stats.records);
  CHECK(rec.summary.stats.hits == s.stats.hits);
  // Written under another name in the same folder, gone once the output is in place.
  REQUIRE(rec.temp_files.size() == 1);
  CHECK(rec.temp_existed);
  CHECK(rec.temp_files[0] != o.output);
  CHECK(std::filesystem::path(rec.temp_files[0]).parent_path() == std::filesystem::path(o.output).parent_path());
  CHECK_FALSE(std::filesystem::exists(rec.temp_files[0]));
  CHECK(outputs_in(dir) == std::vector<std::string>{"out.tsv"});
}

TEST_CASE("run: the same rows on more threads and for a task size that cuts records into windows") {
  const TempDir dir("trawl_run");
  for (const int threads : {1, 2, 3})
    for (const std::uint64_t batch : {std::uint64_t{1}, std::uint64_t{4}, std::uint64_t{1} << 20}) {
      CAPTURE(threads);
      CAPTURE(batch);
      RunOptions o = options(dir);
      o.threads = threads;
      o.batch_bases = batch;
      Recorder rec;
      const RunSummary s = run(o, rec);
      CHECK(read_file_bytes(o.output) == kHitsRows);
      CHECK(s.stats.records == 3);
      CHECK(s.stats.bases == 27);
      CHECK(s.stats.hits == 2);
      CHECK(rec.start.threads == threads);
    }
}

TEST_CASE("run: progress after every batch when asked, the last one the totals") {
  const TempDir dir("trawl_run");
  RunOptions o = options(dir);
  o.batch_bases = 1;  // a task per record (or window)
  Recorder rec(true);
  const RunSummary s = run(o, rec);
  CHECK(rec.progress_calls >= 3);
  CHECK(rec.last_progress.records == s.stats.records);
  CHECK(rec.last_progress.bases == s.stats.bases);
  CHECK(rec.last_progress.hits == s.stats.hits);
}

TEST_CASE("run: details only when asked: the kernel's reason, the plan, the batches, each input's counts and the stages' times") {
  const TempDir dir("trawl_run");
  for (const int threads : {1, 2})
    for (const std::uint64_t batch : {std::uint64_t{4}, std::uint64_t{1} << 20}) {
      CAPTURE(threads);
      CAPTURE(batch);
      RunOptions o = options(dir);
      // Three inputs, the middle one empty, and records cut into windows where batch is 4.
      o.inputs = {dir.write("a.fa", kInput), dir.write("empty.fa", ""), dir.write("b.fa", ">x\nGATTACAGATTACA\n")};
      o.threads = threads;
      o.batch_bases = batch;
      Recorder plain;
      const RunSummary quiet = run(o, plain);
      CHECK(plain.start.plan.empty());
      CHECK(quiet.report.inputs.empty());
      Recorder rec(false, true);
      const RunSummary s = run(o, rec);
      CHECK(rec.start.kernel_reason == "--kernel scalar");
      CHECK(rec.start.plan.rfind("search plan: ", 0) == 0);
      CHECK(rec.start.batch_bases == batch);
      CHECK(rec.start.batches_in_flight == 2 * static_cast<std::size_t>(threads));
      CHECK(rec.start.load_seconds >= 0);
      CHECK(s.inputs == o.inputs);
      REQUIRE(s.report.inputs.size() == 3);
      CHECK(s.report.inputs[0].records == 3);
      CHECK(s.report.inputs[0].bases == 27);
      CHECK(s.report.inputs[1].records == 0);
      CHECK(s.report.inputs[2].records == 1);
      CHECK(s.report.inputs[2].bases == 14);
      CHECK(s.stats.records == 4);
      CHECK(s.report.read_seconds >= 0);
      CHECK(s.report.search_seconds > 0);
      CHECK(s.report.write_seconds > 0);
    }
  RunOptions o = options(dir);
  o.kernel = "auto";
  Recorder rec(false, true);
  run(o, rec);
  CHECK(rec.start.kernel_reason.rfind("the fastest this CPU runs", 0) == 0);
}

TEST_CASE("run: count and contains summaries count what their rows say") {
  const TempDir dir("trawl_run");
  {
    RunOptions o = options(dir);
    o.shape = ResultShape{Command::count};
    o.patterns.inline_patterns = {"GATTACA", "TTTTT", "CC"};
    Recorder rec;
    const RunSummary s = run(o, rec);
    // CC: twice in r0 (at 0 and 9) on '+', and GG is nowhere; TTTTT: once in r1 on '+'.
    CHECK(read_file_bytes(o.output) ==
          "pat_id\ttext_id\tcount\n"
          "pattern1\tr0\t1\npattern3\tr0\t2\n"
          "pattern2\tr1\t1\n"
          "pattern1\tr2\t1\n");
    CHECK(s.command == Command::count);
    CHECK(s.stats.hits == 5);
    CHECK(rec.start.patterns == 3);
  }
  {
    RunOptions o = options(dir);
    o.shape = ResultShape{Command::contains};
    Recorder rec;
    const RunSummary s = run(o, rec);
    CHECK(read_file_bytes(o.output) == "text_id\tcontains\nr0\ttrue\nr1\tfalse\nr2\ttrue\n");
    CHECK(s.command == Command::contains);
    CHECK(s.stats.hits == 2);  // records with a hit
  }
}

TEST_CASE("run: a warning where k is not below the shortest pattern") {
  const TempDir dir("trawl_run");
  RunOptions o = options(dir);
  o.patterns.inline_patterns = {"GATTACA", "ACGT"};
  o.search.k = 4;
  Recorder rec;
  run(o, rec);
  CHECK(rec.warnings == std::vector<std::string>{"k = 4 is not below the shortest pattern length 4: every position matches"});
  o.search.k = 3;
  Recorder quiet;
  run(o, quiet);
  CHECK(quiet.warnings.empty());
}

TEST_CASE("run: invalid options and patterns are usage errors, before anything is written") {
  const TempDir dir("trawl_run");
  {
    RunOptions o = options(dir);
    o.patterns.inline_patterns.clear();
    Recorder rec;
    CHECK(usage_error(o, rec) == "no patterns: give -p SEQ, -f FILE or -l FILE");
    CHECK(rec.starts == 0);
  }
  {
    RunOptions o = options(dir);
    o.all_ends = o.best = true;
    o.batch_bases = 0;
    Recorder rec;
    CHECK(usage_error(o, rec) == "--all-ends and --best cannot be combined");  // the first of two
  }
  {
    RunOptions o = options(dir);
    o.patterns.inline_patterns = {"ACGX"};
    Recorder rec;
    CHECK(usage_error(o, rec) == "pattern 'pattern' has invalid dna character 'X' at position 4");
    CHECK(rec.starts == 0);
  }
  CHECK(outputs_in(dir).empty());
}

TEST_CASE("run: each kernel name runs where the CPU has it, else a usage error naming it") {
  const TempDir dir("trawl_run");
  for (const char* name : {"scalar", "avx2", "avx512", "auto"}) {
    CAPTURE(name);
    RunOptions o = options(dir);
    o.kernel = name;
    Recorder rec;
    if (find_kernel(name) == nullptr) {
      CHECK(usage_error(o, rec) == std::string("--kernel ") + name + ": this CPU does not support it");
      continue;
    }
    const RunSummary s = run(o, rec);
    CHECK(std::string(s.kernel) == find_kernel(name)->name);
    CHECK(read_file_bytes(o.output) == kHitsRows);
  }
}

TEST_CASE("run: a missing input fails before the output is created") {
  const TempDir dir("trawl_run");
  RunOptions o = options(dir);
  o.inputs.push_back(dir.file("missing.fa"));
  Recorder rec;
  CHECK(input_error(o, rec) == dir.file("missing.fa") + ": cannot open: No such file or directory");
  CHECK(rec.temp_files.empty());
  CHECK(rec.finishes == 0);
  CHECK(outputs_in(dir).empty());
}

TEST_CASE("run: --paired with a pattern count other than the records' fails and leaves no output") {
  const TempDir dir("trawl_run");
  RunOptions o = options(dir);
  o.paired = true;
  o.patterns.inline_patterns = {"GATTACA", "TTTTT"};
  Recorder rec;
  CHECK(input_error(o, rec) == "--pattern-per-record needs one pattern per record, but there are 2 patterns and 3 records");
  CHECK(rec.temp_files.size() == 1);
  CHECK(rec.finishes == 0);
  CHECK(outputs_in(dir).empty());
  // One pattern per record, from a list (whose pages the run releases behind it): pattern i
  // only in record i.
  o.patterns.inline_patterns.clear();
  o.patterns.list = dir.write("patterns.txt", "GATTACA\nGATTACA\nTTTTT\n");
  Recorder ok;
  const RunSummary s = run(o, ok);
  CHECK(read_file_bytes(o.output) ==
        "pat_id\ttext_id\tcost\tstrand\tstart\tend\tmatch_region\tcigar\n"
        "1\tr0\t0\t+\t2\t9\tGATTACA\t7=\n");  // r1 lacks GATTACA, r2 lacks TTTTT
  CHECK(s.stats.hits == 1);
}

TEST_CASE("run: the output name picks the format, --format overrides it") {
  const TempDir dir("trawl_run");
  {
    const RunOptions o = options(dir, "out.tsv.gz");
    Recorder rec;
    run(o, rec);
    const std::string bytes = read_file_bytes(o.output);
    REQUIRE(bytes.size() > 2);
    CHECK(static_cast<unsigned char>(bytes[0]) == 0x1f);  // gzip
    CHECK(static_cast<unsigned char>(bytes[1]) == 0x8b);
  }
  for (const auto& [name, format] : {std::pair<std::string, std::string>{"out.parquet", ""}, {"out.txt", "parquet"}}) {
    CAPTURE(name);
    RunOptions o = options(dir, name);
    o.format = format;
    o.version = "7.7.7";
    Recorder rec;
    run(o, rec);
    const std::string bytes = read_file_bytes(o.output);
    REQUIRE(bytes.size() > 8);
    CHECK(bytes.substr(0, 4) == "PAR1");
    const tp::File f = tp::read_file(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    CHECK(f.num_rows == 2);
    CHECK(f.values[1].str == std::vector<std::string>{"r0", "r2"});
    CHECK(f.created_by == std::optional<std::string>("trawl version 7.7.7"));
  }
  {
    RunOptions o = options(dir, "plain.parquet");
    o.format = "tsv";
    Recorder rec;
    run(o, rec);
    CHECK(read_file_bytes(o.output) == kHitsRows);
  }
}
