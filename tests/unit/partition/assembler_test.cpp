// LongRecordAssembler (partition/assembler.h): a long record searched as (pattern, window)
// tasks, each task's results fed in task order, must write exactly the rows of the whole
// record searched at once, to a sink that sees one-record batches of that record (its index,
// name and sequence): hits in output order (pattern, start, strand, end), released only once
// no later window can start before them, with --best one per strand and pattern and nothing
// before the pattern's last window; count rows at each pattern's last window (--best counts
// strands, --zeros keeps zeros); contains per record at the record's last task, or per pair
// at each pattern's last window. A window found incomplete on a partial text is searched
// again once a task brings the whole record; a --paired surplus record writes nothing. The
// value add() returns adds up to the run summary's hits.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "support/capture_sink.h"
#include "support/random_text.h"
#include "support/sink_fixture.h"
#include "trawl/partition/assembler.h"

using namespace trawl;
using trawl::test::CaptureSink;

namespace {

constexpr std::uint64_t kRecord = 7;  // the record's index in the input

std::shared_ptr<LongRecord> long_record(const std::string& text, const std::string& name = "chrT") {
  auto rec = std::make_shared<LongRecord>();
  rec->text_idx = kRecord;
  rec->name = name;
  rec->storage = text;
  rec->seq = rec->storage;
  return rec;
}

// Called after every add() with the task and what add() returned.
using AfterAdd = std::function<void(const WindowTask&, std::uint64_t)>;

// Feeds the assembler every (pattern, window) task of the record, windows of `size`,
// searched through Searcher::search(WindowQuery) as the run's workers do. Returns the sum
// of add()'s results.
std::uint64_t assemble(const PatternSet& patterns, const SearchOptions& opt, const SearchMode& mode,
                       const std::shared_ptr<LongRecord>& rec, std::uint64_t size, ResultSink& sink,
                       const AfterAdd& after = {}) {
  Searcher searcher(patterns, opt, scalar_kernel(), mode);
  LongRecordAssembler assembler(patterns, opt, scalar_kernel(), mode, sink);
  const std::uint64_t n = rec->seq.size();
  const auto npat = static_cast<std::uint32_t>(patterns.size());
  std::uint64_t total = 0;
  for (std::uint32_t p = 0; p < npat; ++p) {
    for (std::uint64_t begin = 0;;) {
      WindowTask t;
      t.record = rec;
      t.text = rec->seq;
      t.pattern = p;
      t.window = {begin, begin + size < n ? begin + size : Window::kOpen};
      t.last_window = t.window.end == Window::kOpen;
      t.last_of_record = t.last_window && p + 1 == npat;
      BatchResults results;
      const WindowAnswer answer =
          searcher.search(WindowQuery{t.text, t.window, false, t.pattern, rec->text_idx}, results);
      REQUIRE_FALSE(answer.incomplete);
      const std::uint64_t added = assembler.add(t, results, answer);
      total += added;
      if (after) after(t, added);
      if (t.last_window) break;
      begin = t.window.end;
    }
  }
  return total;
}

// The whole record searched at once.
BatchResults whole(const PatternSet& patterns, const SearchOptions& opt, const SearchMode& mode,
                   const std::string& text) {
  Searcher searcher(patterns, opt, scalar_kernel(), mode);
  const std::string_view one[] = {text};
  BatchResults out;
  searcher.search(one, kRecord, out);
  return out;
}

struct Case {
  SearchOptions opt;
  std::vector<Pattern> patterns;
  std::string text;
};

// Seeded random cases: dna or iupac (with Ns and the N filter), k up to 3, each selection,
// one or both strands, overhang in some; patterns planted in the text with a few edits.
Case random_case(std::mt19937_64& rng, int iter) {
  Case c;
  c.opt.alphabet.alphabet = iter % 2 ? Alphabet::dna : Alphabet::iupac;
  c.opt.k = static_cast<int>(rng() % 4);
  c.opt.selection = iter % 3 == 0 ? Selection::local_minima : iter % 3 == 1 ? Selection::all_ends : Selection::best;
  c.opt.both_strands = iter % 4 != 3;
  if (iter % 5 == 2) c.opt.overhang = 0.5f;
  if (c.opt.alphabet.alphabet == Alphabet::iupac && iter % 4 == 0) c.opt.max_n_frac = 0.2f;
  const int npat = 1 + static_cast<int>(rng() % 3);
  for (int p = 0; p < npat; ++p)
    c.patterns.push_back({"p" + std::to_string(p), trawl::test::random_text(rng, 6 + rng() % 15, "ACGT")});
  const std::string letters = c.opt.alphabet.alphabet == Alphabet::iupac ? "ACGTACGTACGTN" : "ACGT";
  c.text = trawl::test::random_text(rng, 300 + rng() % 2000, letters);
  for (int plant = 0; plant < 12; ++plant) {
    std::string p = c.patterns[rng() % c.patterns.size()].seq;
    if (rng() % 2) p[rng() % p.size()] = "ACGT"[rng() % 4];
    if (rng() % 3 == 0) p.erase(rng() % p.size(), 1);
    const std::size_t at = rng() % (c.text.size() - p.size());
    c.text.replace(at, p.size(), p);
  }
  // Runs of one letter make long runs of ends that cross window borders.
  c.text.replace(rng() % (c.text.size() - 40), 40, std::string(40, 'A'));
  return c;
}

SearchMode mode_of(Command command, bool zeros = false, bool per_pair = false) {
  SearchMode m;
  m.shape.command = command;
  m.shape.zeros = zeros;
  m.shape.per_pair = per_pair;
  return m;
}

// The pattern and start of a row of trawl::test::hit_row.
std::uint32_t row_pattern(const std::string& row) {
  return static_cast<std::uint32_t>(std::stoul(row.substr(row.find(" p") + 2)));
}
std::uint64_t row_start(const std::string& row) {
  const std::size_t strand = row.find_first_of("+-", row.find(" p"));
  return std::stoull(row.substr(strand + 2));
}

const std::uint64_t kSizes[] = {7, 64, 333, 100000};

void check_batches(const CaptureSink& sink, const std::string& text) {
  CHECK(sink.formats == static_cast<int>(sink.writes.size()));
  for (const CaptureSink::Write& w : sink.writes) {
    CHECK(w.first_record == kRecord);
    CHECK(w.names == std::vector<std::string>{"chrT"});
    CHECK(w.seq_sizes == std::vector<std::uint64_t>{text.size()});
    CHECK(w.formatted_matches);
  }
}

}  // namespace

