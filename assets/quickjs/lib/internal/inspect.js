'use strict';
// util.inspect and util.format: the output Node 20 prints for values, written
// for QuickJS from Node's documented rules (breakLength 80, compact 3, depth 2,
// arrays of more than 6 items grouped in columns, <ref *1> and [Circular *1]).

const customInspectSymbol = Symbol.for('nodejs.util.inspect.custom');
const toStr = (v) => Object.prototype.toString.call(v);
const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const isEnumerable = (o, k) => Object.prototype.propertyIsEnumerable.call(o, k);

const inspectDefaultOptions = {
  showHidden: false, depth: 2, colors: false, customInspect: true, showProxy: false,
  maxArrayLength: 100, maxStringLength: 10000, breakLength: 80, compact: 3, sorted: false,
  getters: false, numericSeparator: false,
};

const kObjectType = 0, kArrayType = 1, kArrayExtrasType = 2;

const colors = Object.assign(Object.create(null), {
  reset: [0, 0], bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24], blink: [5, 25],
  inverse: [7, 27], hidden: [8, 28], strikethrough: [9, 29], doubleunderline: [21, 24],
  black: [30, 39], red: [31, 39], green: [32, 39], yellow: [33, 39], blue: [34, 39], magenta: [35, 39],
  cyan: [36, 39], white: [37, 39], bgBlack: [40, 49], bgRed: [41, 49], bgGreen: [42, 49],
  bgYellow: [43, 49], bgBlue: [44, 49], bgMagenta: [45, 49], bgCyan: [46, 49], bgWhite: [47, 49],
  framed: [51, 54], overlined: [53, 55], gray: [90, 39], grey: [90, 39], redBright: [91, 39],
  greenBright: [92, 39], yellowBright: [93, 39], blueBright: [94, 39], magentaBright: [95, 39],
  cyanBright: [96, 39], whiteBright: [97, 39],
});
const styles = Object.assign(Object.create(null), {
  special: 'cyan', number: 'yellow', bigint: 'yellow', boolean: 'yellow', undefined: 'grey',
  null: 'bold', string: 'green', symbol: 'green', date: 'magenta', regexp: 'red', module: 'underline',
});

