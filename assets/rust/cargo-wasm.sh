# Sourced by the build.sh of a Rust asset (ripgrep, fd): builds the program in
# $SRC/$1 for wasm32-wasi with Debian's rustc and cargo, offline, against the
# recipe's crates (Debian's librust-*-dev packages, unpacked by scripts/assets
# into $CRATES/<crate>-<version>). Leaves target/ under $PWD.
# Env from scripts/assets: SRC CRATES OUT SHIM CC JOBS.

# The stamp of an asset covers its recipe, not the Rust toolchain: build only
# with the rustc and cargo the recipe was written for (Debian bookworm's).
want_rustc="rustc 1.63.0"
want_cargo="cargo 1.65.0"
RUSTC=/usr/bin/rustc
CARGO=/usr/bin/cargo
case "$($RUSTC --version 2>/dev/null)" in "$want_rustc"*) ;; *)
  echo "need Debian's $want_rustc at $RUSTC (scripts/deps.sh installs it), got: $($RUSTC --version 2>&1)" >&2
  exit 1 ;;
esac
case "$($CARGO --version 2>/dev/null)" in "$want_cargo"*) ;; *)
  echo "need Debian's $want_cargo at $CARGO (scripts/deps.sh installs it), got: $($CARGO --version 2>&1)" >&2
  exit 1 ;;
esac
[ -d /usr/lib/rustlib/wasm32-wasi ] || { echo "need libstd-rust-dev-wasm32 (scripts/deps.sh)" >&2; exit 1; }

cargo_wasm_build() { # source-dir [cargo build args...]
  local main="$1"; shift
  local top="$PWD" home="$PWD/cargo-home"
  mkdir -p "$home"
  cat > "$home/config.toml" <<CFG
[source.crates-io]
replace-with = "recipe"
[source.recipe]
directory = "$CRATES"
[net]
offline = true
CFG
  # WASI starts a program in "/": take the shell's working directory from
  # $PWD before main, as every C guest does (assets/shim/cwd.c).
  # GIT_DIR: the sources sit inside our checkout, and ripgrep's build.rs put
  # its `git rev-parse HEAD` in `rg --version` (Debian's, built from a
  # tarball, has none).
  "$CC" -O2 -c "$SHIM/cwd.c" -o "$top/cwd.o"
  (cd "$SRC/$main" && rm -f Cargo.lock &&
    GIT_DIR=/nonexistent CARGO_HOME="$home" RUSTC="$RUSTC" \
    RUSTFLAGS="-C link-arg=$top/cwd.o -C strip=debuginfo --remap-path-prefix=$SRC=/src --remap-path-prefix=$CRATES=/crates" \
    CARGO_PROFILE_RELEASE_DEBUG=0 \
    "$CARGO" build --release --offline --target wasm32-wasi -j"$JOBS" \
      --target-dir "$top/target" "$@") >"$top/cargo.log" 2>&1 || { tail -40 "$top/cargo.log" >&2; exit 1; }
}

# rust_licenses: the program's debian/copyright, then every crate's licence
# files (Debian's crates keep the upstream ones).
rust_licenses() { # source-dir
  local d f
  { cat "$SRC/$1/debian/copyright"
    for d in "$CRATES"/*/; do
      printf '\n==== crate %s ====\n' "$(basename "$d")"
      for f in "$d"LICENSE* "$d"LICENCE* "$d"COPYING* "$d"UNLICENSE*; do
        [ -f "$f" ] && { printf -- '-- %s\n' "$(basename "$f")"; cat "$f"; }
      done
      grep -m1 '^license = ' "$d/Cargo.toml" || true
    done
  } > "$OUT/LICENSE"
}
