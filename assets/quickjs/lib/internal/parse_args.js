'use strict';
// util.parseArgs

function err(code, message) {
  const e = new TypeError(message);
  e.code = code;
  return e;
}
function parseArgs(config = {}) {
  const args = config.args !== undefined ? config.args : process.argv.slice(process.execArgv && process.argv[1] ? 2 : 1);
  const options = config.options || {};
  const strict = config.strict !== undefined ? config.strict : true;
  const allowPositionals = config.allowPositionals !== undefined ? config.allowPositionals : !strict;
  const allowNegative = !!config.allowNegative;
  const returnTokens = !!config.tokens;
  const values = Object.create(null);
  const positionals = [];
  const tokens = [];
  const shortToLong = {};
  for (const [name, o] of Object.entries(options)) {
    if (o.type !== 'string' && o.type !== 'boolean') throw err('ERR_INVALID_ARG_VALUE', `The property 'options.${name}.type' must be one of: 'string', 'boolean'. Received ${o.type === undefined ? 'undefined' : `'${o.type}'`}`);
    if (o.short !== undefined) shortToLong[o.short] = name;
  }
  const store = (name, value, token) => {
    const o = options[name];
    if (o && o.multiple) (values[name] || (values[name] = [])).push(value);
    else values[name] = value;
    tokens.push(token);
  };
  const optDesc = (name) => {
    const o = options[name];
    return o && o.short ? `-${o.short}, --${name}` : `--${name}`;
  };
  const check = (name, value, raw, inline) => {
    const o = options[name];
    if (!strict) return;
    if (!o) {
      throw err('ERR_PARSE_ARGS_UNKNOWN_OPTION', raw.startsWith('--') ? `Unknown option '${raw}'${allowPositionals ? `. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "${raw}"` : ''}` : `Unknown option '${raw}'`);
    }
    if (o.type === 'string' && typeof value !== 'string') throw err('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', `Option '${optDesc(name)} <value>' argument missing`);
    if (o.type === 'boolean' && inline) throw err('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', `Option '${optDesc(name)}' does not take an argument`);
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      tokens.push({ kind: 'option-terminator', index: i });
      for (let j = i + 1; j < args.length; j++) {
        if (strict && !allowPositionals) throw err('ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL', `Unexpected argument '${args[j]}'. This command does not take positional arguments`);
        positionals.push(args[j]);
        tokens.push({ kind: 'positional', index: j, value: args[j] });
      }
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      let name = eq === -1 ? a.slice(2) : a.slice(2, eq);
      let value;
      let inline = eq !== -1;
      const o = options[name];
      if (allowNegative && name.startsWith('no-') && options[name.slice(3)] && options[name.slice(3)].type === 'boolean') {
        name = name.slice(3);
        tokens.push({ kind: 'option', name, rawName: a, index: i, value: undefined, inlineValue: undefined });
        values[name] = false;
        continue;
      }
      if (inline) value = a.slice(eq + 1);
      else if (o && o.type === 'string' && i + 1 < args.length) value = args[++i];
      check(name, value, eq === -1 ? a : a.slice(0, eq), inline && o && o.type === 'boolean');
      store(name, o && o.type === 'string' ? value : (value === undefined ? true : value), { kind: 'option', name, rawName: eq === -1 ? a : a.slice(0, eq), index: i, value, inlineValue: inline ? true : (value === undefined ? undefined : false) });
      continue;
    }
    if (a.startsWith('-') && a.length > 1 && a !== '-') {
      for (let k = 1; k < a.length; k++) {
        const ch = a[k];
        const name = shortToLong[ch] || ch;
        const o = options[name];
        if (o && o.type === 'string') {
          let value = a.slice(k + 1);
          let inline = true;
          if (value === '') { inline = false; value = i + 1 < args.length ? args[++i] : undefined; }
          check(name, value, `-${ch}`, false);
          store(name, value, { kind: 'option', name, rawName: `-${ch}`, index: i, value, inlineValue: inline });
          break;
        }
        check(name, undefined, `-${ch}`, false);
        store(name, true, { kind: 'option', name, rawName: `-${ch}`, index: i, value: undefined, inlineValue: undefined });
      }
      continue;
    }
    if (strict && !allowPositionals) throw err('ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL', `Unexpected argument '${a}'. This command does not take positional arguments`);
    positionals.push(a);
    tokens.push({ kind: 'positional', index: i, value: a });
  }
  for (const [name, o] of Object.entries(options)) {
    if (o.default !== undefined && values[name] === undefined) values[name] = o.default;
  }
  const result = { values, positionals };
  if (returnTokens) result.tokens = tokens;
  return result;
}
module.exports = { parseArgs };
