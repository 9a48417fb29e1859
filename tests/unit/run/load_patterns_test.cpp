// load_patterns (run/load_patterns.h): patterns from -p are named 'pattern', or 'pattern1'
// .. 'patternN' when there are several; from -f (FASTA or FASTQ, sequences in lines joined)
// by their name up to the first whitespace, or the whole header line with full_header (tabs
// as spaces); from
// -l by their 1-based line number, blank lines ("\n" or "\r\n") counted but skipped, the
// last line with or without a line end. Only -l returns the list's text, which the set's
// patterns are views into; a large list loads the same on any number of threads. The set is
// finished (ready to search). Invalid letters are UsageErrors naming pattern and position; a
// file without patterns is a UsageError "<file>: no patterns found"; an unreadable file an
// InputError naming it.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "support/random_text.h"
#include "support/run_search.h"
#include "support/temp_dir.h"
#include "trawl/core/errors.h"
#include "trawl/kernel/kernel.h"
#include "trawl/run/load_patterns.h"

using namespace trawl;
using trawl::test::TempDir;

namespace {

SearchOptions dna() {
  SearchOptions o;
  o.alphabet.alphabet = Alphabet::dna;
  return o;
}

// (id, sequence) of every pattern.
std::vector<std::pair<std::string, std::string>> contents(const PatternSet& set) {
  std::vector<std::pair<std::string, std::string>> out;
  PatternSet::IdRoom room;
  for (std::size_t i = 0; i < set.size(); ++i) out.emplace_back(std::string(set.id(i, room)), std::string(set.seq(i)));
  return out;
}

PatternSources inline_patterns(std::vector<std::string> p) {
  PatternSources s;
  s.inline_patterns = std::move(p);
  return s;
}
PatternSources fasta(const std::string& path) {
  PatternSources s;
  s.fasta = path;
  return s;
}
PatternSources list(const std::string& path) {
  PatternSources s;
  s.list = path;
  return s;
}

template <class Error>
std::string error_of(const PatternSources& sources, const SearchOptions& opt = dna()) {
  try {
    PatternSet set(opt);
    load_patterns(sources, false, set, 1);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error of that type)";
}

using Contents = std::vector<std::pair<std::string, std::string>>;

}  // namespace

TEST_CASE("load_patterns -p: 'pattern' alone, 'pattern1'..'patternN' for several, no list text") {
  {
    PatternSet set(dna());
    CHECK(load_patterns(inline_patterns({"GATTACA"}), false, set, 1) == nullptr);
    CHECK(contents(set) == Contents{{"pattern", "GATTACA"}});
  }
  {
    PatternSet set(dna());
    CHECK(load_patterns(inline_patterns({"ACGT", "ttgg", "C"}), false, set, 4) == nullptr);
    CHECK(contents(set) == Contents{{"pattern1", "ACGT"}, {"pattern2", "ttgg"}, {"pattern3", "C"}});
    CHECK(set.max_length() == 4);
  }
}

TEST_CASE("load_patterns -f: FASTA and FASTQ names, full headers, sequences in lines") {
  const TempDir dir("trawl_load_patterns");
  const std::string fa = dir.write("p.fa", ">first one\nACGT\n>second\tx\nGATT\nACA\n\n>third\nCCCC\n");
  {
    PatternSet set(dna());
    CHECK(load_patterns(fasta(fa), false, set, 1) == nullptr);
    CHECK(contents(set) == Contents{{"first", "ACGT"}, {"second", "GATTACA"}, {"third", "CCCC"}});
  }
  {
    PatternSet set(dna());
    load_patterns(fasta(fa), true, set, 1);
    // (A tab of a full header becomes a space: docs/semantics.md.)
    CHECK(contents(set) == Contents{{"first one", "ACGT"}, {"second x", "GATTACA"}, {"third", "CCCC"}});
  }
  {
    PatternSet set(dna());
    load_patterns(fasta(dir.write("p.fq", "@q1 desc\nACGTT\n+\nIIIII\n@q2\nGG\n+\nII\n")), false, set, 1);
    CHECK(contents(set) == Contents{{"q1", "ACGTT"}, {"q2", "GG"}});
  }
}

