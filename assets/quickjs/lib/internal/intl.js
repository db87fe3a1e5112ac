'use strict';
// Intl for an engine without ICU: the formats Node (full ICU) gives for
// English, and the separators of a few other common locales; enough for the
// toLocaleString calls scripts print with. Unknown locales fall back to en-US.

const seps = {
  en: [',', '.'], de: ['.', ','], fr: ['\u202f', ','], es: ['.', ','], it: ['.', ','], pt: ['.', ','], nl: ['.', ','],
  ru: ['\u00a0', ','], sv: ['\u00a0', ','], pl: ['\u00a0', ','], ja: [',', '.'], zh: [',', '.'], ko: [',', '.'], hi: [',', '.'],
};
function pickLocale(locales) {
  const list = locales === undefined ? [] : Array.isArray(locales) ? locales : [locales];
  for (const l of list) {
    const tag = String(l);
    const lang = tag.split(/[-_]/)[0].toLowerCase();
    if (seps[lang]) return canonical(tag);
  }
  return 'en-US';
}
function canonical(tag) {
  const p = String(tag).split(/[-_]/);
  return p.map((x, i) => (i === 0 ? x.toLowerCase() : x.length === 2 ? x.toUpperCase() : x.length === 4 ? x[0].toUpperCase() + x.slice(1).toLowerCase() : x)).join('-');
}
const lang = (locale) => locale.split('-')[0];

const currencySymbols = { USD: '$', EUR: '€', GBP: '£', JPY: '¥', INR: '₹', CNY: 'CN¥', KRW: '₩', CAD: 'CA$', AUD: 'A$', CHF: 'CHF', BRL: 'R$', MXN: 'MX$', RUB: 'RUB' };
const currencyDigits = { JPY: 0, KRW: 0 };

function group(intPart, sep, locale) {
  if (intPart.length <= 3) return intPart;
  if (lang(locale) === 'es' && intPart.length === 4) return intPart; // es: no separator for 4 digits
  if (locale === 'en-IN' || lang(locale) === 'hi') {
    const last3 = intPart.slice(-3);
    const rest = intPart.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, sep);
    return `${rest}${sep}${last3}`;
  }
  return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
}

