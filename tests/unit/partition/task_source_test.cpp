// TaskSizer and TaskSource (partition/task_source.h). The sizer starts at its task size, or
// for hits (adaptive) at min(kMinBases, task size), grows at most twofold per observed task,
// stays within [min, max] and otherwise picks the largest size whose hit rows fit
// kHitBudget at the density it saw. The source cuts a FASTA or FASTQ file (mapped or read
// through buffers) into tasks of about the sizer's residues: batches of whole records whose
// first_record numbers follow on without gaps, every record exactly once and in input order,
// and for a record longer than a task, (pattern, window) tasks whose windows tile [0, n) in
// order for each pattern in turn, with last_window on a pattern's last window and
// last_of_record on the record's very last task; with --paired, record i gets windows of
// pattern i only and a record past the last pattern one no_pattern task.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "support/random_text.h"
#include "support/temp_dir.h"
#include "trawl/io/reader.h"
#include "trawl/partition/task_source.h"

using namespace trawl;
using trawl::test::TempDir;

namespace {

using Records = std::vector<std::pair<std::string, std::string>>;  // (name, sequence)

// `line` > 0 wraps sequences into lines of that many bases (only records longer than
// `wrap_from`).
std::string fasta(const Records& records, std::size_t line = 0, std::size_t wrap_from = 0) {
  std::string s;
  for (const auto& [name, seq] : records) {
    s += ">" + name + " some description\n";
    if (line == 0 || seq.size() <= wrap_from) {
      s += seq + "\n";
      continue;
    }
    for (std::size_t at = 0; at < seq.size(); at += line) s += seq.substr(at, line) + "\n";
  }
  return s;
}

std::string fastq(const Records& records) {
  std::string s;
  for (const auto& [name, seq] : records) s += "@" + name + "\n" + seq + "\n+\n" + std::string(seq.size(), 'I') + "\n";
  return s;
}

// What one task held, copied out at once (its views die with the next task).
struct Seen {
  bool is_window = false;
  bool has_chunk = false;
  std::uint64_t first_record = 0;
  std::uint64_t bases = 0;
  Records records;  // a batch's records
  // A window task's.
  std::uint64_t text_idx = 0;
  std::string record_name;
  std::uint32_t pattern = 0;
  std::uint64_t begin = 0, end = 0;
  bool last_window = false, last_of_record = false, no_pattern = false, partial = false;
  std::string text;
};

Seen seen(Task& t) {
  Seen s;
  s.is_window = t.is_window;
  s.has_chunk = t.has_chunk;
  // A chunk is parsed by a worker in the run; here at once, as the worker would.
  if (t.has_chunk) FastxReader::parse_chunk(t.chunk, t.records);
  s.first_record = t.records.first_record;
  s.bases = t.bases();
  if (!t.is_window) {
    for (std::size_t r = 0; r < t.records.size(); ++r)
      s.records.emplace_back(std::string(t.records.name(r)), std::string(t.records.seq(r)));
    return s;
  }
  const WindowTask& w = t.window;
  s.text_idx = w.record->text_idx;
  s.record_name = w.record->name;
  s.pattern = w.pattern;
  s.begin = w.window.begin;
  s.end = w.window.end;
  s.last_window = w.last_window;
  s.last_of_record = w.last_of_record;
  s.no_pattern = w.no_pattern;
  s.partial = w.partial;
  s.text = std::string(w.text);
  return s;
}

// Every task of the file, in order. `between` (optional) runs after each task, as the run's
// output stage feeds the sizer.
template <class Between>
std::vector<Seen> drain(const std::string& path, const PatternSet& patterns, bool paired,
                        TaskSizer& sizer, std::uint64_t max_task, ReaderOptions ro, Between between) {
  FastxReader reader({path}, ro);
  TaskSource source(reader, patterns, paired, max_task, sizer);
  std::vector<Seen> out;
  for (int guard = 0; guard < 100000; ++guard) {
    Task t;
    if (!source.next(t)) return out;
    out.push_back(seen(t));
    between(out.back());
  }
  FAIL("the task source never ended");
  return out;
}

std::vector<Seen> drain(const std::string& path, const PatternSet& patterns, bool paired,
                        std::uint64_t task_bases, ReaderOptions ro) {
  TaskSizer sizer(task_bases, false);
  return drain(path, patterns, paired, sizer, task_bases, ro, [](const Seen&) {});
}

// The records as the tasks give them, each once: a batch's records, and a long record at
// its last task (checked to be the record's full sequence).
Records records_of(const std::vector<Seen>& tasks) {
  Records out;
  for (const Seen& s : tasks) {
    if (!s.is_window) {
      CHECK(s.first_record == out.size());  // contiguous, in order
      for (const auto& r : s.records) out.push_back(r);
      continue;
    }
    CHECK(s.first_record == s.text_idx);
    CHECK(s.text_idx == out.size());  // nothing of a later record before the long one ends
    if (s.last_of_record) out.emplace_back(s.record_name, s.text);
  }
  return out;
}

// Checks that the window tasks tile every long record for each of its patterns in turn:
// [0, size), [size, 2 size), ..., [b, kOpen) with size the fixed task size, flags only on
// the last ones, the last one with the whole (complete) text.
void check_tiling(const std::vector<Seen>& tasks, const Records& expected, std::uint32_t npat,
                  std::uint64_t size, bool paired) {
  std::size_t i = 0;
  while (i < tasks.size()) {
    if (!tasks[i].is_window) {
      ++i;
      continue;
    }
    const std::uint64_t rec = tasks[i].text_idx;
    CAPTURE(rec);
    REQUIRE(rec < expected.size());
    const std::string& seq = expected[rec].second;
    CHECK(tasks[i].record_name == expected[rec].first);
    const std::uint32_t first = paired ? static_cast<std::uint32_t>(rec) : 0;
    const std::uint32_t last = paired ? first + 1 : npat;
    for (std::uint32_t p = first; p < last; ++p) {
      CAPTURE(p);
      std::uint64_t begin = 0;
      for (;;) {
        REQUIRE(i < tasks.size());
        const Seen& s = tasks[i++];
        REQUIRE(s.is_window);
        CHECK(s.text_idx == rec);
        CHECK(s.pattern == p);
        CHECK_FALSE(s.no_pattern);
        CHECK(s.begin == begin);
        CHECK(seq.substr(0, s.text.size()) == s.text);  // what was read so far, exactly
        const bool last_window = begin + size >= seq.size();
        CHECK(s.last_window == last_window);
        CHECK(s.last_of_record == (last_window && p + 1 == last));
        if (!last_window) {
          CHECK(s.end == begin + size);
          CHECK(s.bases == size);
          begin = s.end;
          continue;
        }
        CHECK(s.end == Window::kOpen);
        CHECK_FALSE(s.partial);
        CHECK(s.text == seq);
        CHECK(s.bases == seq.size() - begin);
        break;
      }
    }
  }
}

Records random_records(std::mt19937_64& rng, std::size_t count, std::size_t min_len, std::size_t max_len) {
  Records out;
  for (std::size_t r = 0; r < count; ++r)
    out.emplace_back("r" + std::to_string(r),
                     trawl::test::random_text(rng, min_len + rng() % (max_len - min_len + 1), "ACGT"));
  return out;
}

const SearchOptions& dna() {
  static const SearchOptions o = [] {
    SearchOptions s;
    s.alphabet.alphabet = Alphabet::dna;
    s.k = 1;
    return s;
  }();
  return o;
}

ReaderOptions mapped() { return ReaderOptions{}; }
ReaderOptions buffered() { return ReaderOptions{false, 0, false}; }

}  // namespace

