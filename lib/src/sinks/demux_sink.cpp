#include "trawl/sinks/demux_sink.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <unordered_set>

#include "trawl/core/errors.h"
#include "trawl/io/bgzf.h"
#include "put_bytes.h"
#include "trawl/sinks/parquet_writer.h"
#include "trawl/sinks/record_sink.h"

namespace trawl {
namespace {

// Parquet strings must be UTF-8; a record name need not be: its other bytes become '?'.
std::string_view utf8(std::string_view s, std::string& scratch) {
  if (parquet::detail::is_valid_utf8(s)) return s;
  scratch.assign(s);
  for (char& c : scratch)
    if (static_cast<unsigned char>(c) >= 0x80) c = '?';
  return scratch;
}

const char* kind_name(Assignment::Kind kind) {
  return kind == Assignment::Kind::ambiguous ? "ambiguous" : "unassigned";
}

// Whether (cost, rank) of `a` comes before that of `b`: the order that picks best and runner-up.
bool before(const DemuxCandidate& a, const DemuxCandidate& b, std::span<const std::uint32_t> rank) {
  if (a.hit.cost != b.hit.cost) return a.hit.cost < b.hit.cost;
  return rank[a.hit.pattern_idx] < rank[b.hit.pattern_idx];
}

std::vector<parquet::Column> assignment_schema(bool paired) {
  using parquet::Type;
  std::vector<parquet::Column> s = {{"text_id", Type::utf8}, {"assignment", Type::utf8}, {"best_id", Type::utf8},
                                    {"cost", Type::int32},   {"strand", Type::utf8},     {"start", Type::int64},
                                    {"end", Type::int64}};
  if (paired) s.push_back({"mate", Type::int32});
  s.push_back({"second_id", Type::utf8});
  s.push_back({"second_cost", Type::int32});
  return s;
}

}  // namespace

Assignment assign(std::span<DemuxCandidate> c, std::span<const std::uint32_t> rank, int min_margin) {
  Assignment a;
  // Each pattern's own best hit first: lowest cost, then mate 1, then output order.
  std::sort(c.begin(), c.end(), [](const DemuxCandidate& x, const DemuxCandidate& y) {
    if (x.hit.pattern_idx != y.hit.pattern_idx) return x.hit.pattern_idx < y.hit.pattern_idx;
    if (x.hit.cost != y.hit.cost) return x.hit.cost < y.hit.cost;
    if (x.mate != y.mate) return x.mate < y.mate;
    return output_order(x.hit, y.hit);
  });
  const DemuxCandidate* first = nullptr;
  const DemuxCandidate* second = nullptr;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (i > 0 && c[i].hit.pattern_idx == c[i - 1].hit.pattern_idx) continue;
    const DemuxCandidate* x = &c[i];
    if (!first || before(*x, *first, rank)) {
      second = first;
      first = x;
    } else if (!second || before(*x, *second, rank)) {
      second = x;
    }
  }
  if (!first) return a;
  a.best = first->hit.pattern_idx;
  a.cost = first->hit.cost;
  a.hit = *first;
  if (second) {
    a.second = second->hit.pattern_idx;
    a.second_cost = second->hit.cost;
  }
  const bool close = second && second->hit.cost - first->hit.cost < std::max(1, min_margin);
  a.kind = close ? Assignment::Kind::ambiguous : Assignment::Kind::barcode;
  return a;
}

std::vector<std::uint32_t> id_ranks(const PatternSet& patterns) {
  std::vector<std::uint32_t> order(patterns.size());
  std::iota(order.begin(), order.end(), 0u);
  PatternSet::IdRoom ra, rb;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return patterns.id(a, ra) < patterns.id(b, rb);
  });
  std::vector<std::uint32_t> rank(patterns.size());
  for (std::size_t i = 0; i < order.size(); ++i) rank[order[i]] = static_cast<std::uint32_t>(i);
  return rank;
}