TEST_CASE("load_patterns -l: line numbers as ids, blank lines skipped, CRLF and a last line without end") {
  const TempDir dir("trawl_load_patterns");
  const std::string path = dir.write("list.txt", "ACGT\n\nGATTACA\r\n\r\n\nTTT");
  PatternSet set(dna());
  const std::shared_ptr<PatternListText> text = load_patterns(list(path), false, set, 1);
  REQUIRE(text != nullptr);
  CHECK(text->text() == "ACGT\n\nGATTACA\r\n\r\n\nTTT");
  CHECK(contents(set) == Contents{{"1", "ACGT"}, {"3", "GATTACA"}, {"6", "TTT"}});
  // The patterns are views into the returned text.
  for (std::size_t i = 0; i < set.size(); ++i) {
    CAPTURE(i);
    CHECK(set.seq(i).data() >= text->text().data());
    CHECK(set.seq(i).data() < text->text().data() + text->text().size());
  }
}

TEST_CASE("load_patterns -l: a list over 1 MiB loads the same on 1 and 3 threads") {
  const TempDir dir("trawl_load_patterns");
  std::mt19937_64 rng(3141);
  std::string bytes;
  Contents want;
  std::size_t line = 0;
  while (bytes.size() < (std::size_t{1} << 20) + (std::size_t{1} << 17)) {  // just over 1 MiB: in pieces
    ++line;
    if (rng() % 50 == 0) {
      bytes += rng() % 2 ? "\n" : "\r\n";
      continue;
    }
    const std::string seq = trawl::test::random_text(rng, 5 + rng() % 40, "ACGT");
    bytes += seq + (rng() % 7 == 0 ? "\r\n" : "\n");
    want.emplace_back(std::to_string(line), seq);
  }
  const std::string path = dir.write("big.txt", bytes);
  for (const int threads : {1, 3}) {
    CAPTURE(threads);
    PatternSet set(dna());
    const auto text = load_patterns(list(path), false, set, threads);
    CHECK(contents(set) == want);
  }
}

TEST_CASE("load_patterns: the set is finished and searchable") {
  const TempDir dir("trawl_load_patterns");
  const SearchOptions opt = dna();
  for (const PatternSources& sources : {inline_patterns({"GATTACA"}), fasta(dir.write("p.fa", ">g\nGATTACA\n")),
                                        list(dir.write("l.txt", "GATTACA\n"))}) {
    PatternSet set(opt);
    const auto text = load_patterns(sources, false, set, 1);
    const std::string_view texts[] = {"CCGATTACACC"};
    const BatchResults r = trawl::test::search_texts(set, opt, scalar_kernel(),
                                                     trawl::test::every_pair(Command::hits), texts);
    REQUIRE(r.hits.hits.size() == 1);
    CHECK(r.hits.hits[0].start == 2);
    CHECK(r.hits.hits[0].end == 9);
  }
}

TEST_CASE("load_patterns: invalid letters are usage errors naming the pattern and position") {
  const TempDir dir("trawl_load_patterns");
  CHECK(error_of<UsageError>(inline_patterns({"ACGT", "ACNT"})) ==
        "pattern 'pattern2' has invalid dna character 'N' at position 3");
  CHECK(error_of<UsageError>(fasta(dir.write("bad.fa", ">ok\nACGT\n>bad one\nAC-T\n"))) ==
        "pattern 'bad' has invalid dna character '-' at position 3");
  const std::string bad_list = dir.write("bad.txt", "ACGT\n\nAC GT\n");
  CHECK(error_of<UsageError>(list(bad_list)) ==
        bad_list + ": line 3: pattern '3' has invalid dna character ' ' (a space) at position 3");
  CHECK(error_of<UsageError>(fasta(dir.write("empty_seq.fa", ">e\n\n"))) == "pattern 'e' is empty");
}

TEST_CASE("load_patterns: a file without patterns is a usage error; an unreadable one an input error") {
  const TempDir dir("trawl_load_patterns");
  const std::string empty_fa = dir.write("empty.fa", "");
  CHECK(error_of<UsageError>(fasta(empty_fa)) == empty_fa + ": no patterns found");
  const std::string blank = dir.write("blank.txt", "\n\r\n\n");
  CHECK(error_of<UsageError>(list(blank)) == blank + ": no patterns found");
  const std::string empty_list = dir.write("empty.txt", "");
  CHECK(error_of<UsageError>(list(empty_list)) == empty_list + ": no patterns found");
  const std::string missing = dir.file("missing.txt");
  CHECK(error_of<InputError>(list(missing)) == missing + ": cannot open: No such file or directory");
  CHECK(error_of<InputError>(fasta(missing)) == missing + ": cannot open: No such file or directory");
}

