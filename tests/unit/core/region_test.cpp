// Region (core/region.h): --region A:B in seqkit's convention, parsed and resolved per record
// length, with the overlap of a short record and the message for every kind of bad spec;
// several ranges and how they join.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "trawl/core/region.h"

using namespace trawl;

namespace {

Span span_of(const char* spec, std::uint64_t length) {
  const std::optional<Region> r = Region::parse(spec);
  REQUIRE(r.has_value());
  return r->span(length);
}

}  // namespace

TEST_CASE("region: the seqkit forms on a record of 100 bases") {
  CHECK(span_of("1:35", 100) == Span{0, 35});
  CHECK(span_of("-35:-1", 100) == Span{65, 35});
  CHECK(span_of("20:-1", 100) == Span{19, 81});
  CHECK(span_of("5:5", 100) == Span{4, 1});
  CHECK(span_of("-1:-1", 100) == Span{99, 1});
  CHECK(span_of("1:-1", 100) == Span{0, 100});
  CHECK(span_of("-50:60", 100) == Span{50, 10});
  CHECK(span_of("100:100", 100) == Span{99, 1});
  CHECK(span_of("-100:1", 100) == Span{0, 1});
}

TEST_CASE("region: a record shorter than the region keeps the overlap, possibly empty") {
  CHECK(span_of("1:35", 10) == Span{0, 10});
  CHECK(span_of("-35:-1", 10) == Span{0, 10});
  CHECK(span_of("5:35", 10) == Span{4, 6});
  CHECK(span_of("11:35", 10).length == 0);
  CHECK(span_of("20:-1", 10).length == 0);
  CHECK(span_of("-35:-20", 10).length == 0);
  CHECK(span_of("-5:-3", 4) == Span{0, 2});
  CHECK(span_of("-50:30", 100).length == 0);  // mixed signs: empty where A resolves past B
  CHECK(span_of("20:-90", 100).length == 0);
  CHECK(span_of("1:35", 0) == Span{0, 0});
  CHECK(span_of("-1:-1", 0) == Span{0, 0});
  for (const char* spec : {"11:35", "20:-1", "-35:-20", "1:35", "-5:-1"})
    for (std::uint64_t n : {0u, 1u, 3u, 10u}) CHECK(span_of(spec, n).offset <= n);
}

TEST_CASE("region: positions of any 64-bit size resolve without overflow") {
  const std::uint64_t max = UINT64_MAX;
  CHECK(span_of("18446744073709551615:18446744073709551615", 10).length == 0);
  CHECK(span_of("-18446744073709551615:-1", 10) == Span{0, 10});
  CHECK(span_of("1:18446744073709551615", max) == Span{0, max});
  CHECK(span_of("-1:-1", max) == Span{max - 1, 1});
  CHECK_FALSE(Region::parse("1:18446744073709551616"));
}

TEST_CASE("region: invalid specs are rejected with a message naming --region and the convention") {
  for (const char* spec : {"", ":", "5", "1-35", "0:5", "5:0", "0:0", "-0:-1", "10:5", "-1:-5", "a:5",
                           "5:b", "1:35:2", "+1:5", " 1:5", "1:5 ", "1.5:3", "--1:5", "-:5", "1,5"}) {
    CAPTURE(spec);
    CHECK_FALSE(Region::parse(spec));
    const std::string message = Region::problem(spec);
    CHECK(message.rfind(std::string("--region ") + spec + ": ", 0) == 0);
    CHECK(message.find("seqkit") != std::string::npos);
    CHECK(message.find("1:35 the first 35 bases") != std::string::npos);
  }
  CHECK(Region::problem("0:5").find("there is no position 0") != std::string::npos);
  CHECK(Region::problem("10:5").find("A is after B") != std::string::npos);
  CHECK(Region::problem("-1:-5").find("A is after B") != std::string::npos);
  CHECK(Region::problem("35").find("A:B") != std::string::npos);
  CHECK(Region::problem("a:5").find("whole numbers") != std::string::npos);
}

TEST_CASE("region: valid specs have no problem, mixed signs included") {
  for (const char* spec : {"1:35", "-35:-1", "20:-1", "5:5", "-50:30", "-1:1", "-5:-5", "1:1"}) {
    CAPTURE(spec);
    CHECK(Region::parse(spec));
    CHECK(Region::problem(spec).empty());
  }
}

namespace {

std::vector<Span> spans_of(const char* spec, std::uint64_t length) {
  const std::optional<Region> r = Region::parse(spec);
  REQUIRE(r.has_value());
  std::vector<Span> out{{7, 7}};  // replaced, not appended to
  r->spans(length, out);
  return out;
}

}  // namespace

TEST_CASE("region: several ranges are the parts they cover, joined where they overlap or touch") {
  using V = std::vector<Span>;
  CHECK(Region::parse("1:35")->single());
  CHECK_FALSE(Region::parse("1:150,-150:-1")->single());
  CHECK(spans_of("1:35", 100) == V{{0, 35}});
  CHECK(spans_of("1:150,-150:-1", 1000) == V{{0, 150}, {850, 150}});
  CHECK(spans_of("-150:-1,1:150", 1000) == V{{0, 150}, {850, 150}});  // in record order
  CHECK(spans_of("1:150,-150:-1", 300) == V{{0, 300}});                // touching
  CHECK(spans_of("1:150,-150:-1", 200) == V{{0, 200}});                // overlapping
  CHECK(spans_of("1:150,-150:-1", 301) == V{{0, 150}, {151, 150}});
  CHECK(spans_of("1:10,5:20,30:40,41:50", 100) == V{{0, 20}, {29, 21}});
  CHECK(spans_of("1:10,1:10", 100) == V{{0, 10}});
  CHECK(spans_of("50:60,1:5", 30) == V{{0, 5}});   // a range past the record is left out
  CHECK(spans_of("50:60,70:80", 30) == V{{30, 0}});  // none reaches it: one empty part
  CHECK(spans_of("1:150,-150:-1", 0) == V{{0, 0}});
}

TEST_CASE("region: a bad range among several is named") {
  CHECK_FALSE(Region::parse("1:150,"));
  CHECK_FALSE(Region::parse(",1:150"));
  CHECK_FALSE(Region::parse("1:150,-1:-150"));
  CHECK(Region::problem("1:150,-1:-150").find("range 2 (-1:-150) A is after B") != std::string::npos);
  CHECK(Region::problem("1:150,x").find("range 2 (x) not of the form A:B") != std::string::npos);
  CHECK(Region::problem("1:150,x").find("1:150,-150:-1 both ends") != std::string::npos);
  CHECK(Region::parse("1:150,-150:-1,20:30"));
}