TEST_CASE("assembler hits: windows give the whole record's hits, in output order, released early") {
  std::mt19937_64 rng(5150);
  std::uint64_t released_early = 0;
  for (int iter = 0; iter < 30; ++iter) {
    const Case c = random_case(rng, iter);
    const PatternSet patterns(c.patterns, c.opt);
    const SearchMode mode = mode_of(Command::hits);
    const BatchResults ref = whole(patterns, c.opt, mode, c.text);
    const std::vector<std::string> want = trawl::test::hit_rows(ref.hits);
    const auto rec = long_record(c.text);
    for (const std::uint64_t size : kSizes) {
      CAPTURE(iter);
      CAPTURE(size);
      CaptureSink sink;
      std::size_t tasks = 0, written = 0;
      const std::uint64_t total = assemble(patterns, c.opt, mode, rec, size, sink, [&](const WindowTask& t, std::uint64_t added) {
        ++tasks;
        // add() returns the hits it wrote; what is out so far is the start of the whole
        // record's rows.
        CHECK(added == sink.writes.back().hits.size());
        for (const std::string& row : sink.writes.back().hits) {
          REQUIRE(written < want.size());
          CHECK(row == want[written++]);
        }
        if (!t.last_window) {
          released_early += added;
          // Only what no later window can put before it: hits of this pattern starting
          // before the window's end less m + k.
          const std::uint64_t band = patterns.seq(t.pattern).size() + static_cast<std::uint64_t>(c.opt.k);
          for (const std::string& row : sink.writes.back().hits) {
            CHECK(row_pattern(row) == t.pattern);
            CHECK(row_start(row) + band < t.window.end);
          }
        }
      });
      CHECK(sink.all_hits() == want);
      CHECK(total == ref.hits.hits.size());
      CHECK(sink.writes.size() == tasks);
      check_batches(sink, c.text);
    }
  }
  CHECK(released_early > 0);  // hits do leave before a pattern's last window
}