TEST_CASE("task sizer: fixed size without adaptation, min(kMinBases, size) with it") {
  CHECK(TaskSizer(1 << 20, false).bases() == 1 << 20);
  CHECK(TaskSizer(1 << 20, true).bases() == TaskSizer::kMinBases);
  CHECK(TaskSizer(1000, true).bases() == 1000);  // the minimum is never above the maximum
  CHECK(TaskSizer(1000, false).bases() == 1000);
}

TEST_CASE("task sizer: grows at most twofold per task, up to the maximum, never below the minimum") {
  TaskSizer sizer(1 << 20, true);
  const std::uint64_t grown[] = {1 << 15, 1 << 16, 1 << 17, 1 << 18, 1 << 19, 1 << 20, 1 << 20};
  for (const std::uint64_t want : grown) {
    sizer.observe(sizer.bases(), 0);  // no hits: as large as allowed
    CHECK(sizer.bases() == want);
  }
  sizer.observe(1 << 20, 1 << 20);  // a hit per residue: 8192 would fit, the floor is 16384
  CHECK(sizer.bases() == TaskSizer::kMinBases);
  sizer.observe(0, 12345);  // an empty task says nothing
  CHECK(sizer.bases() == TaskSizer::kMinBases);
  // A task size below kMinBases is both bounds.
  TaskSizer tiny(1000, true);
  tiny.observe(1000, 0);
  CHECK(tiny.bases() == 1000);
  tiny.observe(1000, 1000000);
  CHECK(tiny.bases() == 1000);
}

