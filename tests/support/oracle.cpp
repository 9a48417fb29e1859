#include "support/oracle.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace trawl::oracle {
namespace {

// IUPAC base sets, own bit order (A=1, C=2, G=4, T=8); 0 for X and for non-IUPAC bytes.
std::uint8_t iupac_set(std::uint8_t b) {
  constexpr std::uint8_t A = 1, C = 2, G = 4, T = 8;
  switch (b >= 'a' && b <= 'z' ? b - 32 : b) {
    case 'A': return A;
    case 'C': return C;
    case 'G': return G;
    case 'T': return T;
    case 'U': return T;
    case 'R': return A | G;
    case 'Y': return C | T;
    case 'S': return C | G;
    case 'W': return A | T;
    case 'K': return G | T;
    case 'M': return A | C;
    case 'B': return C | G | T;
    case 'D': return A | G | T;
    case 'H': return A | C | T;
    case 'V': return A | C | G;
    case 'N': return A | C | G | T;
    default: return 0;  // X and every byte that is not an IUPAC letter
  }
}

bool is_iupac_letter(std::uint8_t b) {
  const int u = b >= 'a' && b <= 'z' ? b - 32 : b;
  return u == 'X' || iupac_set(b) != 0;
}

std::uint8_t ascii_lower(std::uint8_t b) {
  return b >= 'A' && b <= 'Z' ? static_cast<std::uint8_t>(b + 32) : b;
}

bool is_acgt(std::uint8_t b) {
  const std::uint8_t u = ascii_lower(b);
  return u == 'a' || u == 'c' || u == 'g' || u == 't';
}

// 256 x 256 equality tables, built once per alphabet flavour from eq().
struct EqTable {
  std::array<std::uint8_t, 256 * 256> t;
  bool operator()(std::uint8_t p, std::uint8_t x) const { return t[p * 256u + x] != 0; }
};

const EqTable& eq_table(const AlphabetSpec& a) {
  static const auto build = [](AlphabetSpec spec) {
    EqTable tab;
    for (int p = 0; p < 256; ++p)
      for (int x = 0; x < 256; ++x)
        tab.t[p * 256 + x] = eq(spec, static_cast<std::uint8_t>(p), static_cast<std::uint8_t>(x));
    return tab;
  };
  static const EqTable iupac = build({Alphabet::iupac, false});
  static const EqTable dna = build({Alphabet::dna, false});
  static const EqTable ascii = build({Alphabet::ascii, false});
  static const EqTable ascii_i = build({Alphabet::ascii, true});
  switch (a.alphabet) {
    case Alphabet::iupac: return iupac;
    case Alphabet::dna: return dna;
    default: return a.ignore_case ? ascii_i : ascii;
  }
}

int count_n(std::string_view t, std::uint64_t s, std::uint64_t e) {
  int c = 0;
  for (std::uint64_t i = s; i < e; ++i) c += (t[i] == 'N' || t[i] == 'n') ? 1 : 0;
  return c;
}

// One strand's result in that strand's own coordinates.
struct StrandHit {
  std::uint64_t p;  // end position (may be > n with a right overhang)
  std::int32_t cost;
  std::uint64_t ts, te;
  std::uint32_t ps, pe;
  std::string cigar;
};

std::string run_length(const std::vector<char>& ops_backwards) {
  std::string out;
  std::size_t i = ops_backwards.size();
  while (i > 0) {
    const char op = ops_backwards[i - 1];
    std::size_t run = 0;
    while (i > 0 && ops_backwards[i - 1] == op) {
      ++run;
      --i;
    }
    out += std::to_string(run);
    out += op;
  }
  return out;
}

// Full DP of `P` against `T`, then selection, filters and traceback exactly as in
// docs/semantics.md §2, §3, §7 and §8.
std::vector<StrandHit> search_strand(std::string_view P, std::string_view T,
                                     const SearchOptions& opt, BestFrom best_from) {
  const std::uint32_t m = static_cast<std::uint32_t>(P.size());
  const std::uint64_t n = T.size();
  const std::int32_t k = opt.k;
  const bool ovh = opt.overhang.has_value();
  const EqTable& eqt = eq_table(opt.alphabet);
  const std::size_t W = n + 1;

  static thread_local std::vector<std::int32_t> Dbuf;
  Dbuf.assign(static_cast<std::size_t>(m + 1) * W, 0);
  auto D = [&](std::uint32_t j, std::uint64_t i) -> std::int32_t& { return Dbuf[j * W + i]; };

  for (std::uint32_t j = 1; j <= m; ++j) {
    D(j, 0) = hang_cost(opt, j);
    const std::uint8_t pc = static_cast<std::uint8_t>(P[j - 1]);
    std::int32_t* row = &Dbuf[j * W];
    const std::int32_t* up = &Dbuf[(j - 1) * W];
    for (std::uint64_t i = 1; i <= n; ++i) {
      const std::int32_t diag = up[i - 1] + (eqt(pc, static_cast<std::uint8_t>(T[i - 1])) ? 0 : 1);
      row[i] = std::min({diag, up[i] + 1, row[i - 1] + 1});
    }
  }

  const std::uint32_t S = overhang_steps(opt, m);
  const std::uint64_t last = n + S;
  std::vector<std::int32_t> C(last + 1);
  for (std::uint64_t p = 0; p <= n; ++p) C[p] = D(m, p);
  for (std::uint32_t o = 1; o <= S; ++o) C[n + o] = D(m - o, n) + hang_cost(opt, o);

  // Candidate end positions (docs/semantics.md §2).
  std::vector<std::uint64_t> ends;
  if (opt.selection == Selection::all_ends ||
      (opt.selection == Selection::best && best_from == BestFrom::all_ends)) {
    if (!(n == 0 && !ovh))
      for (std::uint64_t p = 0; p <= last; ++p)
        if (C[p] <= k) ends.push_back(p);
  } else {  // local_minima (and best with BestFrom::local_minima)
    bool decreasing = true;
    for (std::uint64_t q = 1; q <= last; ++q) {
      if (decreasing && C[q] > C[q - 1] && C[q - 1] <= k) ends.push_back(q - 1);
      decreasing = C[q] < C[q - 1] || (decreasing && C[q] == C[q - 1]);
    }
    if (decreasing && C[last] <= k && last >= 1) ends.push_back(last);
  }

  const bool nfilter = opt.max_n_frac != 1.0f;
  const float f = opt.max_n_frac;
  std::vector<StrandHit> out;
  std::vector<char> ops;
  for (const std::uint64_t p : ends) {
    // N check 1: end window (docs/semantics.md §8).
    if (nfilter) {
      const std::int64_t e = static_cast<std::int64_t>(std::min<std::uint64_t>(p, n));
      const std::int64_t w = std::max<std::int64_t>(static_cast<std::int64_t>(m) - k, 0);
      const std::int64_t s = std::max<std::int64_t>(e - w, 0);
      if (!(s >= static_cast<std::int64_t>(n) || e == s)) {
        const float frac = static_cast<float>(count_n(T, s, e)) / static_cast<float>(m + k);
        if (!(frac <= f)) continue;
      }
    }
    // Greedy traceback on the full matrix (docs/semantics.md §3, §7).
    const std::uint64_t o = p > n ? p - n : 0;
    std::uint32_t j = m - static_cast<std::uint32_t>(o);
    std::uint64_t i = p - o;
    const std::uint32_t pe = j;
    std::int32_t g = D(j, i);
    std::uint32_t ps = 0;
    ops.clear();
    for (;;) {
      if (j == 0) {
        ps = 0;
        break;
      }
      if (i == 0 && ovh) {
        ps = j;
        g -= hang_cost(opt, j);
        break;
      }
      if (i > 0 && D(j - 1, i - 1) == g &&
          eqt(static_cast<std::uint8_t>(P[j - 1]), static_cast<std::uint8_t>(T[i - 1]))) {
        ops.push_back('=');
        --j;
        --i;
        continue;
      }
      g -= 1;
      if (i > 0 && D(j - 1, i - 1) == g) {
        ops.push_back('X');
        --j;
        --i;
        continue;
      }
      if (i > 0 && D(j, i - 1) == g) {
        ops.push_back('D');
        --i;
        continue;
      }
      if (D(j - 1, i) == g) {
        ops.push_back('I');
        --j;
        continue;
      }
      throw std::logic_error("oracle traceback failed");
    }
    if (g != 0) throw std::logic_error("oracle traceback ended with g != 0");
    const std::uint64_t ts = i, te = std::min<std::uint64_t>(p, n);
    // N check 2: traced region.
    if (nfilter && !(ts >= n || te == ts)) {
      const float frac =
          static_cast<float>(count_n(T, ts, te)) / static_cast<float>(te - ts);
      if (!(frac <= f)) continue;
    }
    out.push_back({p, C[p], ts, te, ps, pe, run_length(ops)});
  }

  if (opt.selection == Selection::best && !out.empty()) {
    std::size_t b = 0;
    for (std::size_t x = 1; x < out.size(); ++x)
      if (out[x].cost < out[b].cost || (out[x].cost == out[b].cost && out[x].p > out[b].p)) b = x;
    StrandHit keep = out[b];
    out.assign(1, keep);
  }
  return out;
}

}  // namespace