function stylizeWithColor(str, type) {
  const style = styles[type];
  if (style !== undefined) {
    const c = colors[style];
    if (c) return `\u001b[${c[0]}m${str}\u001b[${c[1]}m`;
  }
  return str;
}
function stylizeNoColor(str) { return str; }
const ansiRe = /[\u001b\u009b][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g;
function stripVTControlCharacters(s) { return s.replace(ansiRe, ''); }

function isFullWidth(c) {
  return c >= 0x1100 && (c <= 0x115f || c === 0x2329 || c === 0x232a ||
    (c >= 0x2e80 && c <= 0x3247 && c !== 0x303f) || (c >= 0x3250 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0xa4c6) || (c >= 0xa960 && c <= 0xa97c) || (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe10 && c <= 0xfe19) || (c >= 0xfe30 && c <= 0xfe6b) ||
    (c >= 0xff01 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1b000 && c <= 0x1b001) ||
    (c >= 0x1f200 && c <= 0x1f251) || (c >= 0x1f300 && c <= 0x1f64f) || (c >= 0x20000 && c <= 0x3fffd));
}
function isZeroWidth(c) {
  return c <= 0x1f || (c >= 0x7f && c <= 0x9f) || (c >= 0x300 && c <= 0x36f) ||
    (c >= 0x200b && c <= 0x200f) || (c >= 0x20d0 && c <= 0x20ff) || (c >= 0xfe00 && c <= 0xfe0f) ||
    (c >= 0xfe20 && c <= 0xfe2f) || (c >= 0xe0100 && c <= 0xe01ef);
}
function getStringWidth(str, removeControlChars = true) {
  if (removeControlChars) str = stripVTControlCharacters(str);
  let width = 0;
  for (const ch of str) {
    const c = ch.codePointAt(0);
    if (c < 0x7f && c >= 0x20) width++;
    else if (isFullWidth(c)) width += 2;
    else if (!isZeroWidth(c)) width++;
  }
  return width;
}

const strEscapeRe = /[\x00-\x1f\x27\x5c\x7f-\x9f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const strEscapeReG = new RegExp(strEscapeRe.source, 'g');
const strEscapeReSingle = /[\x00-\x1f\x5c\x7f-\x9f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const strEscapeReSingleG = new RegExp(strEscapeReSingle.source, 'g');
const meta = ['\\x00', '\\x01', '\\x02', '\\x03', '\\x04', '\\x05', '\\x06', '\\x07', '\\b', '\\t', '\\n',
  '\\x0B', '\\f', '\\r', '\\x0E', '\\x0F', '\\x10', '\\x11', '\\x12', '\\x13', '\\x14', '\\x15', '\\x16',
  '\\x17', '\\x18', '\\x19', '\\x1A', '\\x1B', '\\x1C', '\\x1D', '\\x1E', '\\x1F'];
function escapeFn(s) {
  const c = s.charCodeAt(0);
  if (c < 32) return meta[c];
  if (c === 39) return "\\'";
  if (c === 92) return '\\\\';
  if (c < 0x100) return `\\x${c.toString(16).toUpperCase().padStart(2, '0')}`;
  return `\\u${c.toString(16).padStart(4, '0')}`;
}
function strEscape(str) {
  let re = strEscapeRe, reG = strEscapeReG, quote = "'";
  if (str.includes("'")) {
    if (!str.includes('"')) quote = '"';
    else if (!str.includes('`') && !str.includes('${')) quote = '`';
    if (quote !== "'") { re = strEscapeReSingle; reG = strEscapeReSingleG; }
  }
  if (!re.test(str)) return quote + str + quote;
  return quote + str.replace(reG, escapeFn) + quote;
}

const keyStrRe = /^[a-zA-Z_][a-zA-Z_0-9]*$/;

function formatNumber(fn, n, numericSeparator) {
  if (Object.is(n, -0)) return fn('-0', 'number');
  if (!numericSeparator) return fn(`${n}`, 'number');
  const s = `${n}`;
  if (!Number.isInteger(n)) return fn(s, 'number');
  return fn(s.replace(/\B(?=(\d{3})+(?!\d))/g, '_'), 'number');
}
function formatBigInt(fn, n) { return fn(`${n}n`, 'bigint'); }

function formatPrimitive(fn, value, ctx) {
  if (typeof value === 'string') {
    let trailer = '';
    if (value.length > ctx.maxStringLength) {
      const remaining = value.length - ctx.maxStringLength;
      value = value.slice(0, ctx.maxStringLength);
      trailer = `... ${remaining} more character${remaining > 1 ? 's' : ''}`;
    }
    if (ctx.compact !== true && value.length > 16 && value.length > ctx.breakLength - ctx.indentationLvl - 4) {
      return value.split(/(?<=\n)/).map((line) => fn(strEscape(line), 'string'))
        .join(` +\n${' '.repeat(ctx.indentationLvl + 2)}`) + trailer;
    }
    return fn(strEscape(value), 'string') + trailer;
  }
  if (typeof value === 'number') return formatNumber(fn, value, ctx.numericSeparator);
  if (typeof value === 'bigint') return formatBigInt(fn, value);
  if (typeof value === 'boolean') return fn(`${value}`, 'boolean');
  if (typeof value === 'undefined') return fn('undefined', 'undefined');
  return fn(Symbol.prototype.toString.call(value), 'symbol');
}

// type checks (one realm: the prototype chain and the internal tag)
const types = {
  isDate: (v) => v instanceof Date,
  isRegExp: (v) => v instanceof RegExp,
  isMap: (v) => v instanceof Map,
  isSet: (v) => v instanceof Set,
  isWeakMap: (v) => v instanceof WeakMap,
  isWeakSet: (v) => v instanceof WeakSet,
  isPromise: (v) => v instanceof Promise,
  isArrayBuffer: (v) => v instanceof ArrayBuffer,
  isSharedArrayBuffer: (v) => typeof SharedArrayBuffer !== 'undefined' && v instanceof SharedArrayBuffer,
  isDataView: (v) => v instanceof DataView,
  isTypedArray: (v) => ArrayBuffer.isView(v) && !(v instanceof DataView),
  isNativeError: (v) => native.isError(v),
  isBoxedPrimitive: (v) => v instanceof Number || v instanceof String || v instanceof Boolean ||
    (typeof BigInt !== 'undefined' && v instanceof BigInt) || v instanceof Symbol,
  isArgumentsObject: (v) => toStr(v) === '[object Arguments]',
  isGeneratorFunction: (v) => typeof v === 'function' && /^(?:async\s*)?function\s*\*/.test(Function.prototype.toString.call(v)),
  isAsyncFunction: (v) => typeof v === 'function' && v.constructor && (v.constructor.name === 'AsyncFunction' || v.constructor.name === 'AsyncGeneratorFunction'),
  isMapIterator: (v) => toStr(v) === '[object Map Iterator]',
  isSetIterator: (v) => toStr(v) === '[object Set Iterator]',
  isGeneratorObject: (v) => toStr(v) === '[object Generator]',
  isModuleNamespaceObject: (v) => v != null && typeof v === 'object' && toStr(v) === '[object Module]' && Object.getPrototypeOf(v) === null,
  isProxy: () => false,
  isExternal: () => false,
  isAnyArrayBuffer: (v) => v instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && v instanceof SharedArrayBuffer),
  isArrayBufferView: (v) => ArrayBuffer.isView(v),
  isNumberObject: (v) => v instanceof Number,
  isStringObject: (v) => v instanceof String,
  isBooleanObject: (v) => v instanceof Boolean,
  isBigIntObject: (v) => typeof BigInt !== 'undefined' && v instanceof BigInt,
  isSymbolObject: (v) => v instanceof Symbol,
  isWeakRef: (v) => typeof WeakRef !== 'undefined' && v instanceof WeakRef,
  isKeyObject: () => false,
  isCryptoKey: () => false,
};
for (const t of ['Uint8Array', 'Uint8ClampedArray', 'Uint16Array', 'Uint32Array', 'Int8Array', 'Int16Array',
  'Int32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array']) {
  const C = globalThis[t];
  types[`is${t}`] = (v) => C !== undefined && v instanceof C;
}
function isError(v) {
  return native.isError(v) || v instanceof Error;
}

function getConstructorName(obj, ctx, recurseTimes) {
  let firstProto;
  const tmp = obj;
  while (obj || isUndetectable(obj)) {
    const d = Object.getOwnPropertyDescriptor(obj, 'constructor');
    if (d !== undefined && typeof d.value === 'function' && d.value.name !== '' && isInstanceof(tmp, d.value)) {
      return d.value.name;
    }
    obj = Object.getPrototypeOf(obj);
    if (firstProto === undefined) firstProto = obj;
  }
  if (firstProto === null) return null;
  const res = internalConstructorName(tmp);
  if (recurseTimes > ctx.depth && ctx.depth !== null) return `${res} <Complex prototype>`;
  const protoConstr = getConstructorName(firstProto, ctx, recurseTimes + 1);
  if (protoConstr === null) {
    return `${res} <${inspect(firstProto, { ...ctx, customInspect: false, depth: -1 })}>`;
  }
  return `${res} <${protoConstr}>`;
}
function isUndetectable() { return false; }
function isInstanceof(o, C) { try { return o instanceof C; } catch { return false; } }
function internalConstructorName(v) {
  const t = toStr(v).slice(8, -1);
  return t === 'Object' && typeof v === 'function' ? 'Function' : t;
}

function getPrefix(constructor, tag, fallback, size = '') {
  if (constructor === null) {
    if (tag !== '' && fallback !== tag) return `[${fallback}${size}: null prototype] [${tag}] `;
    return `[${fallback}${size}: null prototype] `;
  }
  if (tag !== '' && constructor !== tag) return `${constructor}${size} [${tag}] `;
  return `${constructor}${size} `;
}

function getKeys(value, showHidden) {
  let keys;
  const symbols = Object.getOwnPropertySymbols(value);
  if (showHidden) {
    keys = Object.getOwnPropertyNames(value);
    if (symbols.length !== 0) keys.push(...symbols);
  } else {
    try { keys = Object.keys(value); } catch { keys = Object.getOwnPropertyNames(value); }
    if (symbols.length !== 0) keys.push(...symbols.filter((k) => isEnumerable(value, k)));
  }
  return keys;
}
function getOwnNonIndexProperties(value, showHidden) {
  const all = showHidden ? Object.getOwnPropertyNames(value) : Object.keys(value);
  const out = [];
  for (const k of all) {
    if (/^(0|[1-9][0-9]*)$/.test(k) && +k < 4294967295) continue;
    out.push(k);
  }
  for (const s of Object.getOwnPropertySymbols(value)) if (showHidden || isEnumerable(value, s)) out.push(s);
  return out;
}

function getCtxStyle(value, constructor, tag) {
  let fallback = '';
  if (constructor === null) {
    fallback = internalConstructorName(value);
    if (fallback === tag) fallback = 'Object';
  }
  return getPrefix(constructor, tag, fallback);
}

function inspect(value, opts) {
  const ctx = {
    budget: {}, indentationLvl: 0, seen: [], currentDepth: 0, stylize: stylizeNoColor,
    showHidden: inspectDefaultOptions.showHidden, depth: inspectDefaultOptions.depth,
    colors: inspectDefaultOptions.colors, customInspect: inspectDefaultOptions.customInspect,
    showProxy: inspectDefaultOptions.showProxy, maxArrayLength: inspectDefaultOptions.maxArrayLength,
    maxStringLength: inspectDefaultOptions.maxStringLength, breakLength: inspectDefaultOptions.breakLength,
    compact: inspectDefaultOptions.compact, sorted: inspectDefaultOptions.sorted,
    getters: inspectDefaultOptions.getters, numericSeparator: inspectDefaultOptions.numericSeparator,
  };
  if (arguments.length > 1) {
    if (arguments.length > 2) {
      if (arguments[2] !== undefined) ctx.depth = arguments[2];
      if (arguments.length > 3 && arguments[3] !== undefined) ctx.colors = arguments[3];
    }
    if (typeof opts === 'boolean') ctx.showHidden = opts;
    else if (opts) {
      for (const key of Object.keys(opts)) {
        if (hasOwn(inspectDefaultOptions, key) || key === 'stylize') ctx[key] = opts[key];
        else if (ctx.userOptions === undefined) ctx.userOptions = opts;
      }
    }
  }
  if (ctx.colors) ctx.stylize = stylizeWithColor;
  if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
  if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
  return formatValue(ctx, value, 0);
}
inspect.custom = customInspectSymbol;
Object.defineProperty(inspect, 'defaultOptions', {
  get() { return inspectDefaultOptions; },
  set(o) { Object.assign(inspectDefaultOptions, o); },
});
inspect.colors = colors;
inspect.styles = styles;

function getUserOptions(ctx, isCrossContext) {
  const ret = { stylize: ctx.stylize, ...inspectDefaultOptions };
  for (const k of Object.keys(inspectDefaultOptions)) ret[k] = ctx[k];
  if (ctx.userOptions) Object.assign(ret, ctx.userOptions);
  return ret;
}

function formatValue(ctx, value, recurseTimes, typedArray) {
  if (typeof value !== 'object' && typeof value !== 'function' && !isUndetectable(value)) {
    return formatPrimitive(ctx.stylize, value, ctx);
  }
  if (value === null) return ctx.stylize('null', 'null');
  const context = value;
  if (ctx.customInspect) {
    let maybeCustom;
    try { maybeCustom = value[customInspectSymbol]; } catch { maybeCustom = undefined; }
    if (typeof maybeCustom === 'function' && maybeCustom !== inspect &&
        !(value.constructor && value.constructor.prototype === value)) {
      const depth = ctx.depth === null ? null : ctx.depth - recurseTimes;
      const ret = maybeCustom.call(context, depth, getUserOptions(ctx), inspect);
      if (ret !== context) {
        if (typeof ret !== 'string') return formatValue(ctx, ret, recurseTimes);
        return ret.replace(/\n/g, `\n${' '.repeat(ctx.indentationLvl)}`);
      }
    }
  }
  if (ctx.seen.includes(value)) {
    let index = 1;
    if (ctx.circular === undefined) {
      ctx.circular = new Map();
      ctx.circular.set(value, index);
    } else {
      index = ctx.circular.get(value);
      if (index === undefined) {
        index = ctx.circular.size + 1;
        ctx.circular.set(value, index);
      }
    }
    return ctx.stylize(`[Circular *${index}]`, 'special');
  }
  return formatRaw(ctx, value, recurseTimes, typedArray);
}

function formatRaw(ctx, value, recurseTimes, typedArray) {
  let keys, protoProps;
  const constructor = getConstructorName(value, ctx, recurseTimes);
  let tag;
  try { tag = value[Symbol.toStringTag]; } catch { tag = ''; }
  if (typeof tag !== 'string' || (tag !== '' && (ctx.showHidden ? hasOwn : isEnumerable)(value, Symbol.toStringTag))) tag = '';
  let base = '';
  let formatter = getEmptyFormatArray;
  let braces;
  let noIterator = true;
  let i = 0;
  let extrasType = kObjectType;

  let iter;
  try { iter = value[Symbol.iterator]; } catch { iter = undefined; }
  if (iter || constructor === null) {
    noIterator = false;
    if (Array.isArray(value)) {
      const prefix = (constructor !== 'Array' || tag !== '') ? getPrefix(constructor, tag, 'Array', `(${value.length})`) : '';
      keys = getOwnNonIndexProperties(value, ctx.showHidden);
      braces = [`${prefix}[`, ']'];
      if (value.length === 0 && keys.length === 0 && protoProps === undefined) return `${braces[0]}]`;
      extrasType = kArrayExtrasType;
      formatter = formatArray;
    } else if (types.isSet(value)) {
      const size = value.size;
      const prefix = getPrefix(constructor, tag, 'Set', `(${size})`);
      keys = getKeys(value, ctx.showHidden);
      formatter = constructor !== null ? formatSet.bind(null, value) : formatSet.bind(null, Set.prototype.values.call(value));
      if (size === 0 && keys.length === 0 && protoProps === undefined) return `${prefix}{}`;
      braces = [`${prefix}{`, '}'];
    } else if (types.isMap(value)) {
      const size = value.size;
      const prefix = getPrefix(constructor, tag, 'Map', `(${size})`);
      keys = getKeys(value, ctx.showHidden);
      formatter = constructor !== null ? formatMap.bind(null, value) : formatMap.bind(null, Map.prototype.entries.call(value));
      if (size === 0 && keys.length === 0 && protoProps === undefined) return `${prefix}{}`;
      braces = [`${prefix}{`, '}'];
    } else if (types.isTypedArray(value)) {
      keys = getOwnNonIndexProperties(value, ctx.showHidden);
      let bound = value;
      let fallback = '';
      if (constructor === null) { fallback = internalConstructorName(value); bound = value; }
      const size = value.length;
      const prefix = getPrefix(constructor, tag, fallback, `(${size})`);
      braces = [`${prefix}[`, ']'];
      if (value.length === 0 && keys.length === 0 && !ctx.showHidden) return `${braces[0]}]`;
      formatter = formatTypedArray.bind(null, bound, size);
      extrasType = kArrayExtrasType;
    } else if (types.isMapIterator(value)) {
      keys = getKeys(value, ctx.showHidden);
      braces = getIteratorBraces('Map', tag);
      formatter = formatIterator.bind(null, braces);
    } else if (types.isSetIterator(value)) {
      keys = getKeys(value, ctx.showHidden);
      braces = getIteratorBraces('Set', tag);
      formatter = formatIterator.bind(null, braces);
    } else {
      noIterator = true;
    }
  }
  if (noIterator) {
    keys = getKeys(value, ctx.showHidden);
    braces = ['{', '}'];
    if (constructor === 'Object') {
      if (types.isArgumentsObject(value)) braces[0] = '[Arguments] {';
      else if (tag !== '') braces[0] = `${getPrefix(constructor, tag, 'Object')}{`;
      if (keys.length === 0 && protoProps === undefined) return `${braces[0]}}`;
    } else if (typeof value === 'function') {
      base = getFunctionBase(value, constructor, tag);
      keys = keys.filter((k) => k !== 'prototype' || ctx.showHidden);
      if (keys.length === 0 && protoProps === undefined) return ctx.stylize(base, 'special');
    } else if (types.isRegExp(value)) {
      base = RegExp.prototype.toString.call(constructor !== null ? value : new RegExp(value));
      const prefix = getPrefix(constructor, tag, 'RegExp');
      if (prefix !== 'RegExp ') base = `${prefix}${base}`;
      keys = keys.filter((k) => k !== 'lastIndex');
      if ((keys.length === 0 && protoProps === undefined) || (recurseTimes > ctx.depth && ctx.depth !== null)) return ctx.stylize(base, 'regexp');
    } else if (types.isDate(value)) {
      base = Number.isNaN(Date.prototype.getTime.call(value)) ? Date.prototype.toString.call(value) : Date.prototype.toISOString.call(value);
      const prefix = getPrefix(constructor, tag, 'Date');
      if (prefix !== 'Date ') base = `${prefix}${base}`;
      if (keys.length === 0 && protoProps === undefined) return ctx.stylize(base, 'date');
    } else if (isError(value)) {
      base = formatError(value, constructor, tag, ctx, keys);
      if (keys.length === 0 && protoProps === undefined) return base;
    } else if (types.isAnyArrayBuffer(value)) {
      const arrayType = types.isArrayBuffer(value) ? 'ArrayBuffer' : 'SharedArrayBuffer';
      const prefix = getPrefix(constructor, tag, arrayType);
      if (typedArray === undefined) formatter = formatArrayBuffer;
      else if (keys.length === 0 && protoProps === undefined) return prefix + `{ byteLength: ${formatNumber(ctx.stylize, value.byteLength, false)} }`;
      braces[0] = `${prefix}{`;
      keys.unshift('byteLength');
    } else if (types.isDataView(value)) {
      braces[0] = `${getPrefix(constructor, tag, 'DataView')}{`;
      keys.unshift('byteLength', 'byteOffset', 'buffer');
    } else if (types.isPromise(value)) {
      braces[0] = `${getPrefix(constructor, tag, 'Promise')}{`;
      formatter = formatPromise;
    } else if (types.isWeakSet(value)) {
      braces[0] = `${getPrefix(constructor, tag, 'WeakSet')}{`;
      formatter = formatWeakCollection;
    } else if (types.isWeakMap(value)) {
      braces[0] = `${getPrefix(constructor, tag, 'WeakMap')}{`;
      formatter = formatWeakCollection;
    } else if (types.isModuleNamespaceObject(value)) {
      braces[0] = `${getPrefix(constructor, tag, 'Module')}{`;
      formatter = formatNamespaceObject.bind(null, keys);
    } else if (types.isBoxedPrimitive(value)) {
      base = getBoxedBase(value, ctx, keys, constructor, tag);
      if (keys.length === 0 && protoProps === undefined) return base;
    } else {
      if (keys.length === 0 && protoProps === undefined) {
        return `${getCtxStyle(value, constructor, tag)}{}`;
      }
      braces[0] = `${getCtxStyle(value, constructor, tag)}{`;
    }
  }

  if (recurseTimes > ctx.depth && ctx.depth !== null) {
    let constructorName = getCtxStyle(value, constructor, tag).slice(0, -1);
    if (constructor !== null) constructorName = `[${constructorName}]`;
    return ctx.stylize(constructorName, 'special');
  }
  recurseTimes += 1;
  ctx.seen.push(value);
  ctx.currentDepth = recurseTimes;
  let output;
  try {
    output = formatter(ctx, value, recurseTimes);
    for (i = 0; i < keys.length; i++) {
      output.push(formatProperty(ctx, value, recurseTimes, keys[i], extrasType));
    }
  } catch (err) {
    if (err instanceof RangeError || (err && err.name === 'InternalError')) {
      ctx.seen.pop();
      return ctx.stylize(`[${getCtxStyle(value, constructor, tag).slice(0, -1)}: Inspection interrupted prematurely. Maximum call stack size exceeded.]`, 'special');
    }
    throw err;
  }
  if (ctx.circular !== undefined) {
    const index = ctx.circular.get(value);
    if (index !== undefined) {
      const reference = ctx.stylize(`<ref *${index}>`, 'special');
      if (ctx.compact !== true) base = base === '' ? reference : `${reference} ${base}`;
      else braces[0] = `${reference} ${braces[0]}`;
    }
  }
  ctx.seen.pop();
  if (ctx.sorted) {
    const comparator = ctx.sorted === true ? undefined : ctx.sorted;
    if (extrasType === kObjectType) output = output.sort(comparator);
    else if (keys.length > 1) {
      const sorted = output.slice(output.length - keys.length).sort(comparator);
      output.splice(output.length - keys.length, keys.length, ...sorted);
    }
  }
  const res = reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value);
  const budget = ctx.budget[ctx.indentationLvl] || 0;
  const newLength = budget + res.length;
  ctx.budget[ctx.indentationLvl] = newLength;
  if (newLength > 2 ** 27) ctx.depth = -1;
  return res;
}

function getEmptyFormatArray() { return []; }

function getIteratorBraces(type, tag) {
  if (tag !== `${type} Iterator`) {
    if (tag !== '') tag += '] [';
    tag += `${type} Iterator`;
  }
  return [`[${tag}] {`, '}'];
}

function getBoxedBase(value, ctx, keys, constructor, tag) {
  let type, prim;
  if (types.isNumberObject(value)) { type = 'Number'; prim = Number.prototype.valueOf.call(value); }
  else if (types.isStringObject(value)) {
    type = 'String'; prim = String.prototype.valueOf.call(value);
    keys.splice(0, prim.length);
  } else if (types.isBooleanObject(value)) { type = 'Boolean'; prim = Boolean.prototype.valueOf.call(value); }
  else if (types.isBigIntObject(value)) { type = 'BigInt'; prim = BigInt.prototype.valueOf.call(value); }
  else { type = 'Symbol'; prim = Symbol.prototype.valueOf.call(value); }
  let base = `[${type}`;
  if (type !== constructor) base += constructor === null ? ' (null prototype)' : ` (${constructor})`;
  base += `: ${formatPrimitive(stylizeNoColor, prim, ctx)}]`;
  if (tag !== '' && tag !== constructor) base += ` [${tag}]`;
  if (keys.length !== 0 || ctx.stylize === stylizeNoColor) return base;
  return ctx.stylize(base, type.toLowerCase());
}

function getClassBase(value, constructor, tag) {
  const name = hasOwn(value, 'name') && value.name;
  let base = `class ${name || '(anonymous)'}`;
  if (constructor !== 'Function' && constructor !== null) base += ` [${constructor}]`;
  if (tag !== '' && constructor !== tag) base += ` [${tag}]`;
  if (constructor !== null) {
    const superName = Object.getPrototypeOf(value).name;
    if (superName) base += ` extends ${superName}`;
  } else {
    base += ' extends [null prototype]';
  }
  return `[${base}]`;
}

function getFunctionBase(value, constructor, tag) {
  let src;
  try { src = Function.prototype.toString.call(value); } catch { src = ''; }
  if (src.startsWith('class') && /^class(?:\s|{|$)/.test(src.slice(0, 6))) return getClassBase(value, constructor, tag);
  let type = 'Function';
  if (types.isGeneratorFunction(value)) type = `Generator${type}`;
  if (types.isAsyncFunction(value)) type = `Async${type}`;
  let base = `[${type}`;
  if (constructor === null) base += ' (null prototype)';
  if (value.name === '' || typeof value.name !== 'string') base += ' (anonymous)';
  else base += `: ${value.name}`;
  base += ']';
  if (constructor !== type && constructor !== null) base += ` ${constructor}`;
  if (tag !== '' && constructor !== tag) base += ` [${tag}]`;
  return base;
}

function formatError(err, constructor, tag, ctx, keys) {
  const name = err.name != null ? String(err.name) : 'Error';
  const stack = getStackString(err);
  removeDuplicateErrorKeys(ctx, keys, err, stack);
  if ('cause' in err && (keys.length === 0 || !keys.includes('cause'))) keys.push('cause');
  if (Array.isArray(err.errors) && (keys.length === 0 || !keys.includes('errors'))) keys.push('errors');
  let s = improveStack(stack, constructor, name, tag);
  let pos = (err.message && s.indexOf(err.message)) || -1;
  if (pos !== -1) pos += err.message.length;
  const stackStart = s.indexOf('\n    at', pos);
  if (stackStart === -1) s = `[${s}]`;
  if (ctx.indentationLvl !== 0) {
    const indentation = ' '.repeat(ctx.indentationLvl);
    s = s.replace(/\n/g, `\n${indentation}`);
  }
  return s;
}
function getStackString(err) {
  let stack;
  try { stack = err.stack; } catch { stack = undefined; }
  if (stack) return typeof stack === 'string' ? stack : String(stack);
  return Error.prototype.toString.call(err);
}
function removeDuplicateErrorKeys(ctx, keys, err, stack) {
  if (!ctx.showHidden && keys.length !== 0) {
    for (const name of ['name', 'message', 'stack']) {
      const index = keys.indexOf(name);
      if (index !== -1 && (typeof err[name] !== 'string' || stack.includes(err[name]))) keys.splice(index, 1);
    }
  }
}
function improveStack(stack, constructor, name, tag) {
  let len = name.length;
  if (constructor === null || (name.endsWith('Error') && stack.startsWith(name) &&
      (stack.length === len || stack[len] === ':' || stack[len] === '\n'))) {
    let fallback = 'Error';
    if (constructor === null) {
      const start = stack.match(/^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n\s+at)/) || stack.match(/^([a-z_A-Z0-9-]*Error)$/);
      fallback = (start && start[1]) || '';
      len = fallback.length;
      fallback = fallback || 'Error';
    }
    const prefix = getPrefix(constructor, tag, fallback).slice(0, -1);
    if (name !== prefix) {
      if (prefix.includes(name)) {
        if (len === 0) stack = `${prefix}: ${stack}`;
        else stack = `${prefix}${stack.slice(len)}`;
      } else {
        stack = `${prefix} [${name}]${stack.slice(len)}`;
      }
    }
  }
  return stack;
}

function groupArrayElements(ctx, output, value) {
  let totalLength = 0;
  let maxLength = 0;
  let i = 0;
  let outputLength = output.length;
  if (ctx.maxArrayLength < output.length) outputLength--;
  const separatorSpace = 2;
  const dataLen = new Array(outputLength);
  for (; i < outputLength; i++) {
    const len = getStringWidth(output[i], ctx.colors);
    dataLen[i] = len;
    totalLength += len + separatorSpace;
    if (maxLength < len) maxLength = len;
  }
  const actualMax = maxLength + separatorSpace;
  if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength &&
      (totalLength / actualMax > 5 || maxLength <= 6)) {
    const approxCharHeights = 2.5;
    const averageBias = Math.sqrt(actualMax - totalLength / output.length);
    const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
    const columns = Math.min(
      Math.round(Math.sqrt(approxCharHeights * biasedMax * outputLength) / biasedMax),
      Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax),
      ctx.compact * 4,
      15,
    );
    if (columns <= 1) return output;
    const tmp = [];
    const maxLineLength = [];
    for (let c = 0; c < columns; c++) {
      let lineLength = 0;
      for (let j = c; j < output.length; j += columns) {
        if (dataLen[j] > lineLength) lineLength = dataLen[j];
      }
      maxLineLength.push(lineLength + separatorSpace);
    }
    let order = String.prototype.padStart;
    if (value !== undefined) {
      for (let k = 0; k < output.length; k++) {
        if (typeof value[k] !== 'number' && typeof value[k] !== 'bigint') {
          order = String.prototype.padEnd;
          break;
        }
      }
    }
    for (let k = 0; k < outputLength; k += columns) {
      const max = Math.min(k + columns, outputLength);
      let str = '';
      let j = k;
      for (; j < max - 1; j++) {
        const padding = maxLineLength[j - k] + output[j].length - dataLen[j];
        str += order.call(`${output[j]}, `, padding, ' ');
      }
      if (order === String.prototype.padStart) {
        const padding = maxLineLength[j - k] + output[j].length - dataLen[j] - separatorSpace;
        str += output[j].padStart(padding, ' ');
      } else {
        str += output[j];
      }
      tmp.push(str);
    }
    if (ctx.maxArrayLength < output.length) tmp.push(output[outputLength]);
    output = tmp;
  }
  return output;
}

