#include "trawl/sinks/interchange_sinks.h"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <functional>
#include <span>
#include <string_view>
#include <system_error>
#include <unordered_map>

#include "row_writer.h"
#include "trawl/core/errors.h"

namespace trawl {
namespace {

// One hit row's fields, gathered from the row model before its line is written: these
// formats order and combine the fields unlike the model's columns.
struct HitFields {
  rows::PatternId pattern{};
  rows::RecordId record{};
  std::int32_t cost = 0;
  Strand strand = Strand::fwd;
  std::uint64_t start = 0, end = 0, pattern_start = 0, pattern_end = 0;
  std::string_view record_seq;   // the record's sequence (the part read so far where partial)
  std::span<const CigarOp> ops;  // pattern direction
};

// A row model writer that gathers each hit row's fields and hands them to `line`.
template <class Line>
class Gatherer {
 public:
  explicit Gatherer(const Line& line) : line_(line) {}
  void begin_rows(std::size_t) {}
  void begin_row() {}
  void end_row() { line_(f_); }
  void pair(std::size_t, const rows::PairIds& ids) {
    f_.pattern = ids.pattern;
    f_.record = ids.record;
  }
  template <rows::Field F> void field(std::size_t, const rows::PatternId&) {}
  template <rows::Field F> void field(std::size_t, const rows::RecordId&) {}
  template <rows::Field F> void field(std::size_t, bool) {}
  template <rows::Field F> void field(std::size_t, std::int32_t v) {
    if constexpr (F == rows::Field::cost) f_.cost = v;  // (not the mate column)
  }
  template <rows::Field F> void field(std::size_t, std::uint64_t v) {
    if constexpr (F == rows::Field::start) f_.start = v;
    else if constexpr (F == rows::Field::end) f_.end = v;
    else if constexpr (F == rows::Field::pattern_start) f_.pattern_start = v;
    else if constexpr (F == rows::Field::pattern_end) f_.pattern_end = v;
  }
  template <rows::Field F> void field(std::size_t, Strand s) { f_.strand = s; }
  template <rows::Field F> void field(std::size_t, const rows::Region& r) { f_.record_seq = r.seq; }
  template <rows::Field F> void field(std::size_t, const rows::Cigar& c) { f_.ops = c.ops; }

 private:
  const Line& line_;
  HitFields f_;
};

// The hit columns these formats draw on: the region (for the record's length), the CIGAR and
// the aligned part of the pattern.
rows::RowModel gathered_model(const PatternSet& patterns, bool mate) {
  HitColumns c;
  c.mate = mate;
  c.extra = {ExtraColumn::pattern_start, ExtraColumn::pattern_end};
  return rows::RowModel::hits(patterns, AlphabetSpec{}, std::move(c));
}

struct OpCounts {
  std::uint64_t matches = 0, edits = 0, block = 0;
};

OpCounts count_ops(std::span<const CigarOp> ops) {
  OpCounts c;
  for (const CigarOp& op : ops) {
    c.block += op.len;
    if (op.op == '=') c.matches += op.len;
    else c.edits += op.len;
  }
  return c;
}

// The runs of `ops`, last to first where `reversed` (a '-' hit in text direction).
void put_cigar(RowWriter& w, std::span<const CigarOp> ops, bool reversed) {
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const CigarOp& op = ops[reversed ? ops.size() - 1 - i : i];
    w.put_uint(op.len);
    w.put(op.op);
  }
}

void put_field(RowWriter& w, std::string_view v) {
  w.put(v);
  w.put('\t');
}

void put_field(RowWriter& w, std::uint64_t v) {
  w.put_uint(v);
  w.put('\t');
}

// Marks a PAF target length not known yet (a record still being read); replaced before the
// row is written out.
constexpr char kLengthLater = '\x01';

// The sink of one line per hit row; `Line` (a static `put(RowWriter&, const HitFields&,
// const Context&, bool partial)`) writes the line.
template <class Line>
class HitLineSink : public ResultSink {
 public:
  HitLineSink(ByteSink& out, const PatternSet& patterns, bool mate, typename Line::Context context)
      : out_(out), model_(gathered_model(patterns, mate)), context_(std::move(context)) {}

