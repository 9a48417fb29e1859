// demux's assignment rule (sinks/demux_sink.h) and its pool of files (io/file_pool.h): the
// lowest cost wins; equal lowest costs are ambiguous; --min-margin widens that; the
// runner-up is the next by cost, then id; none of it depends on the order of the
// candidates or of the patterns. The pool keeps at most max_open files open, appends to a
// reopened file, puts files in place only on commit() and leaves nothing without it.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "support/temp_dir.h"
#include "trawl/core/errors.h"
#include "trawl/io/file_pool.h"
#include "trawl/sinks/demux_sink.h"

using namespace trawl;

namespace {

DemuxCandidate cand(std::uint32_t pattern, int cost, std::uint64_t start = 0, std::uint8_t mate = 0) {
  return {Hit{0, start, start + 4, pattern, 0, 4, cost, Strand::fwd, 0, 0}, mate};
}

}  // namespace

TEST_CASE("demux assign: lowest cost wins, equal lowest is ambiguous, none is unassigned") {
  const std::vector<std::uint32_t> rank = {2, 0, 1};  // ids order: pattern 1, 2, 0
  std::vector<DemuxCandidate> none;
  CHECK(assign(none, rank, 1).kind == Assignment::Kind::unassigned);
  CHECK(assign(none, rank, 1).best == Assignment::kNone);

  std::vector<DemuxCandidate> c = {cand(0, 2), cand(2, 1, 9), cand(2, 1, 3), cand(1, 3)};
  Assignment a = assign(c, rank, 1);
  CHECK(a.kind == Assignment::Kind::barcode);
  CHECK(a.best == 2);
  CHECK(a.cost == 1);
  CHECK(a.hit.hit.start == 3);  // the first of pattern 2's equal hits in output order
  CHECK(a.second == 0);
  CHECK(a.second_cost == 2);
  c = {cand(0, 2), cand(2, 1), cand(1, 3)};
  CHECK(assign(c, rank, 2).kind == Assignment::Kind::ambiguous);  // margin 1 < 2
  c = {cand(0, 2), cand(2, 1), cand(1, 3)};
  CHECK(assign(c, rank, 1).kind == Assignment::Kind::barcode);

  // A tie: ambiguous; best and runner-up are the two tied with the lowest id ranks.
  c = {cand(0, 1), cand(2, 1), cand(1, 1)};
  a = assign(c, rank, 1);
  CHECK(a.kind == Assignment::Kind::ambiguous);
  CHECK(a.best == 1);
  CHECK(a.second == 2);
  CHECK(a.second_cost == 1);
  // A pattern hit twice is one candidate at its lowest cost, not a tie with itself.
  c = {cand(0, 1), cand(0, 1, 5), cand(0, 2, 7)};
  a = assign(c, rank, 1);
  CHECK(a.kind == Assignment::Kind::barcode);
  CHECK(a.second == Assignment::kNone);
}

TEST_CASE("demux assign: independent of the order of candidates and of patterns (ties by id rank)") {
  std::mt19937_64 rng(5);
  for (int iter = 0; iter < 500; ++iter) {
    const std::uint32_t n = 1 + static_cast<std::uint32_t>(rng() % 6);
    std::vector<std::uint32_t> rank(n);
    for (std::uint32_t i = 0; i < n; ++i) rank[i] = i;
    std::shuffle(rank.begin(), rank.end(), rng);
    std::vector<DemuxCandidate> c;
    for (int h = 0; h < static_cast<int>(rng() % 8); ++h)
      c.push_back(cand(static_cast<std::uint32_t>(rng() % n), static_cast<int>(rng() % 3), rng() % 5, static_cast<std::uint8_t>(1 + rng() % 2)));
    const int margin = 1 + static_cast<int>(rng() % 2);
    std::vector<DemuxCandidate> copy = c;
    const Assignment a = assign(copy, rank, margin);
    // Renumber the patterns (as a shuffled barcode file would) and shuffle the candidates.
    std::vector<std::uint32_t> perm(n);
    for (std::uint32_t i = 0; i < n; ++i) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<std::uint32_t> rank2(n);
    for (std::uint32_t i = 0; i < n; ++i) rank2[perm[i]] = rank[i];
    for (DemuxCandidate& x : c) x.hit.pattern_idx = perm[x.hit.pattern_idx];
    std::shuffle(c.begin(), c.end(), rng);
    const Assignment b = assign(c, rank2, margin);
    CHECK(a.kind == b.kind);
    CHECK(a.cost == b.cost);
    CHECK(a.second_cost == b.second_cost);
    CHECK((a.best == Assignment::kNone ? b.best == Assignment::kNone : perm[a.best] == b.best));
    CHECK((a.second == Assignment::kNone ? b.second == Assignment::kNone : perm[a.second] == b.second));
    CHECK(a.hit.hit.start == b.hit.hit.start);
    CHECK(a.hit.mate == b.hit.mate);
  }
}