void check_demux_ids(const PatternSet& patterns) {
  std::unordered_set<std::string_view> seen;
  PatternSet::IdRoom room;
  std::vector<std::string> spelled;  // list ids are spelled into `room`: kept here
  spelled.reserve(patterns.size());  // `seen` views them: no reallocation may move them
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    std::string_view id = patterns.id(i, room);
    if (id.data() == room.data()) id = spelled.emplace_back(id);
    if (id == "ambiguous" || id == "unassigned")
      throw UsageError("demux: barcode id '" + std::string(id) + "' is the name of demux's own " + std::string(id) +
                       " reads; rename the barcode");
    if (!seen.insert(id).second)
      throw UsageError("demux: barcode id '" + std::string(id) + "' is given twice; barcode ids must be unique");
  }
}

std::vector<std::string> demux_file_names(const PatternSet& patterns, std::string_view out_pattern, bool split_mates) {
  auto fill = [&](std::string_view id, int mate) {
    std::string name;
    for (std::size_t i = 0; i < out_pattern.size();) {
      if (out_pattern.compare(i, 4, "{id}") == 0) {
        name += id;
        i += 4;
      } else if (mate > 0 && out_pattern.compare(i, 6, "{mate}") == 0) {
        name += static_cast<char>('0' + mate);
        i += 6;
      } else {
        name += out_pattern[i++];
      }
    }
    return name;
  };
  std::vector<std::string> names;
  PatternSet::IdRoom room;
  for (std::size_t d = 0; d < patterns.size() + 2; ++d) {
    const std::string_view id = d < patterns.size() ? patterns.id(d, room) : d == patterns.size() ? "ambiguous" : "unassigned";
    if (id.find('/') != std::string_view::npos || id.find('\0') != std::string_view::npos || id == "." || id == "..")
      throw UsageError("demux --out-dir: barcode id '" + std::string(id) +
                       "' cannot be part of a file name (it contains '/' or is '.' or '..'); rename the barcode");
    for (int m = split_mates ? 1 : 0; m <= (split_mates ? 2 : 0); ++m) names.push_back(fill(id, m));
  }
  return names;
}

namespace {

class DemuxSinkImpl final : public DemuxSink {
 public:
  DemuxSinkImpl(const PatternSet& patterns, const DemuxSinkOptions& o)
      : patterns_(patterns), o_(o), rank_(id_ranks(patterns)), destinations_(patterns.size() + 2),
        costs_(std::min<std::int64_t>(o.k, max_pattern_length(patterns)) + 1),
        reads_(destinations_, 0), histogram_(destinations_ * costs_, 0) {
    if (o.assignments && o.assignments_parquet)
      writer_.emplace(*o.assignments, assignment_schema(o.paired), o.parquet.compression,
                      std::vector<std::pair<std::string, std::string>>{{"trawl.version", o.parquet.version},
                                                                       {"trawl.command_line", o.parquet.command_line}},
                      o.parquet.row_group_rows, std::size_t{128} << 20, "trawl version " + o.parquet.version);
    else if (o.assignments)
      o.assignments->write(o.paired ? kHeaderPaired : kHeader, std::strlen(o.paired ? kHeaderPaired : kHeader));
  }

  void format(const RecordBatch& batch, const BatchResults& results, FormattedBatch& f) const override;

  void write(const RecordBatch& batch, const BatchResults&, const FormattedBatch& f) override {
    if (batch.record_continues) return;
    if (writer_) writer_->append_rows(f.rows);
    else if (o_.assignments) o_.assignments->write(f.more[0].data(), f.more[0].size());
    std::size_t at = 0;
    for (const auto& [file, length] : f.routes) {
      o_.files->append(file, f.bytes.data() + at, length);
      at += length;
    }
    for (const auto& [d, cost] : f.outcomes) {
      ++reads_[d];
      if (cost >= 0 && static_cast<std::size_t>(cost) < costs_) ++histogram_[d * costs_ + static_cast<std::size_t>(cost)];
    }
  }

  void close() override {
    if (writer_) writer_->close();
    if (o_.files) {
      if (o_.all_files)
        for (std::size_t i = 0; i < o_.files->size(); ++i) o_.files->touch(i);
      o_.files->finish(".gz", bgzf_eof_block());
    }
    if (o_.report) write_report();
  }

