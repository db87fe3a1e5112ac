package assets

import _ "embed"

// PythonHTTP is python's http.client over the sandbox's network bridge
// (python/lib/_wasmsand_http.py): the CPython asset has it in its stdlib
// zip; Pyodide gets it from the core (platform/js/pyodide).
//
//go:embed python/lib/_wasmsand_http.py
var PythonHTTP string