TEST_CASE("assembler hits: a hit is released only where no later window can start before it") {
  // One pattern, hits at known places; windows of 100: a hit starting at s leaves with the
  // first window whose end is past s + m + k.
  SearchOptions opt;
  opt.alphabet.alphabet = Alphabet::dna;
  opt.both_strands = false;
  opt.k = 1;
  const std::string pat = "GATTACAGG";  // m + k = 10
  std::string text(1000, 'C');
  for (const std::size_t at : {5, 80, 91, 300, 590, 986}) text.replace(at, pat.size(), pat);
  const PatternSet patterns({{"p", pat}}, opt);
  const SearchMode mode = mode_of(Command::hits);
  const BatchResults ref = whole(patterns, opt, mode, text);
  REQUIRE(ref.hits.hits.size() == 6);
  CaptureSink sink;
  std::vector<std::vector<std::uint64_t>> starts_by_task;
  assemble(patterns, opt, mode, long_record(text), 100, sink, [&](const WindowTask&, std::uint64_t) {
    std::vector<std::uint64_t> starts;
    for (const std::string& row : sink.writes.back().hits) starts.push_back(row_start(row));
    starts_by_task.push_back(starts);
  });
  REQUIRE(starts_by_task.size() == 10);
  // Window [0, 100) releases starts < 90: 5 and 80; [100, 200) releases 91 (< 190); [300,
  // 400) 300; [500, 600) nothing (590 >= 590); [600, 700) 590; the last window the rest.
  const std::vector<std::vector<std::uint64_t>> want = {{5, 80}, {91}, {}, {300}, {}, {}, {590}, {}, {}, {986}};
  CHECK(starts_by_task == want);
}

TEST_CASE("assembler hits --best: one per strand and pattern, nothing before the pattern's last window") {
  std::mt19937_64 rng(8086);
  for (int iter = 0; iter < 20; ++iter) {
    Case c = random_case(rng, iter);
    c.opt.selection = Selection::best;
    const PatternSet patterns(c.patterns, c.opt);
    const SearchMode mode = mode_of(Command::hits);
    const BatchResults ref = whole(patterns, c.opt, mode, c.text);
    const auto rec = long_record(c.text);
    for (const std::uint64_t size : kSizes) {
      CAPTURE(iter);
      CAPTURE(size);
      CaptureSink sink;
      const std::uint64_t total = assemble(patterns, c.opt, mode, rec, size, sink, [&](const WindowTask& t, std::uint64_t added) {
        if (!t.last_window) CHECK(added == 0);
        CHECK(added <= (c.opt.searches_rc() ? 2u : 1u));
      });
      CHECK(sink.all_hits() == trawl::test::hit_rows(ref.hits));
      CHECK(total == ref.hits.hits.size());
      // At most one hit per (pattern, strand).
      std::vector<std::string> keys;
      for (const Hit& h : ref.hits.hits) keys.push_back(std::to_string(h.pattern_idx) + strand_char(h.strand));
      std::sort(keys.begin(), keys.end());
      CHECK(std::adjacent_find(keys.begin(), keys.end()) == keys.end());
    }
  }
}

TEST_CASE("assembler count: each pattern's count at its last window, --best counts strands, --zeros keeps zeros") {
  std::mt19937_64 rng(1999);
  for (int iter = 0; iter < 16; ++iter) {
    const Case c = random_case(rng, iter);
    const PatternSet patterns(c.patterns, c.opt);
    const auto rec = long_record(c.text);
    for (const bool zeros : {false, true}) {
      const SearchMode mode = mode_of(Command::count, zeros);
      const BatchResults ref = whole(patterns, c.opt, mode, c.text);
      if (zeros) CHECK(ref.pair_counts.size() == patterns.size());
      for (const std::uint64_t size : kSizes) {
        CAPTURE(iter);
        CAPTURE(zeros);
        CAPTURE(size);
        CaptureSink sink;
        const std::uint64_t total = assemble(patterns, c.opt, mode, rec, size, sink, [&](const WindowTask& t, std::uint64_t) {
          const CaptureSink::Write& w = sink.writes.back();
          if (!t.last_window) CHECK(w.counts.empty());
          CHECK(w.hits.empty());
          CHECK(w.contains.empty());
        });
        CHECK(sink.all_counts() == trawl::test::count_rows(ref.pair_counts));
        CHECK(total == hits_in(ref, Command::count));
        check_batches(sink, c.text);
      }
    }
  }
}