bool operator==(const OracleHit& a, const OracleHit& b) {
  return a.strand == b.strand && a.cost == b.cost && a.start == b.start && a.end == b.end &&
         a.pattern_start == b.pattern_start && a.pattern_end == b.pattern_end &&
         a.cigar == b.cigar;
}

bool eq(const AlphabetSpec& a, std::uint8_t p, std::uint8_t t) {
  switch (a.alphabet) {
    case Alphabet::iupac: return (iupac_set(p) & iupac_set(t)) != 0;
    case Alphabet::dna: return is_acgt(p) && is_acgt(t) && ascii_lower(p) == ascii_lower(t);
    case Alphabet::ascii: return a.ignore_case ? ascii_lower(p) == ascii_lower(t) : p == t;
  }
  return false;
}

bool valid_pattern_byte(Alphabet a, std::uint8_t p) {
  switch (a) {
    case Alphabet::iupac: return is_iupac_letter(p);
    case Alphabet::dna: return is_acgt(p);
    case Alphabet::ascii: return true;
  }
  return false;
}

std::uint8_t complement(const AlphabetSpec& a, std::uint8_t b) {
  if (a.alphabet == Alphabet::ascii) return b;
  const bool lower = b >= 'a' && b <= 'z';
  const int u = lower ? b - 32 : b;
  int c;
  switch (u) {
    case 'A': c = 'T'; break;
    case 'T': c = 'A'; break;
    case 'U': c = 'A'; break;
    case 'C': c = 'G'; break;
    case 'G': c = 'C'; break;
    case 'R': c = 'Y'; break;
    case 'Y': c = 'R'; break;
    case 'K': c = 'M'; break;
    case 'M': c = 'K'; break;
    case 'B': c = 'V'; break;
    case 'V': c = 'B'; break;
    case 'D': c = 'H'; break;
    case 'H': c = 'D'; break;
    case 'S': case 'W': case 'N': case 'X': c = u; break;
    default: return b;
  }
  return static_cast<std::uint8_t>(lower ? c + 32 : c);
}

