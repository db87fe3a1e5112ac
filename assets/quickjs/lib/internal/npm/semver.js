'use strict';
// semver: versions and ranges as npm reads them (^ ~ x-ranges, hyphen
// ranges, comparators, ||), with npm's rule that a prerelease matches only a
// range naming a prerelease of the same major.minor.patch.

const VER = /^\s*v?=?\s*(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?\s*$/;

function parse(v) {
  const m = VER.exec(String(v));
  if (!m) return null;
  return { major: +m[1], minor: +m[2], patch: +m[3], pre: m[4] ? m[4].split('.').map((x) => (/^\d+$/.test(x) ? +x : x)) : [], raw: String(v).trim().replace(/^[v=\s]+/, '') };
}
function valid(v) { const p = parse(v); return p ? format(p) : null; }
function format(p) { return `${p.major}.${p.minor}.${p.patch}${p.pre.length ? `-${p.pre.join('.')}` : ''}`; }
function compare(a, b) {
  const x = typeof a === 'string' ? parse(a) : a, y = typeof b === 'string' ? parse(b) : b;
  for (const k of ['major', 'minor', 'patch']) if (x[k] !== y[k]) return x[k] < y[k] ? -1 : 1;
  if (!x.pre.length && !y.pre.length) return 0;
  if (!x.pre.length) return 1;
  if (!y.pre.length) return -1;
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i], q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    if (typeof p === 'number' && typeof q === 'number') return p < q ? -1 : 1;
    if (typeof p === 'number') return -1;
    if (typeof q === 'number') return 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

// a partial version: [major, minor, patch] with null for x/*/missing
function partial(s) {
  const m = /^\s*v?=?\s*([0-9xX*]+)(?:\.([0-9xX*]+))?(?:\.([0-9xX*]+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?\s*$/.exec(s);
  if (!m) return null;
  const num = (x) => (x === undefined || /^[xX*]$/.test(x) ? null : +x);
  return { major: num(m[1]), minor: num(m[2]), patch: num(m[3]), pre: m[4] || '' };
}
const ver = (ma, mi, pa, pre = '') => `${ma}.${mi}.${pa}${pre ? `-${pre}` : ''}`;

// one comparator set ("space-separated") -> [[op, version]...]
function comparators(set) {
  set = set.trim().replace(/\s*-\s+/, ' - ');
  const out = [];
  const hy = /^(\S+)\s+-\s+(\S+)$/.exec(set);
  if (hy) {
    const a = partial(hy[1]), b = partial(hy[2]);
    if (!a || !b) return null;
    out.push(['>=', ver(a.major ?? 0, a.minor ?? 0, a.patch ?? 0, a.pre)]);
    if (b.major === null) return out;
    if (b.minor === null) out.push(['<', ver(b.major + 1, 0, 0)]);
    else if (b.patch === null) out.push(['<', ver(b.major, b.minor + 1, 0)]);
    else out.push(['<=', ver(b.major, b.minor, b.patch, b.pre)]);
    return out;
  }
  for (let tok of set.split(/\s+/).filter(Boolean)) {
    const m = /^(\^|~>?|>=|<=|>|<|=)?\s*(.*)$/.exec(tok);
    const op = m[1] || '';
    const p = partial(m[2]);
    if (!p) return null;
    const { major: M, minor: N, patch: P, pre } = p;
    if (op === '^') {
      if (M === null) { out.push(['>=', '0.0.0']); continue; }
      out.push(['>=', ver(M, N ?? 0, P ?? 0, pre)]);
      if (M > 0 || N === null) out.push(['<', ver(M + 1, 0, 0)]);
      else if (N > 0 || P === null) out.push(['<', ver(0, N + 1, 0)]);
      else out.push(['<', ver(0, 0, P + 1)]);
    } else if (op === '~' || op === '~>') {
      if (M === null) { out.push(['>=', '0.0.0']); continue; }
      out.push(['>=', ver(M, N ?? 0, P ?? 0, pre)]);
      if (N === null) out.push(['<', ver(M + 1, 0, 0)]);
      else out.push(['<', ver(M, N + 1, 0)]);
    } else if (op === '' || op === '=') {
      if (M === null) { out.push(['>=', '0.0.0']); continue; }
      if (N === null) { out.push(['>=', ver(M, 0, 0)], ['<', ver(M + 1, 0, 0)]); continue; }
      if (P === null) { out.push(['>=', ver(M, N, 0)], ['<', ver(M, N + 1, 0)]); continue; }
      out.push(['=', ver(M, N, P, pre)]);
    } else if (op === '>') {
      if (M === null) { out.push(['<', '0.0.0']); continue; }
      if (N === null) out.push(['>=', ver(M + 1, 0, 0)]);
      else if (P === null) out.push(['>=', ver(M, N + 1, 0)]);
      else out.push(['>', ver(M, N, P, pre)]);
    } else if (op === '>=') {
      out.push(['>=', ver(M ?? 0, N ?? 0, P ?? 0, pre)]);
    } else if (op === '<') {
      out.push(['<', ver(M ?? 0, N ?? 0, P ?? 0, pre || (P === null ? '0' : ''))]);
    } else if (op === '<=') {
      if (N === null) out.push(['<', ver(M + 1, 0, 0, '0')]);
      else if (P === null) out.push(['<', ver(M, N + 1, 0, '0')]);
      else out.push(['<=', ver(M, N, P, pre)]);
    }
  }
  return out;
}

function parseRange(range) {
  range = String(range || '').trim();
  if (range === '' || range === '*' || range === 'latest' || range === 'x') range = '*';
  const sets = range.split('||').map(comparators);
  if (sets.some((s) => s === null)) return null;
  return sets;
}
function validRange(range) { return parseRange(range) !== null; }

function testSet(set, v) {
  for (const [op, cv] of set) {
    const c = compare(v, cv);
    if (op === '=' && c !== 0) return false;
    if (op === '>' && c <= 0) return false;
    if (op === '>=' && c < 0) return false;
    if (op === '<' && c >= 0) return false;
    if (op === '<=' && c > 0) return false;
  }
  if (v.pre.length) {
    // a prerelease only for comparators of the same tuple with a prerelease
    return set.some(([, cv]) => {
      const p = parse(cv);
      return p.pre.length && p.major === v.major && p.minor === v.minor && p.patch === v.patch;
    });
  }
  return true;
}
function satisfies(version, range) {
  const v = typeof version === 'string' ? parse(version) : version;
  const sets = parseRange(range);
  if (!v || !sets) return false;
  return sets.some((s) => testSet(s, v));
}
function maxSatisfying(versions, range) {
  let best = null;
  for (const v of versions) if (satisfies(v, range) && (best === null || compare(v, best) > 0)) best = v;
  return best;
}

module.exports = { parse, valid, compare, satisfies, maxSatisfying, validRange, gt: (a, b) => compare(a, b) > 0 };