TEST_CASE("assembler count: a hand-fed pair adds its windows' strand counts; --best reports strands with hits") {
  SearchOptions opt;
  opt.alphabet.alphabet = Alphabet::dna;
  const PatternSet patterns({{"a", "ACGT"}, {"b", "GGGG"}}, opt);
  const auto rec = long_record(std::string(300, 'A'));
  for (const bool best : {false, true}) {
    CAPTURE(best);
    SearchOptions o = opt;
    if (best) o.selection = Selection::best;
    CaptureSink sink;
    LongRecordAssembler assembler(patterns, o, scalar_kernel(), mode_of(Command::count), sink);
    const BatchResults none;
    std::uint64_t total = 0;
    // Pattern a: 2 + 1 forward, 0 + 4 reverse over three windows; pattern b: nothing.
    const StrandCounts counts[] = {{2, 0}, {1, 4}, {0, 0}};
    for (int i = 0; i < 3; ++i) {
      WindowTask t;
      t.record = rec;
      t.text = rec->seq;
      t.pattern = 0;
      t.window = {std::uint64_t(i) * 100, i == 2 ? Window::kOpen : std::uint64_t(i + 1) * 100};
      t.last_window = i == 2;
      total += assembler.add(t, none, WindowAnswer{counts[i], false, false});
    }
    WindowTask b;
    b.record = rec;
    b.text = rec->seq;
    b.pattern = 1;
    b.last_window = b.last_of_record = true;
    total += assembler.add(b, none, WindowAnswer{});
    const std::vector<std::string> want = {"7 p0 " + std::string(best ? "2" : "7")};
    CHECK(sink.all_counts() == want);  // b has no row without --zeros
    CHECK(total == (best ? 2u : 7u));
    CHECK(sink.writes.size() == 4);
  }
}

TEST_CASE("assembler contains: per record at the record's last task, per pair at each pattern's last window") {
  std::mt19937_64 rng(4004);
  for (int iter = 0; iter < 16; ++iter) {
    const Case c = random_case(rng, iter);
    const PatternSet patterns(c.patterns, c.opt);
    const auto rec = long_record(c.text);
    for (const bool per_pair : {false, true}) {
      const SearchMode mode = mode_of(Command::contains, false, per_pair);
      const BatchResults ref = whole(patterns, c.opt, mode, c.text);
      if (per_pair) CHECK(ref.pair_counts.size() == patterns.size());
      else CHECK(ref.contains.size() == 1);
      for (const std::uint64_t size : kSizes) {
        CAPTURE(iter);
        CAPTURE(per_pair);
        CAPTURE(size);
        CaptureSink sink;
        const std::uint64_t total = assemble(patterns, c.opt, mode, rec, size, sink, [&](const WindowTask& t, std::uint64_t) {
          const CaptureSink::Write& w = sink.writes.back();
          CHECK(w.contains.size() == (!per_pair && t.last_of_record ? 1u : 0u));
          CHECK(w.counts.size() == (per_pair && t.last_window ? 1u : 0u));
        });
        CHECK(sink.all_contains() == ref.contains);
        CHECK(sink.all_counts() == trawl::test::count_rows(ref.pair_counts));
        CHECK(total == hits_in(ref, Command::contains));
      }
    }
  }
}

TEST_CASE("assembler contains: a record contains a pattern if any window of any pattern has a hit") {
  SearchOptions opt;
  opt.alphabet.alphabet = Alphabet::dna;
  const PatternSet patterns({{"a", "ACGT"}, {"b", "GGGG"}}, opt);
  const auto rec = long_record(std::string(300, 'A'));
  CaptureSink sink;
  LongRecordAssembler assembler(patterns, opt, scalar_kernel(), mode_of(Command::contains), sink);
  const BatchResults none;
  // Pattern a: no hit; pattern b: a hit in its first window only.
  const bool answers[][2] = {{false, false}, {true, false}};
  for (std::uint32_t p = 0; p < 2; ++p)
    for (int i = 0; i < 2; ++i) {
      WindowTask t;
      t.record = rec;
      t.text = rec->seq;
      t.pattern = p;
      t.window = {std::uint64_t(i) * 150, i == 1 ? Window::kOpen : 150};
      t.last_window = i == 1;
      t.last_of_record = t.last_window && p == 1;
      assembler.add(t, none, WindowAnswer{{}, answers[p][i], false});
    }
  CHECK(sink.all_contains() == std::vector<std::uint8_t>{1});
  // The next record starts afresh.
  for (int i = 0; i < 2; ++i) {
    WindowTask t;
    t.record = rec;
    t.text = rec->seq;
    t.pattern = static_cast<std::uint32_t>(i);
    t.last_window = true;
    t.last_of_record = i == 1;
    assembler.add(t, none, WindowAnswer{});
  }
  CHECK(sink.all_contains() == std::vector<std::uint8_t>{1, 0});
}

