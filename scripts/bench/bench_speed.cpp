// bench_speed: trawl's search against edlib and against trawl's own scalar kernel, side by
// side in one run, on seeded workloads built in memory (issue "Speed", W1–W5; the same
// bytes `make_workload` writes, see workloads.h). One thread, library level, search only:
// data generation and PatternSet construction are excluded from the times.
//
//   W1       4 random records totalling 100 Mbp, one 23 bp pattern, k=3, iupac, both strands
//   W2       1,000,000 x 150 bp random reads (the pattern planted in 1 of 10), as W1
//   W3-32    100,000 x 150 bp random reads, 32 random 23 bp patterns, k=3, iupac, both strands
//   W3-1000  the same reads, 1,000 random 23 bp patterns
//   W4       the "large" windows table (2,097,152 x 256 bp), --paired, k=2, dna, both strands
//   W5       65,536 x "ab" x 128, pattern "ab", k=0, ascii (8,388,608 hits)
//
// Engines:
//   trawl-auto(NAME)  find_kernel("auto") (NAME = the kernel it picked), full `hits` work:
//                     records searched as lib/src/run/pipeline.cpp does for
//                     Command::hits (batches of --batch-bases residues through
//                     Searcher::search, results cleared per batch); records longer than a
//                     batch (W1) in windows of a batch, as the pipeline's window tasks
//   trawl-scalar      the same with scalar_kernel(); its hit count must equal trawl-auto's
//                     (else the exit status is 1)
//   edlib             per record, edlibAlign(pattern, text, HW mode, TASK_LOC, max distance
//                     k) for the pattern and (dna, iupac) its reverse complement; hits = the
//                     reported end locations when a distance <= k exists. On W3 only a
//                     prefix of the records (--edlib-pairs (record, pattern) pairs) is run and
//                     the time scaled up linearly to all records (said in the output).
// Seconds are the median of --reps runs (engines interleaved within each run). Besides the
// hits, each engine counts the records in which it found something: both answer "is there
// an alignment with <= k edits", so trawl and edlib should agree (a mismatch is flagged,
// not fatal; on W3 they are compared on edlib's prefix).
//
// Usage: bench_speed [--workloads "W1 W2 W3 W4 W5"] [--scale F] [--reps N] [--seed S]
//                    [--edlib-pairs N] [--tsv FILE]
//   --workloads    any of W1 W2 W3 (= W3-32 and W3-1000) W3-32 W3-1000 W4 W5 (default all)
//   --scale F      record counts (W1: total length) times F, e.g. 0.1 for a quick run
//   --reps N       timed runs per engine, median reported (default 3)
//   --seed S       W1 genome and W2 reads seed (default 42, as scripts/bench_*.sh);
//                  W3 reads use S+1 and its patterns S+2
//   --edlib-pairs  W3: edlib runs on the first ceil(N / patterns) records (default 320,000)
//   --tsv FILE     also write one row per (workload, engine) to FILE (scripts/bench_speed.sh)
//   --only-auto    run trawl-auto alone (no guard, no ratios): for `perf record` profiles of
//                  trawl's own work
#include <edlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "trawl/core/hit.h"
#include "trawl/kernel/kernel.h"
#include "trawl/core/pattern_set.h"
#include "trawl/core/search_options.h"
#include "trawl/search/searcher.h"
#include "workloads.h"

namespace {

using trawl::Alphabet;
using trawl::SearchOptions;

constexpr std::string_view kPattern = "TATCTATCTGGCATTCAACCAGG";  // W1, W2
constexpr std::uint64_t kBatchBases = std::uint64_t{1} << 20;    // the CLI's --batch-bases

// Sequences back to back with their offsets, as a RecordBatch holds them.
class Seqs {
 public:
  void add(std::string_view s) {
    bytes_.append(s);
    offsets_.push_back(bytes_.size());
  }
  void reserve(std::uint64_t count, std::uint64_t bytes) {
    offsets_.reserve(count + 1);
    bytes_.reserve(bytes);
  }
  std::size_t size() const { return offsets_.size() - 1; }
  std::uint64_t bases() const { return bytes_.size(); }
  std::string_view operator[](std::size_t i) const {
    return std::string_view(bytes_).substr(offsets_[i], offsets_[i + 1] - offsets_[i]);
  }

