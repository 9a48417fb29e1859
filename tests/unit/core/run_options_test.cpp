// validate(RunOptions): every problem at once, in a fixed order; the defaults a run derives.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "trawl/core/run_options.h"

using namespace trawl;

namespace {

RunOptions valid_options() {
  RunOptions o;
  o.patterns.inline_patterns = {"ACGT"};
  o.inputs = {"reads.fa"};
  o.search.k = 1;
  return o;
}

}  // namespace

TEST_CASE("validate: valid options give no problem") {
  CHECK(validate(valid_options()).empty());
}

TEST_CASE("validate: several problems are reported together, in order") {
  RunOptions o = valid_options();
  o.search.k = -1;
  o.search.max_n_frac = 2.0f;
  o.max_n_frac_given = true;
  o.all_ends = true;
  o.best = true;
  o.patterns.fasta = "-";  // pattern files cannot both read stdin
  o.patterns.list = "-";
  o.inputs = {"a.fa"};
  const std::vector<std::string> problems = validate(o);
  REQUIRE(problems.size() == 4);
  CHECK(problems[0] == "--all-ends and --best cannot be combined");
  CHECK(problems[1] == "-k: -1 is out of range; give a whole number from 0 to 2147483647");
  CHECK(problems[2] == "--max-n-frac: 2 is out of range; give a number from 0 to 1");
  CHECK(problems[3] == "-f and -l cannot both read stdin");
}

TEST_CASE("validate: pattern sources and stdin") {
  RunOptions o = valid_options();
  o.patterns.inline_patterns.clear();
  CHECK(validate(o) == std::vector<std::string>{"no patterns: give -p SEQ, -f FILE or -l FILE"});
  o.patterns.fasta = "-";
  CHECK(validate(o).empty());  // records come from a file
  o.inputs = {"a.fa", "-"};
  CHECK(validate(o) == std::vector<std::string>{
                           "patterns and records cannot both come from stdin: give the input files"});
  o.inputs.clear();
  CHECK(validate(o).size() == 1);
  // Sources combine: -p, -f and -l together are no problem.
  o.inputs = {"a.fa"};
  o.patterns.inline_patterns = {"ACGT"};
  o.patterns.list = "list.txt";
  CHECK(validate(o).empty());
}

TEST_CASE("validate: count --zeros --by pattern, and Parquet to a terminal") {
  RunOptions o = valid_options();
  o.shape.command = Command::count;
  o.shape.zeros = true;
  o.shape.per_pattern_totals = true;
  o.format = "parquet";
  o.stdout_is_terminal = true;
  const std::vector<std::string> problems = validate(o);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0] == "--zeros and --by pattern cannot be combined");
  CHECK(problems[1] == "refusing to write Parquet to a terminal: use -o FILE.parquet or a pipe");
  o.output = "/dev/stdout";  // written in place, as the user asked
  CHECK(validate(o).size() == 1);
}

TEST_CASE("validate: names a front end might pass unchecked") {
  RunOptions o = valid_options();
  o.format = "csv";
  o.compression = "lz4";
  o.kernel = "sse9";
  o.columns.extra = {"pat_idx", "bogus"};
  o.threads = -1;
  o.batch_bases = 0;
  o.row_group_rows = 0;
  CHECK(validate(o).size() == 7);
}

TEST_CASE("validate: range errors name the option, the value and the range in plain numbers") {
  RunOptions o = valid_options();
  o.threads = -1;
  o.batch_bases = 0;
  o.row_group_rows = 0;
  o.search.overhang = 1e10f;
  CHECK(validate(o) ==
        std::vector<std::string>{
            "--overhang: 10000000000 is out of range; give a number from 0 to 1",
            "--threads: -1 is out of range; give a whole number from 0 to 2147483647",
            "--batch-bases: 0 is out of range; give a whole number from 1 to 1099511627776",
            "--row-group-rows: 0 is out of range; give a whole number from 1 to 18446744073709551615"});
  // The largest task size is 2^40 bases: more would let a window's reach wrap around.
  o = valid_options();
  o.batch_bases = std::uint64_t{1} << 40;
  CHECK(validate(o).empty());
  o.batch_bases = (std::uint64_t{1} << 40) + 1;
  CHECK(validate(o) == std::vector<std::string>{
                           "--batch-bases: 1099511627777 is out of range; give a whole number from 1 to 1099511627776"});
}

TEST_CASE("validate: an -o extension trawl does not write needs --format") {
  RunOptions o = valid_options();
  for (const char* name : {"x.tsv", "dir.v2/x.tsv.gz", "x.parquet", "x.bed", "x.paf", "x.sam", "-", "/dev/null",
                           "results", ".hidden", "out.d/results"}) {
    CAPTURE(name);
    o.output = name;
    CHECK(validate(o).empty());
  }
  const std::pair<const char*, const char*> unknown[] = {
      {"x.csv", ".csv"}, {"x.bam", ".bam"}, {"x.bed.gz", ".bed.gz"}, {"a/x.json", ".json"},
      {"x.tsv.zst", ".zst"}, {"x.csv.gz", ".csv.gz"}, {"x.gz", ".gz"}, {"run.2024", ".2024"}};
  for (const auto& [name, extension] : unknown) {
    CAPTURE(name);
    o.output = name;
    CHECK(validate(o) == std::vector<std::string>{
                             "-o " + std::string(name) + ": trawl does not write " + extension +
                             " files; name it .tsv, .tsv.gz, .parquet, .bed, .paf or .sam, or give --format"});
    o.format = "tsv";
    CHECK(validate(o).empty());
    o.format.clear();
  }
}