TEST_CASE("assembler: a window incomplete on a partial text is searched again in the whole record") {
  std::mt19937_64 rng(6502);
  SearchOptions opt;
  opt.alphabet.alphabet = Alphabet::dna;
  opt.k = 2;
  const std::vector<Pattern> pats = {{"p0", "GATTACAGATTACAGATTAC"}, {"p1", "CCGGTTAACCGGTTAA"}};
  std::string text = trawl::test::random_text(rng, 2000, "ACGT");
  // Hits that cross the ends of the partial texts below.
  for (const std::size_t at : {495, 1495, 1000, 1990 - 20}) text.replace(at, 20, pats[0].seq);
  for (const std::size_t at : {497, 1200}) text.replace(at, 16, pats[1].seq);
  const PatternSet patterns(pats, opt);
  const auto rec = long_record(text);
  for (const Command command : {Command::hits, Command::count, Command::contains}) {
    CAPTURE(static_cast<int>(command));
    const SearchMode mode = mode_of(command, true, command == Command::contains);
    const BatchResults ref = whole(patterns, opt, mode, text);
    Searcher searcher(patterns, opt, scalar_kernel(), mode);
    CaptureSink sink;
    LongRecordAssembler assembler(patterns, opt, scalar_kernel(), mode, sink);
    // (window, how much of the record was read when its task was made)
    const std::uint64_t windows[][3] = {{0, 500, 510}, {500, 1000, 1300}, {1000, 1500, 1505}, {1500, Window::kOpen, 2000}};
    int incomplete = 0;
    std::uint64_t total = 0;
    for (std::uint32_t p = 0; p < 2; ++p)
      for (const auto& w : windows) {
        WindowTask t;
        t.record = rec;
        t.text = std::string_view(text).substr(0, w[2]);
        t.partial = w[2] < text.size();
        t.pattern = p;
        t.window = {w[0], w[1]};
        t.last_window = w[1] == Window::kOpen;
        t.last_of_record = t.last_window && p == 1;
        BatchResults results;
        const WindowAnswer answer =
            searcher.search(WindowQuery{t.text, t.window, t.partial, p, kRecord}, results);
        t.incomplete = answer.incomplete;  // as the run's worker marks it
        incomplete += answer.incomplete;
        total += assembler.add(t, results, answer);
      }
    CHECK(incomplete >= 2);  // the windows at 510 and 1505 could not be answered
    CHECK(sink.all_hits() == trawl::test::hit_rows(ref.hits));
    CHECK(sink.all_counts() == trawl::test::count_rows(ref.pair_counts));
    CHECK(sink.all_contains() == ref.contains);
    CHECK(total == hits_in(ref, command));
  }
}

TEST_CASE("assembler: a --paired surplus record's task writes nothing and counts nothing") {
  SearchOptions opt;
  opt.alphabet.alphabet = Alphabet::dna;
  const PatternSet patterns({{"a", "ACGT"}}, opt);
  const auto rec = long_record(std::string(500, 'A'));
  for (const Command command : {Command::hits, Command::count, Command::contains}) {
    SearchMode mode = mode_of(command, true);
    mode.paired = true;
    CaptureSink sink;
    LongRecordAssembler assembler(patterns, opt, scalar_kernel(), mode, sink);
    WindowTask t;
    t.record = rec;
    t.text = rec->seq;
    t.pattern = 1;
    t.window = {0, 100};
    t.last_window = t.last_of_record = t.no_pattern = true;
    BatchResults results;
    trawl::test::add_hit(results.hits, 0, kRecord, Strand::fwd, 0, 0, 4, {{4, '='}});  // ignored
    CHECK(assembler.add(t, results, WindowAnswer{{3, 3}, true, false}) == 0);
    CHECK(sink.writes.empty());
    CHECK(sink.formats == 0);
  }
}

TEST_CASE("assembler through the TSV hits sink: the windowed record's bytes are those of the whole record") {
  std::mt19937_64 rng(1234);
  for (int iter = 0; iter < 8; ++iter) {
    const Case c = random_case(rng, iter);
    const PatternSet patterns(c.patterns, c.opt);
    const SearchMode mode = mode_of(Command::hits);
    HitColumns columns;
    columns.extra = {ExtraColumn::text_idx, ExtraColumn::pattern_start, ExtraColumn::pattern_end};
    trawl::test::StringSink whole_out;
    {
      const auto sink = make_tsv_hits_sink(whole_out, patterns, c.opt.alphabet, columns);
      trawl::test::feed(*sink, trawl::test::make_batch({{"chrT", c.text}}, kRecord), whole(patterns, c.opt, mode, c.text));
      sink->close();
    }
    for (const std::uint64_t size : kSizes) {
      CAPTURE(iter);
      CAPTURE(size);
      trawl::test::StringSink windowed_out;
      const auto sink = make_tsv_hits_sink(windowed_out, patterns, c.opt.alphabet, columns);
      assemble(patterns, c.opt, mode, long_record(c.text), size, *sink);
      sink->close();
      CHECK(windowed_out.bytes == whole_out.bytes);
    }
  }
}