class NumberFormat {
  constructor(locales, options = {}) {
    this._locale = pickLocale(locales);
    const o = { ...options };
    this._style = o.style || 'decimal';
    this._currency = o.currency ? String(o.currency).toUpperCase() : undefined;
    if (this._style === 'currency' && !this._currency) throw new TypeError('Currency code is required with currency style.');
    this._currencyDisplay = o.currencyDisplay || 'symbol';
    this._notation = o.notation || 'standard';
    this._useGrouping = o.useGrouping === undefined ? true : o.useGrouping !== false && o.useGrouping !== 'false';
    this._signDisplay = o.signDisplay || 'auto';
    this._unit = o.unit;
    this._unitDisplay = o.unitDisplay || 'short';
    const cd = this._style === 'currency' ? (currencyDigits[this._currency] === undefined ? 2 : currencyDigits[this._currency]) : 0;
    let min = o.minimumFractionDigits, max = o.maximumFractionDigits;
    if (min === undefined && max === undefined) { min = cd; max = this._style === 'currency' ? cd : this._style === 'percent' ? 0 : 3; }
    else if (min === undefined) min = Math.min(cd, max);
    else if (max === undefined) max = Math.max(min, this._style === 'currency' ? cd : this._style === 'percent' ? 0 : 3);
    if (min > max) throw new RangeError('maximumFractionDigits value is out of range.');
    this._min = min;
    this._max = max;
    this._minInt = o.minimumIntegerDigits || 1;
    this._sigMin = o.minimumSignificantDigits;
    this._sigMax = o.maximumSignificantDigits;
  }
  format(n) {
    return this.formatToParts(n).map((p) => p.value).join('');
  }
  formatToParts(n) {
    const parts = [];
    if (typeof n === 'bigint') n = Number(n);
    n = Number(n);
    if (Number.isNaN(n)) return [{ type: 'nan', value: 'NaN' }];
    const negative = n < 0 || Object.is(n, -0);
    let x = Math.abs(n);
    if (this._style === 'percent') x *= 100;
    let suffix = '';
    if (this._notation === 'compact') {
      const units = [[1e12, 'T'], [1e9, 'B'], [1e6, 'M'], [1e3, 'K']];
      for (const [v, s] of units) if (x >= v) { x /= v; suffix = s; break; }
      if (this._sigMax === undefined && this._max === 3 && this._min === 0) { this._compact = true; }
    }
    let str;
    if (!Number.isFinite(x)) str = '∞';
    else if (this._compact || (this._notation === 'compact')) {
      const digits = x < 100 ? (x < 10 ? 1 : 0) : 0;
      str = String(Number(x.toFixed(digits)));
    } else if (this._sigMax !== undefined) {
      str = String(Number(x.toPrecision(this._sigMax)));
    } else {
      str = roundHalfExpand(x, this._max);
      if (str.includes('.')) {
        let [i, f] = str.split('.');
        f = f.replace(/0+$/, '');
        while (f.length < this._min) f += '0';
        str = f ? `${i}.${f}` : i;
      } else if (this._min > 0) {
        str += `.${'0'.repeat(this._min)}`;
      }
    }
    let [intPart, frac] = str.split('.');
    if (intPart !== '∞') intPart = intPart.padStart(this._minInt, '0');
    const [gs, ds] = seps[lang(this._locale)] || seps.en;
    const showSign = this._signDisplay === 'always' || (this._signDisplay === 'exceptZero' && x !== 0) || (negative && this._signDisplay !== 'never' && !(x === 0 && this._signDisplay === 'auto' && !Object.is(n, -0)) && x !== 0) || (Object.is(n, -0) && this._signDisplay === 'auto');
    if (showSign && (negative || this._signDisplay !== 'auto')) parts.push({ type: negative ? 'minusSign' : 'plusSign', value: negative ? '-' : '+' });
    const cur = this._style === 'currency' ? (this._currencyDisplay === 'code' ? `${this._currency}\u00a0` : this._currencyDisplay === 'name' ? '' : (currencySymbols[this._currency] || `${this._currency}\u00a0`)) : '';
    const curAfter = this._style === 'currency' && lang(this._locale) !== 'en' && lang(this._locale) !== 'ja' && lang(this._locale) !== 'zh' && lang(this._locale) !== 'ko' && lang(this._locale) !== 'hi';
    if (cur && !curAfter) parts.push({ type: 'currency', value: cur });
    const grouped = this._useGrouping && intPart !== '∞' ? group(intPart, gs, this._locale) : intPart;
    if (intPart === '∞') parts.push({ type: 'infinity', value: '∞' });
    else parts.push({ type: 'integer', value: grouped });
    if (frac) { parts.push({ type: 'decimal', value: ds }, { type: 'fraction', value: frac }); }
    if (suffix) parts.push({ type: 'compact', value: suffix });
    if (this._style === 'percent') parts.push({ type: 'percentSign', value: lang(this._locale) === 'en' ? '%' : '\u00a0%' });
    if (curAfter) parts.push({ type: 'literal', value: '\u00a0' }, { type: 'currency', value: currencySymbols[this._currency] || this._currency });
    if (this._style === 'currency' && this._currencyDisplay === 'name') parts.push({ type: 'literal', value: ' ' }, { type: 'currency', value: this._currency === 'USD' ? 'US dollars' : this._currency });
    if (this._style === 'unit' && this._unit) parts.push({ type: 'literal', value: ' ' }, { type: 'unit', value: unitName(this._unit, this._unitDisplay, x) });
    return parts;
  }
  resolvedOptions() {
    return { locale: this._locale, numberingSystem: 'latn', style: this._style, currency: this._currency, minimumIntegerDigits: this._minInt, minimumFractionDigits: this._min, maximumFractionDigits: this._max, useGrouping: this._useGrouping ? 'auto' : false, notation: this._notation, signDisplay: this._signDisplay, roundingMode: 'halfExpand' };
  }
  static supportedLocalesOf(l) { return (Array.isArray(l) ? l : l === undefined ? [] : [l]).map(canonical); }
}
function unitName(unit, display, x) {
  const short = { kilometer: 'km', meter: 'm', centimeter: 'cm', kilogram: 'kg', gram: 'g', second: 'sec', minute: 'min', hour: 'hr', day: x === 1 ? 'day' : 'days', byte: 'byte', kilobyte: 'kB', megabyte: 'MB', gigabyte: 'GB', percent: '%', liter: 'L', mile: 'mi', 'kilometer-per-hour': 'km/h', celsius: '°C', fahrenheit: '°F' };
  if (display === 'long') return x === 1 ? unit : `${unit}s`;
  return short[unit] || unit;
}
// round to d fraction digits, half away from zero, without binary surprises
function roundHalfExpand(x, d) {
  if (x >= 1e21) return String(x);
  const s = x.toFixed(Math.min(d + 3, 100));
  let [i, f = ''] = s.split('.');
  if (f.length <= d) return d ? `${i}.${f}` : i;
  const keep = f.slice(0, d);
  const next = +f[d];
  let digits = (i + keep).split('').map(Number);
  if (next >= 5) {
    let k = digits.length - 1;
    while (k >= 0) {
      if (digits[k] === 9) { digits[k] = 0; k--; } else { digits[k]++; break; }
    }
    if (k < 0) digits.unshift(1);
  }
  const all = digits.join('');
  const ip = all.slice(0, all.length - d) || '0';
  return d ? `${ip}.${all.slice(all.length - d)}` : ip;
}