TEST_CASE("task sizer: the next size fits the hit budget at the density observed") {
  TaskSizer sizer(1 << 20, false);
  // 2^20 * 8192 / 85899 = 100000.4: tasks of 100000 residues hold at most 8192 hit rows.
  sizer.observe(1 << 20, 85899);
  CHECK(sizer.bases() == 100000);
  sizer.observe(100000, 0);  // then at most twice that
  CHECK(sizer.bases() == 200000);
  sizer.observe(200000, 8192);  // exactly the budget: stays
  CHECK(sizer.bases() == 200000);
  sizer.observe(200000, 8193);
  CHECK(sizer.bases() == 199975);  // 200000 * 8192 / 8193, rounded down

  // Seeded random observations: always within bounds, at most doubled, and fitting the
  // budget wherever it is above the floor.
  std::mt19937_64 rng(4242);
  TaskSizer r(1 << 22, true);
  for (int i = 0; i < 10000; ++i) {
    const std::uint64_t before = r.bases();
    const std::uint64_t task = 1 + rng() % (1 << 22);
    const std::uint64_t hits = rng() % 4 == 0 ? 0 : rng() % (task * 2);
    r.observe(task, hits);
    const std::uint64_t now = r.bases();
    CAPTURE(i);
    CHECK(now >= TaskSizer::kMinBases);
    CHECK(now <= std::uint64_t{1} << 22);
    CHECK(now <= std::max<std::uint64_t>(2 * before, TaskSizer::kMinBases));
    if (now > TaskSizer::kMinBases && hits > 0) CHECK(now * hits <= task * TaskSizer::kHitBudget);
  }
}

TEST_CASE("task source: short records in batches of about the task's residues, each record once, in order") {
  std::mt19937_64 rng(777);
  const TempDir dir("trawl_task_source");
  const Records expected = random_records(rng, 60, 10, 200);
  const PatternSet patterns({{"p", "ACGTACGT"}}, dna());
  const std::uint64_t task = 1000;
  struct Input {
    std::string path;
    ReaderOptions ro;
    bool fastq;  // FASTA and four-line FASTQ are both cut into unparsed chunks
  };
  const Input inputs[] = {{dir.write("a.fa", fasta(expected)), mapped(), false},
                          {dir.write("b.fa", fasta(expected)), buffered(), false},
                          {dir.write("c.fq", fastq(expected)), mapped(), true},
                          {dir.write("d.fq", fastq(expected)), buffered(), true}};
  for (const Input& in : inputs) {
    CAPTURE(in.path);
    CAPTURE(in.ro.map_files);
    const std::vector<Seen> tasks = drain(in.path, patterns, false, task, in.ro);
    CHECK(records_of(tasks) == expected);
    REQUIRE(tasks.size() > 5);
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      const Seen& s = tasks[i];
      CAPTURE(i);
      CHECK_FALSE(s.is_window);
      CHECK(s.has_chunk);
      CHECK_FALSE(s.records.empty());
      const bool last = i + 1 == tasks.size();
      // At most a task's bytes of input (FASTQ: twice, for the qualities), and not much less
      // unless the input ends.
      CHECK(s.bases <= task);
      if (!last) CHECK(s.bases > task / (in.fastq ? 3 : 2));
    }
  }
}

