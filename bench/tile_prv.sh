#!/usr/bin/env bash
# Tiles a Paraver trace in time: COPIES back-to-back copies of its body, copy k shifted by k x its end time,
# so every thread, state, event and message repeats with the same structure. Writes OUT.prv (plain text)
# and copies the .pcf and .row beside it.
#   bench/tile_prv.sh SRC.prv[.gz] OUT.prv COPIES
set -euo pipefail
src=$1 out=$2 copies=$3
stem=${src%.gz}; stem=${stem%.prv}
cat_src() { if [[ $src == *.gz ]]; then zcat "$src"; else cat "$src"; fi; }
header=$( (cat_src || true) | head -1)
end=$(sed -E 's/^#Paraver \([^)]*\):([0-9]+).*/\1/' <<<"$header")
cat_src | awk -v CONVFMT=%.0f -v OFMT=%.0f -v copies="$copies" -v span="$end" '
  NR == 1 { sub(/\):[0-9]+/, "):" sprintf("%.0f", span * copies)); print; next }
  /^c:/ || /^#/ { if (!seen_body) print; next }
  { seen_body = 1; body[n++] = $0 }
  END {
    for (k = 0; k < copies; k++) {
      shift = k * span
      for (i = 0; i < n; i++) {
        m = split(body[i], f, ":")
        if (f[1] == 1) { f[6] += shift; f[7] += shift }
        else if (f[1] == 2) { f[6] += shift }
        else if (f[1] == 3) { f[6] += shift; f[7] += shift; f[12] += shift; f[13] += shift }
        line = f[1]; for (j = 2; j <= m; j++) line = line ":" f[j]
        print line
      }
    }
  }' > "$out"
cp "$stem.pcf" "${out%.prv}.pcf"
cp "$stem.row" "${out%.prv}.row"
