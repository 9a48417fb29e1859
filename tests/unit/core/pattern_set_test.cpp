// PatternSet profiles: every bit of every profile, built on demand, precomputed and by every
// kernel's builder (KernelFns::build_peq), on both strands, equals its definition (pattern position j matches text class c), for every
// alphabet and for lengths around the 16-position groups and 64-bit words of the builder.
#include <doctest/doctest.h>

#include <atomic>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "trawl/kernel/kernel.h"
#include "trawl/core/pattern_set.h"
#include "trawl/run/pipeline.h"

using namespace trawl;

TEST_CASE("pattern profiles match their definition bit for bit") {
  std::mt19937_64 rng(20261203);
  const std::string iupac_letters = "ACGTURYSWKMBDHVNacgturyswkmbdhvn";
  const std::string dna_letters = "ACGTacgt";
  const std::vector<std::uint32_t> lengths = {1, 2, 15, 16, 17, 23, 31, 32, 33, 63, 64, 65, 100, 128, 129, 200};
  for (Alphabet alphabet : {Alphabet::dna, Alphabet::iupac, Alphabet::ascii}) {
    for (bool ignore_case : {false, true}) {
      SearchOptions options;
      options.alphabet = {alphabet, ignore_case};
      std::vector<Pattern> patterns;
      for (std::uint32_t m : lengths) {
        std::string seq;
        for (std::uint32_t j = 0; j < m; ++j) {
          if (alphabet == Alphabet::dna) seq += dna_letters[rng() % dna_letters.size()];
          else if (alphabet == Alphabet::iupac) seq += iupac_letters[rng() % iupac_letters.size()];
          else seq += static_cast<char>(1 + rng() % 255);
        }
        patterns.push_back({"p" + std::to_string(m), seq});
      }
      const PatternSet precomputed(patterns, options);
      const PatternSet on_demand(patterns, options, /*precompute_limit=*/0);
      REQUIRE(precomputed.precomputed());
      REQUIRE_FALSE(on_demand.precomputed());
      const unsigned classes = options.alphabet.class_count();
      std::vector<std::uint64_t> scratch;
      for (std::size_t i = 0; i < patterns.size(); ++i) {
        for (Strand strand : {Strand::fwd, Strand::rc}) {
          if (strand == Strand::rc && !options.searches_rc()) continue;
          const StrandProfile a = precomputed.profile(i, strand, scratch);
          std::vector<std::uint64_t> copy(a.peq, a.peq + std::size_t{classes} * a.words);
          const StrandProfile b = on_demand.profile(i, strand, scratch);
          const std::string& seq = patterns[i].seq;
          // Each kernel's builder, where the alphabet has planes (at most 16 classes).
          std::vector<std::vector<std::uint64_t>> built;
          if (const ClassPlanes* planes = on_demand.class_planes(strand)) {
            for (const KernelFns* kernel : available_kernels()) {
              built.emplace_back(std::size_t{classes} * a.words, ~std::uint64_t{0});
              kernel->build_peq(*planes, classes, seq, built.back().data());
            }
          } else {
            CHECK(classes > 16);
          }
          for (unsigned c = 0; c < classes; ++c)
            for (std::uint32_t j = 0; j < seq.size(); ++j) {
              auto byte = static_cast<std::uint8_t>(seq[j]);
              if (strand == Strand::rc) byte = options.alphabet.complement(byte);
              const bool expected = options.alphabet.matches_class(byte, static_cast<std::uint8_t>(c));
              INFO("alphabet ", alphabet_name(alphabet), " m=", seq.size(), " strand ",
                   strand_char(strand), " class ", c, " position ", j);
              CHECK(((copy[std::size_t{c} * a.words + (j >> 6)] >> (j & 63)) & 1u) == expected);
              CHECK(b.eq(j, static_cast<std::uint8_t>(c)) == expected);
              for (const auto& words : built)
                CHECK(((words[std::size_t{c} * a.words + (j >> 6)] >> (j & 63)) & 1u) == expected);
            }
          // No bits past the pattern's end.
          for (unsigned c = 0; c < classes; ++c)
            if (seq.size() % 64 != 0) {
              CHECK((b.peq_of(static_cast<std::uint8_t>(c))[b.words - 1] >> (seq.size() % 64)) == 0);
              for (const auto& words : built)
                CHECK((words[std::size_t{c} * a.words + a.words - 1] >> (seq.size() % 64)) == 0);
            }
        }
      }
    }
  }
}