TEST_CASE("file pool: at most max_open open, appends after a reopen, files in place only on commit") {
  test::TempDir dir("trawl_file_pool");
  const std::string out = dir.file("out/sub");
  std::vector<std::string> names = {"a", "b", "c", "d", "e"}, want(5);
  {
    FilePool pool(out, names, 2);
    CHECK(pool.max_open() == 2);
    std::mt19937_64 rng(1);
    for (int i = 0; i < 3000; ++i) {
      const std::size_t f = rng() % 4;  // "e" never written
      const std::string piece(1 + rng() % 100, static_cast<char>('a' + f));
      pool.append(f, piece.data(), piece.size());
      want[f] += piece;
    }
    pool.finish(".gz", "END");
    CHECK(!std::filesystem::exists(out + "/a"));
    pool.commit();
  }
  for (std::size_t f = 0; f < 4; ++f) CHECK(test::read_file_bytes(out + "/" + names[f]) == want[f]);
  CHECK(!std::filesystem::exists(out + "/e"));
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(out)) ++entries;
  CHECK(entries == 4);  // no temporary folder left

  // Without commit (a failed run): nothing under the final names, no temporary folder.
  const std::string failed = dir.file("failed");
  {
    FilePool pool(failed, {"x.gz", "y"}, 1);
    pool.append(0, "123", 3);
    pool.touch(1);
    pool.finish(".gz", "END");
  }
  CHECK(std::filesystem::is_empty(failed));
  {
    FilePool pool(failed, {"x.gz", "y"}, 1);
    pool.append(0, "123", 3);
    pool.touch(1);
    pool.finish(".gz", "END");
    pool.commit();
  }
  CHECK(test::read_file_bytes(failed + "/x.gz") == "123END");
  CHECK(test::read_file_bytes(failed + "/y") == "");
}

TEST_CASE("demux file names: {id} and {mate} filled, ambiguous and unassigned last, '/' in an id refused") {
  SearchOptions o;
  o.alphabet.alphabet = Alphabet::dna;
  const PatternSet patterns({{"s1", "ACGT"}, {"s2", "GGGG"}}, o);
  CHECK(demux_file_names(patterns, "{id}.fq.gz", false) ==
        std::vector<std::string>{"s1.fq.gz", "s2.fq.gz", "ambiguous.fq.gz", "unassigned.fq.gz"});
  CHECK(demux_file_names(patterns, "{id}_R{mate}.fq", true) ==
        std::vector<std::string>{"s1_R1.fq", "s1_R2.fq", "s2_R1.fq", "s2_R2.fq", "ambiguous_R1.fq", "ambiguous_R2.fq",
                                 "unassigned_R1.fq", "unassigned_R2.fq"});
  const PatternSet slash({{"a/b", "ACGT"}}, o);
  CHECK_THROWS_AS(demux_file_names(slash, "{id}.fq", false), UsageError);
  const PatternSet twice({{"a", "ACGT"}, {"a", "GGGG"}}, o);
  CHECK_THROWS_AS(check_demux_ids(twice), UsageError);
  CHECK_NOTHROW(check_demux_ids(patterns));
}

TEST_CASE("demux ids of a barcode list (spelled line numbers and named lines): many checked, a reserved name refused") {
  SearchOptions o;
  o.alphabet.alphabet = Alphabet::dna;
  auto serial = [](std::size_t count, const std::function<void(std::size_t)>& body) {
    for (std::size_t i = 0; i < count; ++i) body(i);
  };
  // Enough numbered lines that the check's own copies of the ids must not move while it compares them.
  std::string text;
  for (int i = 0; i < 100; ++i) text += "ACGTAC\n";
  PatternSet numbered(o);
  numbered.add_list(text, nullptr, 1, serial);
  numbered.finish();
  CHECK_NOTHROW(check_demux_ids(numbered));
  // A barcode named "ambiguous" on a named line is refused like one in a FASTA file.
  PatternSet named(o);
  named.add_list(text + "ambiguous\tGGGG\n", nullptr, 1, serial);
  named.finish();
  CHECK_THROWS_AS(check_demux_ids(named), UsageError);
}
