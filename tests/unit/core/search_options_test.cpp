// SearchOptions (docs/semantics.md §1-§8): validate() rejects each bad option with a message
// naming it, accepts the legal ranges inclusive of their bounds; which strands are searched;
// the N-filter switch; the overhang helpers' single-precision formulas (docs/semantics.md §7).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "trawl/core/search_options.h"

using namespace trawl;

namespace {

SearchOptions with(Alphabet a, bool ignore_case = false) {
  SearchOptions o;
  o.alphabet = {a, ignore_case};
  return o;
}

bool mentions(const std::string& message, const std::string& what) {
  return message.find(what) != std::string::npos;
}

}  // namespace

TEST_CASE("validate: defaults and legal values give no message") {
  CHECK(validate(SearchOptions{}).empty());
  for (Alphabet a : {Alphabet::iupac, Alphabet::dna, Alphabet::ascii}) {
    SearchOptions o = with(a);
    for (int k : {0, 1, 5, 1000}) {
      o.k = k;
      CHECK(validate(o).empty());
    }
    o.max_n_frac = 0.0f;
    CHECK(validate(o).empty());
    o.max_n_frac = 0.2f;
    CHECK(validate(o).empty());
    o.max_n_frac = 1.0f;
    CHECK(validate(o).empty());
  }
  for (Alphabet a : {Alphabet::iupac, Alphabet::dna}) {
    SearchOptions o = with(a);
    for (float alpha : {0.0f, 0.25f, 0.5f, 1.0f}) {
      o.overhang = alpha;
      CAPTURE(alpha);
      CHECK(validate(o).empty());
    }
  }
  CHECK(validate(with(Alphabet::ascii, true)).empty());
}

TEST_CASE("validate: k < 0") {
  SearchOptions o;
  o.k = -1;
  CHECK(validate(o) == "-k: -1 is out of range; give a whole number from 0 to 2147483647");
  o.k = std::numeric_limits<int>::min();
  CHECK_FALSE(validate(o).empty());
}

TEST_CASE("validate: overhang outside 0..1, NaN, or with ascii") {
  for (float bad : {-0.001f, -1.0f, 1.0001f, 2.0f, std::numeric_limits<float>::quiet_NaN(),
                    std::numeric_limits<float>::infinity()}) {
    SearchOptions o;
    o.overhang = bad;
    CAPTURE(bad);
    CHECK(mentions(validate(o), "--overhang"));
  }
  for (bool ic : {false, true}) {
    SearchOptions o = with(Alphabet::ascii, ic);
    o.overhang = 0.5f;
    const std::string m = validate(o);
    CHECK(mentions(m, "--overhang"));
    CHECK(mentions(m, "--alphabet"));
  }
}

TEST_CASE("validate: max_n_frac outside 0..1 or NaN") {
  for (float bad : {-0.1f, 1.5f, std::numeric_limits<float>::quiet_NaN()}) {
    SearchOptions o;
    o.max_n_frac = bad;
    CAPTURE(bad);
    CHECK(mentions(validate(o), "--max-n-frac"));
  }
}

TEST_CASE("validate: ignore_case only with ascii") {
  CHECK(mentions(validate(with(Alphabet::iupac, true)), "--ignore-case"));
  CHECK(mentions(validate(with(Alphabet::dna, true)), "--ignore-case"));
}

TEST_CASE("searches_rc: both strands for iupac and dna unless turned off; never for ascii") {
  for (Alphabet a : {Alphabet::iupac, Alphabet::dna}) {
    SearchOptions o = with(a);
    CHECK(o.searches_rc());
    o.both_strands = false;
    CHECK_FALSE(o.searches_rc());
  }
  for (bool ic : {false, true}) {
    SearchOptions o = with(Alphabet::ascii, ic);
    CHECK_FALSE(o.searches_rc());
    o.both_strands = false;
    CHECK_FALSE(o.searches_rc());
  }
}

TEST_CASE("n_filter_on: exactly 1.0 is off, anything below is on") {
  SearchOptions o;
  CHECK_FALSE(o.n_filter_on());  // the library default is off (the CLI sets 0.2 for iupac)
  o.max_n_frac = 0.2f;
  CHECK(o.n_filter_on());
  o.max_n_frac = 0.0f;
  CHECK(o.n_filter_on());
  o.max_n_frac = std::nextafter(1.0f, 0.0f);
  CHECK(o.n_filter_on());
}

TEST_CASE("overhang_cost: j without overhang, floor(j * alpha) in float with it") {
  SearchOptions o;
  for (std::uint32_t j : {0u, 1u, 7u, 1000u}) CHECK(overhang_cost(o, j) == static_cast<std::int32_t>(j));
  o.overhang = 0.5f;
  CHECK(overhang_cost(o, 0) == 0);
  CHECK(overhang_cost(o, 1) == 0);
  CHECK(overhang_cost(o, 2) == 1);
  CHECK(overhang_cost(o, 3) == 1);
  CHECK(overhang_cost(o, 8) == 4);
  o.overhang = 0.0f;
  CHECK(overhang_cost(o, 100) == 0);
  o.overhang = 1.0f;
  CHECK(overhang_cost(o, 9) == 9);
  // Single precision: 0.1f is a little above 0.1, so 10 * 0.1f rounds to exactly 1 in float.
  o.overhang = 0.1f;
  CHECK(overhang_cost(o, 10) == 1);
  CHECK(overhang_cost(o, 9) == 0);
  for (std::uint32_t j = 0; j < 200; ++j)
    CHECK(overhang_cost(o, j) == static_cast<std::int32_t>(std::floor(static_cast<float>(j) * 0.1f)));
}

TEST_CASE("right_overhang_steps: 0 off, m for alpha 0, else min(m, ceil((k + alpha) / alpha))") {
  SearchOptions o;
  o.k = 3;
  CHECK(right_overhang_steps(o, 10) == 0);
  o.overhang = 0.0f;
  CHECK(right_overhang_steps(o, 10) == 10);
  o.k = 0;
  CHECK(right_overhang_steps(o, 7) == 7);  // documented difference from Sassy's NaN
  o.overhang = 0.5f;
  o.k = 1;
  CHECK(right_overhang_steps(o, 10) == 3);   // ceil(1.5 / 0.5)
  o.k = 3;
  CHECK(right_overhang_steps(o, 3) == 3);    // ceil(7) = 7, capped at m
  CHECK(right_overhang_steps(o, 100) == 7);
  o.overhang = 1.0f;
  o.k = 0;
  CHECK(right_overhang_steps(o, 5) == 1);
  o.k = 2;
  CHECK(right_overhang_steps(o, 5) == 3);
  o.overhang = 0.3f;
  for (int k = 0; k < 30; ++k) {
    o.k = k;
    const float want = std::ceil((static_cast<float>(k) + 0.3f) / 0.3f);
    for (std::uint32_t m : {1u, 4u, 20u, 64u, 65u, 500u}) {
      CAPTURE(k);
      CAPTURE(m);
      CHECK(right_overhang_steps(o, m) == (want < static_cast<float>(m) ? static_cast<std::uint32_t>(want) : m));
    }
  }
}