TEST_CASE("load_patterns -p NAME=SEQ: named where given, patternN by place among all -p") {
  PatternSet set(dna());
  load_patterns(inline_patterns({"fwd=ACGT", "GGCC", "rev=TTAA"}), false, set, 1);
  CHECK(contents(set) == Contents{{"fwd", "ACGT"}, {"pattern2", "GGCC"}, {"rev", "TTAA"}});
  PatternSet one(dna());
  load_patterns(inline_patterns({"only=ACGT"}), false, one, 1);
  CHECK(contents(one) == Contents{{"only", "ACGT"}});
  // Split at the first '=': the rest is the sequence, checked as any other.
  CHECK(error_of<UsageError>(inline_patterns({"a=AC=GT"})) == "pattern 'a' has invalid dna character '=' at position 3");
  CHECK(error_of<UsageError>(inline_patterns({"=ACGT"})) == "-p '=ACGT': no name before '='");
}

TEST_CASE("load_patterns -l: trailing blanks dropped, a NAME<TAB>SEQ sheet names its patterns") {
  const TempDir dir("trawl_load_patterns");
  PatternSet trimmed(dna());
  load_patterns(list(dir.write("trailing.txt", "ACGT \nGGCC\t\r\n \nTTAA\t \n")), false, trimmed, 1);
  CHECK(contents(trimmed) == Contents{{"1", "ACGT"}, {"2", "GGCC"}, {"4", "TTAA"}});
  PatternSet sheet(dna());
  load_patterns(list(dir.write("sheet.txt", "bc01\tACGT\r\nGGCC\n\nbc03\tTTAA \n")), false, sheet, 2);
  CHECK(contents(sheet) == Contents{{"bc01", "ACGT"}, {"2", "GGCC"}, {"bc03", "TTAA"}});
  const std::string twice = dir.write("twice.txt", "a\tACGT\nb\tGGCC\na\tTTAA\n");
  CHECK(error_of<UsageError>(list(twice)) == twice + ": line 3: pattern id 'a' is on line 1 too");
  const std::string no_name = dir.write("no_name.txt", "ACGT\n\tGGCC\n");
  CHECK(error_of<UsageError>(list(no_name)) == no_name + ": line 2: no name before the tab");
  const std::string inner_tab = dir.write("inner_tab.txt", "a\tAC\tGT\n");
  CHECK(error_of<UsageError>(list(inner_tab)) ==
        inner_tab + ": line 1: pattern 'a' has invalid dna character '\\t' (a tab) at position 3");
}

TEST_CASE("load_patterns: -p, -f and -l combine in that order; an id two sources give is an error") {
  const TempDir dir("trawl_load_patterns");
  PatternSources all = inline_patterns({"p=ACGT"});
  all.fasta = dir.write("f.fa", ">f1\nGGCC\n>f2\nGGAA\n");
  all.list = dir.write("l.txt", "TTAA\nl2\tCCAA\n");
  PatternSet set(dna());
  CHECK(load_patterns(all, false, set, 1) != nullptr);  // the list's text, kept
  CHECK(contents(set) == Contents{{"p", "ACGT"}, {"f1", "GGCC"}, {"f2", "GGAA"}, {"1", "TTAA"}, {"l2", "CCAA"}});
  PatternSources clash = inline_patterns({"f2=ACGT"});
  clash.fasta = all.fasta;
  CHECK(error_of<UsageError>(clash) == "pattern id 'f2' is given by both -p and -f " + all.fasta);
  PatternSources clash_list;
  clash_list.fasta = all.fasta;
  clash_list.list = dir.write("clash.txt", "f1\tACGT\n");
  CHECK(error_of<UsageError>(clash_list) == "pattern id 'f1' is given by both -f " + all.fasta + " and -l " + clash_list.list);
  // A FASTA file's repeated names stay allowed on their own.
  PatternSet repeated(dna());
  load_patterns(fasta(dir.write("rep.fa", ">r\nACGT\n>r\nGGCC\n")), false, repeated, 1);
  CHECK(repeated.size() == 2);
}
