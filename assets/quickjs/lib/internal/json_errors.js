'use strict';
// What V8 (Node 20) says when JSON.parse fails, found by reading the text
// again once QuickJS's parser has refused it: the same position and words,
// so that a program's error output is Node's.

function messageFor(src) {
  const n = src.length;
  let i = 0;
  const fail = (m) => { throw new Error(m); };
  const at = (m, pos) => fail(`${m} in JSON at position ${pos}`);
  const eos = () => fail('Unexpected end of JSON input');
  const ws = () => { while (i < n && (src[i] === ' ' || src[i] === '\t' || src[i] === '\n' || src[i] === '\r')) i++; };
  const token = (pos) => {
    if (pos >= n) eos();
    const c = src[pos];
    if (c === '"') at('Unexpected string', pos);
    if (c === '-' || (c >= '0' && c <= '9')) at('Unexpected number', pos);
    let shown;
    if (n <= 20) shown = `"${src}"`;
    else {
      const a = Math.max(0, pos - 10), b = Math.min(n, pos + 10);
      shown = `${a > 0 ? '...' : ''}"${src.slice(a, b)}"${b < n ? '...' : ''}`;
    }
    fail(`Unexpected token '${c}', ${shown} is not valid JSON`);
  };
  const digit = (c) => c >= '0' && c <= '9';
  function string() {
    i++;
    for (;;) {
      if (i >= n) at('Unterminated string', i);
      const c = src[i];
      if (c === '"') { i++; return; }
      if (c < ' ') at('Bad control character in string literal', i);
      if (c === '\\') {
        i++;
        if (i >= n) eos();
        const e = src[i];
        if (e === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(src[i + k] || '')) at('Bad Unicode escape', i + k);
          i += 5;
          continue;
        }
        if (!'"\\/bfnrt'.includes(e)) at('Bad escaped character', i);
      }
      i++;
    }
  }
  function number() {
    if (src[i] === '-') { i++; if (!digit(src[i] || '')) at('No number after minus sign', i); }
    if (src[i] === '0') { i++; if (digit(src[i] || '')) at('Unexpected number', i); }
    else while (digit(src[i] || '')) i++;
    if (src[i] === '.') { i++; if (!digit(src[i] || '')) at('Unterminated fractional number', i); while (digit(src[i] || '')) i++; }
    if (src[i] === 'e' || src[i] === 'E') {
      i++;
      if (src[i] === '+' || src[i] === '-') i++;
      if (!digit(src[i] || '')) at('Exponent part is missing a number', i);
      while (digit(src[i] || '')) i++;
    }
  }
  function value() {
    ws();
    if (i >= n) eos();
    const c = src[i];
    if (c === '{') {
      i++;
      ws();
      if (src[i] === '}') { i++; return; }
      let first = true;
      for (;;) {
        ws();
        if (i >= n) first ? at("Expected property name or '}'", i) : eos();
        if (src[i] !== '"') at(first ? "Expected property name or '}'" : 'Expected double-quoted property name', i);
        string();
        ws();
        if (src[i] !== ':') at("Expected ':' after property name", i);
        i++;
        value();
        ws();
        if (src[i] === ',') { i++; first = false; continue; }
        if (src[i] === '}') { i++; return; }
        at("Expected ',' or '}' after property value", i);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (src[i] === ']') { i++; return; }
      for (;;) {
        value();
        ws();
        if (src[i] === ',') { i++; continue; }
        if (src[i] === ']') { i++; return; }
        at("Expected ',' or ']' after array element", i);
      }
    }
    if (c === '"') return string();
    if (c === '-' || digit(c)) return number();
    for (const word of ['true', 'false', 'null']) {
      if (c !== word[0]) continue;
      for (let k = 0; k < word.length; k++) {
        if (i + k >= n) eos();
        if (src[i + k] !== word[k]) token(i + k);
      }
      i += word.length;
      return;
    }
    token(i);
  }
  if (src === 'undefined') return '"undefined" is not valid JSON';
  try {
    value();
    ws();
    if (i < n) fail(`Unexpected non-whitespace character after JSON at position ${i}`);
  } catch (e) {
    return e.message;
  }
  return null; // (our reading found nothing: keep QuickJS's message)
}

module.exports = { messageFor };