static std::string id_of(const PatternSet& set, std::size_t i) {
  PatternSet::IdRoom room;
  return std::string(set.id(i, room));
}

// add_list must give exactly what add() gives line by line (ids = 1-based line numbers,
// blank lines skipped but counted, "\r\n" endings, a last line without '\n'), for any number
// of pieces and in whatever order the pieces run; an invalid pattern is reported as add()
// reports it, the first one of the list, and leaves the set as it was.
TEST_CASE("pattern lists load the same in any number of pieces") {
  std::mt19937_64 rng(20261203);
  SearchOptions options;
  options.alphabet = {Alphabet::dna, false};
  auto sequential = [](std::size_t count, const std::function<void(std::size_t)>& body) {
    for (std::size_t i = 0; i < count; ++i) body(i);
  };
  auto backwards = [](std::size_t count, const std::function<void(std::size_t)>& body) {
    for (std::size_t i = count; i > 0; --i) body(i - 1);
  };
  for (int iter = 0; iter < 40; ++iter) {
    CAPTURE(iter);
    const std::size_t lines = iter < 4 ? static_cast<std::size_t>(iter) : 1 + rng() % 1500;
    std::string text;
    std::vector<std::string> line_seqs;
    for (std::size_t l = 0; l < lines; ++l) {
      // Some lines span whole 64-byte blocks of the line-end search.
      std::string seq(rng() % 4 == 0 ? 0 : rng() % 16 == 0 ? 65 + rng() % 200 : 1 + rng() % 30, 'A');
      for (char& ch : seq) ch = "ACGT"[rng() % 4];
      line_seqs.push_back(seq);
      text += seq;
      if (l + 1 < lines || rng() % 2) text += rng() % 5 == 0 ? "\r\n" : "\n";
      else if (seq.empty() && rng() % 2) text += "\r";  // a blank last line without its '\n'
    }
    const bool invalid = iter % 3 == 2 && lines > 0;
    std::size_t bad_line = 0;
    if (invalid) {
      // Two bad lines: the first one must be named.
      std::vector<std::size_t> starts;
      std::size_t at = 0;
      for (std::size_t l = 0; l < lines; ++l) {
        if (!line_seqs[l].empty()) starts.push_back(l);
      }
      if (starts.empty()) continue;
      bad_line = starts[rng() % starts.size()];
      for (std::size_t l = 0; l < bad_line; ++l) at = text.find('\n', at) + 1;
      text[at] = 'X';
      line_seqs[bad_line][0] = 'X';
      const std::size_t later = text.rfind('A');
      if (later != std::string::npos && later > at) text[later] = 'Z';
    }
    // The reference: add() per line, after one pattern that was there before.
    PatternSet expected(options);
    expected.add("before", "ACGT");
    std::string expected_error;
    for (std::size_t l = 0; l < lines && expected_error.empty(); ++l) {
      if (line_seqs[l].empty()) continue;
      try {
        expected.add(std::to_string(l + 1), line_seqs[l]);
      } catch (const std::invalid_argument& e) {
        expected_error = "line " + std::to_string(l + 1) + ": " + e.what();  // a list names the line
      }
    }
    CHECK(expected_error.empty() == !invalid);
    for (std::size_t parts : {1, 2, 3, 7, 64}) {
      for (int order = 0; order < 3; ++order) {  // in order, backwards, in parallel
        CAPTURE(parts);
        CAPTURE(order);
        const PatternSet::ForEach for_each =
            order == 0 ? PatternSet::ForEach(sequential)
            : order == 1 ? PatternSet::ForEach(backwards)
                         : PatternSet::ForEach([](std::size_t count, const std::function<void(std::size_t)>& body) {
                             for_each_in_parallel(count, 4, body);
                           });
        PatternSet got(options);
        got.add("before", "ACGT");
        std::string error;
        std::atomic<std::size_t> read_bytes = 0;  // every piece is reported once
        try {
          got.add_list(text, nullptr, parts, for_each, [&](std::string_view piece) { read_bytes += piece.size(); });
        } catch (const std::invalid_argument& e) {
          error = e.what();
        }
        CHECK(error == expected_error);
        if (!invalid) CHECK(read_bytes == text.size());
        if (invalid) {
          REQUIRE(got.size() == 1);  // unchanged
          CHECK(id_of(got, 0) == "before");
          got.add("after", "GG");
          CHECK(id_of(got, 1) == "after");
          continue;
        }
        REQUIRE(got.size() == expected.size());
        CHECK(got.max_length() == expected.max_length());
        for (std::size_t i = 0; i < got.size(); ++i) {
          CHECK(id_of(got, i) == id_of(expected, i));
          CHECK(got.seq(i) == expected.seq(i));
        }
        // The set goes on growing as usual, and a second list numbers its lines from 1 again.
        got.add("after", "GG");
        CHECK(id_of(got, got.size() - 1) == "after");
        const std::size_t second = got.size();
        got.add_list(text, nullptr, parts, for_each);
        REQUIRE(got.size() == second + expected.size() - 1);
        for (std::size_t i = 1; i < expected.size(); ++i) {
          CHECK(id_of(got, second + i - 1) == id_of(expected, i));
          CHECK(got.seq(second + i - 1) == expected.seq(i));
        }
        CHECK(id_of(got, 0) == "before");
        CHECK(id_of(got, second - 1) == "after");
      }
    }
  }
}

