// bundle.js (run by the host's qjs at build time): lib/**/*.js -> one script
// whose value is function (native) { ... }, each builtin a factory in
// builtinSources, lib/bootstrap.js the body.
import * as std from 'std';
import * as os from 'os';

const [, lib, out] = scriptArgs;
const files = [];
function walk(dir, rel) {
  const [names, err] = os.readdir(dir);
  if (err) throw new Error(`${dir}: ${std.strerror(err)}`);
  for (const n of names.sort()) {
    if (n === '.' || n === '..') continue;
    const [st] = os.stat(`${dir}/${n}`);
    if ((st.mode & os.S_IFMT) === os.S_IFDIR) walk(`${dir}/${n}`, `${rel}${n}/`);
    else if (n.endsWith('.js')) files.push(`${rel}${n}`);
  }
}
walk(lib, '');
let src = "(function (native) {\n'use strict';\nconst builtinSources = Object.create(null);\n";
for (const f of files) {
  if (f === 'bootstrap.js') continue;
  const id = f.slice(0, -3);
  src += `builtinSources[${JSON.stringify(id)}] = function (exports, require, module, native) {\n${std.loadFile(`${lib}/${f}`)}\n};\n`;
}
src += `${std.loadFile(`${lib}/bootstrap.js`)}\n})\n`;
const fh = std.open(out, 'w');
fh.puts(src);
fh.close();
