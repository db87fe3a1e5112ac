'use strict';
// TypeScript's types, erased as Node (22.6 and later) erases them: every type
// annotation, interface, type alias, declare, generic, `as`/`satisfies`, `!`
// and the like is replaced by blanks, so line and column numbers stay those of
// the .ts file; what is not just types (enum, namespace, parameter
// properties, import = require) fails with ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX.
//
// It works on tokens: a scanner that knows JavaScript's lexical grammar
// (strings, templates, regular expressions, comments), then a pass that
// follows brackets and declarations closely enough to tell a type from a
// value. It does not check types, as Node does not.

const KEYWORDS_BEFORE_EXPR = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await', 'extends']);

function scan(src) {
  const toks = [];
  let i = 0;
  const n = src.length;
  let nl = false;
  const prevSignificant = () => (toks.length ? toks[toks.length - 1] : null);
  const regexAllowed = () => {
    const p = prevSignificant();
    if (!p) return true;
    if (p.t === 'num' || p.t === 'str' || p.t === 'tmpl' || p.t === 'regex') return false;
    if (p.t === 'id') return KEYWORDS_BEFORE_EXPR.has(p.v);
    if (p.t === 'p') return !(p.v === ')' || p.v === ']' || p.v === '}');
    return true;
  };
  const tmplStack = [];
  while (i < n) {
    const c = src[i];
    if (c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029') { nl = true; i++; continue; }
    if (c === ' ' || c === '\t' || c === '\f' || c === '\v' || c === '\ufeff' || c === '\u00a0') { i++; continue; }
    if (c === '/' && src[i + 1] === '/') { while (i < n && src[i] !== '\n') i++; continue; }
    if (c === '/' && src[i + 1] === '*') {
      const e = src.indexOf('*/', i + 2);
      const end = e === -1 ? n : e + 2;
      if (src.slice(i, end).includes('\n')) nl = true;
      i = end;
      continue;
    }
    const start = i;
    let t, v;
    if (/[A-Za-z_$\u0080-\uffff\\]/.test(c) && !(c === '#' )) {
      i++;
      while (i < n && /[\w$\u0080-\uffff\\]/.test(src[i])) i++;
      t = 'id'; v = src.slice(start, i);
    } else if (c === '#' && i + 1 < n && /[A-Za-z_$]/.test(src[i + 1])) {
      i++;
      while (i < n && /[\w$]/.test(src[i])) i++;
      t = 'id'; v = src.slice(start, i);
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1]))) {
      i++;
      while (i < n && /[\w.]/.test(src[i])) {
        if ((src[i] === 'e' || src[i] === 'E') && (src[i + 1] === '+' || src[i + 1] === '-')) i++;
        i++;
      }
      t = 'num'; v = src.slice(start, i);
    } else if (c === '"' || c === "'") {
      i++;
      while (i < n && src[i] !== c) { if (src[i] === '\\') i++; i++; }
      i++;
      t = 'str'; v = src.slice(start, i);
    } else if (c === '`' || (c === '}' && tmplStack.length && tmplStack[tmplStack.length - 1] === 0)) {
      if (c === '}') tmplStack.pop();
      i++;
      for (;;) {
        if (i >= n) break;
        if (src[i] === '\\') { i += 2; continue; }
        if (src[i] === '`') { i++; break; }
        if (src[i] === '$' && src[i + 1] === '{') { i += 2; tmplStack.push(0); break; }
        i++;
      }
      t = 'tmpl'; v = src.slice(start, i);
    } else if (c === '/' && regexAllowed()) {
      i++;
      let cls = false;
      while (i < n) {
        if (src[i] === '\\') { i += 2; continue; }
        if (src[i] === '[') cls = true;
        else if (src[i] === ']') cls = false;
        else if (src[i] === '/' && !cls) break;
        else if (src[i] === '\n') break;
        i++;
      }
      i++;
      while (i < n && /[a-z]/.test(src[i])) i++;
      t = 'regex'; v = src.slice(start, i);
    } else {
      const ops = ['...', '===', '!==', '**=', '<<=', '&&=', '||=', '??=', '=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '**', '<<'];
      // '>>' is left as two '>' so that nested generics close; the pass joins them back
      let op = ops.find((o) => src.startsWith(o, i));
      if (op === '?.' && /[0-9]/.test(src[i + 2])) op = undefined;
      v = op || c;
      i += v.length;
      t = 'p';
      if (v === '{' && tmplStack.length) tmplStack[tmplStack.length - 1]++;
      if (v === '}' && tmplStack.length) tmplStack[tmplStack.length - 1]--;
    }
    toks.push({ t, v, s: start, e: i, nl });
    nl = false;
  }
  return toks;
}