std::string complement(const AlphabetSpec& a, std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(complement(a, static_cast<std::uint8_t>(c)));
  return out;
}

std::string reverse_complement(const AlphabetSpec& a, std::string_view s) {
  std::string out = complement(a, s);
  std::reverse(out.begin(), out.end());
  return out;
}

std::int32_t hang_cost(const SearchOptions& opt, std::uint32_t j) {
  if (!opt.overhang) return static_cast<std::int32_t>(j);
  const float prod = static_cast<float>(j) * *opt.overhang;
  return static_cast<std::int32_t>(std::floor(prod));
}

std::uint32_t overhang_steps(const SearchOptions& opt, std::uint32_t m) {
  if (!opt.overhang) return 0;
  const float a = *opt.overhang;
  if (a == 0.0f) return m;
  const float q = std::ceil((static_cast<float>(opt.k) + a) / a);
  if (!(q < static_cast<float>(m))) return m;
  return static_cast<std::uint32_t>(q);
}

std::vector<std::int32_t> cost_row(std::string_view pattern, std::string_view text,
                                   const SearchOptions& opt) {
  const std::uint32_t m = static_cast<std::uint32_t>(pattern.size());
  const std::uint64_t n = text.size();
  const EqTable& eqt = eq_table(opt.alphabet);
  std::vector<std::int32_t> prev(n + 1, 0), cur(n + 1);
  std::vector<std::int32_t> last_col(m + 1, 0);  // D(j, n)
  for (std::uint32_t j = 1; j <= m; ++j) {
    cur[0] = hang_cost(opt, j);
    for (std::uint64_t i = 1; i <= n; ++i) {
      const std::int32_t diag =
          prev[i - 1] + (eqt(static_cast<std::uint8_t>(pattern[j - 1]),
                             static_cast<std::uint8_t>(text[i - 1])) ? 0 : 1);
      cur[i] = std::min({diag, prev[i] + 1, cur[i - 1] + 1});
    }
    last_col[j] = cur[n];
    std::swap(prev, cur);
  }
  std::vector<std::int32_t> C(prev.begin(), prev.end());  // row m
  const std::uint32_t S = overhang_steps(opt, m);
  for (std::uint32_t o = 1; o <= S; ++o) C.push_back(last_col[m - o] + hang_cost(opt, o));
  return C;
}