  void format(const RecordBatch& batch, const BatchResults& results, FormattedBatch& formatted) const override {
    RowWriter w(formatted.bytes);
    const auto line = [&w, this, partial = batch.text_partial](const HitFields& f) {
      Line::put(w, f, context_, partial);
    };
    Gatherer<decltype(line)> gatherer(line);
    model_.batch_rows(batch, results, gatherer);
    w.close();
  }
  void write(const RecordBatch&, const BatchResults&, const FormattedBatch& formatted) override {
    out_.write(formatted.bytes.data(), formatted.bytes.size());
  }
  void close() override {}

 protected:
  ByteSink& out_;
  rows::RowModel model_;
  typename Line::Context context_;
};

struct BedLine {
  struct Context {};
  static void put(RowWriter& w, const HitFields& f, const Context&, bool) {
    PatternSet::IdRoom room;
    const std::string_view pat_id = f.pattern.spell(room), text_id = f.record.spell();
    w.reserve(pat_id.size() + text_id.size() + 80);
    put_field(w, text_id);
    put_field(w, f.start);
    put_field(w, f.end);
    put_field(w, pat_id);
    put_field(w, static_cast<std::uint64_t>(f.cost));
    w.put(strand_char(f.strand));
    w.put('\n');
  }
};

struct PafLine {
  struct Context {
    const PatternSet* patterns;
  };
  static void put(RowWriter& w, const HitFields& f, const Context& c, bool partial) {
    PatternSet::IdRoom room;
    const std::string_view pat_id = f.pattern.spell(room), text_id = f.record.spell();
    w.reserve(pat_id.size() + text_id.size() + 24 * f.ops.size() + 240);
    const OpCounts n = count_ops(f.ops);
    put_field(w, pat_id);
    put_field(w, std::uint64_t{c.patterns->seq(f.pattern.idx).size()});
    put_field(w, f.pattern_start);
    put_field(w, f.pattern_end);
    w.put(strand_char(f.strand));
    w.put('\t');
    put_field(w, text_id);
    if (partial) {
      w.put(kLengthLater);
      w.put('\t');
    } else {
      put_field(w, std::uint64_t{f.record_seq.size()});
    }
    put_field(w, f.start);
    put_field(w, f.end);
    put_field(w, n.matches);
    put_field(w, n.block);
    w.put(std::string_view("255\tNM:i:"));
    w.put_uint(n.edits);
    w.put(std::string_view("\tcg:Z:"));
    put_cigar(w, f.ops, f.strand == Strand::rc);
    w.put('\n');
  }
};

// PAF: rows of a record still being read wait, with their target length marked, until the
// record's length is known (its first view whose text is whole).
class PafSink final : public HitLineSink<PafLine> {
 public:
  using HitLineSink::HitLineSink;
  void write(const RecordBatch& batch, const BatchResults&, const FormattedBatch& formatted) override {
    if (batch.text_partial) {
      held_.append(formatted.bytes.data(), formatted.bytes.size());
      return;
    }
    if (!held_.empty()) release(batch.seq(0).size());
    out_.write(formatted.bytes.data(), formatted.bytes.size());
  }
  void close() override {
    if (!held_.empty()) throw OutputError("PAF: a record's length never became known");
  }

