// The one wording of a range error (README, Exit codes): option, value and the allowed range,
// every number in plain decimal.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "trawl/core/ranges.h"

using namespace trawl;

TEST_CASE("out_of_range: whole numbers, the bounds as written") {
  CHECK(out_of_range("--threads", "-1", kThreadsRange) ==
        "--threads: -1 is out of range; give a whole number from 0 to 2147483647");
  CHECK(out_of_range("--batch-bases", "0", kBatchBasesRange) ==
        "--batch-bases: 0 is out of range; give a whole number from 1 to 1099511627776");
  CHECK(range_text("99999999999", kKRange) ==
        "99999999999 is out of range; give a whole number from 0 to 2147483647");
}

TEST_CASE("out_of_range: floats in plain decimal, never with an exponent") {
  CHECK(out_of_range("--overhang", 1.5f, 0.0f, 1.0f) ==
        "--overhang: 1.5 is out of range; give a number from 0 to 1");
  CHECK(out_of_range("--max-n-frac", -0.25f, 0.0f, 1.0f) ==
        "--max-n-frac: -0.25 is out of range; give a number from 0 to 1");
  CHECK(out_of_range("--overhang", 1e10f, 0.0f, 1.0f) ==
        "--overhang: 10000000000 is out of range; give a number from 0 to 1");
  CHECK(out_of_range("--overhang", std::nanf(""), 0.0f, 1.0f) ==
        "--overhang: nan is out of range; give a number from 0 to 1");
}
