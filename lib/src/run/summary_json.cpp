#include "trawl/run/summary_json.h"

#include <cstdio>

namespace trawl {
namespace {

// A JSON string literal: quotes, backslashes and control characters escaped; other bytes as
// they are (ids and file names are UTF-8 or ASCII).
std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

const char* command_name(const RunOptions& o) {
  if (o.records.on) return "filter";
  if (o.demux.on) return "demux";
  switch (o.shape.command) {
    case Command::hits: return "hits";
    case Command::count: return "count";
    case Command::contains: return "contains";
  }
  return "";
}

// "hits" for hits and count; contains and filter count the records with a hit.
const char* found_name(const RunOptions& o) { return o.shape.command == Command::contains ? "records_with_hits" : "hits"; }

std::string per_pattern(const PatternSet& patterns, const PatternTallies& t) {
  if (!t.hits_known && !t.records_known) return "null";
  std::string out = "[";
  PatternSet::IdRoom room;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    out += i ? ",\n      {" : "\n      {";
    out += "\"id\": " + quoted(patterns.id(i, room));
    if (t.hits_known) out += ", \"hits\": " + std::to_string(t.hits[i]);
    if (t.records_known) out += ", \"records\": " + std::to_string(t.records[i]);
    out += "}";
  }
  return out + (patterns.size() ? "\n    ]" : "]");
}

std::string inputs_list(const RunSummary& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.inputs.size(); ++i) out += (i ? ", " : "") + quoted(s.inputs[i] == "-" ? "<stdin>" : s.inputs[i]);
  return out + "]";
}

}  // namespace

std::string json_sample_name(std::string_view path) {
  std::string_view name = path.substr(path.find_last_of('/') + 1);
  for (const std::string_view suffix : {std::string_view("_mqc.json"), std::string_view(".json")})
    if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix) {
      name.remove_suffix(suffix.size());
      break;
    }
  return std::string(name);
}

std::string summary_json(const RunOptions& o, const RunStart& start, const RunSummary& s, const PatternSet& patterns,
                         const PatternTallies& tallies) {
  const std::string records = std::to_string(s.stats.records), bases = std::to_string(s.stats.bases),
                    found = std::to_string(s.stats.hits), secs = seconds_text(s.seconds);
  std::string j = "{\n";
  j += "  \"id\": \"trawl\",\n  \"section_name\": \"trawl\",\n";
  j += "  \"description\": \"Approximate pattern matches found by trawl (records read, bases, hits or records with hits).\",\n";
  j += "  \"plot_type\": \"table\",\n  \"pconfig\": {\"id\": \"trawl_summary\", \"title\": \"trawl\"},\n";
  j += "  \"data\": {\n    " + quoted(json_sample_name(o.json)) + ": {\"records\": " + records + ", \"bases\": " + bases +
       ", " + quoted(found_name(o)) + ": " + found + ", \"seconds\": " + secs + "}\n  },\n";
  j += "  \"trawl\": {\n";
  j += "    \"version\": " + quoted(o.version) + ",\n";
  j += "    \"command_line\": " + quoted(o.command_line) + ",\n";
  j += "    \"command\": " + quoted(command_name(o)) + ",\n";
  j += "    \"inputs\": " + inputs_list(s) + ",\n";
  j += "    \"patterns\": " + std::to_string(start.patterns) + ",\n";
  j += "    \"k\": " + std::to_string(start.k) + ",\n";
  j += "    \"alphabet\": " + quoted(alphabet_name(start.alphabet)) + ",\n";
  j += std::string("    \"both_strands\": ") + (start.both_strands ? "true" : "false") + ",\n";
  j += "    \"threads\": " + std::to_string(start.threads) + ",\n";
  j += "    \"kernel\": " + quoted(s.kernel) + ",\n";
  j += "    \"records\": " + records + ",\n    \"bases\": " + bases + ",\n";
  j += "    " + quoted(found_name(o)) + ": " + found + ",\n";
  if (s.filtered)
    j += "    \"matched\": " + std::to_string(s.matched) + ",\n    \"unmatched\": " + std::to_string(s.unmatched) + ",\n";
  if (s.demuxed)
    j += "    \"assigned\": " + std::to_string(s.assigned) + ",\n    \"ambiguous\": " + std::to_string(s.ambiguous) +
         ",\n    \"unassigned\": " + std::to_string(s.unassigned_reads) + ",\n";
  j += "    \"seconds\": " + secs + ",\n";
  j += "    \"per_pattern\": " + per_pattern(patterns, tallies) + "\n";
  j += "  }\n}\n";
  return j;
}

}  // namespace trawl