const monthsLong = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const monthsShort = monthsLong.map((m) => m.slice(0, 3));
const daysLong = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const daysShort = daysLong.map((d) => d.slice(0, 3));

function tzName() {
  const tz = process.env.TZ;
  if (!tz || tz === 'UTC' || tz === 'UTC0' || tz === 'Etc/UTC' || tz === ':UTC') return 'UTC';
  return tz.replace(/^:/, '');
}

class DateTimeFormat {
  constructor(locales, options = {}) {
    this._locale = pickLocale(locales);
    const o = { ...options };
    this._tz = o.timeZone ? String(o.timeZone) : tzName();
    if (o.timeZone && !/^(UTC|GMT|Etc\/UTC|Etc\/GMT)$/i.test(o.timeZone) && this._tz !== tzName()) {
      this._tzWarning = true; // other zones: the local time is used (no tz database in the engine)
    }
    this._utc = /^(UTC|GMT|Etc\/UTC|Etc\/GMT)$/i.test(this._tz);
    this._hour12 = o.hour12 !== undefined ? o.hour12 : o.hourCycle ? (o.hourCycle === 'h12' || o.hourCycle === 'h11') : lang(this._locale) === 'en';
    const has = ['weekday', 'era', 'year', 'month', 'day', 'hour', 'minute', 'second', 'fractionalSecondDigits', 'timeZoneName'].some((k) => o[k] !== undefined);
    if (o.dateStyle || o.timeStyle) {
      this._dateStyle = o.dateStyle;
      this._timeStyle = o.timeStyle;
    } else if (!has) {
      this._opts = { year: 'numeric', month: 'numeric', day: 'numeric', ...(o._defaultTime ? { hour: 'numeric', minute: '2-digit', second: '2-digit' } : {}) };
      if (o._timeOnly) this._opts = { hour: 'numeric', minute: '2-digit', second: '2-digit' };
    } else {
      this._opts = o;
    }
  }
  _fields(d) {
    const g = this._utc ? { y: d.getUTCFullYear(), mo: d.getUTCMonth(), da: d.getUTCDate(), wd: d.getUTCDay(), h: d.getUTCHours(), mi: d.getUTCMinutes(), s: d.getUTCSeconds(), ms: d.getUTCMilliseconds() }
      : { y: d.getFullYear(), mo: d.getMonth(), da: d.getDate(), wd: d.getDay(), h: d.getHours(), mi: d.getMinutes(), s: d.getSeconds(), ms: d.getMilliseconds() };
    return g;
  }
  format(date) {
    return this.formatToParts(date).map((p) => p.value).join('');
  }
  formatToParts(date) {
    const d = date === undefined ? new Date() : new Date(typeof date === 'object' ? date.valueOf() : date);
    if (Number.isNaN(d.getTime())) throw new RangeError('Invalid time value');
    const f = this._fields(d);
    const parts = [];
    const lit = (v) => parts.push({ type: 'literal', value: v });
    const p2 = (n) => String(n).padStart(2, '0');
    const en = lang(this._locale) === 'en';
    const gb = this._locale === 'en-GB';
    const time = (withSec, style) => {
      let h = f.h;
      let ampm = null;
      if (this._hour12) { ampm = h < 12 ? 'AM' : 'PM'; h = h % 12 || 12; }
      parts.push({ type: 'hour', value: this._hour12 ? String(h) : p2(h) });
      lit(':');
      parts.push({ type: 'minute', value: p2(f.mi) });
      if (withSec) { lit(':'); parts.push({ type: 'second', value: p2(f.s) }); }
      if (ampm) { lit(' '); parts.push({ type: 'dayPeriod', value: ampm }); }
      if (style === 'full' || style === 'long') { lit(' '); parts.push({ type: 'timeZoneName', value: this._utc ? 'UTC' : this._tz }); }
    };
    if (this._dateStyle || this._timeStyle) {
      const ds = this._dateStyle;
      if (ds === 'full') { parts.push({ type: 'weekday', value: daysLong[f.wd] }); lit(', '); }
      if (ds === 'full' || ds === 'long') { parts.push({ type: 'month', value: monthsLong[f.mo] }); lit(' '); parts.push({ type: 'day', value: String(f.da) }); lit(', '); parts.push({ type: 'year', value: String(f.y) }); }
      else if (ds === 'medium') { parts.push({ type: 'month', value: monthsShort[f.mo] }); lit(' '); parts.push({ type: 'day', value: String(f.da) }); lit(', '); parts.push({ type: 'year', value: String(f.y) }); }
      else if (ds === 'short') { parts.push({ type: 'month', value: String(f.mo + 1) }); lit('/'); parts.push({ type: 'day', value: String(f.da) }); lit('/'); parts.push({ type: 'year', value: p2(f.y % 100) }); }
      if (ds && this._timeStyle) lit(ds === 'full' || ds === 'long' ? ' at ' : ', ');
      if (this._timeStyle) time(this._timeStyle !== 'short', this._timeStyle);
      return parts;
    }
    const o = this._opts;
    const dateParts = [];
    if (o.weekday) dateParts.push({ type: 'weekday', value: o.weekday === 'long' ? daysLong[f.wd] : o.weekday === 'short' ? daysShort[f.wd] : daysLong[f.wd][0] });
    const numericDate = (o.month === 'numeric' || o.month === '2-digit') || (!o.month && (o.day || o.year));
    if (numericDate && o.month) {
      const m = o.month === '2-digit' ? p2(f.mo + 1) : String(f.mo + 1);
      const dd = o.day === '2-digit' ? p2(f.da) : String(f.da);
      const y = o.year === '2-digit' ? p2(f.y % 100) : String(f.y);
      if (dateParts.length) { parts.push(...dateParts); lit(', '); }
      const seq = en && !gb ? [['month', m], ['day', dd], ['year', y]] : [['day', dd], ['month', m], ['year', y]];
      const sep = lang(this._locale) === 'de' ? '.' : '/';
      let first = true;
      for (const [t, v] of seq) {
        if (!o[t]) continue;
        if (!first) lit(sep);
        parts.push({ type: t, value: v });
        first = false;
      }
    } else if (o.month) {
      const mn = o.month === 'long' ? monthsLong[f.mo] : o.month === 'short' ? monthsShort[f.mo] : monthsLong[f.mo][0];
      if (dateParts.length) { parts.push(...dateParts); lit(', '); }
      if (en && !gb) {
        parts.push({ type: 'month', value: mn });
        if (o.day) { lit(' '); parts.push({ type: 'day', value: o.day === '2-digit' ? p2(f.da) : String(f.da) }); }
        if (o.year) { lit(o.day ? ', ' : ' '); parts.push({ type: 'year', value: o.year === '2-digit' ? p2(f.y % 100) : String(f.y) }); }
      } else {
        if (o.day) { parts.push({ type: 'day', value: String(f.da) }); lit(' '); }
        parts.push({ type: 'month', value: mn });
        if (o.year) { lit(' '); parts.push({ type: 'year', value: String(f.y) }); }
      }
    } else if (o.year || o.day) {
      if (dateParts.length) { parts.push(...dateParts); lit(', '); }
      if (o.year) parts.push({ type: 'year', value: o.year === '2-digit' ? p2(f.y % 100) : String(f.y) });
      else parts.push({ type: 'day', value: String(f.da) });
    } else if (dateParts.length) {
      parts.push(...dateParts);
    }
    if (o.hour || o.minute || o.second) {
      if (parts.length) lit(', ');
      if (o.hour) {
        let h = f.h;
        let ampm = null;
        if (this._hour12) { ampm = h < 12 ? 'AM' : 'PM'; h = h % 12 || 12; }
        parts.push({ type: 'hour', value: o.hour === '2-digit' || (!this._hour12) ? p2(h) : String(h) });
        if (o.minute) { lit(':'); parts.push({ type: 'minute', value: p2(f.mi) }); }
        if (o.second) { lit(':'); parts.push({ type: 'second', value: p2(f.s) }); }
        if (o.fractionalSecondDigits) { lit('.'); parts.push({ type: 'fractionalSecond', value: String(f.ms).padStart(3, '0').slice(0, o.fractionalSecondDigits) }); }
        if (ampm) { lit(' '); parts.push({ type: 'dayPeriod', value: ampm }); }
      } else {
        if (o.minute) parts.push({ type: 'minute', value: String(f.mi) });
        if (o.second) { if (o.minute) lit(':'); parts.push({ type: 'second', value: o.minute ? p2(f.s) : String(f.s) }); }
      }
    }
    if (o.timeZoneName) { lit(' '); parts.push({ type: 'timeZoneName', value: this._utc ? 'UTC' : this._tz }); }
    return parts;
  }
  formatRange(a, b) { return `${this.format(a)} – ${this.format(b)}`; }
  resolvedOptions() {
    return { locale: this._locale, calendar: 'gregory', numberingSystem: 'latn', timeZone: this._tz, ...(this._opts || {}), ...(this._dateStyle ? { dateStyle: this._dateStyle } : {}), ...(this._timeStyle ? { timeStyle: this._timeStyle } : {}) };
  }
  static supportedLocalesOf(l) { return NumberFormat.supportedLocalesOf(l); }
}