class Unsupported extends Error {}

function stripTypes(src, filename) {
  const toks = scan(src);
  const blank = []; // [start, end) ranges to blank
  let k = 0;
  const T = (j) => toks[j] || { t: 'eof', v: '', s: src.length, e: src.length, nl: true };
  const is = (j, v) => T(j).v === v && (T(j).t === 'p' || T(j).t === 'id');
  const isId = (j) => T(j).t === 'id';
  const erase = (a, b) => { if (a < b) blank.push([T(a).s, T(b - 1).e]); };
  const fail = (what) => {
    const e = new SyntaxError(`TypeScript ${what} is not supported in strip-only mode`);
    e.code = 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX';
    throw e;
  };

  // matching closer for the bracket at j; returns the index of the closer
  function match(j) {
    const open = T(j).v;
    const close = { '(': ')', '[': ']', '{': '}', '<': '>' }[open];
    let d = 0;
    for (let m = j; m < toks.length; m++) {
      const v = T(m).v;
      if (T(m).t !== 'p') continue;
      if (open === '<') {
        if (v === '<') d++;
        else if (v === '>') { d--; if (d === 0) return m; }
        else if (v === '=>' ) continue;
        else if (v === '(' || v === '[' || v === '{') { m = match(m); continue; }
        else if (v === ';' || v === ')' || v === ']' || v === '}') return -1;
      } else {
        if (v === open) d++;
        else if (v === close) { d--; if (d === 0) return m; }
      }
    }
    return -1;
  }

  // the end (exclusive) of a type starting at j, in a context where one of
  // `stops` at depth 0 ends it (and a newline before a token that cannot
  // continue a type)
  function typeEnd(j, stops) {
    let m = j;
    let first = true;
    for (;;) {
      const tk = T(m);
      if (tk.t === 'eof') return m;
      if (tk.t === 'p') {
        if (stops.includes(tk.v) && !(tk.v === '=' && false)) return m;
        if (tk.v === '(' || tk.v === '[' || tk.v === '{') { m = match(m) + 1; first = false; continue; }
        if (tk.v === '<') { const c = match(m); if (c < 0) return m; m = c + 1; first = false; continue; }
        if (tk.v === '=>' || tk.v === '|' || tk.v === '&' || tk.v === '.' || tk.v === '?' || tk.v === ':' || tk.v === '-' || tk.v === '...' || tk.v === ',') {
          if (tk.v === ',' || tk.v === ':' || tk.v === '?') {
            // inside a conditional type ( A extends B ? C : D ) these belong to the type
            if (tk.v === ',' ) return m;
          }
          m++; first = false; continue;
        }
        return m;
      }
      if (!first && tk.nl) {
        // a new line ends the type unless the previous token wants more
        const prev = T(m - 1).v;
        if (!['|', '&', '=>', '.', ':', '?', ',', 'extends', 'keyof', 'typeof', 'infer', 'is', 'asserts', 'new', 'readonly', 'unique'].includes(prev)) return m;
      }
      if (tk.t === 'id' && !first) {
        const prev = T(m - 1);
        // two names in a row: only after type operators
        if (prev.t === 'id' && !['extends', 'keyof', 'typeof', 'infer', 'is', 'asserts', 'new', 'readonly', 'unique', 'in', 'as', 'const'].includes(prev.v) &&
            !['extends', 'is', 'keyof', 'infer', 'as'].includes(tk.v)) return m;
        if ((prev.t === 'str' || prev.t === 'num') && !['extends', 'is'].includes(tk.v)) return m;
      }
      first = false;
      m++;
    }
  }

  // statement-level type declarations; returns the index after them or -1
  function skipTypeStatement(j) {
    const start = j;
    let m = j;
    if (is(m, 'export')) m++;
    if (is(m, 'default') && is(m + 1, 'interface')) m++;
    if (is(m, 'declare')) {
      m++;
      if (is(m, 'global') || is(m, 'module') || is(m, 'namespace')) {
        let b = m;
        while (T(b).t !== 'eof' && !is(b, '{') && !is(b, ';')) b++;
        const end = is(b, '{') ? match(b) + 1 : b + 1;
        erase(start, end);
        return end;
      }
      if (is(m, 'const') && is(m + 1, 'enum')) m++;
      // declare const/let/var/function/class/enum/type/interface/abstract
      let b = m;
      while (T(b).t !== 'eof') {
        if (is(b, '{') ) { b = match(b) + 1; if (!T(b - 1)) break; if (is(m, 'class') || is(m, 'enum') || is(m, 'abstract') || is(m, 'interface')) break; continue; }
        if (is(b, '(') || is(b, '[') ) { b = match(b) + 1; continue; }
        if (is(b, ';')) { b++; break; }
        if (b > m + 1 && T(b).nl && !['=', ':', '|', '&', ',', '.', '=>', '<'].includes(T(b - 1).v) && !['|', '&', '=>', ':', '.', ',', '{', '(', '<', 'extends', '='].includes(T(b).v)) break;
        b++;
      }
      erase(start, b);
      return b;
    }
    if (is(m, 'interface') && isId(m + 1)) {
      let b = m + 2;
      while (T(b).t !== 'eof' && !is(b, '{')) b++;
      const end = match(b) + 1;
      erase(start, end);
      return end;
    }
    if (is(m, 'type') && isId(m + 1) && (is(m + 2, '=') || is(m + 2, '<'))) {
      let b = m + 2;
      if (is(b, '<')) b = match(b) + 1;
      b = typeEnd(b + 1, [';', ')', ']', '}']);
      if (is(b, ';')) b++;
      erase(start, b);
      return b;
    }
    if ((is(m, 'import') || is(m, 'export')) && is(m + 1, 'type') && !is(m + 2, '=') && !(is(m + 2, 'from') && is(m, 'import'))) {
      // import type {...} from '...'; export type { ... } [from '...'];
      let b = m + 2;
      while (T(b).t !== 'eof' && !is(b, ';') && !(T(b).t === 'str' && (is(b - 1, 'from')))) {
        if (is(b, '{')) { b = match(b) + 1; if (!is(b, 'from')) break; continue; }
        b++;
      }
      if (T(b).t === 'str') b++;
      if (is(b, ';')) b++;
      erase(start, b);
      return b;
    }
    if (is(m, 'import') && isId(m + 1) && is(m + 2, '=')) fail('import = require()');
    if (is(m, 'export') && is(m + 1, '=')) fail('export =');
    if (is(m, 'enum') || (is(m, 'const') && is(m + 1, 'enum'))) fail('enum');
    if ((is(m, 'namespace') || is(m, 'module')) && (isId(m + 1) || T(m + 1).t === 'str') && !T(m + 1).nl) {
      // a namespace with only types in it is allowed; one with values is not
      let b = m + 1;
      while (T(b).t !== 'eof' && !is(b, '{')) b++;
      const end = match(b);
      let onlyTypes = true;
      for (let q = b + 1; q < end; q++) {
        if (T(q - 1).v === '{' || T(q - 1).v === ';' || T(q - 1).v === '}' || T(q).nl) {
          let r = q;
          if (is(r, 'export')) r++;
          if (!(is(r, 'interface') || is(r, 'type') || is(r, 'declare'))) { if (!is(r, '}')) { onlyTypes = false; break; } }
        }
      }
      if (!onlyTypes) fail('namespace');
      erase(start, end + 1);
      return end + 1;
    }
    return -1;
  }

  // import { type A, B } / export { type A }: drop the type-only specifiers
  function specifiers(j) {
    const end = match(j);
    for (let m = j + 1; m < end; m++) {
      if (is(m, 'type') && isId(m + 1) && !is(m + 1, 'as') && !is(m + 1, ',') ) {
        let b = m + 1;
        while (b < end && !is(b, ',')) b++;
        if (is(b, ',')) b++;
        erase(m, b);
        m = b - 1;
      }
    }
    return end;
  }

  // a parameter list ( ... ) at j: optional marks, annotations, this params
  function params(j, isConstructor) {
    const end = match(j);
    let m = j + 1;
    let atStart = true;
    while (m < end) {
      if (atStart) {
        // modifiers: parameter properties are not types
        if (['public', 'private', 'protected', 'readonly', 'override'].includes(T(m).v) && isId(m) && (isId(m + 1) || is(m + 1, '{') || is(m + 1, '['))) {
          fail('parameter property');
        }
        if (is(m, 'this') && (is(m + 1, ':'))) {
          let b = typeEnd(m + 2, [',', ')']);
          if (is(b, ',')) b++;
          erase(m, b);
          m = b;
          continue;
        }
        atStart = false;
      }
      const tk = T(m);
      if (tk.v === '(' || tk.v === '[' || tk.v === '{') {
        if (tk.v === '{' || tk.v === '[') destructure(m);
        m = match(m) + 1;
        continue;
      }
      if (is(m, '?') && (is(m + 1, ':') || is(m + 1, ',') || is(m + 1, ')') || is(m + 1, '='))) { erase(m, m + 1); m++; continue; }
      if (is(m, ':')) {
        const b = typeEnd(m + 1, [',', ')', '=']);
        erase(m, b);
        m = b;
        continue;
      }
      if (is(m, '=')) {
        // a default value: an expression
        let b = m + 1;
        b = expression(b, [',', ')']);
        m = b;
        continue;
      }
      if (is(m, ',')) { atStart = true; m++; continue; }
      m++;
    }
    return end;
  }
  // patterns: { a, b }: T inside is an annotation only after the pattern
  function destructure(j) {
    const end = match(j);
    for (let m = j + 1; m < end; m++) {
      if (is(m, '=')) m = expression(m + 1, [',', '}', ']']) - 1;
      else if (is(m, '{') || is(m, '[')) { destructure(m); m = match(m); }
    }
  }

  // an expression from j until one of `stops` at depth 0; handles the
  // TypeScript inside it (as, satisfies, !, generics on calls, arrows)
  function expression(j, stops) {
    let m = j;
    while (T(m).t !== 'eof') {
      const tk = T(m);
      if ((tk.t === 'p' || tk.t === 'id') && stops.includes(tk.v)) return m;
      m = exprToken(m);
    }
    return m;
  }

  function isArrowParams(j) {
    // ( ... ) followed by => or by : type =>
    const c = match(j);
    if (c < 0) return false;
    if (is(c + 1, '=>')) return true;
    if (is(c + 1, ':')) {
      const b = typeEnd(c + 2, ['=>', '{', ';', ')', ',', '=']);
      return is(b, '=>');
    }
    return false;
  }

  function genericArrow(j) {
    // <T, U extends X>(a: T) => ...
    const c = match(j);
    return c > 0 && is(c + 1, '(') && isArrowParams(c + 1);
  }

  // one token (or construct) of an expression; returns the next index
  function exprToken(m) {
    const tk = T(m);
    if (tk.t === 'id') {
      if ((tk.v === 'as' || tk.v === 'satisfies') && !tk.nl && m > 0 && ['id', 'num', 'str', 'tmpl', 'regex'].includes(T(m - 1).t || '') | (T(m - 1).t === 'p' && [')', ']', '}'].includes(T(m - 1).v))) {
        if (tk.v === 'as' && is(m + 1, 'const')) { erase(m, m + 2); return m + 2; }
        const b = typeEnd(m + 1, [')', ']', '}', ',', ';', '=', '?', ':', '&&', '||', '??', '+', '*', '/', '%', '==', '===', '!=', '!==', '<=', '>=']);
        erase(m, b);
        return b;
      }
      if (tk.v === 'function' || (tk.v === 'async' && is(m + 1, 'function'))) return functionDecl(m);
      if (tk.v === 'class') return classDecl(m);
      // f<T>(...)  new Map<K, V>()
      if (is(m + 1, '<')) {
        const c = match(m + 1);
        if (c > 0 && (is(c + 1, '(') || T(c + 1).t === 'tmpl') && !T(m + 1).nl) {
          if (looksLikeTypeArgs(m + 2, c)) { erase(m + 1, c + 1); return c + 1; }
        }
      }
      if (is(m + 1, '=>')) return m + 1; // x => ...
      return m + 1;
    }
    if (tk.t === 'p') {
      if (tk.v === '!' && m > 0 && !tk.nl && (T(m - 1).t === 'id' || [')', ']'].includes(T(m - 1).v)) &&
          (is(m + 1, '.') || is(m + 1, ')') || is(m + 1, ']') || is(m + 1, ',') || is(m + 1, ';') || is(m + 1, '[') || is(m + 1, '?.') || is(m + 1, '=') || is(m + 1, '}') || T(m + 1).nl || is(m + 1, '('))) {
        erase(m, m + 1);
        return m + 1;
      }
      if (tk.v === '(') {
        if (isArrowParams(m)) {
          const c = params(m);
          let b = c + 1;
          if (is(b, ':')) { const e = typeEnd(b + 1, ['=>']); erase(b, e); b = e; }
          return b;
        }
        const c = match(m);
        expression(m + 1, [')']);
        return c + 1;
      }
      if (tk.v === '<' && genericArrow(m)) {
        const c = match(m);
        erase(m, c + 1);
        return c + 1;
      }
      if (tk.v === '[') { expression(m + 1, [']']); return match(m) + 1; }
      if (tk.v === '{') { objectLiteral(m); return match(m) + 1; }
      return m + 1;
    }
    if (tk.t === 'tmpl' && tk.v.endsWith('${')) {
      // template with substitutions: expressions up to the matching }...
      let b = m + 1;
      while (T(b).t !== 'eof') {
        if (T(b).t === 'tmpl' && T(b).v.startsWith('}')) {
          if (T(b).v.endsWith('`')) return b + 1;
          b++;
          continue;
        }
        b = exprToken(b);
      }
      return b;
    }
    return m + 1;
  }

  function looksLikeTypeArgs(a, c) {
    // between < and >: names, dots, commas, brackets, literals, | & keyof...
    for (let q = a; q < c; q++) {
      const tk = T(q);
      if (tk.t === 'p' && ['+', '-', '*', '/', '%', '&&', '||', '==', '===', '!=', '!==', '=', '+=', '-=', '!'].includes(tk.v)) return false;
    }
    return true;
  }

  function objectLiteral(j) {
    const end = match(j);
    let m = j + 1;
    while (m < end) {
      // a method: name ( ... ) [: T] { ... }   or  get/set/async name(...)
      let b = m;
      if (is(b, 'async') || is(b, 'get') || is(b, 'set') || is(b, '*')) {
        if (!is(b + 1, ',') && !is(b + 1, ':') && !is(b + 1, '(')) b++;
      }
      if (is(b, '*')) b++;
      if ((isId(b) || T(b).t === 'str' || T(b).t === 'num' || is(b, '[')) ) {
        let nameEnd = is(b, '[') ? match(b) + 1 : b + 1;
        if (is(nameEnd, '?')) { erase(nameEnd, nameEnd + 1); nameEnd++; }
        if (is(nameEnd, '<')) { const c = match(nameEnd); if (c > 0 && is(c + 1, '(')) { erase(nameEnd, c + 1); nameEnd = c + 1; } }
        if (is(nameEnd, '(')) {
          const c = params(nameEnd);
          let q = c + 1;
          if (is(q, ':')) { const e = typeEnd(q + 1, ['{']); erase(q, e); q = e; }
          if (is(q, '{')) { body(q); m = match(q) + 1; if (is(m, ',')) m++; continue; }
        }
      }
      // property: value
      m = expression(m, [',', '}']);
      if (is(m, ',')) m++;
      if (m >= end) break;
    }
  }

  function functionDecl(m) {
    let b = m;
    if (is(b, 'async')) b++;
    b++; // function
    if (is(b, '*')) b++;
    if (isId(b)) b++;
    if (is(b, '<')) { const c = match(b); erase(b, c + 1); b = c + 1; }
    if (!is(b, '(')) return b;
    const c = params(b);
    b = c + 1;
    if (is(b, ':')) { const e = typeEnd(b + 1, ['{', ';']); erase(b, e); b = e; }
    if (is(b, '{')) { body(b); return match(b) + 1; }
    // an overload signature: no body
    let end = b;
    if (is(end, ';')) end++;
    erase(m, end);
    return end;
  }

  function classDecl(m) {
    let b = m + 1;
    if (isId(b) && !is(b, 'extends') && !is(b, 'implements')) b++;
    if (is(b, '<')) { const c = match(b); erase(b, c + 1); b = c + 1; }
    if (is(b, 'extends')) {
      b = expression(b + 1, ['{', 'implements']);
      // class A extends B<T> {
    }
    if (is(b, 'implements')) {
      let e = b + 1;
      while (T(e).t !== 'eof' && !is(e, '{')) e++;
      erase(b, e);
      b = e;
    }
    if (!is(b, '{')) return b;
    classBody(b);
    return match(b) + 1;
  }

  const MODIFIERS = ['public', 'private', 'protected', 'readonly', 'abstract', 'override', 'declare'];
  function classBody(j) {
    const end = match(j);
    let m = j + 1;
    while (m < end) {
      if (is(m, ';')) { m++; continue; }
      const memberStart = m;
      let isAbstract = false, isDeclare = false;
      // modifiers (a name followed by something that is not ( = ; : ? ! <)
      while (MODIFIERS.includes(T(m).v) && isId(m) && !is(m + 1, '(') && !is(m + 1, '=') && !is(m + 1, ';') && !is(m + 1, ':') && !is(m + 1, '?') && !is(m + 1, '!') && !is(m + 1, '<') && !T(m + 1).nl) {
        if (T(m).v === 'abstract') isAbstract = true;
        if (T(m).v === 'declare') isDeclare = true;
        erase(m, m + 1);
        m++;
      }
      if (is(m, 'static') && is(m + 1, '{')) { body(m + 1); m = match(m + 1) + 1; continue; }
      while ((is(m, 'static') || is(m, 'async') || is(m, 'get') || is(m, 'set') || is(m, 'accessor')) && !is(m + 1, '(') && !is(m + 1, '=') && !is(m + 1, ';') && !is(m + 1, ':') && !is(m + 1, '?')) m++;
      if (is(m, '*')) m++;
      // index signature
      if (is(m, '[') && isId(m + 1) && is(m + 2, ':')) {
        let e = typeEnd(match(m) + 1, [';', '}']);
        if (is(match(m) + 1, ':')) e = typeEnd(match(m) + 2, [';', '}']);
        if (is(e, ';')) e++;
        erase(memberStart, e);
        m = e;
        continue;
      }
      let nameEnd = is(m, '[') ? match(m) + 1 : m + 1;
      if (is(nameEnd, '?') || (is(nameEnd, '!') && (is(nameEnd + 1, ':')))) { erase(nameEnd, nameEnd + 1); nameEnd++; }
      if (is(nameEnd, '<')) { const c = match(nameEnd); if (c > 0) { erase(nameEnd, c + 1); nameEnd = c + 1; } }
      if (is(nameEnd, '(')) {
        const c = params(nameEnd, T(m).v === 'constructor');
        let q = c + 1;
        if (is(q, ':')) { const e = typeEnd(q + 1, ['{', ';', '}']); erase(q, e); q = e; }
        if (is(q, '{') && !isAbstract) { body(q); m = match(q) + 1; continue; }
        // abstract method or overload: no body
        let e = q;
        if (is(e, ';')) e++;
        erase(memberStart, e);
        m = e;
        continue;
      }
      // a field: name [: T] [= value] [;]
      let q = nameEnd;
      if (is(q, ':')) { const e = typeEnd(q + 1, ['=', ';', '}']); erase(q, e); q = e; }
      if (isDeclare || isAbstract) {
        let e = q;
        if (is(e, '=')) e = expression(e + 1, [';', '}']);
        if (is(e, ';')) e++;
        erase(memberStart, e);
        m = e;
        continue;
      }
      if (is(q, '=')) q = expression(q + 1, [';', '}']);
      else if (q === nameEnd) {
        // something else: go on one token at a time
        q = Math.max(q, m + 1);
      }
      while (q < end && !is(q, ';') && !T(q).nl && !is(q, '}')) q = exprToken(q);
      if (is(q, ';')) q++;
      m = q;
    }
  }

  // statements of a block from j ({) to its match
  function body(j) {
    const end = match(j);
    statements(j + 1, end);
  }

  function statements(from, to) {
    let m = from;
    while (m < to) {
      const r = skipTypeStatement(m);
      if (r !== -1) { m = r; continue; }
      const tk = T(m);
      if (tk.t === 'id') {
        if ((tk.v === 'import' || tk.v === 'export') && is(m + 1, '{')) { specifiers(m + 1); m = match(m + 1) + 1; continue; }
        if (tk.v === 'import' && isId(m + 1) && is(m + 2, ',') && is(m + 3, '{')) { specifiers(m + 3); m = match(m + 3) + 1; continue; }
        if (tk.v === 'export' && (is(m + 1, 'default') || is(m + 1, 'async') || is(m + 1, 'function') || is(m + 1, 'class') || is(m + 1, 'const') || is(m + 1, 'let') || is(m + 1, 'var') || is(m + 1, 'abstract'))) { m++; if (is(m, 'default')) m++; continue; }
        if (tk.v === 'abstract' && is(m + 1, 'class')) { erase(m, m + 1); m++; continue; }
        if (tk.v === 'function' || (tk.v === 'async' && is(m + 1, 'function'))) { m = functionDecl(m); continue; }
        if (tk.v === 'class') { m = classDecl(m); continue; }
        if (tk.v === 'let' || tk.v === 'const' || tk.v === 'var' || (tk.v === 'using' && isId(m + 1))) { m = declarators(m + 1); continue; }
        if (tk.v === 'for' && is(m + 1, '(')) {
          const c = match(m + 1);
          let q = m + 2;
          if (is(q, 'await')) q++;
          if (is(q, 'let') || is(q, 'const') || is(q, 'var')) q = declarators(q + 1, c);
          expression(q, [')']);
          m = c + 1;
          continue;
        }
        if ((tk.v === 'if' || tk.v === 'while' || tk.v === 'switch' || tk.v === 'with') && is(m + 1, '(')) {
          expression(m + 2, [')']);
          m = match(m + 1) + 1;
          continue;
        }
        if (tk.v === 'catch' && is(m + 1, '(')) {
          const c = match(m + 1);
          if (is(m + 3, ':')) erase(m + 3, typeEnd(m + 4, [')']));
          m = c + 1;
          continue;
        }
      }
      if (tk.t === 'p' && tk.v === '{') { body(m); m = match(m) + 1; continue; }
      if (tk.t === 'p' && (tk.v === ';' || tk.v === '}')) { m++; continue; }
      m = exprToken(m);
    }
  }

  function declarators(j, limit) {
    let m = j;
    for (;;) {
      // name or pattern
      if (is(m, '{') || is(m, '[')) { destructure(m); m = match(m) + 1; } else m++;
      if (is(m, '!') && is(m + 1, ':')) { erase(m, m + 1); m++; }
      if (is(m, ':')) { const e = typeEnd(m + 1, ['=', ',', ';', ')', 'of', 'in']); erase(m, e); m = e; }
      if (is(m, '=')) m = expression(m + 1, [',', ';', ')', '}']);
      if (limit !== undefined && m >= limit) return m;
      if (is(m, ',')) { m++; continue; }
      return m;
    }
  }

  try {
    statements(0, toks.length);
  } catch (e) {
    if (e.code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX') throw e;
    throw e;
  }
  // blank the ranges, keeping newlines (so positions hold)
  blank.sort((a, b) => a[0] - b[0]);
  let out = '';
  let pos = 0;
  for (const [a, b] of blank) {
    if (b <= pos) continue;
    const s = Math.max(a, pos);
    out += src.slice(pos, s);
    out += src.slice(s, b).replace(/[^\n\r\u2028\u2029]/g, ' ');
    pos = b;
  }
  out += src.slice(pos);
  // a line that now starts with ( [ ` after a blanked statement could join
  // the previous one: Node's stripper inserts ; in that case
  return out;
}

module.exports = { stripTypes, scan };