function isBelowBreakLength(ctx, output, start, base) {
  let totalLength = output.length + start;
  if (totalLength + output.length > ctx.breakLength) return false;
  for (let i = 0; i < output.length; i++) {
    if (ctx.colors) totalLength += stripVTControlCharacters(output[i]).length;
    else totalLength += output[i].length;
    if (totalLength > ctx.breakLength) return false;
  }
  return base === '' || !base.includes('\n');
}

function reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value) {
  if (ctx.compact !== true) {
    if (typeof ctx.compact === 'number' && ctx.compact >= 1) {
      const entries = output.length;
      if (extrasType === kArrayExtrasType && entries > 6) output = groupArrayElements(ctx, output, value);
      if (ctx.currentDepth - recurseTimes < ctx.compact && entries === output.length) {
        const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
        if (isBelowBreakLength(ctx, output, start, base)) {
          const joined = output.join(', ');
          if (!joined.includes('\n')) {
            return `${base ? `${base} ` : ''}${braces[0]} ${joined}` + ` ${braces[1]}`;
          }
        }
      }
    }
    const indentation = `\n${' '.repeat(ctx.indentationLvl)}`;
    return `${base ? `${base} ` : ''}${braces[0]}${indentation}  ${output.join(`,${indentation}  `)}${indentation}${braces[1]}`;
  }
  if (isBelowBreakLength(ctx, output, 0, base)) {
    return `${braces[0]}${base ? ` ${base}` : ''} ${output.join(', ')} ` + braces[1];
  }
  const indentation = ' '.repeat(ctx.indentationLvl);
  const ln = base === '' && braces[0].length === 1 ? ' ' : `${base ? ` ${base}` : ''}\n${indentation}  `;
  return `${braces[0]}${ln}${output.join(`,\n${indentation}  `)} ${braces[1]}`;
}