function collationKey(s, sensitivity) {
  let k = String(s).normalize('NFD');
  if (sensitivity === 'base' || sensitivity === 'case' || sensitivity === undefined) k = k.replace(/[\u0300-\u036f]/g, '');
  return k;
}
class Collator {
  constructor(locales, options = {}) {
    this._locale = pickLocale(locales);
    this._numeric = !!options.numeric;
    this._sensitivity = options.sensitivity || 'variant';
    this._caseFirst = options.caseFirst || 'false';
    this.compare = this.compare.bind(this);
  }
  compare(a, b) {
    a = String(a); b = String(b);
    const cmp = (x, y) => (x < y ? -1 : x > y ? 1 : 0);
    const split = (s) => (this._numeric ? s.split(/(\d+)/) : [s]);
    const pa = split(collationKey(a).toLowerCase()), pb = split(collationKey(b).toLowerCase());
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
      const x = pa[i] === undefined ? '' : pa[i], y = pb[i] === undefined ? '' : pb[i];
      if (this._numeric && i % 2 === 1 && x !== '' && y !== '') {
        const d = Number(x) - Number(y);
        if (d) return d < 0 ? -1 : 1;
        continue;
      }
      const c = primaryCompare(x, y);
      if (c) return c;
    }
    if (this._sensitivity === 'base') return 0;
    const ka = a.normalize('NFD'), kb = b.normalize('NFD');
    const acc = cmp(ka.replace(/[^\u0300-\u036f]/g, ''), kb.replace(/[^\u0300-\u036f]/g, ''));
    if (acc) return acc;
    if (this._sensitivity === 'accent') return 0;
    // lower case before upper case, as ICU's default
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (a[i] !== b[i]) {
        const la = a[i] === a[i].toLowerCase(), lb = b[i] === b[i].toLowerCase();
        if (la !== lb) return la === (this._caseFirst !== 'upper') ? -1 : 1;
      }
    }
    return cmp(a, b);
  }
  resolvedOptions() { return { locale: this._locale, usage: 'sort', sensitivity: this._sensitivity, ignorePunctuation: false, collation: 'default', numeric: this._numeric, caseFirst: this._caseFirst }; }
  static supportedLocalesOf(l) { return NumberFormat.supportedLocalesOf(l); }
}
// ICU's root order: punctuation and symbols, then digits, then letters
function primaryCompare(x, y) {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const a = weight(x.charCodeAt(i)), b = weight(y.charCodeAt(i));
    if (a !== b) return a < b ? -1 : 1;
  }
  return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
}
function weight(c) {
  if (c >= 48 && c <= 57) return 1000 + c;
  if (c >= 97 && c <= 122) return 2000 + c;
  if (c < 128) return c;
  return 3000 + c;
}

