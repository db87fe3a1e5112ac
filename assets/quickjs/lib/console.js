'use strict';
// node:console

const { formatWithOptions, inspect } = require('internal/inspect');
const { writeAll } = require('internal/fdio');

const kCounts = Symbol('counts');
const kTimers = Symbol('timers');
const kGroup = Symbol('group');

class Console {
  constructor(stdout, stderr, ignoreErrors) {
    let opts = stdout;
    if (!opts || typeof opts.write === 'function') opts = { stdout, stderr, ignoreErrors };
    this._stdout = opts.stdout;
    this._stderr = opts.stderr || opts.stdout;
    this._inspectOptions = opts.inspectOptions;
    this._colorMode = opts.colorMode;
    this[kCounts] = new Map();
    this[kTimers] = new Map();
    this[kGroup] = '';
    for (const k of Object.getOwnPropertyNames(Console.prototype)) {
      if (k !== 'constructor' && typeof this[k] === 'function') this[k] = this[k].bind(this);
    }
  }
  _write(stream, args) {
    let s = formatWithOptions(this._inspectOptions || {}, ...args);
    if (this[kGroup]) s = this[kGroup] + s.replace(/\n/g, `\n${this[kGroup]}`);
    s += '\n';
    if (stream === 1 || stream === 2) {
      const r = writeAll(stream, s);
      if (r < 0) stdio.failed(stream, r);
    } else {
      stream.write(s);
    }
  }
  _out() { return this._stdout === undefined ? 1 : this._stdout; }
  _err() { return this._stderr === undefined ? 2 : this._stderr; }
  log(...args) { this._write(this._out(), args); }
  info(...args) { this._write(this._out(), args); }
  debug(...args) { this._write(this._out(), args); }
  warn(...args) { this._write(this._err(), args); }
  error(...args) { this._write(this._err(), args); }
  trace(...args) {
    const err = new Error(formatWithOptions({}, ...args));
    err.name = 'Trace';
    const frames = (err.stack || '').split('\n').slice(1).join('\n');
    this._write(this._err(), [`Trace${args.length ? `: ${err.message}` : ''}\n${frames}`]);
  }
  dir(obj, options) { this._write(this._out(), [inspect(obj, { customInspect: false, ...this._inspectOptions, ...options })]); }
  dirxml(...args) { this.log(...args); }
  assert(cond, ...args) {
    if (!cond) {
      args[0] = `Assertion failed${args.length === 0 ? '' : `: ${args[0]}`}`;
      this.warn(...args);
    }
  }
  count(label = 'default') {
    label = `${label}`;
    const n = (this[kCounts].get(label) || 0) + 1;
    this[kCounts].set(label, n);
    this.log(`${label}: ${n}`);
  }
  countReset(label = 'default') {
    label = `${label}`;
    if (!this[kCounts].has(label)) { process.emitWarning(`Count for '${label}' does not exist`); return; }
    this[kCounts].delete(label);
  }
  group(...data) {
    if (data.length > 0) this.log(...data);
    this[kGroup] += '  ';
  }
  groupCollapsed(...data) { this.group(...data); }
  groupEnd() { this[kGroup] = this[kGroup].slice(0, -2); }
  time(label = 'default') {
    label = `${label}`;
    if (this[kTimers].has(label)) { process.emitWarning(`Label '${label}' already exists for console.time()`); return; }
    this[kTimers].set(label, native.os.now());
  }
  timeEnd(label = 'default') { this._timeLog(`${label}`, true, []); }
  timeLog(label = 'default', ...data) { this._timeLog(`${label}`, false, data); }
  _timeLog(label, end, data) {
    const start = this[kTimers].get(label);
    if (start === undefined) { process.emitWarning(`No such label '${label}' for console.time${end ? 'End' : 'Log'}()`); return; }
    const ms = native.os.now() - start;
    if (end) this[kTimers].delete(label);
    this.log(`${label}: ${formatTime(ms)}`, ...data);
  }
  table(data, properties) {
    if (data === null || typeof data !== 'object') return this.log(data);
    this.log(renderTable(data, properties));
  }
}
function formatTime(ms) {
  let hours = 0, minutes = 0, seconds = 0;
  if (ms >= 1000) {
    if (ms >= 60000) {
      if (ms >= 3600000) { hours = Math.floor(ms / 3600000); ms %= 3600000; }
      minutes = Math.floor(ms / 60000); ms %= 60000;
    }
    seconds = ms / 1000;
  }
  if (hours !== 0 || minutes !== 0) {
    const [s, frac] = seconds.toFixed(3).split('.');
    const res = hours !== 0 ? `${hours}:${String(minutes).padStart(2, '0')}` : minutes;
    return `${res}:${s.padStart(2, '0')}.${frac} (${hours !== 0 ? 'h:m' : ''}m:ss.mmm)`;
  }
  if (seconds !== 0) return `${seconds.toFixed(3)}s`;
  return `${Number(ms.toFixed(3))}ms`;
}

