// The scalar reference kernel: Myers' bit-vector algorithm with Hyyrö's block carries
// (as in edlib), one 64-bit word per 64 pattern rows. The top row is free (D(0,i) = 0), so
// the horizontal delta entering the first word is always 0.
#include "trawl/kernel/kernel.h"

#include <algorithm>
#include <cstddef>

namespace trawl {
namespace {

// One 64-row block: updates (pv, mv) for one text column and returns the horizontal delta
// leaving row `out_bit`. `hin` is the delta entering from the block above (-1, 0 or +1).
inline int advance_block(std::uint64_t& pv, std::uint64_t& mv, std::uint64_t eq, int hin,
                         unsigned out_bit) {
  const std::uint64_t hin_neg = hin < 0 ? 1 : 0;
  const std::uint64_t hin_pos = hin > 0 ? 1 : 0;
  const std::uint64_t xv = eq | mv;
  eq |= hin_neg;  // a -1 entering from above acts like a match on the first row
  const std::uint64_t xh = (((eq & pv) + pv) ^ pv) | eq;
  std::uint64_t ph = mv | ~(xh | pv);
  std::uint64_t mh = pv & xh;
  const int hout = static_cast<int>((ph >> out_bit) & 1u) - static_cast<int>((mh >> out_bit) & 1u);
  ph = (ph << 1) | hin_pos;
  mh = (mh << 1) | hin_neg;
  pv = mh | ~(xv | ph);
  mv = ph & xv;
  return hout;
}

template <bool kStopAtFirst>
std::size_t scan_one_word(const StrandProfile& prof, ColumnState& st, const std::uint8_t* text,
                          std::size_t len, std::uint64_t p0, std::int32_t k, EndCost* out) {
  std::uint64_t pv = st.vp[0], mv = st.vn[0];
  std::int64_t score = st.score;
  const unsigned out_bit = prof.m - 1;
  const std::uint64_t* peq = prof.peq;
  std::size_t count = 0;
  for (std::size_t i = 0; i < len; ++i) {
    const std::uint64_t eq = peq[text[i]];
    const std::uint64_t xv = eq | mv;
    const std::uint64_t xh = (((eq & pv) + pv) ^ pv) | eq;
    std::uint64_t ph = mv | ~(xh | pv);
    std::uint64_t mh = pv & xh;
    score += static_cast<std::int64_t>((ph >> out_bit) & 1u) -
             static_cast<std::int64_t>((mh >> out_bit) & 1u);
    ph <<= 1;
    mh <<= 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
    // Branch-free append: hits are rare, so a data-dependent branch would mispredict.
    out[count] = {p0 + i + 1, static_cast<std::int32_t>(score)};
    count += score <= k;
    if (kStopAtFirst && count) break;
  }
  st.vp[0] = pv;
  st.vn[0] = mv;
  st.score = score;
  return count;
}

template <bool kStopAtFirst>
std::size_t scan_multi_word(const StrandProfile& prof, ColumnState& st, const std::uint8_t* text,
                            std::size_t len, std::uint64_t p0, std::int32_t k, EndCost* out) {
  const std::uint32_t words = prof.words;
  const unsigned last_bit = (prof.m - 1) & 63;
  std::int64_t score = st.score;
  std::size_t count = 0;
  for (std::size_t i = 0; i < len; ++i) {
    const std::uint64_t* eq = prof.peq_of(text[i]);
    int h = 0;
    for (std::uint32_t w = 0; w + 1 < words; ++w) h = advance_block(st.vp[w], st.vn[w], eq[w], h, 63);
    h = advance_block(st.vp[words - 1], st.vn[words - 1], eq[words - 1], h, last_bit);
    score += h;
    out[count] = {p0 + i + 1, static_cast<std::int32_t>(score)};
    count += score <= k;
    if (kStopAtFirst && count) break;
  }
  st.score = score;
  return count;
}

template <bool kStopAtFirst>
std::size_t scan_scalar(const StrandProfile& prof, ColumnState& st, const std::uint8_t* text,
                        std::size_t len, std::uint64_t p0, std::int32_t k, EndCost* out) {
  return prof.words == 1 ? scan_one_word<kStopAtFirst>(prof, st, text, len, p0, k, out)
                         : scan_multi_word<kStopAtFirst>(prof, st, text, len, p0, k, out);
}

// The reference for the SIMD job kernels: one job after another.
std::size_t scan_jobs_scalar(const ScanJob* jobs, std::size_t n, std::int32_t k, JobEnd* out,
                             JobState* final_states, bool first_only) {
  std::size_t found = 0;
  StrandProfile prof;
  prof.words = 1;
  for (std::size_t j = 0; j < n; ++j) {
    prof.m = jobs[j].m;
    prof.peq = jobs[j].peq;
    std::uint64_t vp = jobs[j].vp, vn = jobs[j].vn;
    ColumnState st{&vp, &vn, jobs[j].score};
    // scan_one_word writes EndCost entries: scan in pieces through a small buffer.
    EndCost buf[256];
    for (std::uint32_t pos = 0; pos < jobs[j].len; pos += 256) {
      const std::size_t len = std::min<std::size_t>(256, jobs[j].len - pos);
      const std::size_t got = first_only
                                  ? scan_one_word<true>(prof, st, jobs[j].text + pos, len, pos, k, buf)
                                  : scan_one_word<false>(prof, st, jobs[j].text + pos, len, pos, k, buf);
      for (std::size_t e = 0; e < got; ++e)
        out[found++] = {static_cast<std::uint32_t>(j), static_cast<std::uint32_t>(buf[e].pos), buf[e].cost};
      if (first_only && got) break;
    }
    final_states[j] = {vp, vn, st.score};
  }
  return found;
}

void encode_scalar(const std::uint8_t* table, const std::uint8_t* src, std::size_t n,
                   std::uint8_t* fwd, std::uint8_t* rev_end) {
  if (rev_end == nullptr) {
    for (std::size_t i = 0; i < n; ++i) fwd[i] = table[src[i]];
    return;
  }
  if (fwd == nullptr) {
    for (std::size_t i = 0; i < n; ++i) rev_end[-1 - static_cast<std::ptrdiff_t>(i)] = table[src[i]];
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t c = table[src[i]];
    fwd[i] = c;
    rev_end[-1 - static_cast<std::ptrdiff_t>(i)] = c;
  }
}

// Branch free: one table load a text character. An ambiguous base spoils the 6-mers
// after it, but the answer is then all ones anyway.
std::uint64_t seed_lookup_scalar(const SeedTable& table, const std::uint8_t* codes, std::size_t n) {
  std::uint32_t code = 0;
  std::uint8_t seen = 0;
  for (std::size_t i = 0; i < std::min<std::size_t>(n, 5); ++i) {
    const std::uint8_t b = table.base_of_class[codes[i]];
    seen |= b;
    code = code << 2 | b;
  }
  std::uint64_t found = 0;
  for (std::size_t i = 5; i < n; ++i) {
    const std::uint8_t b = table.base_of_class[codes[i]];
    seen |= b;
    code = code << 2 | b;
    found |= table.seeds[code & 0xFFF];
  }
  return seen & kAmbiguousBase ? ~std::uint64_t{0} : found;
}

// The reference: every position's value built afresh and compared with every seed.
bool seed_spans_scalar(const SeedSpanQuery& query, const std::uint8_t* codes, std::size_t n,
                       std::uint32_t* first, std::uint32_t* last) {
  for (std::uint32_t s = 0; s < query.count; ++s) {
    first[s] = UINT32_MAX;
    last[s] = 0;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (query.base_of_class[codes[i]] == kAmbiguousBase) return false;
  for (std::size_t p = 0; p + query.length <= n; ++p) {
    std::uint32_t value = 0;
    for (unsigned j = 0; j < query.length; ++j)
      value |= std::uint32_t{query.base_of_class[codes[p + j]]} << seed_base_shift(j);
    for (std::uint32_t s = 0; s < query.count; ++s) {
      if (value != query.seeds[s]) continue;
      if (first[s] == UINT32_MAX) first[s] = static_cast<std::uint32_t>(p);
      last[s] = static_cast<std::uint32_t>(p);
    }
  }
  return true;
}

// One rolling key a position, kept without a branch: present keys come at a rate a branch
// would mispredict.
std::size_t seed_keys_scalar(const SeedKeyQuery& query, const std::uint8_t* codes, std::size_t n,
                             std::uint32_t* keys, std::uint32_t* at) {
  const unsigned q = query.q;
  const std::uint32_t mask = (std::uint32_t{1} << (2 * q)) - 1;
  std::uint32_t key = 0;
  std::uint8_t seen = 0;
  std::size_t found = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t b = query.base_of_class[codes[i]];
    seen |= b;
    key = (key << 2 | (b & 3u)) & mask;
    keys[found] = key;
    at[found] = static_cast<std::uint32_t>(i + 1 - q);
    found += i + 1 >= q && (query.present[key >> 6] >> (key & 63) & 1) != 0;
  }
  return (seen & kAmbiguousBase) != 0 ? kSeedKeysAmbiguous : found;
}

}  // namespace

const KernelFns& scalar_kernel() {
  static const KernelFns fns{"scalar", &scan_scalar<false>, &scan_scalar<true>, &scan_jobs_scalar,
                             &encode_scalar, &build_peq_from_planes, &seed_lookup_scalar,
                             &seed_spans_scalar, &seed_keys_scalar, nullptr};
  return fns;
}

}  // namespace trawl
