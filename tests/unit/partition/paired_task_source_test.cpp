// TaskSource over paired-end input (FastxReader with MateLayout): every task is a batch of
// whole pairs (it starts at an even record and holds an even number of records) and never a
// window or a chunk, however small the task size; a mate longer than a task only makes its
// batch bigger; the batches hold every record once, in the interleaved order.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "support/temp_dir.h"
#include "trawl/io/reader.h"
#include "trawl/partition/task_source.h"

using namespace trawl;
using trawl::test::TempDir;

TEST_CASE("paired task source: batches of whole pairs of whole mates") {
  const TempDir dir("trawl_paired_tasks");
  std::mt19937 rng(5);
  std::string r1, r2, fa1, fa2;
  std::vector<std::string> want;  // "name seq" in interleaved order
  for (int i = 0; i < 40; ++i) {
    for (int mate = 1; mate <= 2; ++mate) {
      const std::size_t n = rng() % 8 == 0 ? 5000 : 1 + rng() % 200;
      std::string seq;
      for (std::size_t j = 0; j < n; ++j) seq += "ACGT"[rng() % 4];
      const std::string name = "r" + std::to_string(i) + "/" + std::to_string(mate);
      (mate == 1 ? r1 : r2) += "@" + name + "\n" + seq + "\n+\n" + std::string(n, 'I') + "\n";
      // FASTA in lines of 60 (read through join_sequence, which a limit would leave open).
      std::string lines;
      for (std::size_t at = 0; at < n; at += 60) lines += seq.substr(at, 60) + "\n";
      (mate == 1 ? fa1 : fa2) += ">" + name + "\n" + lines;
      want.push_back(name + " " + seq);
    }
  }
  const std::vector<std::string> fastq{dir.write("r1.fq", r1), dir.write("r2.fq", r2)};
  const std::vector<std::string> fasta{dir.write("r1.fa", fa1), dir.write("r2.fa", fa2)};
  PatternSet patterns(SearchOptions{});
  patterns.add("p", "ACGTACGT");
  for (const auto& files : {fastq, fasta})
    for (const bool map : {true, false})
      for (const std::uint64_t task : {std::uint64_t{1}, std::uint64_t{150}, std::uint64_t{1} << 20}) {
        CAPTURE(files[0]);
        CAPTURE(map);
        CAPTURE(task);
        ReaderOptions ro;
        ro.map_files = map;
        ro.mates = MateLayout::two_files;
        FastxReader reader(files, ro);
        TaskSizer sizer(task, false);
        TaskSource source(reader, patterns, false, task, sizer);
        std::vector<std::string> got;
        for (Task t; source.next(t);) {
          CHECK_FALSE(t.is_window);
          CHECK_FALSE(t.has_chunk);
          CHECK(t.records.first_record == got.size());
          CHECK(t.records.size() % 2 == 0);
          CHECK(t.records.size() > 0);
          if (task == 1) CHECK(t.records.size() == 2);  // a pair reaches any task size
          for (std::size_t r = 0; r < t.records.size(); ++r)
            got.push_back(std::string(t.records.name(r)) + " " + std::string(t.records.seq(r)));
        }
        CHECK(got == want);
      }
}