TEST_CASE("validate: --region is checked when given, an empty one included") {
  RunOptions o = valid_options();
  for (const char* good : {"1:35", "-35:-1", "20:-1", "5:5", "-50:30"}) {
    o.region = good;
    CHECK(validate(o).empty());
  }
  for (const char* bad : {"", "0:5", "10:5", "-1:-5", "35", "a:b"}) {
    CAPTURE(bad);
    o.region = bad;
    const std::vector<std::string> problems = validate(o);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].rfind(std::string("--region ") + bad + ": ", 0) == 0);
  }
  o.batch_bases = 0;  // listed with the others, after the option names
  const std::vector<std::string> problems = validate(o);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].rfind("--batch-bases", 0) == 0);
  CHECK(problems[1].rfind("--region a:b", 0) == 0);
}

TEST_CASE("output_format: --format, else the output name, else TSV") {
  RunOptions o;
  CHECK(output_format(o) == OutputFormat::tsv);
  o.output = "x.parquet";
  CHECK(output_format(o) == OutputFormat::parquet);
  o.format = "tsv";
  CHECK(output_format(o) == OutputFormat::tsv);
  o.output = "x.tsv.gz";
  CHECK(output_format(o) == OutputFormat::tsv_gz);
  o.format = "parquet";
  CHECK(output_format(o) == OutputFormat::parquet);
  o.format.clear();
  o.output = "-";
  CHECK(output_format(o) == OutputFormat::tsv);
  const std::pair<const char*, OutputFormat> interchange[] = {
      {"bed", OutputFormat::bed}, {"paf", OutputFormat::paf}, {"sam", OutputFormat::sam}};
  for (const auto& [name, format] : interchange) {
    CAPTURE(name);
    o.output = std::string("dir/hits.") + name;
    CHECK(output_format(o) == format);
    o.format = "tsv";  // --format wins over the name
    CHECK(output_format(o) == OutputFormat::tsv);
    o.output = "-";
    o.format = name;
    CHECK(output_format(o) == format);
    o.format.clear();
  }
}

TEST_CASE("validate: BED, PAF and SAM are hits only, and --ref-lengths is SAM's") {
  RunOptions o = valid_options();
  o.format = "bed";
  CHECK(validate(o).empty());
  for (Command command : {Command::count, Command::contains}) {
    o.shape.command = command;
    CHECK(validate(o) == std::vector<std::string>{
                             "--format bed (or -o FILE.bed): only hits writes it (its lines are hits); give tsv or parquet"});
  }
  o.shape.command = Command::hits;
  o.format.clear();
  o.output = "x.sam";
  o.ref_lengths = "genome.fa.fai";
  CHECK(validate(o).empty());
  o.output = "x.paf";
  CHECK(validate(o) == std::vector<std::string>{"--ref-lengths is for SAM output: give --format sam or -o FILE.sam"});
}

TEST_CASE("gzip_name: one rule for every compressed output") {
  CHECK(gzip_name("x.tsv.gz"));
  CHECK(gzip_name("dir/reads.fq.gz"));
  CHECK(gzip_name(".gz"));
  CHECK_FALSE(gzip_name("x.gzip"));
  CHECK_FALSE(gzip_name("x.gz.tsv"));
  CHECK_FALSE(gzip_name("-"));
  CHECK_FALSE(gzip_name(""));
}

TEST_CASE("validate: filter refuses the options that shape rows, and --compress-level without a .gz output") {
  RunOptions o = valid_options();
  o.records.on = true;
  o.shape.command = Command::contains;
  CHECK(validate(o).empty());
  o.best = true;
  o.full_header = true;
  std::vector<std::string> problems = validate(o);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0] == "--best does not apply to filter: it writes whole records, not rows");
  CHECK(problems[1] == "--full-header does not apply to filter: it writes whole records, not rows");
  o.best = o.full_header = false;
  o.records.compress_level = 3;
  problems = validate(o);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] == "--compress-level 3: no output is compressed (name one FILE.gz)");
  o.records.unmatched = "rest.fq.gz";
  CHECK(validate(o).empty());
  o.records.compress_level = 4;
  REQUIRE(validate(o).size() == 1);
}

TEST_CASE("effective_search: N filter default and selection") {
  RunOptions o = valid_options();
  CHECK(effective_search(o).max_n_frac == 0.2f);
  o.search.alphabet.alphabet = Alphabet::dna;
  CHECK(effective_search(o).max_n_frac == 1.0f);
  o.search.max_n_frac = 0.5f;
  o.max_n_frac_given = true;
  CHECK(effective_search(o).max_n_frac == 0.5f);
  CHECK(effective_search(o).selection == Selection::local_minima);
  o.all_ends = true;
  CHECK(effective_search(o).selection == Selection::all_ends);
  o.best = true;
  CHECK(effective_search(o).selection == Selection::best);
  o.threads = 3;
  CHECK(effective_threads(o, 8) == 3);
  o.threads = 0;
  CHECK(effective_threads(o, 8) == 8);
  CHECK(effective_threads(o, 0) == 1);
}