 private:
  void release(std::uint64_t length) {
    const std::string spelled = std::to_string(length);
    std::string text;
    text.reserve(held_.size());
    for (char ch : held_)
      if (ch == kLengthLater) text += spelled;
      else text += ch;
    out_.write(text.data(), text.size());
    held_.clear();
  }
  std::string held_;
};

void put_clip(RowWriter& w, std::uint64_t n) {
  if (n == 0) return;
  w.put_uint(n);
  w.put('S');
}

// Whether SAM's SEQ can spell `seq` (letters only); else SEQ is '*'.
bool sam_letters(std::string_view seq) {
  for (char ch : seq)
    if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z'))) return false;
  return !seq.empty();
}

struct SamLine {
  struct Context {
    const PatternSet* patterns;
    AlphabetSpec alphabet;
  };
  static void put(RowWriter& w, const HitFields& f, const Context& c, bool) {
    PatternSet::IdRoom room;
    const std::string_view pat_id = f.pattern.spell(room), text_id = f.record.spell();
    const std::string_view seq = c.patterns->seq(f.pattern.idx);
    w.reserve(pat_id.size() + text_id.size() + seq.size() + 24 * (f.ops.size() + 2) + 160);
    const bool rc = f.strand == Strand::rc, mapped = !f.ops.empty();
    put_field(w, pat_id);
    // A hit made only of overhang aligns no base: an unmapped row, placed nowhere.
    put_field(w, std::uint64_t{mapped ? (rc ? 16u : 0u) : 4u});
    put_field(w, mapped ? text_id : std::string_view("*"));
    put_field(w, mapped ? f.start + 1 : 0);
    put_field(w, std::uint64_t{mapped ? 255u : 0u});
    if (mapped) {
      // The pattern's unaligned ends (overhang) are soft clips; text direction.
      const std::uint64_t m = seq.size();
      const std::uint64_t lead = rc ? m - f.pattern_end : f.pattern_start;
      const std::uint64_t trail = rc ? f.pattern_start : m - f.pattern_end;
      put_clip(w, lead);
      put_cigar(w, f.ops, rc);
      put_clip(w, trail);
      w.put('\t');
    } else {
      put_field(w, std::string_view("*"));
    }
    put_field(w, std::string_view("*\t0\t0"));
    if (!sam_letters(seq)) w.put('*');
    else if (!rc) w.put(seq);
    else
      for (std::size_t i = seq.size(); i > 0; --i)
        w.put(static_cast<char>(c.alphabet.complement(static_cast<std::uint8_t>(seq[i - 1]))));
    w.put(std::string_view("\t*"));
    if (mapped) {
      w.put(std::string_view("\tNM:i:"));
      w.put_uint(count_ops(f.ops).edits);
    }
    w.put('\n');
  }
};

// Heterogeneous lookup: a record's name is looked up as a view of its batch.
struct NameHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// SAM: the header's @SQ lines are given, or gathered from the records with hits while the
// rows wait in a temporary file (header and rows are then written at close).
class SamSink final : public HitLineSink<SamLine> {
 public:
  SamSink(ByteSink& out, const PatternSet& patterns, bool mate, SamLine::Context context, SamOptions options)
      : HitLineSink(out, patterns, mate, context), options_(std::move(options)) {
    for (const RefLength& ref : options_.refs) lengths_.emplace(ref.name, ref.length);
    if (!options_.collect) {
      write_header(options_.refs);
      return;
    }
    body_ = std::tmpfile();
    if (!body_) throw OutputError("SAM: cannot create a temporary file for the rows");
  }
  ~SamSink() override {
    if (body_) std::fclose(body_);
  }
  void write(const RecordBatch& batch, const BatchResults& results, const FormattedBatch& formatted) override {
    note_records(batch, results);
    if (formatted.bytes.empty()) return;
    if (!body_) {
      out_.write(formatted.bytes.data(), formatted.bytes.size());
    } else if (std::fwrite(formatted.bytes.data(), 1, formatted.bytes.size(), body_) != formatted.bytes.size()) {
      throw OutputError("SAM: cannot write the temporary file of the rows");
    }
  }
  void close() override {
    if (!body_) return;
    write_header(collected_);
    std::rewind(body_);
    std::vector<char> buf(1 << 20);
    for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), body_)) > 0;) out_.write(buf.data(), n);
    if (std::ferror(body_)) throw OutputError("SAM: cannot read back the temporary file of the rows");
  }

 private:
  void write_header(const std::vector<RefLength>& refs) {
    std::string h = "@HD\tVN:1.6\tSO:unsorted\n";
    for (const RefLength& ref : refs) h += "@SQ\tSN:" + ref.name + "\tLN:" + std::to_string(ref.length) + '\n';
    std::string cl = options_.command_line;
    for (char& ch : cl)
      if (ch == '\t' || ch == '\n' || ch == '\r') ch = ' ';
    h += "@PG\tID:trawl\tPN:trawl\tVN:" + options_.version + "\tCL:" + cl + '\n';
    out_.write(h.data(), h.size());
  }
  // Every record with a mapped row needs its @SQ line; a long record's length is known at
  // its first view whose text is whole.
  void note_records(const RecordBatch& batch, const BatchResults& results) {
    if (batch.external_seq.data() != nullptr) {
      for (const Hit& h : results.hits.hits) long_hit_ = long_hit_ || h.cigar_count > 0;
      if (long_hit_ && !batch.text_partial) note(batch.name(0), batch.seq(0).size());
      if (!batch.record_continues) long_hit_ = false;
      return;
    }
    std::uint64_t last = UINT64_MAX;
    for (const Hit& h : results.hits.hits) {
      if (h.text_idx == last || h.cigar_count == 0) continue;
      last = h.text_idx;
      const auto r = static_cast<std::size_t>(h.text_idx - batch.first_record);
      note(batch.name(r), batch.seq(r).size());
    }
  }
  void note(std::string_view name, std::uint64_t length) {
    const auto it = lengths_.find(name);
    if (it == lengths_.end()) {
      if (!options_.collect)
        throw InputError("record '" + std::string(name) +
                         "' has hits but no length in the SAM reference lengths (--ref-lengths or INPUT.fai)");
      lengths_.emplace(std::string(name), length);
      collected_.push_back({std::string(name), length});
    } else if (it->second != length) {
      throw InputError("record '" + std::string(name) + "' is " + std::to_string(length) + " long, but " +
                       (options_.collect ? "another record of that name is " : "the SAM reference lengths say ") +
                       std::to_string(it->second) + ": SAM needs one length per name");
    }
  }

  SamOptions options_;
  std::unordered_map<std::string, std::uint64_t, NameHash, std::equal_to<>> lengths_;
  std::vector<RefLength> collected_;
  std::FILE* body_ = nullptr;
  bool long_hit_ = false;
};

}  // namespace

