// --shard I/N end to end (run/run.h): the outputs of shards 1..N concatenated in order (each
// table's header once) are one unsharded run's, byte for byte, for hits, count, contains (per
// record and per pair) and filter, N in {1, 2, 3, 7}, on FASTQ read in chunks (a shard ends
// inside one), FASTA with records long enough to be searched in windows, and paired mates
// (a pair is never split); count --by pattern sums to the whole. The run summary counts only
// the shard's records.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <sstream>
#include <string>

#include "support/random_text.h"
#include "support/temp_dir.h"
#include "trawl/run/run.h"

using namespace trawl;
using trawl::test::read_file_bytes;
using trawl::test::TempDir;

namespace {

class Quiet final : public RunObserver {};

std::string reads_fastq(std::mt19937_64& rng, int n, const std::string& prefix) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    std::string seq = test::random_text(rng, 40 + rng() % 80, "ACGT");
    if (rng() % 3 == 0) seq.insert(rng() % seq.size(), "GATTACAGGT");
    out += "@" + prefix + std::to_string(i) + " c\n" + seq + "\n+\n" + std::string(seq.size(), 'I') + "\n";
  }
  return out;
}

std::string genome_fasta(std::mt19937_64& rng) {
  std::string out;
  for (int i = 0; i < 9; ++i) {
    std::string seq = test::random_text(rng, i % 3 == 0 ? 9000 : 300, "ACGT");
    for (int k = 0; k < 4; ++k) seq.insert(rng() % seq.size(), "GATTACAGGT");
    out += ">chr" + std::to_string(i) + "\n";
    for (std::size_t at = 0; at < seq.size(); at += 70) out += seq.substr(at, 70) + "\n";
  }
  return out;
}

// The run's output, with `shard` where given.
std::string output_of(RunOptions o, const TempDir& dir, const std::string& shard = "") {
  if (!shard.empty()) o.shard = shard;
  o.output = dir.file("out");
  Quiet quiet;
  run(o, quiet);
  return read_file_bytes(o.output);
}

std::string without_header(const std::string& table) { return table.substr(table.find('\n') + 1); }

}  // namespace

TEST_CASE("shard: the shards' outputs concatenated are the whole run's") {
  const TempDir dir("trawl_shard");
  std::mt19937_64 rng(77);
  const std::string fq = dir.write("reads.fq", reads_fastq(rng, 400, "r")), fa = dir.write("genome.fa", genome_fasta(rng));
  const std::string m1 = dir.write("m1.fq", reads_fastq(rng, 150, "p")), m2 = dir.write("m2.fq", reads_fastq(rng, 150, "p"));
  struct Mode {
    Command command;
    bool per_pair, filter;
  };
  for (const Mode mode : {Mode{Command::hits, false, false}, Mode{Command::count, false, false},
                          Mode{Command::contains, false, false}, Mode{Command::contains, true, false},
                          Mode{Command::contains, false, true}})
    for (const int input : {0, 1, 2}) {
      RunOptions o;
      o.patterns.inline_patterns = {"a=GATTACAGGT", "b=CCGGTA"};
      o.search.k = 2;
      o.search.alphabet.alphabet = Alphabet::dna;
      o.shape.command = mode.command;
      o.shape.per_pair = mode.per_pair;
      o.records.on = mode.filter;
      o.batch_bases = 2000;  // FASTQ chunks of a few dozen reads; the 9 kbp records in windows
      o.threads = 2;
      if (input == 0) o.inputs = {fq};
      if (input == 1) o.inputs = {fa};
      if (input == 2) o.mate1 = m1, o.mate2 = m2;
      const std::string whole = output_of(o, dir);
      for (const std::uint32_t n : {1u, 2u, 3u, 7u}) {
        CAPTURE(static_cast<int>(mode.command));
        CAPTURE(mode.per_pair);
        CAPTURE(mode.filter);
        CAPTURE(input);
        CAPTURE(n);
        std::string joined;
        for (std::uint32_t i = 1; i <= n; ++i) {
          const std::string part = output_of(o, dir, std::to_string(i) + "/" + std::to_string(n));
          joined += mode.filter || i == 1 ? part : without_header(part);
        }
        CHECK(joined == whole);
      }
    }
}

TEST_CASE("shard: count --by pattern sums to the whole; the summary counts the shard's records") {
  const TempDir dir("trawl_shard");
  std::mt19937_64 rng(78);
  RunOptions o;
  o.patterns.inline_patterns = {"a=GATTACAGGT", "b=CCGGTA"};
  o.search.k = 1;
  o.inputs = {dir.write("reads.fq", reads_fastq(rng, 301, "r"))};
  o.shape.command = Command::count;
  o.shape.per_pattern_totals = true;
  const auto totals = [](const std::string& table) {
    std::map<std::string, std::uint64_t> t;
    std::istringstream in(without_header(table));
    std::string id;
    std::uint64_t count = 0, records = 0;
    while (in >> id >> count >> records) t[id] += count * 1000000 + records;
    return t;
  };
  const auto whole = totals(output_of(o, dir));
  std::map<std::string, std::uint64_t> summed;
  std::uint64_t records = 0;
  for (std::uint32_t i = 1; i <= 3; ++i) {
    o.shard = std::to_string(i) + "/3";
    o.output = dir.file("out");
    Quiet quiet;
    records += run(o, quiet).stats.records;
    for (const auto& [id, v] : totals(read_file_bytes(o.output))) summed[id] += v;
  }
  CHECK(records == 301);
  CHECK(summed == whole);
}
