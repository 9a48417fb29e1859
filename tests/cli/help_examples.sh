#!/usr/bin/env bash
# Runs every example that `trawl --help` and `trawl COMMAND --help` show, as a user would from
# the repository root (data/ beside them), so the examples cannot rot. Each must exit 0 and
# write something (to stdout, or to the file it names with -o, --report or --assignments), and a command's help may
# show only examples of that command. Prints one line per example: "ok HELP: EXAMPLE".
# Usage: TRAWL=build/release/trawl DATA=data help_examples.sh   (run_cli_tests.sh sets both)
set -uo pipefail
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/root"
ln -s "$(cd "$(dirname "$TRAWL")" && pwd)/$(basename "$TRAWL")" "$work/bin/trawl"
ln -s "$(cd "$DATA" && pwd)" "$work/root/data"
failed=0
for command in "" hits count contains filter demux; do
  help="trawl${command:+ $command} --help"
  examples="$("$TRAWL" $command --help | sed -n '/^Examples/,$p' | grep -E '^  .*trawl ' | sed 's/^  //')"
  if [[ -z "$examples" ]]; then echo "FAIL $help: no examples"; failed=1; continue; fi
  while IFS= read -r example; do
    if [[ -n "$command" && "$example" != *"trawl $command "* ]]; then
      echo "FAIL $help: $example (not a $command example)"; failed=1; continue
    fi
    # The file it names (-o, or demux's --report or --assignments), else stdout.
    output="$(grep -oE -- '(-o|--report|--assignments) [^ ]+' <<<"$example" | head -1 | cut -d' ' -f2)"
    [[ -n "$output" ]] && rm -f "$work/root/$output"
    (cd "$work/root" && PATH="$work/bin:$PATH" bash -o pipefail -c "$example" > "$work/stdout" 2> "$work/stderr")
    rc=$?
    made="$work/stdout"
    [[ -n "$output" ]] && made="$work/root/$output"
    if [[ $rc != 0 || ! -s "$made" ]]; then
      echo "FAIL $help: $example (exit $rc, $({ wc -c < "$made"; } 2>/dev/null || echo no) bytes): $(head -c 300 "$work/stderr")"
      failed=1
    else
      echo "ok $help: $example"
    fi
  done <<<"$examples"
done
exit $failed
