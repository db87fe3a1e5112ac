# wasmsand — see README.md. Every target installs what it needs.
GO ?= go
BIN := bin/wasmsand

.PHONY: all deps build test lint-npm lint-openapi check-versions cpython-tests jq-tests gnu-tests perl-tests test-go test-js-build test-js npm test-npm conformance-node test-browser test-bundlers conformance-browser vet bench demo clean fuzz playground test-playground

all: build

deps:
	./scripts/deps.sh

build: deps assets
	$(GO) build -o $(BIN) ./cmd/wasmsand

# Guest WebAssembly programs built from Debian sources (assets/, scripts/assets).
.PHONY: assets check-versions
assets: deps
	$(GO) run ./scripts/assets

# Fails when a pinned Debian source is older than what bookworm (with
# bookworm-updates and bookworm-security) serves: a security update must not
# be missed silently. A lag is accepted in the recipe ("accept_lag").
check-versions: deps
	$(GO) run ./scripts/assets -check-versions

# The core packages must build for the browser/Node (GOOS=js) and never link wazero.
test-js-build:
	GOOS=js GOARCH=wasm $(GO) build ./core/ ./vfs/ ./wasi/ ./shell/ ./platform/ ./platform/instrument/ ./platform/js/... ./commands/... ./platform/enginetest/ ./platform/hostdir/ ./assets/
	@if GOOS=js GOARCH=wasm $(GO) list -deps ./core/ ./vfs/ ./wasi/ ./shell/ | grep -q tetratelabs/wazero; then \
		echo "FAIL: a GOOS=js core package depends on wazero"; exit 1; fi
	@echo "GOOS=js build: ok (no wazero)"

# The JS engine (platform/js) under Node: the GOOS=js core running the built
# assets on V8's WebAssembly, through the engine's JS half (host.js).
# The engine suite (platform/enginetest) runs here too, on guests built
# natively first.
test-js: build node_modules
	WASMSAND_EXPORT_GUESTS=$(CURDIR)/build/testguests $(GO) test -count=1 -run '^TestExportGuests$$' ./platform/enginetest/
	WASMSAND_TESTGUESTS=$(CURDIR)/build/testguests GOOS=js GOARCH=wasm $(GO) test -count=1 -exec "node $(CURDIR)/platform/js/testdata/go_js_exec.js" ./platform/js/...

# The npm package `wasmsand` (build/npm, packed into build/wasmsand-VERSION.tgz):
# the GOOS=js core, its JS half and the Node entry points, bundled by
# scripts/npm with esbuild's Go API, and the guest assets.
npm: build node_modules
	$(GO) run ./scripts/npm
	rm -f build/wasmsand-*.tgz
	cd build/npm && npm pack --pack-destination .. --silent

# The packed package as JS tooling checks it: publint (warnings fail too) and
# arethetypeswrong. The browser entry is ES modules only, by design (it
# needs import.meta.url and module workers): it is checked with the
# esm-only profile, which leaves out require().
lint-npm: npm node_modules
	npx --no-install publint --strict build/npm
	npx --no-install attw --pack build/npm --exclude-entrypoints web/index.js
	npx --no-install attw --pack build/npm --entrypoints web/index.js --profile esm-only

# The HTTP service's OpenAPI document under Redocly's recommended rules, and
# a TypeScript client generated from it by openapi-typescript.
lint-openapi: build/go.mod node_modules
	WASMSAND_OPENAPI_OUT=$(CURDIR)/build/openapi.json $(GO) test -count=1 -run '^TestOpenAPIFile$$' ./service/
	npx --no-install redocly lint build/openapi.json
	# a client generated from it, compiled against the calls the Go tests make
	rm -rf build/openapi-ts && mkdir -p build/openapi-ts && cp service/testdata/client.ts build/openapi-ts/
	npx --no-install openapi-typescript build/openapi.json -o build/openapi-ts/schema.d.ts
	node_modules/.bin/tsc --strict --noEmit --module nodenext --moduleResolution nodenext --target es2022 --lib es2022,dom --types node build/openapi-ts/client.ts
	@echo "openapi: ok (Redocly's recommended rules; an openapi-typescript client compiles)"

