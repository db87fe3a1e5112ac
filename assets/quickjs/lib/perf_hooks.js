'use strict';
// node:perf_hooks
const origin = Date.now() - native.os.now();
const startNow = native.os.now();
const marks = [];
class PerformanceEntry {
  constructor(name, entryType, startTime, duration, detail) { this.name = name; this.entryType = entryType; this.startTime = startTime; this.duration = duration; if (detail !== undefined) this.detail = detail; }
  toJSON() { return { ...this }; }
}
const performance = {
  now: () => native.os.now() - startNow,
  timeOrigin: origin + startNow,
  mark(name, opts = {}) { const e = new PerformanceEntry(name, 'mark', opts.startTime === undefined ? performance.now() : opts.startTime, 0, opts.detail); marks.push(e); return e; },
  measure(name, start, end) {
    const t = (x, def) => (x === undefined ? def : typeof x === 'number' ? x : (marks.filter((m) => m.name === x).pop() || { startTime: def }).startTime);
    let s, e;
    if (start && typeof start === 'object') { s = t(start.start, 0); e = t(start.end, performance.now()); } else { s = t(start, 0); e = t(end, performance.now()); }
    const m = new PerformanceEntry(name, 'measure', s, e - s);
    marks.push(m);
    return m;
  },
  getEntries: () => marks.slice(),
  getEntriesByName: (n, type) => marks.filter((m) => m.name === n && (!type || m.entryType === type)),
  getEntriesByType: (type) => marks.filter((m) => m.entryType === type),
  clearMarks: (n) => { for (let i = marks.length - 1; i >= 0; i--) if (marks[i].entryType === 'mark' && (n === undefined || marks[i].name === n)) marks.splice(i, 1); },
  clearMeasures: (n) => { for (let i = marks.length - 1; i >= 0; i--) if (marks[i].entryType === 'measure' && (n === undefined || marks[i].name === n)) marks.splice(i, 1); },
  timerify: (fn) => fn,
  eventLoopUtilization: () => ({ idle: 0, active: 0, utilization: 0 }),
  toJSON() { return { timeOrigin: this.timeOrigin }; },
  get [Symbol.toStringTag]() { return 'Performance'; },
};
class PerformanceObserver {
  constructor(cb) { this.cb = cb; }
  observe() {}
  disconnect() {}
  static get supportedEntryTypes() { return ['mark', 'measure']; }
}
module.exports = {
  performance, PerformanceEntry, PerformanceObserver, PerformanceMark: PerformanceEntry, PerformanceMeasure: PerformanceEntry,
  monitorEventLoopDelay: () => ({ enable() {}, disable() {}, min: 0, max: 0, mean: 0, stddev: 0, percentile: () => 0, percentiles: new Map(), reset() {} }),
  createHistogram: () => ({ record() {}, min: 0, max: 0, mean: 0, stddev: 0, percentile: () => 0, percentiles: new Map(), reset() {} }),
  constants: { NODE_PERFORMANCE_GC_MAJOR: 4, NODE_PERFORMANCE_GC_MINOR: 1, NODE_PERFORMANCE_GC_INCREMENTAL: 8, NODE_PERFORMANCE_GC_WEAKCB: 16 },
};