TEST_CASE("task source: an empty input has no task; empty sequences are records too") {
  const TempDir dir("trawl_task_source");
  const PatternSet patterns({{"p", "ACGT"}}, dna());
  CHECK(drain(dir.write("empty.fa", ""), patterns, false, 100, mapped()).empty());
  CHECK(drain(dir.write("empty.fq", ""), patterns, false, 100, buffered()).empty());
  const Records expected = {{"e0", ""}, {"e1", ""}, {"x", "ACGT"}, {"e2", ""}};
  for (const std::string& path : {dir.write("e.fa", fasta(expected)), dir.write("e.fq", fastq(expected))}) {
    CAPTURE(path);
    const std::vector<Seen> tasks = drain(path, patterns, false, 1000, mapped());
    CHECK(records_of(tasks) == expected);
    CHECK(tasks.size() == 1);
  }
}

TEST_CASE("task source: a record longer than a task becomes windows that tile it, pattern by pattern") {
  std::mt19937_64 rng(31337);
  const TempDir dir("trawl_task_source");
  // Short and long records mixed: long ones of exactly a multiple of the task, one base
  // more, one base less, first and last in the file, and one in lines (read while searched).
  const std::uint64_t task = 1000;
  Records expected;
  const std::size_t lengths[] = {5000, 30, 120, 4001, 999, 1000, 1001, 60, 3999, 2500, 15, 6000};
  for (std::size_t i = 0; i < std::size(lengths); ++i)
    expected.emplace_back("rec" + std::to_string(i), trawl::test::random_text(rng, lengths[i], "ACGT"));
  const PatternSet patterns({{"a", "ACGTAC"}, {"b", "GGGTTTAA"}, {"c", "TTTTT"}}, dna());
  const std::string one_line = fasta(expected);
  const std::string in_lines = fasta(expected, 70, 1000);  // long records in lines of 70
  struct Input {
    std::string path;
    ReaderOptions ro;
  };
  const Input inputs[] = {{dir.write("one_line.fa", one_line), mapped()},
                          {dir.write("one_line_b.fa", one_line), buffered()},
                          {dir.write("lines.fa", in_lines), mapped()},
                          {dir.write("lines_b.fa", in_lines), buffered()},
                          {dir.write("reads.fq", fastq(expected)), mapped()}};
  for (const Input& in : inputs) {
    CAPTURE(in.path);
    CAPTURE(in.ro.map_files);
    const std::vector<Seen> tasks = drain(in.path, patterns, false, task, in.ro);
    CHECK(records_of(tasks) == expected);
    check_tiling(tasks, expected, 3, task, false);
    // The records over a task's residues come as windows, ceil(n / task) for each of the 3
    // patterns; shorter ones in batches. (One of exactly a task's residues, read from lines
    // only that far, may come either way: as one open window per pattern.)
    std::vector<std::uint64_t> windowed;
    std::size_t windows = 0, want = 0;
    for (const Seen& s : tasks) {
      windows += s.is_window;
      if (s.is_window && s.last_of_record) windowed.push_back(s.text_idx);
    }
    for (std::size_t r = 0; r < expected.size(); ++r) {
      CAPTURE(r);
      const std::uint64_t n = expected[r].second.size();
      const bool is_windowed = std::find(windowed.begin(), windowed.end(), r) != windowed.end();
      if (n > task) CHECK(is_windowed);
      if (n < task) CHECK_FALSE(is_windowed);
      if (is_windowed) want += 3 * ((n + task - 1) / task);
    }
    CHECK(windows == want);
    for (const Seen& s : tasks)
      if (!s.is_window)
        for (const auto& r : s.records) CHECK(r.second.size() <= task);
  }
}