# The packed package installed offline into an empty directory and used from
# require() and import, as a Node service would.
test-npm: npm node_modules
	rm -rf build/npm-test && mkdir -p build/npm-test
	cp node/test/smoke.cjs node/test/smoke.mjs node/test/python.mjs node/test/network.mjs node/test/tools.mjs node/test/readme.mjs node/test/cli.mjs node/test/pool.mjs node/test/pyhelper.mjs build/npm-test/
	cd build/npm-test && echo '{"name":"npm-test","private":true}' > package.json && \
		npm install --offline --no-audit --no-fund ../wasmsand-*.tgz && node smoke.cjs && node smoke.mjs && node python.mjs && node network.mjs && node tools.mjs && node readme.mjs && node cli.mjs && node pool.mjs && node pyhelper.mjs
	node node/test/pysnapshot.mjs build/npm/pyodide
	node node/test/coreinit.mjs build/npm
	# the declarations as a TypeScript user meets them (import, require, the
	# browser entry, the AI SDK's generateText), then the AI SDK calling the tools
	rm -rf build/npm-test/types && cp -r node/test/types build/npm-test/types
	node_modules/.bin/tsc -p build/npm-test/types && echo "types: ok (tsc strict over import, require, web and the AI SDK)"
	node node/test/aisdk.mjs build/npm

# The conformance suite in Node, through the package test-npm installed:
# the same cases and known-failures.txt, plus the JS engine's own
# differences (testdata/conformance/known-failures-js.txt).
# The network group's server for the JS runners (conformance/netserver).
NETSERVER := $(CURDIR)/build/conformance-netserver
.PHONY: netserver
netserver:
	$(GO) build -o $(NETSERVER) ./conformance/netserver

conformance-node: test-npm netserver
	cp node/test/conformance.mjs node/test/suite.mjs build/npm-test/
	cd build/npm-test && WASMSAND_NETSERVER=$(NETSERVER) node conformance.mjs $(CURDIR)/testdata/conformance $(CURDIR)/build/conformance-node-report.txt

# The package in headless Chromium (Debian's chromium from make deps, npm
# playwright-core): a page on a local static server uses web/index.js.
# The playground (playground/): a static site in build/playground that any plain static
# server can serve; its test drives it in headless Chromium (screenshots in
# build/playground-screens/).
playground: npm node_modules
	$(GO) run ./scripts/playground

test-playground: playground
	node playground/test/playground.mjs build/playground

test-browser: npm node_modules
	node web/test/browser.mjs build/npm

# An app importing the package, built with Vite (and its dev server),
# webpack and esbuild as the README says, run in headless Chromium.
test-bundlers: npm node_modules
	node web/test/bundlers.mjs build/npm

# The conformance suite in headless Chromium through the package's browser
# entry, with the Node runner's comparison and known-failures lists.
conformance-browser: npm node_modules netserver
	WASMSAND_NETSERVER=$(NETSERVER) node web/test/conformance-browser.mjs build/npm testdata/conformance $(CURDIR)/build/conformance-browser-report.txt

# build/ holds unpacked third-party sources (git's has Go files): a go.mod of
# its own keeps it out of ./...
build/go.mod:
	mkdir -p build && printf 'module wasmsand.invalid/build\n' > $@

vet: build/go.mod
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./platform/js/... ./commands/pyodide/ ./cmd/wasmsand-js/

test-go: build/go.mod
	$(GO) test -count=1 ./...

# Every test, part by part; at the end (or at a failure) how long each part took.
TEST_PARTS := build hygiene vet check-versions test-js-build test-go test-js npm lint-npm lint-openapi test-npm test-browser test-bundlers playground test-playground \
	fuzz conformance netserver conformance-node conformance-browser bash-tests cpython-tests jq-tests gnu-tests perl-tests
test:
	@./scripts/test-parts.sh $(MAKE) $(TEST_PARTS)

# The tree holds no build output and no file over 2 MB.
.PHONY: hygiene
hygiene:
	./scripts/hygiene.sh

