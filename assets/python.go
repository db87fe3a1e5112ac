package assets

import _ "embed"

// PythonHTTP is python's http.client over the sandbox's network bridge
// (python/lib/_wasmsand_http.py): the CPython asset has it in its stdlib
// zip; Pyodide gets it from the core (commands/pyodide).
//
//go:embed python/lib/_wasmsand_http.py
var PythonHTTP string

// PyodideModule is a Python module of ours that Pyodide gets from the core
// (commands/pyodide): made once per runtime, or kept from the snapshot
// scripts/npm starts it from, after which Then runs.
type PyodideModule struct {
	Name, Source, Then string
}

// PyodideModules are Pyodide's modules of ours: http.client over the
// network bridge.
var PyodideModules = []PyodideModule{
	{"_wasmsand_http", PythonHTTP, "import _wasmsand_http\n_wasmsand_http.install_on_import()"},
}