function formatArrayBuffer(ctx, value) {
  let buffer;
  try { buffer = new Uint8Array(value); } catch { return [ctx.stylize('(detached)', 'special')]; }
  let str = '';
  const n = Math.min(ctx.maxArrayLength, buffer.length);
  for (let i = 0; i < n; i++) str += (i ? ' ' : '') + buffer[i].toString(16).padStart(2, '0');
  const remaining = buffer.length - ctx.maxArrayLength;
  if (remaining > 0) str += ` ... ${remaining} more byte${remaining > 1 ? 's' : ''}`;
  return [`${ctx.stylize('[Uint8Contents]', 'special')}: <${str}>`];
}

function formatArray(ctx, value, recurseTimes) {
  const valLen = value.length;
  const len = Math.min(Math.max(0, ctx.maxArrayLength), valLen);
  const remaining = valLen - len;
  const output = [];
  for (let i = 0; i < len; i++) {
    if (!hasOwn(value, i)) return formatArrayWithHoles(ctx, value, recurseTimes, len, output, i);
    output.push(formatProperty(ctx, value, recurseTimes, i, kArrayType));
  }
  if (remaining > 0) output.push(remainingText(remaining));
  return output;
}
function formatArguments(ctx, value, recurseTimes) {
  return formatArray(ctx, Array.prototype.slice.call(value), recurseTimes);
}
function remainingText(remaining) { return `... ${remaining} more item${remaining > 1 ? 's' : ''}`; }