function renderTable(data, properties) {
  const { getStringWidth } = require('internal/inspect');
  const fmt = (v) => (typeof v === 'string' ? `'${v}'` : inspect(v, { depth: 1, breakLength: Infinity, compact: true, maxArrayLength: 3 }));
  const isMap = data instanceof Map, isSet = data instanceof Set;
  const index = [];
  const rows = [];
  const keys = [];
  let hasValues = false;
  const valuesCol = [];
  let entries;
  if (isMap) entries = [...data.entries()].map(([k, v], i) => [i, v, k]);
  else if (isSet) entries = [...data.values()].map((v, i) => [i, v]);
  else entries = Object.keys(data).map((k) => [k, data[k]]);
  const idxHeader = isMap || isSet ? '(iteration index)' : '(index)';
  const mapKeys = [];
  for (const [k, v, mk] of entries) {
    index.push(String(k));
    if (isMap) mapKeys.push(fmt(mk));
    const row = {};
    if (v !== null && typeof v === 'object' && !(v instanceof Date)) {
      for (const p of Object.keys(v)) {
        if (properties && !properties.includes(p)) continue;
        if (!keys.includes(p)) keys.push(p);
        row[p] = fmt(v[p]);
      }
      valuesCol.push('');
    } else {
      hasValues = true;
      valuesCol.push(fmt(v));
    }
    rows.push(row);
  }
  if (properties) for (const p of properties) if (!keys.includes(p)) keys.push(p);
  const header = [idxHeader, ...(isMap ? ['Key'] : []), ...keys, ...(hasValues ? ['Values'] : [])];
  const table = rows.map((row, i) => [index[i], ...(isMap ? [mapKeys[i]] : []), ...keys.map((k) => (k in row ? row[k] : '')), ...(hasValues ? [valuesCol[i]] : [])]);
  const widths = header.map((h, c) => Math.max(getStringWidth(h), ...table.map((r) => getStringWidth(r[c]))) + 2);
  const cell = (s, w) => ` ${s}${' '.repeat(w - getStringWidth(s) - 1)}`;
  const line = (l, m, r) => l + widths.map((w) => '─'.repeat(w)).join(m) + r;
  let out = `${line('┌', '┬', '┐')}\n│${header.map((h, c) => cell(h, widths[c])).join('│')}│\n${line('├', '┼', '┤')}\n`;
  for (const r of table) out += `│${r.map((s, c) => cell(s, widths[c])).join('│')}│\n`;
  out += line('└', '┴', '┘');
  return out;
}

const globalConsole = new Console({ stdout: undefined, stderr: undefined });
// the global console writes to fds 1 and 2 directly, unless a program replaced
// process.stdout.write (or stderr's), as test runners and loggers do
const stdio = require('internal/stdio');
function patched(stream) {
  return stream && Object.prototype.hasOwnProperty.call(stream, 'write') ? stream : null;
}
globalConsole._out = function () { return this._stdout !== undefined ? this._stdout : patched(stdio.peek(1)) || 1; };
globalConsole._err = function () { return this._stderr !== undefined ? this._stderr : patched(stdio.peek(2)) || 2; };
globalConsole.Console = Console;
module.exports = globalConsole;