TEST_CASE("pattern lists: short last lines without a line end, long lines, CRLF") {
  SearchOptions options;
  options.alphabet = {Alphabet::dna, false};
  const std::string long_line(150, 'G');
  for (const std::string& last : {std::string("A"), std::string("AC"), long_line}) {
    const std::string text = "ACGT\r\n\n" + long_line + "\n" + last;
    PatternSet got(options);
    // The set keeps the text through its owner (the caller's copy is gone).
    auto owned = std::make_shared<std::string>(text);
    const std::string_view view = *owned;
    got.add_list(view, std::move(owned), 1, [](std::size_t count, const std::function<void(std::size_t)>& body) {
      for (std::size_t i = 0; i < count; ++i) body(i);
    });
    REQUIRE(got.size() == 3);
    CHECK(got.seq(0) == "ACGT");
    CHECK(id_of(got, 0) == "1");
    CHECK(got.seq(1) == long_line);
    CHECK(id_of(got, 1) == "3");
    CHECK(got.seq(2) == last);
    CHECK(id_of(got, 2) == "4");
  }
}

TEST_CASE("pattern lists: trailing blanks dropped in any number of pieces; a sheet with tabs names its patterns") {
  SearchOptions options;
  options.alphabet = {Alphabet::dna, false};
  const auto in_pieces = [](std::size_t count, const std::function<void(std::size_t)>& body) {
    for (std::size_t i = count; i-- > 0;) body(i);
  };
  for (std::size_t parts : {1, 2, 5}) {
    CAPTURE(parts);
    PatternSet got(options);
    got.add_list("ACGT  \n \t \nGG\r\n", nullptr, parts, in_pieces);
    REQUIRE(got.size() == 2);
    CHECK(got.seq(0) == "ACGT");
    CHECK(got.seq(1) == "GG");
    CHECK(id_of(got, 1) == "3");  // the blank line (only blanks) still counts
  }
  PatternSet sheet(options);
  sheet.add("before", "ACGT");
  sheet.add_list("x1\tAAC\nCCG \n\nx4\tGGT\t\n", nullptr, 1, in_pieces);
  REQUIRE(sheet.size() == 4);
  CHECK(id_of(sheet, 1) == "x1");
  CHECK(sheet.seq(1) == "AAC");
  CHECK(id_of(sheet, 2) == "2");
  CHECK(sheet.seq(2) == "CCG");
  CHECK(id_of(sheet, 3) == "x4");
  CHECK(sheet.seq(3) == "GGT");
  // An error leaves the set as it was.
  PatternSet bad(options);
  bad.add("before", "ACGT");
  CHECK_THROWS_WITH_AS(bad.add_list("y\tAC\ny\tGT\n", nullptr, 1, in_pieces),
                       "line 2: pattern id 'y' is on line 1 too", std::invalid_argument);
  REQUIRE(bad.size() == 1);
  CHECK(id_of(bad, 0) == "before");
}
