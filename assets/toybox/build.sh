#!/usr/bin/env bash
# Builds toybox.wasm from toybox's own scripts (kconfig + scripts/make.sh).
# Called by scripts/assets with: SRC (patched source tree), OUT (output dir),
# CC (wasm32-wasi compiler wrapper), HOSTCC, JOBS, ASSET_DIR (this directory).
set -euo pipefail
cd "$SRC/toybox"

# Our command list → a mini config; allnoconfig turns everything else off.
{
  for s in TOYBOX_FLOAT TOYBOX_HELP TOYBOX_HELP_DASHDASH SORT_FLOAT; do echo "CONFIG_$s=y"; done
  grep -v '^#' "$ASSET_DIR/commands.txt" | tr -s ' \t' '\n' | grep . | tr a-z A-Z | sed 's/.*/CONFIG_&=y/'
} > wasm.config
make -s allnoconfig KCONFIG_ALLCONFIG=wasm.config HOSTCC="$HOSTCC" CC="$CC" >/dev/null

# Every command asked for must be in the config (a typo would silently drop it).
for c in $(grep -v '^#' "$ASSET_DIR/commands.txt"); do
  grep -q "^CONFIG_${c^^}=y" .config || { echo "toybox: $c is not a toybox $c config symbol" >&2; exit 1; }
done

# -D__linux__: toybox treats every non-BSD, non-macOS system as Linux; the shim's
# headers (assets/shim/include) supply what WASI lacks. wasm-ld has no --as-needed.
CFLAGS="-D__linux__ -Wno-unused-but-set-variable" \
LDOPTIMIZE="-Wl,--gc-sections" \
NOSTRIP=1 CPUS="$JOBS" HOSTCC="$HOSTCC" CC="$CC" \
  scripts/make.sh >build.log 2>&1 || { tail -40 build.log >&2; exit 1; }

cp generated/unstripped/toybox "$OUT/toybox.wasm"
cp LICENSE "$OUT/LICENSE"

# The commands compiled in: every NEWTOY/OLDTOY whose USE_ symbol is on.
sed -n 's/^#define CFG_\([A-Z0-9_]*\) 1$/\1/p' generated/config.h | sort -u > enabled.txt
sed -n 's/^USE_\([A-Z0-9_]*\)(\(NEW\|OLD\)TOY(\([^,]*\),.*/\1 \3/p' generated/newtoys.h |
  while read -r sym name; do
    grep -qx "$sym" enabled.txt || continue
    case "$name" in *[!A-Za-z0-9_.+\[-]*|-*) continue ;; esac  # ":" "-sh" and the like
    echo "$name"
  done | sort -u > "$OUT/commands.txt"