 private:
  std::string bytes_;
  std::vector<std::uint64_t> offsets_{0};
};

struct Workload {
  std::string id;           // "W1", "W3-32", ...
  std::string description;  // one line for the output
  Seqs records;
  Seqs patterns;
  Seqs rc_patterns;         // reverse complements for edlib (dna, iupac)
  SearchOptions options;    // as the CLI sets them
  bool paired = false;      // pattern i only in record i (--paired)
  std::size_t edlib_records = 0;  // edlib runs on records [0, edlib_records)
};

// What one engine found in one run.
struct Found {
  std::uint64_t hits = 0;
  std::uint64_t records_with_hits = 0;
  std::uint64_t prefix_records_with_hits = 0;  // of records [0, edlib_records)
  bool operator==(const Found&) const = default;
};

struct Engine {
  std::string name;
  const trawl::KernelFns* kernel = nullptr;  // null: edlib
  std::vector<double> seconds;
  Found found;
};

// ---------------------------------------------------------------- workloads

std::uint64_t scaled(std::uint64_t full, double scale, std::uint64_t at_least = 1) {
  return std::max<std::uint64_t>(at_least, static_cast<std::uint64_t>(std::llround(
                                               static_cast<double>(full) * scale)));
}

// The CLI's defaults for an alphabet (app/main.cpp): both strands, N filter 0.2 for iupac
// and off for dna and ascii.
SearchOptions cli_options(Alphabet alphabet, int k) {
  SearchOptions o;
  o.alphabet.alphabet = alphabet;
  o.k = k;
  o.both_strands = true;
  o.max_n_frac = alphabet == Alphabet::iupac ? 0.2f : 1.0f;
  return o;
}

void add_pattern(Workload& w, std::string_view p) {
  w.patterns.add(p);
  if (!w.options.searches_rc()) return;
  std::string rc(p.rbegin(), p.rend());
  for (char& c : rc) c = static_cast<char>(w.options.alphabet.complement(static_cast<std::uint8_t>(c)));
  w.rc_patterns.add(rc);
}

Workload make_workload(const std::string& id, double scale, std::uint64_t seed) {
  Workload w;
  w.id = id;
  char line[256];
  if (id == "W1") {
    const std::uint64_t total = scaled(100000000, scale, 4);
    w.options = cli_options(Alphabet::iupac, 3);
    w.records.reserve(4, total);
    trawl_bench::genome_records(total, 4, seed, [&](std::uint64_t, std::string_view s) { w.records.add(s); });
    add_pattern(w, kPattern);
    std::snprintf(line, sizeof line, "genome, 4 random records, 1 pattern (%zu bp), k=3, iupac, both strands",
                  kPattern.size());
  } else if (id == "W2") {
    const std::uint64_t count = scaled(1000000, scale);
    w.options = cli_options(Alphabet::iupac, 3);
    w.records.reserve(count, count * 150);
    trawl_bench::read_records(count, 150, seed, kPattern,
                              [&](std::uint64_t, std::string_view s) { w.records.add(s); });
    add_pattern(w, kPattern);
    std::snprintf(line, sizeof line,
                  "reads, 150 bp, pattern planted in 1 of 10, 1 pattern (%zu bp), k=3, iupac, both strands",
                  kPattern.size());
  } else if (id == "W3-32" || id == "W3-1000") {
    const std::uint64_t count = scaled(100000, scale);
    const std::uint64_t npat = id == "W3-32" ? 32 : 1000;
    w.options = cli_options(Alphabet::iupac, 3);
    w.records.reserve(count, count * 150);
    trawl_bench::read_records(count, 150, seed + 1, "",
                              [&](std::uint64_t, std::string_view s) { w.records.add(s); });
    trawl_bench::random_patterns(npat, 23, seed + 2,
                                 [&](std::uint64_t, std::string_view p) { add_pattern(w, p); });
    std::snprintf(line, sizeof line, "panel, 150 bp random reads, %llu random 23 bp patterns, k=3, iupac, both strands",
                  static_cast<unsigned long long>(npat));
  } else if (id == "W4") {
    const trawl_bench::WindowsTable table("large");
    const std::uint64_t rows = scaled(table.size(), scale);
    w.options = cli_options(Alphabet::dna, 2);
    w.paired = true;
    w.records.reserve(rows, rows * trawl_bench::WindowsTable::kWindow);
    for (std::uint64_t i = 0; i < rows; ++i) {
      w.records.add(table.seq(i));
      add_pattern(w, table.pattern(i));
    }
    std::snprintf(line, sizeof line, "windows table \"large\", 256 bp, paired 23-mer per record, k=2, dna, both strands");
  } else if (id == "W5") {
    const std::uint64_t count = scaled(65536, scale);
    const std::string ab = trawl_bench::ascii_record();
    w.options = cli_options(Alphabet::ascii, 0);
    w.records.reserve(count, count * ab.size());
    for (std::uint64_t r = 0; r < count; ++r) w.records.add(ab);
    add_pattern(w, "ab");
    std::snprintf(line, sizeof line, "dense ASCII, \"ab\" x 128, pattern \"ab\", k=0, ascii (forward strand only)");
  }
  w.description = line;
  w.edlib_records = w.records.size();
  for (std::size_t r = 0; r < w.records.size(); ++r)  // edlib takes int lengths
    if (w.records[r].size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw std::runtime_error(id + ": a record is too long for edlib; use a smaller --scale");
  return w;
}

// The PatternSet the CLI would build: ids are line numbers as for -l; --paired builds each
// profile when it is needed (app/main.cpp).
trawl::PatternSet make_pattern_set(const Workload& w) {
  trawl::PatternSet set(w.options, w.paired ? 0 : trawl::PatternSet::kPrecomputeLimit);
  for (std::size_t i = 0; i < w.patterns.size(); ++i) set.add(std::to_string(i + 1), w.patterns[i]);
  set.finish();
  return set;
}

// ---------------------------------------------------------------- engines

// trawl's `hits` work on every record, the way the pipeline does it on one thread.
Found run_trawl(const Workload& w, const trawl::PatternSet& set, const trawl::KernelFns& kernel) {
  trawl::SearchMode mode;
  mode.shape.command = trawl::Command::hits;
  mode.paired = w.paired;
  trawl::Searcher searcher(set, w.options, kernel, mode);
  trawl::BatchResults results;
  std::vector<std::string_view> views;
  Found f;
  const auto npat = static_cast<std::uint32_t>(set.size());
  const std::size_t n = w.records.size();
  // Counts the hits and the records with hits, then forgets them (as the sink would).
  const auto take = [&] {
    const auto& hits = results.hits.hits;
    f.hits += hits.size();
    for (std::size_t i = 0; i < hits.size(); ++i) {
      if (i > 0 && hits[i].text_idx == hits[i - 1].text_idx) continue;
      ++f.records_with_hits;
      if (hits[i].text_idx < w.edlib_records) ++f.prefix_records_with_hits;
    }
    results.clear();
  };
  std::size_t r = 0;
  while (r < n) {
    // A record longer than a batch is cut into windows of a batch each, per pattern, as the
    // pipeline's partition does (the windows' hits are the whole record's); searching it
    // whole would hold its codes, two buffers of its length, for nothing.
    if (w.records[r].size() > kBatchBases) {
      const std::uint64_t len = w.records[r].size();
      const auto search_windows = [&](std::uint32_t pi) {
        for (std::uint64_t begin = 0; begin < len; begin += kBatchBases) {
          const trawl::Window window{begin, begin + kBatchBases < len ? begin + kBatchBases : trawl::Window::kOpen};
          searcher.search(trawl::WindowQuery{w.records[r], window, false, pi, r}, results);
        }
      };
      if (w.paired) {
        if (r < npat) search_windows(static_cast<std::uint32_t>(r));
      } else {
        for (std::uint32_t pi = 0; pi < npat; ++pi) search_windows(pi);
      }
      // (A record's hits come pattern by pattern: counted as one record with hits.)
      const std::size_t had = results.hits.hits.size();
      f.hits += had;
      if (had > 0) {
        ++f.records_with_hits;
        if (r < w.edlib_records) ++f.prefix_records_with_hits;
      }
      results.clear();
      ++r;
      continue;
    }
    // A batch: whole short records until it holds at least kBatchBases residues (or the
    // next record is long), as the pipeline's partition cuts them.
    const std::size_t first = r;
    std::uint64_t bases = 0;
    views.clear();
    while (r < n && bases < kBatchBases && w.records[r].size() <= kBatchBases) {
      views.push_back(w.records[r]);
      bases += w.records[r].size();
      ++r;
    }
    searcher.search(views, first, results);
    take();
  }
  return f;
}

// edlib on records [0, edlib_records): every (record, pattern, orientation) aligned alone.
Found run_edlib(const Workload& w) {
  const EdlibAlignConfig config =
      edlibNewAlignConfig(w.options.k, EDLIB_MODE_HW, EDLIB_TASK_LOC, nullptr, 0);
  Found f;
  const bool rc = w.options.searches_rc();
  const auto align = [&](std::string_view p, std::string_view t) {
    EdlibAlignResult res = edlibAlign(p.data(), static_cast<int>(p.size()), t.data(),
                                      static_cast<int>(t.size()), config);
    const bool hit = res.status == EDLIB_STATUS_OK && res.editDistance >= 0;
    if (hit) f.hits += static_cast<std::uint64_t>(res.numLocations);
    edlibFreeAlignResult(res);
    return hit;
  };
  for (std::size_t r = 0; r < w.edlib_records; ++r) {
    const std::string_view text = w.records[r];
    std::size_t p_first = 0, p_last = w.patterns.size();
    if (w.paired) {
      p_first = std::min(r, p_last);
      p_last = std::min(r + 1, p_last);
    }
    bool any = false;
    for (std::size_t pi = p_first; pi < p_last; ++pi) {
      any = align(w.patterns[pi], text) || any;
      if (rc) any = align(w.rc_patterns[pi], text) || any;
    }
    if (any) {
      ++f.records_with_hits;
      ++f.prefix_records_with_hits;
    }
  }
  return f;
}

// ---------------------------------------------------------------- output

std::string grouped(std::uint64_t v) {
  std::string s = std::to_string(v);
  for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(s.size()) - 3; i > 0; i -= 3)
    s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[(v.size() - 1) / 2];  // the lower middle for an even count, as bench/common.sh
}

int usage(int status) {
  std::FILE* f = status == 0 ? stdout : stderr;
  std::fprintf(f,
               "usage: bench_speed [--workloads \"W1 W2 W3 W4 W5\"] [--scale F] [--reps N] [--seed S]\n"
               "                   [--edlib-pairs N] [--tsv FILE] [--only-auto]\n"
               "(see the comment at the top of scripts/bench/bench_speed.cpp)\n");
  return status;
}

struct Args {
  std::vector<std::string> workloads;
  double scale = 1.0;
  int reps = 3;
  std::uint64_t seed = 42;
  std::uint64_t edlib_pairs = 320000;
  std::string tsv;
  bool only_auto = false;
};

// Returns -1 when the arguments are fine, else the exit status.
int parse_args(int argc, char** argv, Args& a) {
  std::string workloads = "W1 W2 W3 W4 W5";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") return usage(0);
    if (arg == "--only-auto") {
      a.only_auto = true;
      continue;
    }
    if (i + 1 >= argc) return usage(2);
    const char* v = argv[++i];
    char* end = nullptr;
    if (arg == "--workloads") {
      workloads = v;
    } else if (arg == "--scale") {
      a.scale = std::strtod(v, &end);
      if (*end || !(a.scale > 0)) return usage(2);
    } else if (arg == "--reps") {
      a.reps = static_cast<int>(std::strtol(v, &end, 10));
      if (*end || a.reps < 1) return usage(2);
    } else if (arg == "--seed") {
      a.seed = std::strtoull(v, &end, 10);
      if (*end) return usage(2);
    } else if (arg == "--edlib-pairs") {
      a.edlib_pairs = std::strtoull(v, &end, 10);
      if (*end || a.edlib_pairs == 0) return usage(2);
    } else if (arg == "--tsv") {
      a.tsv = v;
    } else {
      return usage(2);
    }
  }
  std::string word;
  for (std::size_t i = 0; i <= workloads.size(); ++i) {
    const char c = i < workloads.size() ? workloads[i] : ' ';
    if (c != ' ' && c != ',') {
      word += c;
      continue;
    }
    if (word.empty()) continue;
    if (word == "W3") {
      a.workloads.push_back("W3-32");
      a.workloads.push_back("W3-1000");
    } else if (word == "W1" || word == "W2" || word == "W3-32" || word == "W3-1000" ||
               word == "W4" || word == "W5") {
      a.workloads.push_back(word);
    } else {
      std::fprintf(stderr, "bench_speed: unknown workload '%s'\n", word.c_str());
      return 2;
    }
    word.clear();
  }
  return a.workloads.empty() ? usage(2) : -1;
}

}  // namespace

