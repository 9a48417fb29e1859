#include "trawl/sinks/rows.h"

namespace trawl::rows {
namespace {

std::vector<Column> columns_of(std::initializer_list<Field> fields) {
  std::vector<Column> out;
  for (Field f : fields) out.push_back(column(f));
  return out;
}

}  // namespace

RowModel RowModel::hits(const PatternSet& patterns, const AlphabetSpec& alphabet, HitColumns columns) {
  std::vector<Column> cols =
      columns_of({Field::pat_id, Field::text_id, Field::cost, Field::strand, Field::start, Field::end});
  if (columns.region) cols.push_back(column(Field::match_region));
  if (columns.cigar) cols.push_back(column(Field::cigar));
  for (ExtraColumn c : columns.extra) {
    switch (c) {
      case ExtraColumn::pattern_start: cols.push_back(column(Field::pattern_start)); break;
      case ExtraColumn::pattern_end: cols.push_back(column(Field::pattern_end)); break;
      case ExtraColumn::pat_idx: cols.push_back(column(Field::pat_idx)); break;
      case ExtraColumn::text_idx: cols.push_back(column(Field::text_idx)); break;
    }
  }
  RowModel model(patterns, Source::hits, std::move(cols));
  model.hit_columns_ = std::move(columns);
  model.alphabet_ = alphabet;
  return model;
}

RowModel RowModel::count(const PatternSet& patterns, const ResultShape& shape) {
  if (shape.per_pattern_totals)
    return {patterns, Source::pattern_totals, columns_of({Field::pat_id, Field::count, Field::records})};
  return {patterns, Source::pair_counts, columns_of({Field::pat_id, Field::text_id, Field::count})};
}

RowModel RowModel::contains(const PatternSet& patterns, const ResultShape& shape) {
  if (shape.per_pair)
    return {patterns, Source::pair_flags, columns_of({Field::pat_id, Field::text_id, Field::contains})};
  return {patterns, Source::record_flags, columns_of({Field::text_id, Field::contains})};
}

}  // namespace trawl::rows
