#!/usr/bin/env bash
# Fuzzing harness: libFuzzer targets (Swift's -sanitize=fuzzer, with
# AddressSanitizer and its leak checker) for every reader of outside input.
#
#   scripts/fuzz.sh build               build every target into .build/fuzz/
#   scripts/fuzz.sh run RUNS [TARGET]   run each target (or one) for RUNS executions
#
# Targets and seed corpora: Tests/Fuzz/targets/NAME.swift, Tests/Fuzz/corpus/NAME/.
# A run fails on a crash, a leak, or an input that takes over 1 s (-timeout=1).
# New corpus entries go to .build/fuzz/corpus/NAME/ (the seeds are not modified).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFTC=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
OUT=.build/fuzz
TARGETS=(hall-json maoyan pretix status-batch points theme png http-query http-request)
FLAGS=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -package-name SeatMap)
cflags() { for f in $(pkg-config --cflags-only-I "$@"); do printf -- '-Xcc\n%s\n' "$f"; done; }
MAPS=(-Xcc -fmodule-map-file=Sources/CCairo/module.modulemap -Xcc -fmodule-map-file=.build/fuzz/CPNG/module.modulemap
      -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap -Xcc -fmodule-map-file=Sources/CLibPQ/module.modulemap
      -Xcc -fmodule-map-file=Sources/CMicroHTTPD/module.modulemap -Xcc -fmodule-map-file=Sources/CZlib/module.modulemap -Xcc -fmodule-map-file=.build/fuzz/CPNGStrips/module.modulemap)

# One static library per module, each instrumented for coverage.
module() {  # NAME [swiftc args...]
  local name=$1; shift
  "$SWIFTC" "${FLAGS[@]}" -emit-library -static -emit-module -module-name "$name" -I "$OUT" \
    -o "$OUT/lib$name.a" -emit-module-path "$OUT/$name.swiftmodule" "$@" $(find "Sources/$name" -name '*.swift' | sort)
}

build() {
  mkdir -p "$OUT"
  mapfile -t INC < <(cflags pangocairo libpng libpq libmicrohttpd sqlite3)
  [ "${1:-}" = "--targets-only" ] || {
  # The shipped themes and locale catalogues, as the EmbedJSON build
  # plugin writes them for SwiftPM.
  "$SWIFTC" -O Sources/seatmap-embed-themes/main.swift -o "$OUT/embed-themes"
  "$OUT/embed-themes" "$OUT/EmbeddedThemes.swift" Themes/*.json
  "$OUT/embed-themes" --name embeddedLocaleSources "$OUT/EmbeddedLocales.swift" Locales/*.json
  mapfile -t PICKER < <(ls Picker/*.js Picker/*.css | grep -v '\.test\.js$' | sort)
  "$OUT/embed-themes" --name embeddedPickerSources --keep-extension "$OUT/EmbeddedPicker.swift" "${PICKER[@]}"
  # The PNG strip encoder (C, zlib), as SwiftPM builds the CPNGStrips target.
  CLANG=${CLANG:-$(dirname "$SWIFTC")/clang}
  "$CLANG" -c -O2 -g -fsanitize=address,fuzzer-no-link -ISources/CPNGStrips/include Sources/CPNGStrips/png_strips.c -o "$OUT/png_strips.o"
  ar rcs "$OUT/libCPNGStrips.a" "$OUT/png_strips.o"
  mkdir -p "$OUT/CPNGStrips"
  printf 'module CPNGStrips {\n    header "%s"\n    link "z"\n    export *\n}\n' "$PWD/Sources/CPNGStrips/include/png_strips.h" > "$OUT/CPNGStrips/module.modulemap"
  # libpng's encode and decode (C), as SwiftPM builds the CPNG target.
  "$CLANG" -c -O2 -g -fsanitize=address,fuzzer-no-link -ISources/CPNG/include Sources/CPNG/png_helpers.c -o "$OUT/png_helpers.o"
  ar rcs "$OUT/libCPNG.a" "$OUT/png_helpers.o"
  mkdir -p "$OUT/CPNG"
  printf 'module CPNG {\n    header "%s"\n    link "png16"\n    export *\n}\n' "$PWD/Sources/CPNG/include/png_helpers.h" > "$OUT/CPNG/module.modulemap"
  module SeatMapCore "$OUT/EmbeddedLocales.swift"
  module SeatMapLayout
  module SeatMapRender "${MAPS[@]}" "${INC[@]}" "$OUT/EmbeddedThemes.swift" "$OUT/EmbeddedPicker.swift"
  module SeatMapGolden "${MAPS[@]}" "${INC[@]}"
  module SeatMapInventory
  module SeatMapStore "${MAPS[@]}" "${INC[@]}"
  module SeatMapService "${MAPS[@]}" "${INC[@]}"
  module SeatMapServer "${MAPS[@]}" "${INC[@]}"
  }
  for t in "${TARGETS[@]}"; do
    case $t in
      theme) imports=(SeatMapCore SeatMapLayout SeatMapRender) ;;
      png) imports=(SeatMapCore SeatMapGolden) ;;
      hall-json) imports=(SeatMapCore SeatMapLayout) ;;
      http-query) imports=(SeatMapCore SeatMapLayout SeatMapRender SeatMapInventory SeatMapStore SeatMapService SeatMapServer CMicroHTTPD) ;;
      http-request) imports=(SeatMapCore SeatMapLayout SeatMapRender SeatMapInventory SeatMapStore SeatMapService SeatMapServer CMicroHTTPD) ;;
      *) imports=(SeatMapCore) ;;
    esac
    src="$OUT/$t-main.swift"
    { for m in "${imports[@]}"; do echo "import $m"; done; cat "Tests/Fuzz/targets/$t.swift"; } > "$src"
    # Static libraries: a module before the ones it uses.
    libs=(); for m in "${imports[@]}"; do [ -f "$OUT/lib$m.a" ] && libs=("$OUT/lib$m.a" "${libs[@]}"); done
    case " ${imports[*]} " in *" SeatMapRender "*) libs+=("$OUT/libCPNGStrips.a") ;; esac
    case " ${imports[*]} " in *" SeatMapRender "*|*" SeatMapGolden "*) libs+=("$OUT/libCPNG.a") ;; esac
    "$SWIFTC" "${FLAGS[@]}" -I "$OUT" "${MAPS[@]}" "${INC[@]}" "$src" "${libs[@]}" \
      $(pkg-config --libs-only-l pangocairo) -lfontconfig -lpng16 -lz -lsqlite3 -lpq -lmicrohttpd -o "$OUT/fuzz-$t"
    echo "built $OUT/fuzz-$t"
  done
}

run() {  # RUNS [TARGET]
  local runs=$1; shift
  local list=("${TARGETS[@]}"); [ $# -gt 0 ] && list=("$@")
  for t in "${list[@]}"; do
    [ -x "$OUT/fuzz-$t" ] || build
    mkdir -p "$OUT/corpus/$t"
    echo "== $t: $runs executions"
    ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/Tests/Fuzz/lsan.supp "$OUT/fuzz-$t" -runs="$runs" -timeout=1 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 "$OUT/corpus/$t" "Tests/Fuzz/corpus/$t" 2>&1 | grep -E "^(Done|stat::number_of_executed_units|==.*ERROR|SUMMARY|INFO: seed corpus)" || true
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "fuzz-$t failed"; exit 1; }
  done
}

case "${1:-}" in
  build) shift; build "$@" ;;
  run) shift; run "$@" ;;
  *) echo "usage: scripts/fuzz.sh build | run RUNS [TARGET...]" >&2; exit 2 ;;
esac
