// Validates Parquet files written by trawl's writer against the TSV of the same rows, with three
// independent readers: DuckDB (C++, @duckdb/node-api), hyparquet (pure JS) and parquet-wasm
// (arrow-rs). Adapted from shared/tools/parquet-crosscheck/crosscheck.mjs.
//
//   node compare.mjs [--large] NAME FILE.parquet FILE.tsv [NAME FILE.parquet FILE.tsv ...]
//
// Prints one line per case, "PASS NAME ..." or "FAIL NAME: reasons"; exit 0 iff all pass.
//
// Checked for every case: column names and types in each reader (VARCHAR/Utf8/string,
// INTEGER/Int32/number, BIGINT/Int64/bigint, BOOLEAN/Bool/boolean), row count (data and
// FileMetaData.num_rows), every value in order, and each column chunk's statistics (null_count 0,
// min/max equal to the true per-row-group bounds, as decoded by both DuckDB and hyparquet; bounds
// over 128 bytes must be absent).
//
// Default mode decodes every row with all three readers and compares with the TSV parsed here.
// --large (for the 10M-row case; the JS readers need ~20-50 s and GBs for a full decode there):
// DuckDB compares every row with the TSV (POSITIONAL JOIN with read_csv, order-sensitive) and
// computes the per-row-group bounds; hyparquet and parquet-wasm decode four whole row groups
// (first, second, middle, last) that must equal DuckDB's rows there, and check all metadata.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { readParquet } from 'parquet-wasm';
import { tableFromIPC } from 'apache-arrow';

const STAT_LIMIT = 128;  // the writer omits string bounds longer than this

// Expected logical type of each column, by name (trawl's output columns plus the fixture's).
const KNOWN = { pat_id: 'utf8', text_id: 'utf8', strand: 'utf8', match_region: 'utf8', cigar: 'utf8',
  cost: 'int32', count: 'int32', start: 'int64', end: 'int64', pattern_start: 'int64',
  pattern_end: 'int64', pat_idx: 'int64', text_idx: 'int64', records: 'int64', contains: 'boolean' };
const typeOf = (name) => KNOWN[name] ?? (name.startsWith('str') ? 'utf8' : name.startsWith('i32') ? 'int32'
  : name.startsWith('i64') ? 'int64' : name.startsWith('bool') ? 'boolean' : undefined);
const DUCK = { utf8: 'VARCHAR', int32: 'INTEGER', int64: 'BIGINT', boolean: 'BOOLEAN' };
const ARROW = { utf8: 'Utf8', int32: 'Int32', int64: 'Int64', boolean: 'Bool' };
const JS = { utf8: 'string', int32: 'number', int64: 'bigint', boolean: 'boolean' };

const q = (s) => `'${s.replaceAll("'", "''")}'`;
const qi = (s) => `"${s.replaceAll('"', '""')}"`;

// Values as the TSV prints them, after checking the JS type the reader produced.
function norm(v, type, where) {
  if (typeof v !== JS[type]) throw new Error(`${where}: ${JS[type]} expected, got ${typeof v} ${String(v).slice(0, 40)}`);
  return typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v);
}