function formatArrayWithHoles(ctx, value, recurseTimes, maxLength, output, i) {
  const keys = Object.keys(value);
  let index = i;
  for (; i < keys.length && output.length < maxLength; i++) {
    const key = keys[i];
    const tmp = +key;
    if (tmp > 2 ** 32 - 2) break;
    if (`${index}` !== key) {
      if (!/^(0|[1-9][0-9]*)$/.test(key)) break;
      const emptyItems = tmp - index;
      output.push(ctx.stylize(`<${emptyItems} empty item${emptyItems > 1 ? 's' : ''}>`, 'undefined'));
      index = tmp;
      if (output.length === maxLength) break;
    }
    output.push(formatProperty(ctx, value, recurseTimes, key, kArrayType));
    index++;
  }
  const remaining = value.length - index;
  if (output.length !== maxLength) {
    if (remaining > 0) output.push(ctx.stylize(`<${remaining} empty item${remaining > 1 ? 's' : ''}>`, 'undefined'));
  } else if (remaining > 0) {
    output.push(remainingText(remaining));
  }
  return output;
}

function formatTypedArray(value, length, ctx, ignored, recurseTimes) {
  const maxLength = Math.min(Math.max(0, ctx.maxArrayLength), length);
  const remaining = value.length - maxLength;
  const output = new Array(maxLength);
  const elementFormatter = value.length > 0 && typeof value[0] === 'number' ? formatNumber : formatBigInt;
  for (let i = 0; i < maxLength; ++i) output[i] = elementFormatter(ctx.stylize, value[i], ctx.numericSeparator);
  if (remaining > 0) output[maxLength] = remainingText(remaining);
  if (ctx.showHidden) {
    ctx.indentationLvl += 2;
    for (const key of ['BYTES_PER_ELEMENT', 'length', 'byteLength', 'byteOffset', 'buffer']) {
      const str = formatValue(ctx, value[key], recurseTimes, true);
      output.push(`[${key}]: ${str}`);
    }
    ctx.indentationLvl -= 2;
  }
  return output;
}

