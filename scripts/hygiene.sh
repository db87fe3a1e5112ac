#!/usr/bin/env bash
# The tree holds sources, not build outputs: fails when a tracked file is
# over 2 MB, or is an executable a build makes (an ELF, a Mach-O or a
# WebAssembly module), or lies under a build output directory; or when a
# generated source is stale (jsapi/python/sources.gen.js, scripts/pysources.mjs);
# or when a Go file is not gofmt's layout.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0
while IFS= read -r -d '' f; do
	[ -f "$f" ] || continue
	size=$(stat -c %s "$f")
	if [ "$size" -gt 2000000 ]; then
		echo "hygiene: $f is $((size / 1000)) kB: over 2 MB (a source tree keeps no large files)"
		bad=1
	fi
	case "$f" in
	build/* | bin/* | node_modules/* | */node_modules/*)
		echo "hygiene: $f is a build output"
		bad=1
		continue
		;;
	esac
	magic=$(head -c 4 "$f" | od -An -tx1 | tr -d ' \n')
	case "$magic" in
	7f454c46 | cffaedfe | cefaedfe | 0061736d)
		echo "hygiene: $f is a compiled program (a build output)"
		bad=1
		;;
	esac
done < <(git ls-files -z)
node scripts/pysources.mjs --check || bad=1
unformatted=$(git ls-files -z '*.go' | xargs -0 gofmt -l)
if [ -n "$unformatted" ]; then
	echo "hygiene: not gofmt'ed (run gofmt -w): $unformatted"
	bad=1
fi
if [ "$bad" -ne 0 ]; then exit 1; fi
echo "hygiene: ok ($(git ls-files | wc -l) tracked files, none over 2 MB, no build outputs, Go files gofmt'ed)"