std::vector<OracleHit> search(std::string_view pattern, std::string_view text,
                              const SearchOptions& opt, BestFrom best_from) {
  std::vector<OracleHit> hits;
  for (StrandHit& h : search_strand(pattern, text, opt, best_from))
    hits.push_back({Strand::fwd, h.cost, h.ts, h.te, h.ps, h.pe, std::move(h.cigar)});
  if (opt.searches_rc()) {
    const std::string pc = complement(opt.alphabet, pattern);
    const std::string tr(text.rbegin(), text.rend());
    const std::uint64_t n = text.size();
    for (StrandHit& h : search_strand(pc, tr, opt, best_from))
      hits.push_back({Strand::rc, h.cost, n - h.te, n - h.ts, h.ps, h.pe, std::move(h.cigar)});
  }
  std::stable_sort(hits.begin(), hits.end(), [](const OracleHit& a, const OracleHit& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.strand != b.strand) return a.strand == Strand::fwd;
    return a.end < b.end;
  });
  return hits;
}

int rescore_cigar(std::string_view pattern_part, std::string_view text_slice,
                  std::string_view cigar, const AlphabetSpec& alphabet) {
  std::size_t j = 0, i = 0, pos = 0;
  int cost = 0;
  while (pos < cigar.size()) {
    std::uint64_t run = 0;
    std::size_t digits = 0;
    while (pos < cigar.size() && cigar[pos] >= '0' && cigar[pos] <= '9') {
      run = run * 10 + static_cast<std::uint64_t>(cigar[pos] - '0');
      ++pos;
      ++digits;
      if (run > (1u << 30)) return -1;
    }
    if (digits == 0 || run == 0 || pos >= cigar.size()) return -1;
    const char op = cigar[pos++];
    for (std::uint64_t r = 0; r < run; ++r) {
      switch (op) {
        case '=':
        case 'X': {
          if (j >= pattern_part.size() || i >= text_slice.size()) return -1;
          const bool same = eq(alphabet, static_cast<std::uint8_t>(pattern_part[j]),
                               static_cast<std::uint8_t>(text_slice[i]));
          if (same != (op == '=')) return -1;
          cost += op == 'X';
          ++j;
          ++i;
          break;
        }
        case 'I':
          if (j >= pattern_part.size()) return -1;
          ++j;
          ++cost;
          break;
        case 'D':
          if (i >= text_slice.size()) return -1;
          ++i;
          ++cost;
          break;
        default: return -1;
      }
    }
  }
  if (j != pattern_part.size() || i != text_slice.size()) return -1;
  return cost;
}

