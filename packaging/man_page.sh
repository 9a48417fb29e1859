#!/usr/bin/env bash
# Writes trawl's man page from the binary's own help (help2man), so it never goes stale: the
# main --help, then every subcommand's --help as a section of its own.
# Usage: packaging/man_page.sh TRAWL OUT.1
set -euo pipefail
trawl=$1
out=$2
include=$(mktemp)
trap 'rm -f "$include"' EXIT
# CLI11's help as roff: headings as subsections, each option a tagged paragraph (its wrapped
# lines joined), examples verbatim; backslashes and leading dots escaped.
to_roff() {
  sed -e 's/\\/\\e/g' | awk '
    function text(s) { return s ~ /^[.\047]/ ? "\\&" s : s }
    /^$/ { next }
    /^Usage:/ { print ".PP"; print; next }
    /^[A-Z][^:]*:$/ { print ".SS \"" $0 "\""; examples = ($0 ~ /^Examples/); next }
    examples { print ".nf"; print text($0); print ".fi"; next }
    /^  [^ ]/ {
      line = substr($0, 3); n = match(line, /   */)
      opt = n ? substr(line, 1, n - 1) : line; desc = n ? substr(line, n) : ""
      sub(/^ +/, "", desc); print ".TP"; print "\\fB" opt "\\fR"; if (desc != "") print text(desc); next
    }
    { sub(/^ +/, ""); print text($0) }'
}
commands=$("$trawl" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}')
{
  for c in $commands; do
    printf '[COMMAND %s]\n' "$(echo "$c" | tr a-z A-Z)"
    "$trawl" "$c" --help | sed "s|^Usage: .*trawl |Usage: trawl |" | to_roff
    printf '\n'
  done
  printf '[SEE ALSO]\nThe README and docs/semantics.md in the source tree: https://github.com/ (trawl).\n'
} > "$include"
help2man --no-info --name "find every approximate occurrence of short patterns in FASTA/FASTQ" \
  --version-string "$("$trawl" --version)" --include "$include" --output "$out" "$trawl"