  std::uint64_t assigned() const override {
    return std::accumulate(reads_.begin(), reads_.end() - 2, std::uint64_t{0});
  }
  std::uint64_t ambiguous() const override { return reads_[destinations_ - 2]; }
  std::uint64_t unassigned() const override { return reads_[destinations_ - 1]; }

 private:
  static constexpr const char* kHeader = "text_id\tassignment\tbest_id\tcost\tstrand\tstart\tend\tsecond_id\tsecond_cost\n";
  static constexpr const char* kHeaderPaired =
      "text_id\tassignment\tbest_id\tcost\tstrand\tstart\tend\tmate\tsecond_id\tsecond_cost\n";

  static std::int64_t max_pattern_length(const PatternSet& patterns) {
    std::size_t m = 0;
    for (std::size_t i = 0; i < patterns.size(); ++i) m = std::max(m, patterns.seq(i).size());
    return static_cast<std::int64_t>(m);
  }

  // The candidates of the record (pair) at r: the hits of the mates that carry the barcode.
  void gather(const RecordBatch& batch, const BatchResults& results, std::size_t r, std::size_t mates,
              std::size_t& cursor, std::vector<DemuxCandidate>& out) const {
    const std::vector<Hit>& hits = results.hits.hits;
    for (std::size_t j = 0; j < mates; ++j) {
      const bool wanted = !o_.paired || o_.mate == BarcodeMate::either || (o_.mate == BarcodeMate::first) == (j == 0);
      for (; cursor < hits.size() && hits[cursor].text_idx == batch.first_record + r + j; ++cursor)
        if (wanted) out.push_back({hits[cursor], static_cast<std::uint8_t>(o_.paired ? j + 1 : 0)});
    }
  }

  void add_row(const RecordBatch& batch, std::size_t r, const Assignment& a, FormattedBatch& f) const;
  void add_parquet_row(const RecordBatch& batch, std::size_t r, const Assignment& a, FormattedBatch& f) const;
  void add_records(const RecordBatch& batch, std::vector<std::pair<std::uint32_t, std::uint32_t>>& order,
                   FormattedBatch& f) const;
  void write_report();
  std::string_view destination_id(std::size_t d, PatternSet::IdRoom& room) const {
    return d < patterns_.size() ? patterns_.id(d, room) : d == patterns_.size() ? "ambiguous" : "unassigned";
  }