class PluralRules {
  constructor(locales, options = {}) { this._locale = pickLocale(locales); this._type = options.type || 'cardinal'; }
  select(n) {
    n = Number(n);
    if (this._type === 'ordinal') {
      const m10 = n % 10, m100 = n % 100;
      if (m10 === 1 && m100 !== 11) return 'one';
      if (m10 === 2 && m100 !== 12) return 'two';
      if (m10 === 3 && m100 !== 13) return 'few';
      return 'other';
    }
    return n === 1 ? 'one' : 'other';
  }
  resolvedOptions() { return { locale: this._locale, type: this._type, pluralCategories: this._type === 'ordinal' ? ['few', 'one', 'two', 'other'] : ['one', 'other'] }; }
  static supportedLocalesOf(l) { return NumberFormat.supportedLocalesOf(l); }
}

class RelativeTimeFormat {
  constructor(locales, options = {}) { this._locale = pickLocale(locales); this._numeric = options.numeric || 'always'; this._style = options.style || 'long'; }
  format(value, unit) {
    unit = String(unit).replace(/s$/, '');
    const v = Number(value);
    if (this._numeric === 'auto') {
      const words = { day: ['yesterday', 'today', 'tomorrow'], year: ['last year', 'this year', 'next year'], month: ['last month', 'this month', 'next month'], week: ['last week', 'this week', 'next week'], hour: [null, 'this hour', null], minute: [null, 'this minute', null], second: [null, 'now', null] };
      if (words[unit] && (v === -1 || v === 0 || v === 1) && words[unit][v + 1]) return words[unit][v + 1];
    }
    const abs = Math.abs(v);
    const n = new NumberFormat(this._locale).format(abs);
    const label = abs === 1 ? unit : `${unit}s`;
    return v < 0 || Object.is(v, -0) ? `${n} ${label} ago` : `in ${n} ${label}`;
  }
  resolvedOptions() { return { locale: this._locale, style: this._style, numeric: this._numeric, numberingSystem: 'latn' }; }
}