// a Set's values or a Map's entries, up to maxArrayLength
function formatCollection(value, ctx, recurseTimes, one) {
  const maxLength = Math.min(Math.max(0, ctx.maxArrayLength), value.size);
  const remaining = value.size - maxLength;
  const output = [];
  ctx.indentationLvl += 2;
  for (const item of value) {
    if (output.length >= maxLength) break;
    output.push(one(item));
  }
  if (remaining > 0) output.push(remainingText(remaining));
  ctx.indentationLvl -= 2;
  return output;
}
function formatSet(value, ctx, ignored, recurseTimes) {
  return formatCollection(value, ctx, recurseTimes, (v) => formatValue(ctx, v, recurseTimes));
}
function formatMap(value, ctx, ignored, recurseTimes) {
  return formatCollection(value, ctx, recurseTimes, ([k, v]) => `${formatValue(ctx, k, recurseTimes)} => ${formatValue(ctx, v, recurseTimes)}`);
}

function formatIterator(braces, ctx, value, recurseTimes) {
  // QuickJS cannot look into an iterator without consuming it
  return [ctx.stylize('<items unknown>', 'special')];
}

function formatWeakCollection(ctx) {
  return [ctx.stylize('<items unknown>', 'special')];
}

function formatPromise(ctx, value, recurseTimes) {
  const [state, result] = native.promiseState(value);
  if (state === 0) return [ctx.stylize('<pending>', 'special')];
  ctx.indentationLvl += 2;
  const str = formatValue(ctx, result, recurseTimes);
  ctx.indentationLvl -= 2;
  return [state === 2 ? `${ctx.stylize('<rejected>', 'special')} ${str}` : str];
}

