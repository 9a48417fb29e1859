// validate(RunOptions): every problem at once, in a fixed order; the defaults a run derives.
#include <doctest/doctest.h>

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
  CHECK(problems[1] == "k must be >= 0");
  CHECK(problems[2] == "--max-n-frac must be between 0 and 1");
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
  CHECK(effective_threads(o) == 3);
  o.threads = 0;
  CHECK(effective_threads(o) >= 1);
}