# bash's own test suite (Debian's bash source package, tests/run-*) run with
# our bash: prints how many files pass; fails when a file of
# testdata/bash-tests/passing.txt stops passing.
BASH_SRC := build/bash-src
.PHONY: bash-tests
bash-tests: build
	$(GO) run ./scripts/assets -source bash=5.2.15-2 -dest $(BASH_SRC)
	rm -f build/bash-tests-report.txt
	WASMSAND_BASH_TESTS=$(CURDIR)/$(BASH_SRC) WASMSAND_BASH_TESTS_REPORT=$(CURDIR)/build/bash-tests-report.txt \
		$(GO) test -count=1 -timeout 60m -v -run '^TestBashSuite$$' ./conformance/

# CPython's own regression tests (Debian's python3.11 source, Lib/test) for
# the modules agents use (testdata/cpython-tests/modules.txt), run with the
# sandbox's python3; fails when a module not in known-failures.txt fails.
# jq's own tests (tests/*.test of Debian's jq source, testdata/jq-tests),
# each test alone with the sandbox's jq.
JQ_VERSION = $(shell sed -n 's/.*"version": "\(1\.6[^"]*\)".*/\1/p' assets/jq/recipe.json | head -1)
JQ_SRC = build/jq-src-$(JQ_VERSION)
.PHONY: jq-tests
jq-tests: build
	$(GO) run ./scripts/assets -source jq=$(JQ_VERSION) -dest $(JQ_SRC)
	WASMSAND_JQ_TESTS=$(CURDIR)/$(JQ_SRC)/tests WASMSAND_JQ_TESTS_REPORT=$(CURDIR)/build/jq-tests-report.txt \
		$(GO) test -count=1 -timeout 30m -v -run '^TestJqSuite$$' ./conformance/

# The test suites of GNU sed, grep, diffutils and coreutils (their `make check` scripts,
# from Debian's sources) against the sandbox's programs (testdata/gnu-tests).
GNU_TESTS_SRC = build/gnu-src
.PHONY: gnu-tests
gnu-tests: build
	for a in sed grep diffutils coreutils; do \
		v=$$(sed -n 's/.*"version": "\([^"]*\)".*/\1/p' assets/$$a/recipe.json | head -1); \
		$(GO) run ./scripts/assets -source $$a=$$v -dest $(GNU_TESTS_SRC)/$$a || exit 1; \
	done
	WASMSAND_GNU_TESTS=$(CURDIR)/$(GNU_TESTS_SRC) WASMSAND_GNU_TESTS_REPORT=$(CURDIR)/build/gnu-tests-report.txt \
		$(GO) test -count=1 -timeout 30m -v -run '^TestGNUSuites$$' ./conformance/

# perl's own tests of the modules agents use (the t/*.t of the distributions in
# testdata/perl-tests/dists.txt, from Debian's perl source) with the sandbox's
# perl; fails when a file not in known-failures.txt fails.
PERL_VERSION = $(shell sed -n 's/.*"version": "\(5\.36[^"]*\)".*/\1/p' assets/perl/recipe.json | head -1)
PERL_SRC = build/perl-src-$(PERL_VERSION)
.PHONY: perl-tests
perl-tests: build
	$(GO) run ./scripts/assets -source perl=$(PERL_VERSION) -dest $(PERL_SRC)
	WASMSAND_PERL_TESTS=$(CURDIR)/$(PERL_SRC) WASMSAND_PERL_TESTS_REPORT=$(CURDIR)/build/perl-tests-report.txt \
		$(GO) test -count=1 -timeout 60m -v -run '^TestPerlSuite$$' ./conformance/

PYTHON_VERSION = $(shell sed -n 's/.*"version": "\(3\.11[^"]*\)".*/\1/p' assets/python/recipe.json | head -1)
CPYTHON_SRC = build/cpython-src-$(PYTHON_VERSION)
.PHONY: cpython-tests
cpython-tests: build
	$(GO) run ./scripts/assets -source python3.11=$(PYTHON_VERSION) -dest $(CPYTHON_SRC)
	WASMSAND_CPYTHON_TESTS=$(CURDIR)/$(CPYTHON_SRC)/Lib WASMSAND_CPYTHON_TESTS_REPORT=$(CURDIR)/build/cpython-tests-report.txt \
		$(GO) test -count=1 -timeout 60m -v -run '^TestCPythonSuite$$' ./conformance/

