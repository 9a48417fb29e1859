// Fuzz target: bytes -> options, pattern and text; every available kernel, whole-record and
// windowed, must give exactly the hits of the naive DP oracle (tests/support/oracle.cpp).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "support/oracle.h"
#include "support/run_search.h"
#include "trawl/search/pattern_index.h"
#include "trawl/search/searcher.h"

using namespace trawl;

namespace {

std::string describe(const std::vector<std::string>& hits) {
  std::string s;
  for (const auto& h : hits) s += "  " + h + "\n";
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  const std::uint8_t flags = data[0], kbyte = data[1], mbyte = data[2], wbyte = data[3];
  data += 4;
  size -= 4;
  SearchOptions opt;
  const int a = flags % 3;
  opt.alphabet.alphabet = a == 0 ? Alphabet::iupac : a == 1 ? Alphabet::dna : Alphabet::ascii;
  opt.alphabet.ignore_case = opt.alphabet.alphabet == Alphabet::ascii && (flags & 4);
  opt.both_strands = flags & 8;
  opt.selection = (flags & 48) == 16 ? Selection::all_ends : (flags & 48) == 32 ? Selection::best : Selection::local_minima;
  if (opt.alphabet.alphabet != Alphabet::ascii && (flags & 64)) {
    static const float alphas[] = {0.0f, 0.1f, 0.25f, 0.5f, 0.7f, 1.0f};
    opt.overhang = alphas[kbyte % 6];
  }
  if (flags & 128) opt.max_n_frac = static_cast<float>(wbyte % 5) * 0.125f;

  const std::size_t m = std::min<std::size_t>(1 + mbyte % 80, size);
  if (m == 0) return 0;
  static const char pattern_letters[3][18] = {"ACGTNRYKMSWBDHVUX", "ACGTacgt", "abAB01"};
  static const char text_letters[3][24] = {"ACGTNacgtnRYX.-E", "ACGTNacgtn", "abAB01"};
  const char* pl = pattern_letters[a];
  const char* tl = text_letters[a];
  const std::size_t npl = std::char_traits<char>::length(pl), ntl = std::char_traits<char>::length(tl);
  std::string pattern, text;
  for (std::size_t i = 0; i < m; ++i) pattern.push_back(pl[data[i] % npl]);
  for (std::size_t i = m; i < size && text.size() < 3000; ++i) text.push_back(tl[data[i] % ntl]);
  opt.k = static_cast<int>(kbyte % (m + 2));

  std::vector<std::string> expected;
  for (const auto& h : oracle::search(pattern, text, opt)) expected.push_back(oracle::format_hit(h));

  const PatternSet patterns({{"p", pattern}}, opt);
  for (const KernelFns* kernel : available_kernels()) {
    const HitList hits = test::reference_hits(patterns, opt, *kernel, text);
    std::vector<std::string> got;
    for (const Hit& h : hits.hits) got.push_back(oracle::format_hit(oracle::from_library(hits, h)));
    if (got != expected) {
      std::fprintf(stderr, "kernel %s, pattern %s, text %s, k %d\nexpected:\n%sgot:\n%s", kernel->name,
                   pattern.c_str(), text.c_str(), opt.k, describe(expected).c_str(), describe(got).c_str());
      std::abort();
    }
    // Job lanes: the text among pieces of itself, so lanes end and refill at different
    // steps; each view as one record at a time says, the text as the oracle says.
    {
      const std::string_view t = text;
      const std::vector<std::string_view> views = {t.substr(wbyte % (t.size() + 1)), t, {},
                                                   t.substr(0, t.size() / 2), t, t.substr(t.size() / 3)};
      const BatchResults lanes_hits = test::search_texts(patterns, opt, *kernel, test::every_pair(Command::hits), views);
      const BatchResults lanes_count = test::search_texts(patterns, opt, *kernel, test::every_pair(Command::count), views);
      const BatchResults lanes_contains = test::search_texts(patterns, opt, *kernel, test::every_pair(Command::contains), views);
      std::size_t at = 0;
      for (std::size_t v = 0; v < views.size(); ++v) {
        const HitList ref = test::reference_hits(patterns, opt, *kernel, views[v], v);
        std::vector<std::string> a, b;
        for (; at < lanes_hits.hits.hits.size() && lanes_hits.hits.hits[at].text_idx == v; ++at)
          a.push_back(oracle::format_hit(oracle::from_library(lanes_hits.hits, lanes_hits.hits.hits[at])));
        for (const Hit& h : ref.hits) b.push_back(oracle::format_hit(oracle::from_library(ref, h)));
        const std::size_t count = lanes_count.pair_counts.at(v).count;
        const bool has = lanes_contains.pair_counts.at(v).count != 0;
        if (has != !ref.hits.empty() || a != b || count != ref.hits.size()) {
          std::fprintf(stderr, "lanes view %zu, kernel %s, pattern %s, text %s, k %d\n", v, kernel->name,
                       pattern.c_str(), text.c_str(), opt.k);
          std::abort();
        }
      }
      // The pattern index, wherever it can answer (forced for one pattern), cut either way,
      // answers as the lanes do.
      for (const auto pieces : {PatternIndex::Pieces::exact, PatternIndex::Pieces::one_edit}) {
        const auto index = PatternIndex::build(patterns, opt, true, pieces);
        if (!index) continue;
        auto rows = [](const BatchResults& r) {
          std::vector<std::string> s;
          for (const Hit& h : r.hits.hits) s.push_back(oracle::format_hit(oracle::from_library(r.hits, h)));
          for (const PairCount& c : r.pair_counts) s.push_back(std::to_string(c.count));
          return s;
        };
        for (const BatchResults* lanes : {&lanes_hits, &lanes_count, &lanes_contains}) {
          SearchMode mode = test::every_pair(lanes == &lanes_hits ? Command::hits : lanes == &lanes_count ? Command::count : Command::contains);
          mode.index = index.get();
          if (rows(test::search_texts(patterns, opt, *kernel, mode, views)) != rows(*lanes)) {
            std::fprintf(stderr, "pattern index, kernel %s, pattern %s, text %s, k %d\n", kernel->name, pattern.c_str(),
                         text.c_str(), opt.k);
            std::abort();
          }
        }
      }
    }
    // Any tiling into windows, merged, gives the same hits (best excluded: merged differently).
    if (opt.selection == Selection::best) continue;
    const std::uint64_t w = 1 + wbyte % 64;
    std::vector<std::string> merged;
    Searcher searcher(patterns, opt, *kernel, test::every_pair(Command::hits));
    for (std::uint64_t begin = 0;; begin += w) {
      Window win{begin, begin + w >= text.size() ? Window::kOpen : begin + w};
      BatchResults part;
      searcher.search(WindowQuery{text, win, false, 0, 0}, part);
      for (const Hit& h : part.hits.hits) merged.push_back(oracle::format_hit(oracle::from_library(part.hits, h)));
      if (win.end == Window::kOpen) break;
    }
    std::sort(merged.begin(), merged.end());
    std::vector<std::string> sorted = expected;
    std::sort(sorted.begin(), sorted.end());
    if (merged != sorted) {
      std::fprintf(stderr, "windows of %llu, kernel %s, pattern %s, text %s, k %d\n",
                   static_cast<unsigned long long>(w), kernel->name, pattern.c_str(), text.c_str(), opt.k);
      std::abort();
    }
  }
  return 0;
}