std::string check_hit(std::string_view pattern, std::string_view text, const SearchOptions& opt,
                      const OracleHit& h) {
  const std::uint64_t n = text.size();
  const std::uint32_t m = static_cast<std::uint32_t>(pattern.size());
  if (!(h.start <= h.end && h.end <= n)) return "text range out of bounds";
  if (!(h.pattern_start <= h.pattern_end && h.pattern_end <= m)) return "pattern range out of bounds";
  if (h.strand == Strand::rc && !opt.searches_rc()) return "rc hit although rc is not searched";
  const std::uint32_t left = h.pattern_start, right = m - h.pattern_end;
  if (!opt.overhang && (left != 0 || right != 0)) return "pattern range != [0,m) without overhang";
  if (h.cigar.empty() != (h.pattern_start == h.pattern_end && h.start == h.end))
    return "empty CIGAR iff empty alignment violated";
  std::string pat_part, text_part;
  if (h.strand == Strand::fwd) {
    pat_part = pattern.substr(h.pattern_start, h.pattern_end - h.pattern_start);
    text_part = text.substr(h.start, h.end - h.start);
  } else {
    pat_part = complement(opt.alphabet, pattern.substr(h.pattern_start, h.pattern_end - h.pattern_start));
    std::string_view sl = text.substr(h.start, h.end - h.start);
    text_part.assign(sl.rbegin(), sl.rend());
  }
  const int edits = rescore_cigar(pat_part, text_part, h.cigar, opt.alphabet);
  if (edits < 0) return "CIGAR does not fit the pattern range and text slice";
  // Overhang on the text's left/right: for '+' the pattern's left sticks out left of the
  // text; for '-' (pattern direction) it is the same in pattern terms.
  const std::int32_t total = edits + (left ? hang_cost(opt, left) : 0) +
                             (right ? hang_cost(opt, right) : 0);
  if (total != h.cost)
    return "re-scored cost " + std::to_string(total) + " (edits " + std::to_string(edits) +
           ") != reported cost " + std::to_string(h.cost);
  if (h.cost > opt.k) return "cost above k";
  // A left overhang needs the alignment to touch the strand's text start; a right one its end.
  if (h.strand == Strand::fwd) {
    if (left && h.start != 0) return "left overhang but start != 0";
    if (right && h.end != n) return "right overhang but end != n";
  } else {
    if (left && h.end != n) return "rc: pattern_start > 0 but end != n";
    if (right && h.start != 0) return "rc: pattern_end < m but start != 0";
  }
  return "";
}

std::string format_hit(const OracleHit& h) {
  return std::string(1, strand_char(h.strand)) + " [" + std::to_string(h.start) + "," +
         std::to_string(h.end) + ") [" + std::to_string(h.pattern_start) + "," +
         std::to_string(h.pattern_end) + ") c" + std::to_string(h.cost) + " " +
         (h.cigar.empty() ? std::string("*") : h.cigar);
}

std::string escape(std::string_view s) {
  std::string out;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    }
  }
  return out;
}

std::string describe(const SearchOptions& opt) {
  std::string s = "alphabet=";
  s += opt.alphabet.alphabet == Alphabet::iupac ? "iupac"
       : opt.alphabet.alphabet == Alphabet::dna ? "dna"
                                                 : "ascii";
  if (opt.alphabet.ignore_case) s += " ignore_case";
  s += " k=" + std::to_string(opt.k);
  s += opt.both_strands ? " both_strands" : " fwd_only";
  if (opt.overhang) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " overhang=%.9g", static_cast<double>(*opt.overhang));
    s += buf;
  }
  if (opt.max_n_frac != 1.0f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " max_n_frac=%.9g", static_cast<double>(opt.max_n_frac));
    s += buf;
  }
  s += opt.selection == Selection::local_minima ? " local_minima"
       : opt.selection == Selection::all_ends   ? " all_ends"
                                                : " best";
  return s;
}

OracleHit from_library(const HitList& list, const Hit& h) {
  OracleHit o{h.strand, h.cost, h.start, h.end, h.pattern_start, h.pattern_end, {}};
  append_cigar(o.cigar, list.cigar(h));
  return o;
}

}  // namespace trawl::oracle