std::vector<RefLength> read_ref_lengths(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open the reference lengths");
  std::vector<RefLength> refs;
  std::string line;
  for (std::uint64_t number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::size_t tab = line.find('\t');
    const std::size_t stop = tab == std::string::npos ? tab : line.find('\t', tab + 1);
    const std::string_view length =
        tab == std::string::npos ? std::string_view() : std::string_view(line).substr(tab + 1, stop - tab - 1);
    RefLength ref{line.substr(0, tab), 0};
    const auto [end, ec] = std::from_chars(length.data(), length.data() + length.size(), ref.length);
    if (tab == 0 || length.empty() || ec != std::errc() || end != length.data() + length.size())
      throw InputError(path + ": line " + std::to_string(number) + ": want NAME<TAB>LENGTH (a .fai or a two-column TSV)");
    refs.push_back(std::move(ref));
  }
  return refs;
}

std::unique_ptr<ResultSink> make_bed_sink(ByteSink& out, const PatternSet& patterns, bool mate) {
  return std::make_unique<HitLineSink<BedLine>>(out, patterns, mate, BedLine::Context{});
}

std::unique_ptr<ResultSink> make_paf_sink(ByteSink& out, const PatternSet& patterns, bool mate) {
  return std::make_unique<PafSink>(out, patterns, mate, PafLine::Context{&patterns});
}

std::unique_ptr<ResultSink> make_sam_sink(ByteSink& out, const PatternSet& patterns,
                                          const AlphabetSpec& alphabet, bool mate, SamOptions options) {
  return std::make_unique<SamSink>(out, patterns, mate, SamLine::Context{&patterns, alphabet}, std::move(options));
}

}  // namespace trawl
