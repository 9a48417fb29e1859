#include "trawl/run/load_patterns.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "trawl/core/errors.h"
#include "trawl/io/reader.h"
#include "trawl/run/pipeline.h"

namespace trawl {
namespace {

// PatternSet rejects a bad pattern with invalid_argument; for the user it is a usage error.
void add(PatternSet& patterns, std::string_view id, std::string_view seq,
         std::shared_ptr<const void> owner = nullptr) {
  try {
    patterns.add(id, seq, std::move(owner));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

void load_fasta(const std::string& path, bool full_header, PatternSet& patterns) {
  FastxReader reader({path}, ReaderOptions{full_header, 0});
  RecordBatch batch;
  while (reader.next(batch)) {
    // A one-line sequence of a mapped file is lent: the set keeps the mapping, not a copy.
    const bool lent = (batch.seq_spans[0].offset & RecordBatch::kBorrowed) != 0;
    add(patterns, batch.name(0), batch.seq(0),
        lent ? std::shared_ptr<const void>(batch.borrowed_mapping) : nullptr);
    batch.clear();
  }
}

std::shared_ptr<PatternListText> load_list(const std::string& path, PatternSet& patterns,
                                           int threads) {
  // The set keeps the list's text (its patterns are views into it).
  auto list = std::make_shared<PatternListText>(path);
  // Lists of 1 MiB or more load in parallel, in pieces of about 1 MiB and at least four
  // per thread (for balance): millions of patterns (--paired) load before the search.
  const std::size_t parts = std::max<std::size_t>(
      list->text().size() < (std::size_t{1} << 20) ? 1 : 4 * static_cast<std::size_t>(threads),
      list->text().size() >> 20);
  try {
    patterns.add_list(
        list->text(), list, parts,
        [threads](std::size_t count, const std::function<void(std::size_t)>& body) {
          for_each_in_parallel(count, threads, body);
        },
        [&list](std::string_view piece) { list->release(piece); });
  } catch (const std::invalid_argument& e) {
    throw UsageError(path + ": " + e.what());
  }
  return list;
}

// -p values: NAME=SEQ names its pattern (split at the first '='); an unnamed one is
// 'pattern' when it is the only -p, else 'patternN' with N its place among all -p.
void add_inline(const std::vector<std::string>& values, PatternSet& patterns) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::string_view value = values[i];
    const std::size_t eq = value.find('=');
    if (eq == 0) throw UsageError("-p '" + values[i] + "': no name before '='");
    if (eq != std::string_view::npos) {
      add(patterns, value.substr(0, eq), value.substr(eq + 1));
      continue;
    }
    add(patterns, values.size() > 1 ? "pattern" + std::to_string(i + 1) : "pattern", value);
  }
}

// The patterns one source gave: [first, last) of the set.
struct SourceSpan {
  std::string name;  // "-p", "-f FILE", "-l FILE"
  std::size_t first = 0, last = 0;
};

// An id given by two sources is an error naming both (within one source, a FASTA file's
// repeated names stay allowed). The largest source is looked up, not stored.
void check_unique_ids(const PatternSet& patterns, const std::vector<SourceSpan>& spans) {
  const auto largest = std::max_element(spans.begin(), spans.end(), [](const SourceSpan& a, const SourceSpan& b) {
    return a.last - a.first < b.last - b.first;
  });
  std::unordered_map<std::string, const SourceSpan*> seen;
  PatternSet::IdRoom room;
  auto clash = [](std::string_view id, const SourceSpan& a, const SourceSpan& b) {
    const bool a_first = &a < &b;  // named in the order of the command line's sources
    return UsageError("pattern id '" + std::string(id) + "' is given by both " + (a_first ? a : b).name +
                      " and " + (a_first ? b : a).name);
  };
  for (auto s = spans.begin(); s != spans.end(); ++s) {
    if (s == largest) continue;
    for (std::size_t i = s->first; i < s->last; ++i) {
      const std::string_view id = patterns.id(i, room);
      const auto [at, fresh] = seen.emplace(std::string(id), &*s);
      if (!fresh && at->second != &*s) throw clash(id, *at->second, *s);
    }
  }
  for (std::size_t i = largest->first; i < largest->last; ++i) {
    const std::string_view id = patterns.id(i, room);
    if (const auto at = seen.find(std::string(id)); at != seen.end()) throw clash(id, *at->second, *largest);
  }
}

}  // namespace

std::shared_ptr<PatternListText> load_patterns(const PatternSources& sources, bool full_header,
                                               PatternSet& patterns, int threads) {
  std::shared_ptr<PatternListText> list;
  std::vector<SourceSpan> spans;
  auto from = [&](std::string name, const auto& load) {
    const std::size_t first = patterns.size();
    load();
    if (patterns.size() == first) throw UsageError(name.substr(3) + ": no patterns found");
    spans.push_back({std::move(name), first, patterns.size()});
  };
  if (!sources.inline_patterns.empty()) {
    add_inline(sources.inline_patterns, patterns);
    spans.push_back({"-p", 0, patterns.size()});
  }
  if (!sources.fasta.empty())
    from("-f " + sources.fasta, [&] { load_fasta(sources.fasta, full_header, patterns); });
  if (!sources.list.empty())
    from("-l " + sources.list, [&] { list = load_list(sources.list, patterns, threads); });
  if (spans.size() > 1) check_unique_ids(patterns, spans);
  patterns.finish();
  return list;
}

}  // namespace trawl