  const PatternSet& patterns_;
  const DemuxSinkOptions o_;
  const std::vector<std::uint32_t> rank_;
  const std::size_t destinations_;  // patterns, ambiguous, unassigned
  const std::size_t costs_;         // histogram bins: costs 0 .. min(k, longest pattern)
  std::optional<parquet::Writer> writer_;
  // A long record's candidates, gathered over its windows (all on the serial output stage).
  mutable std::vector<DemuxCandidate> long_;
  std::vector<std::uint64_t> reads_, histogram_;
};

void DemuxSinkImpl::format(const RecordBatch& batch, const BatchResults& results, FormattedBatch& f) const {
  const bool long_record = batch.external_seq.data() != nullptr;
  if (long_record)
    for (const Hit& h : results.hits.hits) long_.push_back({h, std::uint8_t{0}});
  if (batch.record_continues) return;
  // Per thread, reused: no allocation per record once they have grown.
  thread_local std::vector<DemuxCandidate> candidates;
  thread_local std::vector<std::pair<std::uint32_t, std::uint32_t>> order;  // (file, record)
  order.clear();
  std::size_t cursor = 0;
  const std::size_t step = o_.paired ? 2 : 1;
  for (std::size_t r = 0; r < batch.size(); r += step) {
    const std::size_t mates = std::min(step, batch.size() - r);
    candidates.clear();
    if (long_record) {
      candidates.swap(long_);
      long_.clear();
    } else {
      gather(batch, results, r, mates, cursor, candidates);
    }
    const Assignment a = assign(candidates, rank_, o_.min_margin);
    const std::size_t d = a.kind == Assignment::Kind::barcode ? a.best
                          : a.kind == Assignment::Kind::ambiguous ? patterns_.size()
                                                                  : patterns_.size() + 1;
    f.outcomes.emplace_back(static_cast<std::uint32_t>(d), a.cost);
    if (writer_) add_parquet_row(batch, r, a, f);
    else if (o_.assignments) add_row(batch, r, a, f);
    if (o_.files)
      for (std::size_t j = 0; j < mates; ++j)
        order.emplace_back(static_cast<std::uint32_t>(o_.split_mates ? 2 * d + j : d), static_cast<std::uint32_t>(r + j));
  }
  if (o_.files) add_records(batch, order, f);
}

// The records grouped by file, input order kept within each: one piece of `bytes` per file.
void DemuxSinkImpl::add_records(const RecordBatch& batch, std::vector<std::pair<std::uint32_t, std::uint32_t>>& order,
                                FormattedBatch& f) const {
  std::sort(order.begin(), order.end());
  for (std::size_t i = 0; i < order.size();) {
    const std::uint32_t file = order[i].first;
    f.scratch.clear();
    for (; i < order.size() && order[i].first == file; ++i)
      append_record(batch, order[i].second, RecordFormat::as_read, nullptr, patterns_, f.scratch);
    const std::size_t before = f.bytes.size();
    if (o_.bgzf) bgzf_compress({f.scratch.data(), f.scratch.size()}, f.bytes, o_.level);
    else put(f.bytes, {f.scratch.data(), f.scratch.size()});
    f.routes.emplace_back(file, f.bytes.size() - before);
  }
}

void DemuxSinkImpl::add_row(const RecordBatch& batch, std::size_t r, const Assignment& a, FormattedBatch& f) const {
  FormattedBytes& t = f.more[0];
  PatternSet::IdRoom room;
  put(t, batch.name(r));
  t.push_back('\t');
  put(t, a.kind == Assignment::Kind::barcode ? patterns_.id(a.best, room) : kind_name(a.kind));
  if (a.best == Assignment::kNone) {
    put(t, o_.paired ? "\t*\t*\t*\t*\t*\t*\t*\t*\n" : "\t*\t*\t*\t*\t*\t*\t*\n");
    return;
  }
  t.push_back('\t');
  put(t, patterns_.id(a.best, room));
  t.push_back('\t');
  put_number(t, a.cost);
  put(t, a.hit.hit.strand == Strand::fwd ? "\t+\t" : "\t-\t");
  put_number(t, static_cast<std::int64_t>(a.hit.hit.start));
  t.push_back('\t');
  put_number(t, static_cast<std::int64_t>(a.hit.hit.end));
  if (o_.paired) {
    t.push_back('\t');
    put_number(t, a.hit.mate);
  }
  t.push_back('\t');
  if (a.second == Assignment::kNone) {
    put(t, "*\t*\n");
    return;
  }
  put(t, patterns_.id(a.second, room));
  t.push_back('\t');
  put_number(t, a.second_cost);
  t.push_back('\n');
}

// Parquet columns are REQUIRED: "*" stands for a missing string, -1 for a missing number.
void DemuxSinkImpl::add_parquet_row(const RecordBatch& batch, std::size_t r, const Assignment& a,
                                    FormattedBatch& f) const {
  parquet::RowBatch& rows = f.rows;
  if (rows.columns.size() != (o_.paired ? 10u : 9u)) rows.columns.resize(o_.paired ? 10 : 9);
  thread_local std::string scratch;
  PatternSet::IdRoom room;
  const bool has = a.best != Assignment::kNone;
  std::size_t c = 0;
  rows.columns[c++].add_string(utf8(batch.name(r), scratch));
  rows.columns[c++].add_string(utf8(a.kind == Assignment::Kind::barcode ? patterns_.id(a.best, room) : kind_name(a.kind), scratch));
  rows.columns[c++].add_string(has ? utf8(patterns_.id(a.best, room), scratch) : "*");
  rows.columns[c++].i32.push_back(a.cost);
  rows.columns[c++].add_string(!has ? "*" : a.hit.hit.strand == Strand::fwd ? "+" : "-");
  rows.columns[c++].i64.push_back(has ? static_cast<std::int64_t>(a.hit.hit.start) : -1);
  rows.columns[c++].i64.push_back(has ? static_cast<std::int64_t>(a.hit.hit.end) : -1);
  if (o_.paired) rows.columns[c++].i32.push_back(has ? a.hit.mate : -1);
  rows.columns[c++].add_string(a.second != Assignment::kNone ? utf8(patterns_.id(a.second, room), scratch) : "*");
  rows.columns[c++].i32.push_back(a.second_cost);
  ++rows.rows;
}

// One row per destination (every barcode, then ambiguous and unassigned): its reads, their
// fraction of all and the histogram of their costs (unassigned reads have none).
void DemuxSinkImpl::write_report() {
  const std::uint64_t total = std::accumulate(reads_.begin(), reads_.end(), std::uint64_t{0});
  auto fraction = [&](std::size_t d) { return total ? static_cast<double>(reads_[d]) / static_cast<double>(total) : 0.0; };
  PatternSet::IdRoom room;
  std::string text;
  char number[32];
  if (o_.report_format == ReportFormat::parquet) {
    std::vector<parquet::Column> schema = {{"id", parquet::Type::utf8}, {"reads", parquet::Type::int64}};
    for (std::size_t c = 0; c < costs_; ++c) schema.push_back({"cost_" + std::to_string(c), parquet::Type::int64});
    parquet::Writer w(*o_.report, schema, o_.parquet.compression, {}, o_.parquet.row_group_rows,
                      std::size_t{128} << 20, "trawl version " + o_.parquet.version);
    std::string scratch;
    for (std::size_t d = 0; d < destinations_; ++d) {
      w.append_string(0, utf8(destination_id(d, room), scratch));
      w.append_int64(1, static_cast<std::int64_t>(reads_[d]));
      for (std::size_t c = 0; c < costs_; ++c) w.append_int64(2 + c, static_cast<std::int64_t>(histogram_[d * costs_ + c]));
      w.end_row();
    }
    w.close();
    return;
  }
  const bool json = o_.report_format == ReportFormat::json;
  if (json) {
    text = "{\"reads\": " + std::to_string(total) + ", \"k\": " + std::to_string(o_.k) + ", \"barcodes\": [";
  } else {
    text = "id\treads\tfraction";
    for (std::size_t c = 0; c < costs_; ++c) text += "\tcost_" + std::to_string(c);
    text += '\n';
  }
  for (std::size_t d = 0; d < destinations_; ++d) {
    const std::string_view id = destination_id(d, room);
    std::snprintf(number, sizeof number, "%.6f", fraction(d));
    if (json) {
      text += d ? ",\n  {\"id\": \"" : "\n  {\"id\": \"";
      for (const char ch : id) {
        if (ch == '"' || ch == '\\') text += '\\';
        if (static_cast<unsigned char>(ch) < 0x20) {
          char esc[8];
          std::snprintf(esc, sizeof esc, "\\u%04x", static_cast<unsigned char>(ch));
          text += esc;
        } else {
          text += ch;
        }
      }
      text += "\", \"reads\": " + std::to_string(reads_[d]) + ", \"fraction\": " + number + ", \"costs\": [";
      for (std::size_t c = 0; c < costs_; ++c) text += (c ? ", " : "") + std::to_string(histogram_[d * costs_ + c]);
      text += "]}";
    } else {
      text.append(id);
      text += '\t' + std::to_string(reads_[d]) + '\t' + number;
      for (std::size_t c = 0; c < costs_; ++c) text += '\t' + std::to_string(histogram_[d * costs_ + c]);
      text += '\n';
    }
    if (text.size() >= (std::size_t{1} << 20)) {
      o_.report->write(text.data(), text.size());
      text.clear();
    }
  }
  if (json) text += "\n]}\n";
  o_.report->write(text.data(), text.size());
}

}  // namespace

std::unique_ptr<DemuxSink> make_demux_sink(const PatternSet& patterns, const DemuxSinkOptions& options) {
  return std::make_unique<DemuxSinkImpl>(patterns, options);
}

}  // namespace trawl
