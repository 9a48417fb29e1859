// Validates Parquet files written by trawl's writer against the TSV of the same rows, with three
// independent readers: DuckDB (C++, @duckdb/node-api), hyparquet (pure JS) and parquet-wasm
// (arrow-rs). It began as a copy of the script that checked a prototype writer before trawl's
// was written (kept outside this repository, and not needed here); docs/parquet.md says what
// the readers require of a file.
//
//   node compare.mjs [--large] NAME FILE.parquet FILE.tsv [NAME FILE.parquet FILE.tsv ...]
//
// Prints one line per case, "PASS NAME ..." or "FAIL NAME: reasons"; exit 0 iff all pass.
// PARQUET_COMPARE_VERBOSE=1 adds the time of each phase.
//
// Checked for every case: column names and types in each reader (VARCHAR/Utf8/string,
// INTEGER/Int32/number, BIGINT/Int64/bigint, BOOLEAN/Bool/boolean, REQUIRED/non-nullable,
// UTF8 + STRING annotations), created_by, the row count (decoded and FileMetaData.num_rows), every
// value in order, and each column chunk's statistics as decoded by both DuckDB and hyparquet:
// null_count 0 and min/max equal to the true per-row-group bounds (string bounds over 128 bytes
// must be absent).
//
// Default mode: all three readers decode every row, compared with the TSV parsed here.
// --large (the 10M-row case; a full decode takes the JS readers 20-50 s and GBs): DuckDB compares
// every row with the TSV (POSITIONAL JOIN with its CSV reader, so order counts) and computes the
// per-row-group bounds; hyparquet and parquet-wasm decode four whole row groups (first, second,
// middle, last), which must equal DuckDB's decode of those rows (and hence the TSV).
import { closeSync, openAsBlob, openSync, readFileSync, readSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { ParquetFile, readParquet } from 'parquet-wasm';
import { tableFromIPC } from 'apache-arrow';

const STAT_LIMIT = 128;  // the writer omits string bounds longer than this
const verbose = process.env.PARQUET_COMPARE_VERBOSE === '1';

// Expected type of each column, by name (trawl's output columns plus the fixture's edge case).
const KNOWN = { pat_id: 'utf8', text_id: 'utf8', strand: 'utf8', match_region: 'utf8', cigar: 'utf8',
  cost: 'int32', count: 'int64', start: 'int64', end: 'int64', pattern_start: 'int64',
  pattern_end: 'int64', pat_idx: 'int64', text_idx: 'int64', records: 'int64', contains: 'boolean' };
const typeOf = (name) => KNOWN[name] ?? (name.startsWith('str') ? 'utf8' : name.startsWith('i32') ? 'int32'
  : name.startsWith('i64') ? 'int64' : name.startsWith('bool') ? 'boolean' : undefined);
const DUCK = { utf8: 'VARCHAR', int32: 'INTEGER', int64: 'BIGINT', boolean: 'BOOLEAN' };
const ARROW = { utf8: 'Utf8', int32: 'Int32', int64: 'Int64', boolean: 'Bool' };
const PHYSICAL = { utf8: 'BYTE_ARRAY', int32: 'INT32', int64: 'INT64', boolean: 'BOOLEAN' };
const JS = { utf8: 'string', int32: 'number', int64: 'bigint', boolean: 'boolean' };

const q = (s) => `'${s.replaceAll("'", "''")}'`;
const qi = (s) => `"${s.replaceAll('"', '""')}"`;
const show = (v) => JSON.stringify(v, (k, x) => typeof x === 'bigint' ? String(x) : x)?.slice(0, 300);

// A decoded value as the TSV prints it, or undefined if the reader produced the wrong JS type.
function norm(v, type) {
  if (typeof v !== JS[type]) return undefined;
  return type === 'boolean' ? (v ? 'true' : 'false') : type === 'utf8' ? v : String(v);
}

// Order of Parquet statistics: signed integers, strings by unsigned UTF-8 bytes (= code points),
// false < true.
function cmp(a, b, type) {
  if (type === 'utf8') {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const x = a.charCodeAt(i), y = b.charCodeAt(i);
      if (x === y) continue;
      // UTF-16 order differs from code point order only between surrogates and U+E000..U+FFFF.
      const sx = x >= 0xd800 && x <= 0xdfff, sy = y >= 0xd800 && y <= 0xdfff;
      if (sx !== sy && (sx ? y : x) >= 0xe000) return sx ? 1 : -1;
      return x - y;
    }
    return a.length - b.length;
  }
  if (type === 'boolean') return (a === 'true') - (b === 'true');
  const x = BigInt(a), y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

// Expected values of some row ranges, column by column, and per-reader comparison against them.
class Expected {
  constructor(header, types) {
    this.header = header;
    this.types = types;
    this.segments = [];  // { start, cols: string[][] }
    this.total = 0;
  }
  add(start, cols) {
    this.segments.push({ start, cols });
    this.total += cols[0]?.length ?? 0;
  }
  reader(name) {
    return { name, compared: new Array(this.header.length).fill(0), error: null };
  }
  // Compares values decoded by a reader for column c, starting at file row `start`; rows outside
  // the expected ranges are ignored.
  check(rd, c, start, values) {
    const type = this.types[c];
    for (const seg of this.segments) {
      const col = seg.cols[c];
      const lo = Math.max(start, seg.start), hi = Math.min(start + values.length, seg.start + col.length);
      for (let r = lo; r < hi && !rd.error; r++) {
        const raw = values[r - start];
        const v = norm(raw, type), want = col[r - seg.start];
        if (v !== want)
          rd.error = `${rd.name}: row ${r} column ${this.header[c]}: ${v === undefined ? `${typeof raw} ` : ''}${show(v ?? raw)}, expected ${show(want)}`;
      }
      if (hi > lo) rd.compared[c] += hi - lo;
    }
  }
  finish(rd, errors) {
    if (rd.error) errors.push(rd.error);
    else if (rd.compared.some((n) => n !== this.total)) errors.push(`${rd.name} decoded [${rd.compared}] values per column, expected ${this.total}`);
  }
}

const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const all = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJson();

async function checkCase(file, tsv, large, errors) {
  const phases = [];
  let t = performance.now();
  const phase = (name) => { const now = performance.now(); phases.push(`${name} ${((now - t) / 1000).toFixed(2)}`); t = now; };

  // Schema from the TSV header, types from the column names.
  const head = Buffer.alloc(4096);
  const fd = openSync(tsv, 'r');
  const headLength = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const header = head.subarray(0, headLength).toString('utf8').split('\n')[0].split('\t');
  const types = header.map(typeOf);
  if (types.includes(undefined)) throw new Error(`unknown column type in header ${header}`);
  const ncols = header.length;

  // --- schema and file metadata as DuckDB and hyparquet see them
  const desc = await all(`DESCRIBE SELECT * FROM read_parquet(${q(file)})`);
  const duckSchema = desc.map((r) => `${r.column_name}:${r.column_type}`).join(',');
  const wantSchema = header.map((n, i) => `${n}:${DUCK[types[i]]}`).join(',');
  if (duckSchema !== wantSchema) errors.push(`duckdb schema ${duckSchema}, expected ${wantSchema}`);
  const [fm] = await all(`SELECT created_by FROM parquet_file_metadata(${q(file)})`);
  if (!String(fm.created_by).startsWith('trawl')) errors.push(`created_by ${fm.created_by}`);

  const buf = await asyncBufferFromFile(file);
  const meta = await parquetMetadataAsync(buf);
  const leaves = meta.schema.slice(1);
  if (leaves.length !== ncols) errors.push(`${leaves.length} columns, expected ${ncols}`);
  header.forEach((n, i) => {
    const s = leaves[i];
    if (!s || s.name !== n || s.type !== PHYSICAL[types[i]] || s.repetition_type !== 'REQUIRED')
      errors.push(`hyparquet schema element ${i}: ${show(s)}`);
    else if (types[i] === 'utf8' && (s.converted_type !== 'UTF8' || s.logical_type?.type !== 'STRING'))
      errors.push(`hyparquet: ${n} lacks converted_type UTF8 or logicalType STRING`);
  });
  const groupRows = meta.row_groups.map((g) => Number(g.num_rows));
  const starts = groupRows.map((_, g) => groupRows.slice(0, g).reduce((a, b) => a + b, 0));
  const metaRows = Number(meta.num_rows);
  if (groupRows.reduce((a, b) => a + b, 0) !== metaRows) errors.push('row group num_rows do not add up to num_rows');
  phase('metadata');

  // --- expected rows and per-row-group bounds (bounds[g][c] = [min, max] as TSV strings)
  const exp = new Expected(header, types);
  let bounds, sampleGroups;
  if (!large) {
    const lines = readFileSync(tsv, 'utf8').split('\n');
    if (lines.at(-1) !== '') errors.push('TSV does not end with a newline');
    const cols = header.map(() => []);
    for (let i = 1; i < lines.length - 1; i++) {
      const f = lines[i].split('\t');
      if (f.length !== ncols) throw new Error(`TSV line ${i + 1} has ${f.length} fields`);
      for (let c = 0; c < ncols; c++) cols[c].push(f[c]);
    }
    exp.add(0, cols);
    if (metaRows !== exp.total) {
      errors.push(`num_rows ${metaRows}, TSV has ${exp.total} rows`);
      return '';
    }
    bounds = starts.map((s, g) => cols.map((col, c) => {
      let lo = col[s], hi = lo;
      for (let r = s + 1; r < s + groupRows[g]; r++) {
        if (cmp(col[r], lo, types[c]) < 0) lo = col[r];
        else if (cmp(col[r], hi, types[c]) > 0) hi = col[r];
      }
      return [lo, hi];
    }));
    sampleGroups = groupRows.map((_, g) => g);
    phase('tsv');
    const rd = exp.reader('duckdb');
    const d = await con.runAndReadAll(`SELECT * FROM read_parquet(${q(file)})`);
    d.getColumns().forEach((values, c) => exp.check(rd, c, 0, values));
    exp.finish(rd, errors);
    phase('duckdb');
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
    phase('duckdb-vs-tsv');
    // Per-row-group bounds, with groups assigned by file row number (equal sizes but the last).
    const size = groupRows[0] ?? 1;
    if (groupRows.slice(0, -1).some((n) => n !== size)) errors.push('row groups of unequal size');
    const agg = header.map((n, c) => `min(${qi(n)})::VARCHAR AS "min${c}", max(${qi(n)})::VARCHAR AS "max${c}"`).join(', ');
    const rows = await all(`SELECT file_row_number // ${size} AS g, ${agg}
      FROM read_parquet(${q(file)}, file_row_number=true) GROUP BY g ORDER BY g`);
    bounds = rows.map((row) => header.map((_, c) => [row[`min${c}`], row[`max${c}`]]));
    if (bounds.length !== groupRows.length) errors.push(`${bounds.length} groups of data, ${groupRows.length} in metadata`);
    phase('duckdb-bounds');
    const n = groupRows.length;
    sampleGroups = [...new Set([0, 1, n >> 1, n - 1])].filter((g) => g >= 0 && g < n);
    for (const g of sampleGroups) {
      // A range on file_row_number lets DuckDB skip the other row groups.
      const d = await con.runAndReadAll(`SELECT * FROM read_parquet(${q(file)}, file_row_number=true)
        WHERE file_row_number >= ${starts[g]} AND file_row_number < ${starts[g] + groupRows[g]} ORDER BY file_row_number`);
      const dc = d.getColumns();
      if (dc[ncols].length !== groupRows[g] || Number(dc[ncols][0]) !== starts[g]) errors.push(`duckdb: bad sample of row group ${g}`);
      exp.add(starts[g], dc.slice(0, ncols).map((col, c) => col.map((v) => norm(v, types[c]))));
    }
    phase('duckdb-sample');
  }

  // --- statistics, decoded by DuckDB and by hyparquet
  const expectStat = (g, c) => {
    const [lo, hi] = bounds[g]?.[c] ?? [];
    const long = types[c] === 'utf8' && (Buffer.byteLength(lo ?? '') > STAT_LIMIT || Buffer.byteLength(hi ?? '') > STAT_LIMIT);
    return long ? [null, null] : [lo, hi];
  };
  const duckStats = await all(`SELECT row_group_id, column_id, stats_min_value, stats_max_value, stats_null_count
    FROM parquet_metadata(${q(file)}) ORDER BY row_group_id, column_id`);
  if (duckStats.length !== groupRows.length * ncols) errors.push(`duckdb lists ${duckStats.length} chunks`);
  for (const s of duckStats) {
    const [lo, hi] = expectStat(Number(s.row_group_id), Number(s.column_id));
    if (s.stats_null_count !== '0' || s.stats_min_value !== lo || s.stats_max_value !== hi)
      errors.push(`duckdb stats rg ${s.row_group_id} col ${s.column_id}: ${show(s)}, expected [${lo}, ${hi}]`);
  }
  meta.row_groups.forEach((g, gi) => g.columns.forEach((chunk, c) => {
    const st = chunk.meta_data.statistics ?? {};
    const [lo, hi] = expectStat(gi, c);
    const got = [st.min_value, st.max_value].map((v) => v === undefined ? null : norm(v, types[c]));
    if (st.null_count !== 0n || got[0] !== lo || got[1] !== hi)
      errors.push(`hyparquet stats rg ${gi} col ${c}: ${show(st)}, expected [${lo}, ${hi}]`);
  }));
  phase('stats');

  // --- hyparquet, column chunk by column chunk
  const hy = exp.reader('hyparquet');
  for (const g of sampleGroups) {
    await parquetRead({ file: buf, metadata: meta, compressors, rowStart: starts[g], rowEnd: starts[g] + groupRows[g],
      onChunk: ({ columnName, columnData, rowStart }) => exp.check(hy, header.indexOf(columnName), rowStart, columnData) });
  }
  exp.finish(hy, errors);
  phase('hyparquet');

  // --- parquet-wasm (arrow-rs)
  const pw = exp.reader('parquet-wasm');
  // Small files through readParquet (whole buffer), large ones through ParquetFile (reads only
  // the byte ranges of the sampled row groups).
  const table = tableFromIPC((large
    ? await (await ParquetFile.fromFile(await openAsBlob(file))).read({ rowGroups: sampleGroups })
    : readParquet(new Uint8Array(readFileSync(file)))).intoIPCStream());
  const arrowSchema = table.schema.fields.map((f) => `${f.name}:${f.type}:${f.nullable ? 'nullable' : 'required'}`).join(',');
  const wantArrow = header.map((n, i) => `${n}:${ARROW[types[i]]}:required`).join(',');
  if (arrowSchema !== wantArrow) errors.push(`parquet-wasm schema ${arrowSchema}, expected ${wantArrow}`);
  // In --large mode the table holds the sampled groups back to back.
  let offset = 0;
  for (const g of sampleGroups) {
    header.forEach((n, c) => {
      const col = table.getChild(n);
      if (col) exp.check(pw, c, starts[g], [...col.slice(offset, offset + groupRows[g])]);
    });
    offset += groupRows[g];
  }
  if (table.numRows !== offset) errors.push(`parquet-wasm decoded ${table.numRows} rows, expected ${offset}`);
  exp.finish(pw, errors);
  phase('parquet-wasm');

  return `${metaRows} rows, ${groupRows.length} row groups, ` +
    (large ? `duckdb: every row vs TSV; hyparquet, parquet-wasm: row groups ${sampleGroups.join(',')} (${exp.total} rows)`
      : 'every row in all three readers') + (verbose ? ` [${phases.join(', ')}]` : '');
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