function formatNamespaceObject(keys, ctx, value, recurseTimes) {
  const output = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    try {
      output[i] = formatProperty(ctx, value, recurseTimes, keys[i], kObjectType);
    } catch (err) {
      const tmp = { [keys[i]]: '' };
      output[i] = formatProperty(ctx, tmp, recurseTimes, keys[i], kObjectType);
      const pos = output[i].lastIndexOf(' ');
      output[i] = output[i].slice(0, pos + 1) + ctx.stylize('<uninitialized>', 'special');
    }
  }
  keys.length = 0;
  return output;
}

function formatProperty(ctx, value, recurseTimes, key, type, desc, original = value) {
  let name, str;
  let extra = ' ';
  desc = desc || Object.getOwnPropertyDescriptor(value, key) || { value: value[key], enumerable: true };
  if (desc.value !== undefined) {
    const diff = (ctx.compact !== true || type !== kObjectType) ? 2 : 3;
    ctx.indentationLvl += diff;
    str = formatValue(ctx, desc.value, recurseTimes);
    if (diff === 3 && ctx.breakLength < getStringWidth(str, ctx.colors)) {
      extra = `\n${' '.repeat(ctx.indentationLvl)}`;
    }
    ctx.indentationLvl -= diff;
  } else if (desc.get !== undefined) {
    const label = desc.set !== undefined ? 'Getter/Setter' : 'Getter';
    const s = ctx.stylize;
    const sp = 'special';
    if (ctx.getters && (ctx.getters === true || (ctx.getters === 'get' && desc.set === undefined) ||
        (ctx.getters === 'set' && desc.set !== undefined))) {
      try {
        const tmp = desc.get.call(original);
        ctx.indentationLvl += 2;
        if (tmp === null) str = `${s(`[${label}:`, sp)} ${s('null', 'null')}${s(']', sp)}`;
        else if (typeof tmp === 'object') str = `${s(`[${label}]`, sp)} ${formatValue(ctx, tmp, recurseTimes)}`;
        else str = `${s(`[${label}:`, sp)} ${formatPrimitive(s, tmp, ctx)}${s(']', sp)}`;
        ctx.indentationLvl -= 2;
      } catch (err) {
        str = `${s(`[${label}:`, sp)} <Inspection threw (${err.message})>${s(']', sp)}`;
      }
    } else {
      str = ctx.stylize(`[${label}]`, sp);
    }
  } else if (desc.set !== undefined) {
    str = ctx.stylize('[Setter]', 'special');
  } else {
    str = ctx.stylize('undefined', 'undefined');
  }
  if (type === kArrayType) return str;
  if (typeof key === 'symbol') {
    name = `[${ctx.stylize(Symbol.prototype.toString.call(key).replace(strEscapeReG, escapeFn), 'symbol')}]`;
  } else if (key === '__proto__') {
    name = "['__proto__']";
  } else if (desc.enumerable === false) {
    name = `[${String(key).replace(strEscapeReG, escapeFn)}]`;
  } else if (keyStrRe.test(key)) {
    name = ctx.stylize(key, 'name');
  } else {
    name = ctx.stylize(strEscape(String(key)), 'string');
  }
  return `${name}:${extra}${str}`;
}

function tryStringify(arg) {
  try {
    return JSON.stringify(arg);
  } catch (err) {
    if (err instanceof TypeError && /circular/i.test(err.message)) return '[Circular]';
    throw err;
  }
}

function format(...args) { return formatWithOptionsInternal(undefined, args); }
function formatWithOptions(inspectOptions, ...args) { return formatWithOptionsInternal(inspectOptions, args); }

function formatNumberArg(fn, n) { return formatNumber(fn, n, false); }

const builtInObjects = new Set(Object.getOwnPropertyNames(globalThis).filter((e) => /^[A-Z][a-zA-Z0-9]+$/.test(e)));

function formatWithOptionsInternal(inspectOptions, args) {
  const first = args[0];
  let a = 0;
  let str = '';
  let join = '';
  if (typeof first === 'string') {
    if (args.length === 1) return first;
    let tempStr;
    let lastPos = 0;
    for (let i = 0; i < first.length - 1; i++) {
      if (first.charCodeAt(i) === 37) {
        const nextChar = first.charCodeAt(++i);
        if (a + 1 !== args.length) {
          switch (nextChar) {
            case 115: { // 's'
              const tempArg = args[++a];
              if (typeof tempArg === 'number') tempStr = formatNumberArg(stylizeNoColor, tempArg);
              else if (typeof tempArg === 'bigint') tempStr = formatBigInt(stylizeNoColor, tempArg);
              else if (typeof tempArg !== 'object' || tempArg === null || !hasBuiltInToString(tempArg)) tempStr = String(tempArg);
              else tempStr = inspect(tempArg, { ...inspectOptions, depth: 0, colors: false, compact: 3 });
              break;
            }
            case 106: tempStr = tryStringify(args[++a]); break; // 'j'
            case 100: { // 'd'
              const n = args[++a];
              if (typeof n === 'bigint') tempStr = formatBigInt(stylizeNoColor, n);
              else if (typeof n === 'symbol') tempStr = 'NaN';
              else tempStr = formatNumberArg(stylizeNoColor, Number(n));
              break;
            }
            case 79: tempStr = inspect(args[++a], inspectOptions); break; // 'O'
            case 111: tempStr = inspect(args[++a], { ...inspectOptions, showHidden: true, showProxy: true, depth: 4 }); break; // 'o'
            case 105: { // 'i'
              const n = args[++a];
              if (typeof n === 'bigint') tempStr = formatBigInt(stylizeNoColor, n);
              else if (typeof n === 'symbol') tempStr = 'NaN';
              else tempStr = formatNumberArg(stylizeNoColor, Number.parseInt(n));
              break;
            }
            case 102: { // 'f'
              const n = args[++a];
              tempStr = typeof n === 'symbol' ? 'NaN' : formatNumberArg(stylizeNoColor, Number.parseFloat(n));
              break;
            }
            case 99: a += 1; tempStr = ''; break; // 'c'
            case 37: str += first.slice(lastPos, i); lastPos = i + 1; continue;
            default: continue;
          }
          if (lastPos !== i - 1) str += first.slice(lastPos, i - 1);
          str += tempStr;
          lastPos = i + 1;
        } else if (nextChar === 37) {
          str += first.slice(lastPos, i);
          lastPos = i + 1;
        }
      }
    }
    if (lastPos !== 0) {
      a++;
      join = ' ';
      if (lastPos < first.length) str += first.slice(lastPos);
    }
  }
  while (a < args.length) {
    const value = args[a];
    str += join;
    str += typeof value !== 'string' ? inspect(value, inspectOptions) : value;
    join = ' ';
    a++;
  }
  return str;
}

function hasBuiltInToString(value) {
  // an object whose toString is its own or its (non-builtin) class's: %s calls it
  let pointer = value;
  do { pointer = Object.getPrototypeOf(pointer); } while (pointer !== null && !hasOwn(pointer, 'constructor'));
  if (hasOwn(value, 'toString')) return false;
  if (pointer === null) return true;
  const d = Object.getOwnPropertyDescriptor(pointer, 'constructor');
  return d !== undefined && typeof d.value === 'function' && builtInObjects.has(d.value.name);
}

module.exports = {
  inspect, format, formatWithOptions, inspectDefaultOptions, customInspectSymbol, types, isError,
  stripVTControlCharacters, getStringWidth, strEscape,
};