# The shell's parser and evaluator and their arithmetic and pattern engines
# take untrusted text: each is fuzzed for a bounded time (seeded with the
# conformance cases); a crash, a recovered panic or a hang fails.
# Budgets are execution counts (~10-30 s each here), not durations: with a
# duration, Go 1.26's fuzz coordinator can fail a clean run with "context
# deadline exceeded" at its end (golang/go#75804, fixed in Go 1.27).
FUZZ_PARSE ?= 300000x
FUZZ_RUN ?= 60000x
FUZZ_EVAL ?= 100000x
FUZZ_MATCH ?= 20000x
FUZZ_NET ?= 200000x
FUZZ_MARSHAL ?= 50000x
FUZZ_PROC ?= 50000x
FUZZ_INSTRUMENT ?= 200000x
FUZZ_STATE ?= 50000x
fuzz:
	$(GO) test -run XXX -fuzz '^FuzzParse$$' -fuzztime $(FUZZ_PARSE) ./shell/syntax/
	$(GO) test -run XXX -fuzz '^FuzzRun$$' -fuzztime $(FUZZ_RUN) ./shell/interp/
	$(GO) test -run XXX -fuzz '^FuzzEval$$' -fuzztime $(FUZZ_EVAL) ./shell/arith/
	$(GO) test -run XXX -fuzz '^FuzzMatch$$' -fuzztime $(FUZZ_MATCH) ./shell/pattern/
	$(GO) test -run XXX -fuzz '^FuzzParseRequest$$' -fuzztime $(FUZZ_NET) ./policy/
	$(GO) test -run XXX -fuzz '^FuzzDenyRespelling$$' -fuzztime $(FUZZ_NET) ./policy/
	$(GO) test -run XXX -fuzz '^FuzzReadRequest$$' -fuzztime $(FUZZ_NET) ./commands/curl/
	$(GO) test -run XXX -fuzz '^FuzzFromMarshal$$' -fuzztime $(FUZZ_MARSHAL) ./toolruntime/
	$(GO) test -run XXX -fuzz '^FuzzDecodeHeader$$' -fuzztime $(FUZZ_MARSHAL) ./cmd/wasmsand/
	$(GO) test -run XXX -fuzz '^FuzzFS$$' -fuzztime $(FUZZ_PROC) ./procfs/
	$(GO) test -run XXX -fuzz '^FuzzInstrument$$' -fuzztime $(FUZZ_INSTRUMENT) ./platform/instrument/
	$(GO) test -run XXX -fuzz '^FuzzApplyDelta$$' -fuzztime $(FUZZ_STATE) ./vfs/
	$(GO) test -run XXX -fuzz '^FuzzLoadState$$' -fuzztime $(FUZZ_STATE) ./shell/

# The public conformance suite (testdata/conformance) through the Go API, over build/assets;
# prints the pass rate and writes every failure to build/conformance-report.txt.
.PHONY: conformance
conformance: build
	@mkdir -p build
	WASMSAND_CONFORMANCE=1 WASMSAND_CONFORMANCE_REPORT=$(CURDIR)/build/conformance-report.txt \
		$(GO) test -count=1 -timeout 60m -v -run '^TestConformance$$' ./conformance/

bench: build node_modules npm playground
	$(GO) run ./scripts/bench

demo: build
	./$(BIN) run -c 'cd /tmp && printf "b 2\na 1\nb 3\n" > data.txt && sort data.txt | awk "{s[\$$1]+=\$$2} END {for (k in s) print k, s[k]}" | sort; ls -l data.txt; python3 -c "import sys, json; print(json.dumps({\"python\": sys.version.split()[0]}))"; echo "pid $$$$ in $$PWD"; uname -a' 

clean:
	rm -rf bin build

# Benchmark references (just-bash) are npm dev dependencies.
node_modules: package.json
	npm install --no-audit --no-fund
	@touch node_modules