int main(int argc, char** argv) try {
  Args args;
  if (const int status = parse_args(argc, argv, args); status >= 0) return status;
  const trawl::KernelFns& auto_kernel = *trawl::find_kernel("auto");
  std::FILE* tsv = nullptr;
  if (!args.tsv.empty()) {
    tsv = std::fopen(args.tsv.c_str(), "w");
    if (!tsv) {
      std::perror(args.tsv.c_str());
      return 1;
    }
    std::fprintf(tsv, "workload\tengine\tkernel\trecords\ttext_bp\tpatterns\tseconds\tmbp_per_s\t"
                      "us_per_record\thits\trecords_with_hits\tratio_to_auto\tedlib_records\n");
  }
  std::printf("bench_speed: trawl vs edlib vs trawl's scalar kernel; library level, 1 thread\n");
  std::printf("  kernel auto = %s; scale %g; seconds = median of %d run(s), search only "
              "(data generation excluded)\n", auto_kernel.name, args.scale, args.reps);
  std::printf("  hits: trawl = the rows `trawl hits` prints (rightmost local minima, both strands "
              "for dna/iupac); edlib = end\n  locations of the best distance <= k per (record, "
              "pattern, orientation), EDLIB_MODE_HW + EDLIB_TASK_LOC\n");
  std::printf("  records = records with at least one hit\n");
  std::printf("  vs_auto = seconds / trawl-auto seconds\n");
  bool guard_failed = false;
  for (const std::string& id : args.workloads) {
    Workload w = make_workload(id, args.scale, args.seed);
    if (id.rfind("W3", 0) == 0) {
      const std::uint64_t want = (args.edlib_pairs + w.patterns.size() - 1) / w.patterns.size();
      w.edlib_records = static_cast<std::size_t>(std::min<std::uint64_t>(w.records.size(), want));
    }
    const trawl::PatternSet set = make_pattern_set(w);
    std::vector<Engine> engines;
    engines.push_back({std::string("trawl-auto(") + auto_kernel.name + ")", &auto_kernel, {}, {}});
    if (args.only_auto) {
      for (int rep = 0; rep < args.reps; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        const Found f = run_trawl(w, set, auto_kernel);
        const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
        std::printf("%s trawl-auto %.3f s, %s hits\n", w.id.c_str(), dt.count(), grouped(f.hits).c_str());
      }
      continue;
    }
    engines.push_back({"trawl-scalar", &trawl::scalar_kernel(), {}, {}});
    engines.push_back({"edlib", nullptr, {}, {}});
    bool consistent = true;  // every run of an engine found the same
    for (int rep = 0; rep < args.reps; ++rep) {
      for (Engine& e : engines) {
        const auto t0 = std::chrono::steady_clock::now();
        const Found f = e.kernel ? run_trawl(w, set, *e.kernel) : run_edlib(w);
        const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
        e.seconds.push_back(dt.count());
        if (rep > 0 && !(f == e.found)) consistent = false;
        e.found = f;
      }
    }
    const std::size_t n = w.records.size();
    const double bp = static_cast<double>(w.records.bases());
    // edlib ran on a prefix: its time scaled up linearly to all records.
    const double edlib_scale = static_cast<double>(n) / static_cast<double>(w.edlib_records);

    std::printf("\n%s: %s\n  %s records, %s bp, %s pattern(s)\n", w.id.c_str(), w.description.c_str(),
                grouped(n).c_str(), grouped(w.records.bases()).c_str(), grouped(w.patterns.size()).c_str());
    if (w.edlib_records < n)
      std::printf("  edlib: run on the first %s of %s records only, its time scaled up linearly "
                  "(x%.2f); its hits and records are those of the %s\n",
                  grouped(w.edlib_records).c_str(), grouped(n).c_str(), edlib_scale,
                  grouped(w.edlib_records).c_str());
    std::printf("  %-20s %9s %9s %11s %12s %9s %8s\n", "engine", "seconds", "Mbp/s", "us/record",
                "hits", "records", "vs_auto");
    const double t_auto = median(engines[0].seconds);
    for (const Engine& e : engines) {
      const double sec = median(e.seconds) * (e.kernel ? 1.0 : edlib_scale);
      const double mbps = bp / 1e6 / sec;
      const double us = sec * 1e6 / static_cast<double>(n);
      const double ratio = sec / t_auto;
      const std::uint64_t records = e.kernel ? e.found.records_with_hits : e.found.prefix_records_with_hits;
      std::printf("  %-20s %9.3f %9.1f %11.*f %12s %9s %8.2f\n", e.name.c_str(), sec, mbps,
                  us >= 1000 ? 0 : 3, us, grouped(e.found.hits).c_str(), grouped(records).c_str(), ratio);
      if (tsv)
        std::fprintf(tsv, "%s\t%s\t%s\t%zu\t%llu\t%zu\t%.6f\t%.3f\t%.6f\t%llu\t%llu\t%.4f\t%zu\n",
                     w.id.c_str(), e.kernel ? (&e == &engines[0] ? "trawl-auto" : "trawl-scalar") : "edlib",
                     e.kernel ? e.kernel->name : "-", n,
                     static_cast<unsigned long long>(w.records.bases()), w.patterns.size(), sec, mbps, us,
                     static_cast<unsigned long long>(e.found.hits),
                     static_cast<unsigned long long>(records), ratio,
                     e.kernel ? n : w.edlib_records);
    }
    // The guard: both trawl kernels must report exactly the same.
    const Found& fa = engines[0].found;
    const Found& fs = engines[1].found;
    const bool same = fa == fs;
    std::printf("  guard: trawl-auto hits %s = trawl-scalar hits %s: %s\n", grouped(fa.hits).c_str(),
                grouped(fs.hits).c_str(), same ? "ok" : "FAILED");
    if (!consistent) std::printf("  guard: an engine found different results in different runs: FAILED\n");
    guard_failed = guard_failed || !same || !consistent;
    // Both answer "is there an alignment with <= k edits" per record: flag, never fail.
    const Found& fe = engines[2].found;
    const std::string which = w.edlib_records < n ? " (first " + grouped(w.edlib_records) + ")" : "";
    std::printf("  records with hits%s: trawl %s, edlib %s: %s\n", which.c_str(),
                grouped(fa.prefix_records_with_hits).c_str(), grouped(fe.prefix_records_with_hits).c_str(),
                fa.prefix_records_with_hits == fe.prefix_records_with_hits ? "agree" : "MISMATCH");
    std::fflush(stdout);
  }
  if (tsv && std::fclose(tsv) != 0) {
    std::perror(args.tsv.c_str());
    return 1;
  }
  if (guard_failed) {
    std::fprintf(stderr, "bench_speed: GUARD FAILED (see above)\n");
    return 1;
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_speed: %s\n", e.what());
  return 1;
}