class ListFormat {
  constructor(locales, options = {}) { this._locale = pickLocale(locales); this._type = options.type || 'conjunction'; this._style = options.style || 'long'; }
  format(list) {
    const a = [...list].map(String);
    const word = this._type === 'disjunction' ? 'or' : this._type === 'unit' ? '' : (this._style === 'long' ? 'and' : '&');
    if (a.length === 0) return '';
    if (a.length === 1) return a[0];
    if (this._type === 'unit') return a.join(this._style === 'narrow' ? ' ' : ', ');
    if (a.length === 2) return `${a[0]} ${word} ${a[1]}`;
    return `${a.slice(0, -1).join(', ')}, ${word} ${a[a.length - 1]}`;
  }
}

class Segmenter {
  constructor(locales, options = {}) { this._granularity = options.granularity || 'grapheme'; }
  segment(str) {
    str = String(str);
    const out = [];
    if (this._granularity === 'word') {
      const re = /\w+|\s+|[^\w\s]/gu;
      let m;
      while ((m = re.exec(str))) out.push({ segment: m[0], index: m.index, input: str, isWordLike: /\w/.test(m[0]) });
    } else if (this._granularity === 'sentence') {
      const re = /[^.!?]+[.!?]*\s*/g;
      let m;
      while ((m = re.exec(str))) out.push({ segment: m[0], index: m.index, input: str });
    } else {
      let i = 0;
      const re = /(\P{M}\p{M}*|\p{M}+)/gu;
      let m;
      while ((m = re.exec(str))) { out.push({ segment: m[0], index: m.index, input: str }); i += m[0].length; }
    }
    const res = { [Symbol.iterator]: () => out[Symbol.iterator](), containing: (idx) => out.find((s) => idx >= s.index && idx < s.index + s.segment.length) };
    return res;
  }
}

