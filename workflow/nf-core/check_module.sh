#!/usr/bin/env bash
# Checks the nf-core-style module without Nextflow (not installable here): required files and
# fields, the outputs of main.nf and meta.yml agree, and the script's trawl command, with the
# module's variables filled in, runs with the built trawl and makes every declared output.
# Usage: workflow/nf-core/check_module.sh TRAWL
set -euo pipefail
trawl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
module=$here/trawl/hits
data=$here/../../data
fail() { echo "FAIL: $*" >&2; exit 1; }

for f in main.nf meta.yml environment.yml; do [ -f "$module/$f" ] || fail "missing $f"; done
main=$module/main.nf
meta=$module/meta.yml
for needle in 'process TRAWL_HITS {' 'tag "$meta.id"' "label 'process_" 'conda "${moduleDir}/environment.yml"' \
              'container "' 'input:' 'output:' 'when:' 'task.ext.when == null || task.ext.when' 'script:' 'stub:' \
              'task.ext.args' 'task.ext.prefix' '$task.cpus' 'emit: versions' 'trawl: \$(trawl --version)'; do
  grep -qF -- "$needle" "$main" || fail "main.nf lacks: $needle"
done
for key in name description keywords tools input output authors maintainers; do
  grep -q "^$key:" "$meta" || fail "meta.yml lacks the key $key"
done
grep -q '^name: "trawl_hits"$' "$meta" || fail "meta.yml name is not the process name in lower case"
for key in description homepage documentation licence; do
  grep -q "^      $key:" "$meta" || fail "meta.yml tools.trawl lacks $key"
done

# The outputs: emit names in main.nf = output names in meta.yml.
emits=$(grep -oE 'emit: [a-z_]+' "$main" | awk '{print $2}' | sort | tr '\n' ' ')
described=$(awk '/^output:/ {on = 1; next} /^[a-z]/ {on = 0} on && /^  - [a-z_]+:$/ {sub(/^  - /, ""); sub(/:$/, ""); print}' "$meta" | sort | tr '\n' ' ')
[ "$emits" = "$described" ] || fail "main.nf emits [$emits] but meta.yml describes [$described]"

# The script block's command, run as Nextflow would with cpus = 2 and the default args.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command=$(awk '/^    script:/ {on = 1} on && /^    trawl hits/ {cmd = 1} cmd {print} cmd && !/\\\\$/ {exit}' "$main" |
  sed -e 's/\\\\$//' -e 's/\$args/-k 2/' -e 's/\$task\.cpus/2/' -e "s|\\\$patterns|$data/primers.fa|" \
      -e "s|\\\${prefix}|$work/sample|g" -e 's/\${format}/tsv/' -e "s|\\\$reads|$data/reads.fastq.gz|" | tr '\n' ' ')
[ -n "$command" ] || fail "no trawl command in the script block"
(cd "$work" && PATH="$(dirname "$trawl"):$PATH" bash -c "$command -q") || fail "the script's command failed: $command"
[ -s "$work/sample.hits.tsv" ] || fail "no sample.hits.tsv"
[ -s "$work/sample_mqc.json" ] || fail "no sample_mqc.json"
version=$("$trawl" --version)
[ -n "$version" ] || fail "trawl --version printed nothing"
echo "nf-core module: fields, outputs and command ok (trawl $version, $(($(wc -l < "$work/sample.hits.tsv") - 1)) hits)"
