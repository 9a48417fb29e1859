// --json (run/summary_json.h, sinks/tally_sink.h): the summary's per-pattern totals equal what
// the run's own rows say (hits per pattern, records with a hit per pattern) for hits, count and
// contains --by pair, at one and two threads and with records cut into windows; a contains
// run per record names no pattern (per_pattern null); the sample name comes from the file
// name; the file appears only once the run is done and is refused where it would overwrite
// an output.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "support/random_text.h"
#include "support/temp_dir.h"
#include "trawl/core/errors.h"
#include "trawl/run/run.h"
#include "trawl/run/summary_json.h"

using namespace trawl;
using trawl::test::read_file_bytes;
using trawl::test::TempDir;

namespace {

struct Totals {
  std::map<std::string, std::uint64_t> hits, records;
  bool operator==(const Totals& o) const { return hits == o.hits && records == o.records; }
};

// The per_pattern entries of a summary.
Totals json_totals(const std::string& json) {
  Totals t;
  static const std::regex entry(R"re(\{"id": "([^"]*)"(, "hits": (\d+))?(, "records": (\d+))?\})re");
  for (std::sregex_iterator it(json.begin(), json.end(), entry), end; it != end; ++it) {
    if ((*it)[3].matched) t.hits[(*it)[1]] = std::stoull((*it)[3]);
    if ((*it)[5].matched) t.records[(*it)[1]] = std::stoull((*it)[5]);
  }
  return t;
}

// The same totals from TSV rows: hits rows (pat_id, text_id first), count rows (pat_id text_id
// count) or contains --by pair rows (pat_id text_id contains).
Totals row_totals(const std::string& tsv, Command command, const std::vector<std::string>& ids) {
  Totals t;
  for (const std::string& id : ids) {
    if (command != Command::contains) t.hits[id] = 0;
    t.records[id] = 0;
  }
  std::set<std::pair<std::string, std::string>> seen;
  std::istringstream in(tsv);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string pat, text, third;
    std::getline(f, pat, '\t');
    std::getline(f, text, '\t');
    std::getline(f, third, '\t');
    if (command == Command::hits) {
      ++t.hits[pat];
      if (seen.insert({pat, text}).second) ++t.records[pat];
    } else if (command == Command::count) {
      t.hits[pat] += std::stoull(third);
      t.records[pat] += std::stoull(third) > 0;
    } else {
      t.records[pat] += third == "true";
    }
  }
  return t;
}

class Quiet final : public RunObserver {};

}  // namespace

TEST_CASE("summary json: the sample is the file name without _mqc.json or .json") {
  CHECK(json_sample_name("out/sampleA_mqc.json") == "sampleA");
  CHECK(json_sample_name("run1.json") == "run1");
  CHECK(json_sample_name("dir.v2/x.stats") == "x.stats");
  CHECK(json_sample_name("_mqc.json") == "_mqc");
}

TEST_CASE("summary json: per-pattern totals equal the rows, at every thread count and window size") {
  const TempDir dir("trawl_json");
  std::mt19937_64 rng(41);
  std::string fasta;
  const std::vector<std::string> pats = {"GATTACAGAT", "CCGGTTAACC", "TTTTGGGGAA"};
  for (int r = 0; r < 60; ++r) {
    std::string seq = test::random_text(rng, 50 + rng() % 3000, "ACGT");
    for (int p = 0; p < 3; ++p)
      if (rng() % 3 == 0) seq.insert(rng() % seq.size(), pats[static_cast<std::size_t>(p)]);
    fasta += ">r" + std::to_string(r) + "\n" + seq + "\n";
  }
  const std::string input = dir.write("in.fa", fasta);
  const std::vector<std::string> ids = {"a", "b", "c"};
  for (const Command command : {Command::hits, Command::count, Command::contains})
    for (const int threads : {1, 2})
      for (const std::uint64_t batch : {std::uint64_t{1} << 20, std::uint64_t{700}}) {
        CAPTURE(static_cast<int>(command));
        CAPTURE(threads);
        CAPTURE(batch);
        RunOptions o;
        o.patterns.inline_patterns = {"a=" + pats[0], "b=" + pats[1], "c=" + pats[2]};
        o.inputs = {input};
        o.search.k = 2;
        o.search.alphabet.alphabet = Alphabet::dna;
        o.shape.command = command;
        o.shape.per_pair = command == Command::contains;
        o.threads = threads;
        o.batch_bases = batch;
        o.output = dir.file("rows.tsv");
        o.json = dir.file("s_mqc.json");
        Quiet quiet;
        const RunSummary s = run(o, quiet);
        const std::string json = read_file_bytes(o.json);
        CHECK(json_totals(json) == row_totals(read_file_bytes(o.output), command, ids));
        CHECK(json.find("\"s\": {\"records\": 60,") != std::string::npos);
        CHECK(json.find("\"threads\": " + std::to_string(threads)) != std::string::npos);
        CHECK(s.stats.records == 60);
      }
}

TEST_CASE("summary json: contains per record names no pattern; the file is refused where it is an output") {
  const TempDir dir("trawl_json");
  RunOptions o;
  o.patterns.inline_patterns = {"GATTACA"};
  o.inputs = {dir.write("in.fa", ">r0\nCCGATTACACC\n>r1\nTTTT\n")};
  o.search.k = 0;
  o.shape.command = Command::contains;
  o.output = dir.file("rows.tsv");
  o.json = dir.file("run.json");
  Quiet quiet;
  run(o, quiet);
  const std::string json = read_file_bytes(o.json);
  CHECK(json.find("\"per_pattern\": null") != std::string::npos);
  CHECK(json.find("\"records_with_hits\": 1") != std::string::npos);
  CHECK(json.find("\"command\": \"contains\"") != std::string::npos);
  o.json = o.output;
  CHECK_THROWS_WITH_AS(run(o, quiet), doctest::Contains("--json"), UsageError);
  o.json = "-";
  CHECK_THROWS_WITH_AS(run(o, quiet), doctest::Contains("--json -: give a file name"), UsageError);
}