TEST_CASE("task source: --paired gives record i windows of pattern i only, a surplus record one no_pattern task") {
  std::mt19937_64 rng(2718);
  const TempDir dir("trawl_task_source");
  const std::uint64_t task = 1000;
  const Records expected = {{"r0", trawl::test::random_text(rng, 50, "ACGT")},
                            {"r1", trawl::test::random_text(rng, 3500, "ACGT")},
                            {"r2", trawl::test::random_text(rng, 2500, "ACGT")},
                            {"r3", trawl::test::random_text(rng, 4000, "ACGT")},  // no pattern 3
                            {"r4", trawl::test::random_text(rng, 80, "ACGT")}};   // nor 4
  const PatternSet patterns({{"p0", "ACGTAC"}, {"p1", "GGGTTTAA"}, {"p2", "TTTTT"}}, dna());
  for (const std::string& path : {dir.write("paired.fa", fasta(expected)),
                                  dir.write("paired_lines.fa", fasta(expected, 60, 1000)),
                                  dir.write("paired.fq", fastq(expected))}) {
    CAPTURE(path);
    const std::vector<Seen> tasks = drain(path, patterns, true, task, mapped());
    CHECK(records_of(tasks) == expected);
    check_tiling({tasks.begin(), tasks.begin() + 8}, expected, 3, task, true);
    // r0 | r1 x p1: 4 windows | r2 x p2: 3 windows | r3: one task | r4
    REQUIRE(tasks.size() == 10);
    CHECK_FALSE(tasks[0].is_window);
    for (int i = 1; i <= 4; ++i) CHECK((tasks[i].is_window && tasks[i].text_idx == 1 && tasks[i].pattern == 1));
    for (int i = 5; i <= 7; ++i) CHECK((tasks[i].is_window && tasks[i].text_idx == 2 && tasks[i].pattern == 2));
    const Seen& surplus = tasks[8];
    CHECK(surplus.is_window);
    CHECK(surplus.text_idx == 3);
    CHECK(surplus.no_pattern);
    CHECK(surplus.pattern == 3);  // past the last pattern: nothing to search
    CHECK(surplus.last_window);
    CHECK(surplus.last_of_record);
    CHECK_FALSE(surplus.partial);
    CHECK(surplus.text == expected[3].second);  // read whole, to be counted
    CHECK_FALSE(tasks[9].is_window);
    CHECK(tasks[9].first_record == 4);
  }
}

TEST_CASE("task source: windows follow the sizer as the output stage feeds it") {
  std::mt19937_64 rng(99);
  const TempDir dir("trawl_task_source");
  const Records expected = {{"long", trawl::test::random_text(rng, 100000, "ACGT")}};
  const PatternSet patterns({{"p", "ACGTACGT"}}, dna());
  for (const std::string& path : {dir.write("long.fa", fasta(expected)), dir.write("long_lines.fa", fasta(expected, 80)),
                                  dir.write("long.fq", fastq(expected))}) {
    CAPTURE(path);
    TaskSizer sizer(1 << 16, true);
    // The hits each task "had", as the writer would observe them: none, then one per
    // residue (down to the floor), then none again.
    const std::uint64_t hits[] = {0, 32768, 0, 0, 0};
    std::size_t at = 0;
    const std::vector<Seen> tasks = drain(path, patterns, false, sizer, 1 << 16, mapped(), [&](const Seen& s) {
      sizer.observe(s.bases, hits[std::min<std::size_t>(at++, std::size(hits) - 1)]);
    });
    CHECK(records_of(tasks) == expected);
    // 16384 (start), 32768 (doubled), 16384 (dense), 32768, then 65536 past the end.
    const std::pair<std::uint64_t, std::uint64_t> want[] = {
        {0, 16384}, {16384, 49152}, {49152, 65536}, {65536, 98304}, {98304, Window::kOpen}};
    REQUIRE(tasks.size() == std::size(want));
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      CAPTURE(i);
      CHECK(tasks[i].begin == want[i].first);
      CHECK(tasks[i].end == want[i].second);
      CHECK(tasks[i].last_window == (i + 1 == tasks.size()));
    }
  }
}
