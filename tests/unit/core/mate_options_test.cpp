// validate() on paired-end input: -1 and -2 come together and replace the inputs,
// --interleaved reads the inputs, and neither combines with the other, --lines or
// --pattern-per-record; a pattern file on stdin clashes only with a mate file on stdin.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "trawl/core/run_options.h"

using namespace trawl;

namespace {

RunOptions mates(const std::string& r1, const std::string& r2) {
  RunOptions o;
  o.patterns.inline_patterns = {"ACGT"};
  o.mate1 = r1;
  o.mate2 = r2;
  o.search.k = 1;
  return o;
}

}  // namespace

TEST_CASE("validate mates: -1 with -2, or --interleaved inputs, are fine") {
  CHECK(validate(mates("r1.fq", "r2.fq.gz")).empty());
  CHECK(validate(mates("-", "r2.fq")).empty());
  RunOptions il = mates("", "");
  il.interleaved = true;
  CHECK(validate(il).empty());  // (stdin)
  il.inputs = {"a.fq", "b.fq"};
  CHECK(validate(il).empty());
}

TEST_CASE("validate mates: each misuse is its own problem") {
  CHECK(validate(mates("r1.fq", "")) == std::vector<std::string>{"-1 needs -2: give both mate files"});
  CHECK(validate(mates("", "r2.fq")) == std::vector<std::string>{"-2 needs -1: give both mate files"});
  CHECK(validate(mates("-", "-")) == std::vector<std::string>{"-1 and -2 cannot both read stdin"});
  RunOptions o = mates("r1.fq", "r2.fq");
  o.inputs = {"x.fq"};
  o.interleaved = true;
  o.lines = true;
  o.paired = true;
  CHECK(validate(o) == std::vector<std::string>{"-1/-2 take the place of the inputs: give no other input files",
                                                "--interleaved and -1/-2 cannot be combined",
                                                "-1/-2 and --lines cannot be combined",
                                                "-1/-2 and --pattern-per-record cannot be combined"});
  RunOptions il = mates("", "");
  il.interleaved = true;
  il.lines = true;
  il.paired = true;
  CHECK(validate(il) == std::vector<std::string>{"--interleaved and --lines cannot be combined",
                                                 "--interleaved and --pattern-per-record cannot be combined"});
}

TEST_CASE("validate mates: patterns on stdin need mate files that are not") {
  RunOptions o = mates("r1.fq", "r2.fq");
  o.patterns.fasta = "-";
  CHECK(validate(o).empty());
  o.mate2 = "-";
  CHECK(validate(o) ==
        std::vector<std::string>{"patterns and records cannot both come from stdin: give the input files"});
}
