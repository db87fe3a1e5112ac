// Package testindex builds pure-Python wheels and serves them as a PEP 503 package
// index, for tests of pip and of what installs packages with it.
package testindex

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Wheel is a py3-none-any wheel of name and version: meta is added to its METADATA
// (Requires-Dist lines...), files are its contents by path.
func Wheel(name, version, meta string, files map[string]string) []byte {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	info := name + "-" + version + ".dist-info/"
	all := map[string]string{
		info + "METADATA": "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\n" + meta,
		info + "WHEEL":    "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
		info + "RECORD":   "",
	}
	for k, v := range files {
		all[k] = v
	}
	for k, v := range all {
		w, err := z.Create(k)
		if err != nil {
			panic(err)
		}
		_, _ = io.WriteString(w, v)
	}
	if err := z.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// Handler serves files (wheel file names → bytes) as an index: /simple/PROJECT/ lists a
// project's files with their sha256 (wrong for those tamper reports), /files/NAME
// serves them.
func Handler(files map[string][]byte, tamper func(file string) bool) http.Handler {
	projects := map[string][]string{}
	for f := range files {
		p := strings.SplitN(f, "-", 2)[0]
		projects[p] = append(projects[p], f)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/simple/", func(w http.ResponseWriter, r *http.Request) {
		name := strings.Trim(strings.TrimPrefix(r.URL.Path, "/simple/"), "/")
		list, ok := projects[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = io.WriteString(w, "<!DOCTYPE html><html><body>\n")
		for _, f := range list {
			sum := sha256.Sum256(files[f])
			if tamper != nil && tamper(f) {
				sum[0] ^= 1
			}
			fmt.Fprintf(w, "<a href=\"../../files/%s#sha256=%x\">%s</a><br>\n", f, sum, f)
		}
	})
	mux.HandleFunc("/files/", func(w http.ResponseWriter, r *http.Request) {
		b, ok := files[strings.TrimPrefix(r.URL.Path, "/files/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(b)
	})
	return mux
}