class DisplayNames {
  constructor(locales, options = {}) { this._type = options.type; }
  of(code) { const names = { en: 'English', de: 'German', fr: 'French', es: 'Spanish', US: 'United States', GB: 'United Kingdom', DE: 'Germany', FR: 'France', USD: 'US Dollar', EUR: 'Euro' }; return names[code] || code; }
}

const Intl = {
  NumberFormat, DateTimeFormat, Collator, PluralRules, RelativeTimeFormat, ListFormat, Segmenter, DisplayNames,
  Locale: class Locale { constructor(tag) { this.baseName = canonical(tag); this.language = this.baseName.split('-')[0]; this.region = this.baseName.split('-')[1]; } toString() { return this.baseName; } },
  getCanonicalLocales: (l) => (Array.isArray(l) ? l : l === undefined ? [] : [l]).map(canonical),
  supportedValuesOf: (k) => (k === 'currency' ? Object.keys(currencySymbols).sort() : k === 'timeZone' ? ['UTC'] : []),
};
Object.defineProperty(Intl, Symbol.toStringTag, { value: 'Intl', configurable: true });

function install() {
  if (typeof globalThis.Intl === 'undefined') {
    Object.defineProperty(globalThis, 'Intl', { value: Intl, writable: true, configurable: true, enumerable: false });
  }
  const def = (proto, name, fn) => Object.defineProperty(proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
  def(Number.prototype, 'toLocaleString', function toLocaleString(locales, options) {
    return new NumberFormat(locales, options).format(Number.prototype.valueOf.call(this));
  });
  def(BigInt.prototype, 'toLocaleString', function toLocaleString(locales, options) {
    return new NumberFormat(locales, options).format(Number(BigInt.prototype.valueOf.call(this)));
  });
  def(Date.prototype, 'toLocaleDateString', function toLocaleDateString(locales, options) {
    if (Number.isNaN(this.getTime())) return 'Invalid Date';
    return new DateTimeFormat(locales, options).format(this);
  });
  def(Date.prototype, 'toLocaleTimeString', function toLocaleTimeString(locales, options) {
    if (Number.isNaN(this.getTime())) return 'Invalid Date';
    return new DateTimeFormat(locales, { ...options, _timeOnly: !options || !Object.keys(options).length }).format(this);
  });
  def(Date.prototype, 'toLocaleString', function toLocaleString(locales, options) {
    if (Number.isNaN(this.getTime())) return 'Invalid Date';
    return new DateTimeFormat(locales, { ...options, _defaultTime: !options || !Object.keys(options).length }).format(this);
  });
  const collator = new Collator();
  def(String.prototype, 'localeCompare', function localeCompare(that, locales, options) {
    return (locales === undefined && options === undefined ? collator : new Collator(locales, options)).compare(String(this), String(that));
  });
  def(Array.prototype, 'toLocaleString', function toLocaleString(locales, options) {
    return Array.prototype.map.call(this, (v) => (v == null ? '' : v.toLocaleString(locales, options))).join(',');
  });
}

module.exports = { Intl, install };