// Order used for Parquet statistics: signed integers, unsigned bytes, false < true.
function cmp(a, b, type) {
  if (type === 'utf8') return Buffer.compare(Buffer.from(a), Buffer.from(b));
  if (type === 'boolean') return (a === 'true') - (b === 'true');
  const x = BigInt(a), y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function firstDiff(name, expected, actual) {
  if (expected.length !== actual.length) return `${name}: ${actual.length} rows, expected ${expected.length}`;
  for (let i = 0; i < expected.length; i++) {
    const a = expected[i], b = actual[i];
    for (let j = 0; j < a.length; j++)
      if (a[j] !== b[j]) return `${name}: row ${i} column ${j}: ${JSON.stringify(b[j]).slice(0, 80)}, expected ${JSON.stringify(a[j]).slice(0, 80)}`;
  }
  return null;
}

const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const all = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJson();

async function checkCase(file, tsv, large, errors) {
  // Schema from the TSV header, types from the column names.
  const head = Buffer.alloc(4096);
  const fd = openSync(tsv, 'r');
  const headLength = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const header = head.subarray(0, headLength).toString('utf8').split('\n')[0].split('\t');
  const types = header.map(typeOf);
  if (types.includes(undefined)) throw new Error(`unknown column type in header ${header}`);

  // --- DuckDB: schema, file metadata
  const desc = await all(`DESCRIBE SELECT * FROM read_parquet(${q(file)})`);
  const duckSchema = desc.map((r) => `${r.column_name}:${r.column_type}`).join(',');
  const wantSchema = header.map((n, i) => `${n}:${DUCK[types[i]]}`).join(',');
  if (duckSchema !== wantSchema) errors.push(`duckdb schema ${duckSchema}, expected ${wantSchema}`);
  const [fm] = await all(`SELECT created_by, num_rows, num_row_groups FROM parquet_file_metadata(${q(file)})`);
  if (!String(fm.created_by).startsWith('trawl')) errors.push(`created_by ${fm.created_by}`);

  // --- hyparquet: metadata (schema annotations, row groups, statistics)
  const buf = await asyncBufferFromFile(file);
  const meta = await parquetMetadataAsync(buf);
  const leaves = meta.schema.slice(1);
  const want = { utf8: 'BYTE_ARRAY', int32: 'INT32', int64: 'INT64', boolean: 'BOOLEAN' };
  header.forEach((n, i) => {
    const s = leaves[i];
    if (!s || s.name !== n || s.type !== want[types[i]] || s.repetition_type !== 'REQUIRED')
      errors.push(`hyparquet schema element ${i}: ${JSON.stringify(s, (k, v) => typeof v === 'bigint' ? String(v) : v)}`);
    else if (types[i] === 'utf8' && (s.converted_type !== 'UTF8' || s.logical_type?.type !== 'STRING'))
      errors.push(`hyparquet: ${n} lacks converted_type UTF8 / logicalType STRING`);
  });
  const groupRows = meta.row_groups.map((g) => Number(g.num_rows));
  const metaRows = Number(meta.num_rows);
  if (groupRows.reduce((a, b) => a + b, 0) !== metaRows) errors.push('row group num_rows do not add up to num_rows');
  if (leaves.length !== header.length) errors.push(`${leaves.length} columns, expected ${header.length}`);

  // --- rows, and the expected per-row-group bounds
  let expectedRows = null;  // small mode: TSV rows; large mode: DuckDB rows of the sampled groups
  let bounds;               // bounds[g][c] = [min, max] as TSV strings
  const starts = groupRows.map((_, g) => groupRows.slice(0, g).reduce((a, b) => a + b, 0));
  let sampleGroups;
  if (!large) {
    const text = readFileSync(tsv, 'utf8');
    const lines = text.split('\n');
    if (lines.at(-1) !== '') errors.push('TSV does not end with a newline');
    expectedRows = lines.slice(1, -1).map((l) => l.split('\t'));
    if (metaRows !== expectedRows.length) errors.push(`num_rows ${metaRows}, TSV has ${expectedRows.length} rows`);
    bounds = starts.map((s, g) => header.map((_, c) => {
      let lo = expectedRows[s][c], hi = lo;
      for (let r = s + 1; r < s + groupRows[g]; r++) {
        const v = expectedRows[r][c];
        if (cmp(v, lo, types[c]) < 0) lo = v;
        if (cmp(v, hi, types[c]) > 0) hi = v;
      }
      return [lo, hi];
    }));
    const d = await con.runAndReadAll(`SELECT * FROM read_parquet(${q(file)})`);
    const duckRows = d.getRows().map((r, i) => r.map((v, c) => norm(v, types[c], `duckdb row ${i} ${header[c]}`)));
    const e = firstDiff('duckdb', expectedRows, duckRows);
    if (e) errors.push(e);
    sampleGroups = groupRows.map((_, g) => g);
  } else {
    // DuckDB against the TSV, every row, in order.
    const cols = header.map((n, i) => `${q(n)}: ${q(DUCK[types[i]])}`).join(', ');
    const csv = `read_csv(${q(tsv)}, delim='\\t', header=true, quote='', escape='', auto_detect=false, ` +
      `nullstr='\\N{none}', strict_mode=true, columns={${cols}})`;
    const diff = header.map((n) => `p.${qi(n)} IS DISTINCT FROM t.${qi(n)}`).join(' OR ');
    const [r] = await all(`SELECT count(*) AS n, count(*) FILTER (WHERE ${diff}) AS bad,
      count(p.${qi(header[0])}) AS np, count(t.${qi(header[0])}) AS nt
      FROM read_parquet(${q(file)}) p POSITIONAL JOIN ${csv} t`);
    if (r.bad !== '0' || r.np !== r.nt || r.n !== r.np) errors.push(`duckdb vs TSV: ${JSON.stringify(r)}`);
    if (Number(r.np) !== metaRows) errors.push(`num_rows ${metaRows}, duckdb read ${r.np}`);
    // Per-row-group bounds (groups are equal-sized except the last).
    const size = groupRows[0] ?? 1;
    if (groupRows.slice(0, -1).some((n) => n !== size)) errors.push('row groups of unequal size');
    const agg = header.map((n, c) => `min(${qi(n)})::VARCHAR AS "min${c}", max(${qi(n)})::VARCHAR AS "max${c}"`).join(', ');
    const rows = await all(`SELECT file_row_number // ${size} AS g, ${agg} FROM read_parquet(${q(file)}, file_row_number=true) GROUP BY g ORDER BY g`);
    bounds = rows.map((row) => header.map((_, c) => [row[`min${c}`], row[`max${c}`]]));
    if (bounds.length !== groupRows.length) errors.push(`${bounds.length} groups of data, ${groupRows.length} in metadata`);
    const n = groupRows.length;
    sampleGroups = [...new Set([0, 1, n >> 1, n - 1])].filter((g) => g >= 0 && g < n);
    expectedRows = [];
    for (const g of sampleGroups) {
      const d = await con.runAndReadAll(`SELECT * EXCLUDE (file_row_number) FROM read_parquet(${q(file)}, file_row_number=true)
        WHERE file_row_number >= ${starts[g]} AND file_row_number < ${starts[g] + groupRows[g]} ORDER BY file_row_number`);
      expectedRows.push(...d.getRows().map((row, i) => row.map((v, c) => norm(v, types[c], `duckdb row ${starts[g] + i}`))));
    }
  }

  // --- statistics: DuckDB's and hyparquet's decoding of every chunk's Statistics
  const duckStats = await all(`SELECT row_group_id, column_id, stats_min_value, stats_max_value, stats_null_count
    FROM parquet_metadata(${q(file)}) ORDER BY row_group_id, column_id`);
  for (const s of duckStats) {
    const [lo, hi] = bounds[Number(s.row_group_id)]?.[Number(s.column_id)] ?? [];
    const long = types[s.column_id] === 'utf8' && (Buffer.byteLength(lo ?? '') > STAT_LIMIT || Buffer.byteLength(hi ?? '') > STAT_LIMIT);
    const [wlo, whi] = long ? [null, null] : [lo, hi];
    if (s.stats_null_count !== '0' || s.stats_min_value !== wlo || s.stats_max_value !== whi)
      errors.push(`duckdb stats rg ${s.row_group_id} col ${s.column_id}: ${JSON.stringify(s)}, expected [${wlo}, ${whi}]`);
  }
  if (duckStats.length !== groupRows.length * header.length) errors.push(`duckdb lists ${duckStats.length} chunks`);
  meta.row_groups.forEach((g, gi) => g.columns.forEach((chunk, c) => {
    const st = chunk.meta_data.statistics ?? {};
    const [lo, hi] = bounds[gi][c];
    const long = types[c] === 'utf8' && (Buffer.byteLength(lo) > STAT_LIMIT || Buffer.byteLength(hi) > STAT_LIMIT);
    const got = [st.min_value, st.max_value].map((v) => v === undefined ? null : norm(v, types[c], 'hyparquet stats'));
    if (st.null_count !== 0n || got[0] !== (long ? null : lo) || got[1] !== (long ? null : hi))
      errors.push(`hyparquet stats rg ${gi} col ${c}: [${got}] null_count ${st.null_count}, expected [${lo}, ${hi}]`);
  }));

  // --- hyparquet rows
  const hyRows = [];
  for (const g of large ? sampleGroups : [null]) {
    const range = g === null ? {} : { rowStart: starts[g], rowEnd: starts[g] + groupRows[g] };
    const objs = await parquetReadObjects({ file: buf, compressors, ...range });
    for (const o of objs) hyRows.push(header.map((n, c) => norm(o[n], types[c], `hyparquet ${n}`)));
  }
  const eh = firstDiff('hyparquet', expectedRows, hyRows);
  if (eh) errors.push(eh);

  // --- parquet-wasm (arrow-rs) rows, column by column
  const opts = large ? { rowGroups: sampleGroups } : undefined;
  const table = tableFromIPC(readParquet(new Uint8Array(readFileSync(file)), opts).intoIPCStream());
  const arrowSchema = table.schema.fields.map((f) => `${f.name}:${f.type}:${f.nullable ? 'null' : 'req'}`).join(',');
  const wantArrow = header.map((n, i) => `${n}:${ARROW[types[i]]}:req`).join(',');
  if (arrowSchema !== wantArrow) errors.push(`parquet-wasm schema ${arrowSchema}, expected ${wantArrow}`);
  const pwRows = Array.from({ length: table.numRows }, () => []);
  header.forEach((n, c) => {
    const col = table.getChild(n);
    if (!col) return;
    let i = 0;
    for (const v of col) pwRows[i++].push(norm(v, types[c], `parquet-wasm ${n}`));
  });
  const ep = firstDiff('parquet-wasm', expectedRows, pwRows);
  if (ep) errors.push(ep);

  return `${metaRows} rows, ${groupRows.length} row groups` +
    (large ? `; duckdb: all rows; hyparquet, parquet-wasm: row groups ${sampleGroups.join(',')} (${expectedRows.length} rows)` : '; all rows in all three readers');
}

const args = process.argv.slice(2);
const large = args[0] === '--large';
if (large) args.shift();
if (args.length === 0 || args.length % 3 !== 0) {
  console.error('usage: node compare.mjs [--large] NAME FILE.parquet FILE.tsv [...]');
  process.exit(2);
}
let failed = 0;
for (let i = 0; i < args.length; i += 3) {
  const [name, file, tsv] = args.slice(i, i + 3);
  const t0 = performance.now();
  const errors = [];
  let summary = '';
  try {
    summary = await checkCase(file, tsv, large, errors);
  } catch (e) {
    errors.push(`exception: ${e.stack ?? e}`);
  }
  const secs = ((performance.now() - t0) / 1000).toFixed(2);
  if (errors.length) {
    failed++;
    console.log(`FAIL ${name} (${secs} s): ${errors.slice(0, 5).join('; ')}${errors.length > 5 ? `; ... ${errors.length - 5} more` : ''}`);
  } else {
    console.log(`PASS ${name} (${secs} s): ${summary}`);
  }
}
con.closeSync();
inst.closeSync();
process.exitCode = failed ? 1 : 0;
