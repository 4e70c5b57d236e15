#!/usr/bin/env bash
# pi-control-chrome build harness. Every subcommand installs what it needs, idempotently.
#
#   ./build.sh setup          install toolchains and packages (Debian, rustup, cargo, npm)
#   ./build.sh build          wasm (release, wasm-opt) → extension/wasm/
#   ./build.sh dist           what a user installs → dist/: pcc (release), extension/, the store zip, the pi package
#   ./build.sh install        what dist/ needs only, dist, then pcc into ~/.local/bin (PCC_INSTALL_DIR) and `pcc setup`
#   ./build.sh test           native tests, wasm boundary tests in headless Chrome, e2e suite
#   ./build.sh pi             the pi package's tests alone (pi-tests/, the real pi agent)
#   ./build.sh dsh            the DSH plugin's tests alone (dsh-tests/, a real DeepSeek Harness host)
#   ./build.sh headed         the headed track alone (www-tests/headed/: Xvfb, openbox, the person's real keys)
#   ./build.sh demo [URL|FILE] snapshot a page through the real extension in headless Chromium
#   ./build.sh bench          ours vs Playwright's AI snapshot → bench/results.json, bench/report.html
#   ./build.sh apps [--app N] Fossil, Adminer, phpLiteAdmin from Debian: 15 tasks each over MCP, ours vs @playwright/mcp → bench/apps.json
#   ./build.sh corpus [DIR]   fidelity checks on every real page of ../shared/corpus/readability/
#   ./build.sh reach [DIR]    reachability (headline, 3rd paragraph, last link, first field) on that corpus
#   ./build.sh extract-score [DIR]  browser_extract vs Readability's expected articles (token F1, with innerText)
#   ./build.sh accname DIR    accessible names of both sources vs an accname test suite (www-tests/accname.mjs)
#   ./build.sh conformance DIR... [--pw DIR]  names and roles of both sources and Chromium's tree vs WPT's files (accname, html-aam, svg-aam, wai-aria), with Playwright's pairs (www-tests/conformance.mjs)
#   ./build.sh pw-pairs DIR   (role, name) and state pairs of both sources vs Playwright's aria-snapshot specs (www-tests/pw-pairs.mjs)
#   ./build.sh bridge [ARGS]  build and run the local Bridge (target/debug/pcc bridge)
#   ./build.sh fuzz [CASES]   long property-test run over mutated captures (default 20000 cases)
#   ./build.sh capture        re-capture tests/captures/*.json from the test pages (and the rules)
#   ./build.sh capture-rules  re-capture the literal HTML cases of tests/rules.rs
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
export PATH="$HOME/.cargo/bin:$PATH"

log() { printf '\033[1m[build]\033[0m %s\n' "$*" >&2; }

wasm_bindgen_version() {
  # The exact version pinned in Cargo.lock: the CLI must match the crate.
  awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock
}

# What `./build.sh install` needs to build what it installs (dist/): zip and Node (the store zip,
# the pi package), the wasm target and wasm-bindgen-cli, and www-tests/'s npm packages (binaryen's
# wasm-opt; Mozilla Readability, which ships inside the extension). `setup` adds what the tests
# and the demo need (Chromium, the headed track's X packages, OCR for the screenshot masks, the
# pi and DSH test hosts).
setup() {
  setup_for install chromium chromium-driver xvfb openbox x11-utils xdotool tesseract-ocr
  if [ ! -d pi-tests/node_modules/@mariozechner/pi-coding-agent ]; then
    log "npm ci in pi-tests/ (the pi coding agent 0.73, pinned: the pi package is tested in it)"
    (cd pi-tests && npm ci --no-audit --no-fund)
  fi
  if [ ! -x dsh-tests/node_modules/.bin/node ] || [ ! -d dsh-tests/node_modules/@deepseek-ai/dsh-agent-loop ]; then
    log "npm ci in dsh-tests/ (the DeepSeek Harness 0.1.0-rc.8 runtimes, pinned, and Node 22 from npm: the DSH plugin is tested in them)"
    (cd dsh-tests && npm ci --no-audit --no-fund)
  fi
}

# `setup_for install PACKAGE...`: the install's needs, and those Debian packages too.
setup_for() {
  shift
  local need_apt=() pkg
  for pkg in "$@"; do
    case $pkg in
      chromium) [ -x /usr/bin/chromium ] || need_apt+=(chromium) ;;
      chromium-driver) [ -x /usr/bin/chromedriver ] || need_apt+=(chromium-driver) ;;
      # The headed track (www-tests/headed/): a real X display, a window manager, X input.
      xvfb) command -v Xvfb >/dev/null || need_apt+=(xvfb) ;;
      openbox) command -v openbox >/dev/null || need_apt+=(openbox) ;;
      x11-utils) command -v xprop >/dev/null || need_apt+=(x11-utils) ;;
      xdotool) command -v xdotool >/dev/null || need_apt+=(xdotool) ;;
      # The screenshot mask test reads the image with OCR (www-tests/screenshot-masks.test.mjs).
      tesseract-ocr) command -v tesseract >/dev/null || need_apt+=(tesseract-ocr) ;;
      # ./build.sh apps: real web applications from Debian, served on loopback (bench/apps/).
      fossil) command -v fossil >/dev/null || need_apt+=(fossil) ;;
      adminer) [ -f /usr/share/adminer/adminer.php ] || need_apt+=(adminer) ;;
      phpliteadmin) [ -f /usr/share/phpliteadmin/phpliteadmin.php ] || need_apt+=(phpliteadmin) ;;
      php-cli) command -v php >/dev/null || need_apt+=(php-cli) ;;
      php-sqlite3) php -m 2>/dev/null | grep -qi pdo_sqlite || need_apt+=(php-sqlite3) ;;
      sqlite3) command -v sqlite3 >/dev/null || need_apt+=(sqlite3) ;;
    esac
  done
  command -v zip >/dev/null || need_apt+=(zip)
  command -v node >/dev/null || need_apt+=(nodejs npm)
  if [ ${#need_apt[@]} -gt 0 ]; then
    log "apt-get install ${need_apt[*]}"
    local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need_apt[@]}" >/dev/null
  fi
  if ! rustup target list --installed 2>/dev/null | grep -q wasm32-unknown-unknown; then
    log "rustup target add wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
  [ -f Cargo.lock ] || cargo generate-lockfile
  local want; want=$(wasm_bindgen_version)
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$want" ]; then
    log "cargo install wasm-bindgen-cli $want (wasm-bindgen-test-runner comes with it)"
    # Not --locked: the CLI's own lockfile names a yanked crate version.
    cargo install wasm-bindgen-cli --version "$want" --force
  fi
  if [ ! -d www-tests/node_modules/playwright-core ] || [ ! -x www-tests/node_modules/.bin/wasm-opt ] || [ ! -f www-tests/node_modules/@mozilla/readability/Readability.js ] || [ ! -d www-tests/node_modules/@modelcontextprotocol/sdk ] || [ ! -d www-tests/node_modules/ws ]; then
    log "npm ci (playwright-core drives Debian's /usr/bin/chromium and never downloads a browser; binaryen; the MCP SDK, the onboarding test's client; ws, the headed track's link to the worker)"
    (cd www-tests && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
  fi
}

# wasm-bindgen + wasm-opt of one release module into $2 (skipped while it is up to date).
bindgen() {
  local wasm=$1 out=$2 target=$3 stem=$4
  if [ ! -f "$out/${stem}_bg.wasm" ] || [ "$wasm" -nt "$out/${stem}_bg.wasm" ]; then
    log "wasm-bindgen --target $target + wasm-opt -O3 → $out/"
    wasm-bindgen --target "$target" --out-dir "$out" --out-name "$stem" "$wasm"
    # binaryen from npm (v132): Debian's wasm-opt 108 corrupts reference-typed tables.
    # Rust's module leaves the first KB of memory unused (data and stack start at 1 MB) and
    # its memory is its own, fresh and zeroed (not imported): both assumptions hold. The
    # target-features section is a toolchain note no engine reads. Optimized for speed, as
    # the crate is (Cargo.toml): a read's core time is what a user waits for; the module's
    # bytes are reported (bench/coldstart.json), and its cold start stayed the same.
    www-tests/node_modules/.bin/wasm-opt -O3 --low-memory-unused --zero-filled-memory --strip-debug --strip-producers --strip-target-features "$out/${stem}_bg.wasm" -o "$out/${stem}_bg.wasm.opt"
    mv "$out/${stem}_bg.wasm.opt" "$out/${stem}_bg.wasm"
  fi
}

# The module builds on the stable toolchain with no -Z flag: a panic (a bug: malformed input
# is a typed error) reaches the worker's console with its file and line
# (console_error_panic_hook, src/wasm.rs).

# Mozilla Readability (npm, pinned in www-tests/package-lock.json) ships inside the
# extension: browser_extract runs it in the page on a clone of the document.
vendor() {
  local from=www-tests/node_modules/@mozilla/readability
  mkdir -p extension/page/vendor
  cmp -s "$from/Readability.js" extension/page/vendor/Readability.js || cp "$from/Readability.js" "$from/LICENSE.md" extension/page/vendor/
}

# wasm-bindgen's glue instantiates its module once per page or worker. The extension's
# worker renews the instance after a large page (linear memory never shrinks; core.js), so
# the glue gets one function that instantiates the same compiled module again. It relies on
# the glue's `let wasmModule, wasmInstance, wasm;` (wasm-bindgen is pinned): the build fails
# if that line is not there.
renewable() {
  grep -q '^export function renewInstance' "$1" && return
  grep -q '^let wasmModule, wasmInstance, wasm;$' "$1" || { log "FAIL: $1 has no 'let wasmModule, wasmInstance, wasm;' to renew"; return 1; }
  cat >> "$1" <<'JS'

/** (build.sh) A fresh instance of the same compiled module: all linear memory given back.
 * Every object of the old instance must be freed first; the caller re-creates its state. */
export function renewInstance() {
    const module = wasmModule;
    wasm = undefined;
    return initSync({ module });
}
JS
}

build() {
  build_extension
  build_host
}

# The extension's module (what dist/ and `install` ship).
build_extension() {
  vendor
  local wasm=target/wasm32-unknown-unknown/release/pcc.wasm out=extension/wasm
  log "cargo build --release --target wasm32-unknown-unknown (extension module)"
  cargo build --release --target wasm32-unknown-unknown --lib
  mkdir -p "$out" target/pkg
  cp -p "$wasm" target/pkg/extension.wasm
  bindgen target/pkg/extension.wasm "$out" web pcc
  renewable "$out/pcc.js"
  log "extension/wasm/pcc_bg.wasm: $(stat -c %s "$out/pcc_bg.wasm") bytes ($(gzip -9c "$out/pcc_bg.wasm" | wc -c) gzipped)"
}

# The JS-host package (pkg/: the tests and JS hosts that import the core; nothing dist/ ships).
build_host() {
  # The JS-host package: the same crate plus the projection exports, for browsers (web)
  # and Node (nodejs), each with TypeScript declarations.
  # Its own target directory: sharing one with the extension build made each invalidate the
  # other, so every build (and demo) recompiled the crate twice.
  log "cargo build --release --target wasm32-unknown-unknown --features host (JS-host package)"
  CARGO_TARGET_DIR=target/host cargo build --release --target wasm32-unknown-unknown --lib --features host
  cp -p target/host/wasm32-unknown-unknown/release/pcc.wasm target/pkg/host.wasm
  bindgen target/pkg/host.wasm pkg/web web pcc
  bindgen target/pkg/host.wasm pkg/node nodejs pcc
  log "pkg/web, pkg/node: $(stat -c %s pkg/web/pcc_bg.wasm) bytes"
}

# The release module's size is reported, not bounded (issue #36: what a user feels is the
# worker's cold start, its memory and the time of each read, which the bench measures).
report_wasm_size() {
  local wasm=extension/wasm/pcc_bg.wasm bytes max
  bytes=$(stat -c %s "$wasm")
  # The size budget, written once (src/budget.rs WASM_MODULE_MAX_BYTES).
  max=$(sed -n 's/^pub const WASM_MODULE_MAX_BYTES: usize = \([0-9_]*\);/\1/p' src/budget.rs | tr -d _)
  log "release wasm: $bytes bytes ($(gzip -9c "$wasm" | wc -c) gzipped; budget $max)"
  if [ -z "$max" ] || [ "$bytes" -gt "$max" ]; then
    echo "the release wasm module is $bytes bytes, over its budget of ${max:-?} (src/budget.rs WASM_MODULE_MAX_BYTES)" >&2
    exit 1
  fi
}

# What a run has to write (~3 GB: test binaries, two wasm builds, the release Bridge, two
# cross checks, node packages) against what the disk has: a full disk fails as a linker crash
# (SIGBUS), which this line explains. A one-shot test run keeps no incremental state.
disk_report() {
  log "disk free here: $(df -h --output=avail . | tail -1 | tr -d ' ')"
  export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}
}

# A second build with nothing changed must compile nothing (the extension and host builds
# once shared a target directory and invalidated each other: every demo rebuilt twice).
check_no_rebuild() {
  if build 2>&1 | grep -q "Compiling"; then
    log "FAIL: a build with no change recompiled the crate"
    return 1
  fi
  log "no-change build: nothing recompiled"
}

test_native() {
  log "cargo test (native core on checked-in captures; the Bridge)"
  # One fixed seed for the property tests here, so that a CI run is the run that passed
  # before it; `./build.sh fuzz` explores with fresh seeds and many more cases.
  PROPTEST_RNG_SEED=${PROPTEST_RNG_SEED:-20261203} cargo test --workspace --all-targets
}

test_wasm() {
  log "wasm-bindgen-test in headless Chromium (the facade boundary)"
  CHROMEDRIVER=/usr/bin/chromedriver \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  WASM_BINDGEN_TEST_TIMEOUT=120 CARGO_TARGET_DIR=target/host \
    cargo test --target wasm32-unknown-unknown --test wasm --test wasm_panic --features host
}

# `pcc` compiles for macOS and Windows too (the native-messaging host's places differ per OS:
# bridge/src/setup.rs, unit-tested on every OS's paths here; only Linux runs end to end).
check_other_os() {
  local t
  for t in x86_64-pc-windows-gnu aarch64-apple-darwin; do
    if ! rustup target list --installed 2>/dev/null | grep -q "^$t\$"; then
      log "rustup target add $t (cargo check only)"
      # Where the toolchain server cannot be reached this check cannot run: said, not failed.
      rustup target add "$t" || { log "SKIPPED: cargo check for $t (its standard library could not be installed)"; continue; }
    fi
    log "cargo check -p pcc-bridge --target $t"
    CARGO_TARGET_DIR=target/cross cargo check -q -p pcc-bridge --target "$t"
  done
}

# The peers the bench drives side by side (not needed by the tests): @playwright/mcp, on
# Debian's Chromium (never a browser download).
bench_peers() {
  if [ ! -d bench/node_modules/@playwright/mcp ] || [ ! -d bench/node_modules/gpt-tokenizer ]; then
    log "npm ci in bench/ (@playwright/mcp; gpt-tokenizer for the definitions' cl100k tokens)"
    (cd bench && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
  fi
}

build_bridge() {
  log "cargo build -p pcc-bridge (the Bridge, CLI and MCP server: target/debug/pcc)"
  cargo build -p pcc-bridge
}

# The version lives in one place, the root Cargo.toml; dist/ is stamped with it, and the
# checkout's other copies (the extension's manifest, package.json, the Bridge's crate) must
# say the same.
version() { awk -F'"' '/^version = /{print $2; exit}' Cargo.toml; }

check_versions() {
  local v=$1 where
  for where in "extension/manifest.json:\"version\": \"$v\"" "package.json:\"version\": \"$v\"" "bridge/Cargo.toml:version = \"$v\""; do
    grep -qF "${where#*:}" "${where%%:*}" || { log "FAIL: ${where%%:*} does not say version $v (Cargo.toml's)"; return 1; }
  done
}

# dist/: what a user installs. pcc in release mode; extension/ (the unpacked extension with its
# wasm; its manifest's `key` pins the ID the native-messaging host allows); the same as a zip
# for the Chrome Web Store (no `key`: the store assigns the ID; `pcc setup --extension-id`
# allows it); the pi package as the tarball `npm pack` makes (package.json `files`) and
# unpacked (pi-package/, what `pi install` takes).
dist() {
  local v; v=$(version)
  check_versions "$v"
  # Its own target directory: the wasm build (other features of the same proc-macro crates in
  # target/release) and this one would otherwise rebuild each other's.
  log "cargo build --release -p pcc-bridge (dist/pcc)"
  CARGO_TARGET_DIR=target/dist cargo build --release -p pcc-bridge
  rm -rf dist && mkdir -p dist/store
  cp target/dist/release/pcc dist/pcc
  cp -r extension dist/extension
  cp -r extension/. dist/store/
  node -e 'const f=process.argv[1],fs=require("fs");const m=JSON.parse(fs.readFileSync(f));delete m.key;fs.writeFileSync(f,JSON.stringify(m,null,2)+"\n")' dist/store/manifest.json
  (cd dist/store && zip -qrX "../pi-control-chrome-extension-$v.zip" .)
  rm -rf dist/store
  npm pack --silent --pack-destination dist >/dev/null
  mkdir -p dist/pi-package && tar -xzf "dist/pi-control-chrome-$v.tgz" -C dist/pi-package --strip-components=1
  log "dist/: pcc, extension/, pi-control-chrome-extension-$v.zip ($(stat -c %s "dist/pi-control-chrome-extension-$v.zip") bytes), pi-control-chrome-$v.tgz, pi-package/"
}

# pcc onto the user's PATH (~/.local/bin unless PCC_INSTALL_DIR), then `pcc setup`: the
# native-messaging host for the browsers installed, so the extension pairs by itself.
install_pcc() {
  local bin=${PCC_INSTALL_DIR:-$HOME/.local/bin}
  mkdir -p "$bin"
  # A new file moved into place: a running Bridge keeps its old binary.
  cp dist/pcc "$bin/.pcc.new" && chmod 0755 "$bin/.pcc.new" && mv -f "$bin/.pcc.new" "$bin/pcc"
  log "installed $bin/pcc"
  "$bin/pcc" setup
  case ":$PATH:" in
    *":$bin:"*) ;;
    *) log "$bin is not on your PATH: add  export PATH=\"$bin:\$PATH\"  to your shell's profile" ;;
  esac
  log "the extension: $ROOT/dist/extension; pi: pi install $ROOT/dist/pi-package"
}

# The suites load the extension from the store zip, unpacked (the package a user installs;
# www-tests/harness.mjs reads PCC_EXTENSION_DIR), when ./build.sh dist made it.
from_store_zip() {
  local zip; zip="dist/pi-control-chrome-extension-$(version).zip"
  [ -f "$zip" ] || return 0
  rm -rf target/store-extension && mkdir -p target/store-extension && unzip -q "$zip" -d target/store-extension
  export PCC_EXTENSION_DIR=$ROOT/target/store-extension
  log "the extension under test: $zip, unpacked into target/store-extension/"
}

test_e2e() {
  from_store_zip
  log "www-tests: the extension (and the Bridge, CLI, MCP) end to end in headless Chromium"
  (cd www-tests && node --test --test-concurrency=1 --test-timeout=240000 --test-reporter=spec ./*.test.mjs)
  test_headed
  test_pi
  test_dsh
}

# The person's own browser, shared (issue #54): headed Chromium under Xvfb with openbox,
# nothing attached to any page, the worker reached over CDP only (www-tests/headed/harness.mjs).
test_headed() {
  log "www-tests/headed: a headed Chromium under Xvfb + openbox, the person typing with real keys beside the agent"
  (cd www-tests && node --test --test-concurrency=1 --test-timeout=240000 --test-reporter=spec ./headed/*.test.mjs)
}

test_pi() {
  log "pi-tests: the pi package in the real pi coding agent (faux model) against the Bridge and extension"
  (cd pi-tests && node --test --test-concurrency=1 --test-timeout=240000 --test-reporter=spec ./*.test.mjs)
}

test_dsh() {
  log "dsh-tests: the DSH plugin in a real in-process DeepSeek Harness (scripted model, Node 22 from npm) against the Bridge and extension"
  (cd dsh-tests && node_modules/.bin/node --test --test-concurrency=1 --test-timeout=240000 --test-reporter=spec ./*.test.mjs)
}

cmd=${1:-help}
shift || true
case "$cmd" in
  setup) setup ;;
  build) setup; build ;;
  dist) setup; build; dist ;;
  install) setup_for install; build_extension; dist; install_pcc ;;
  test) disk_report; setup; build; report_wasm_size; check_no_rebuild; test_native; check_other_os; test_wasm; build_bridge; dist; test_e2e ;;
  test-native) test_native ;;
  test-wasm) setup; test_wasm ;;
  test-e2e) setup; build; build_bridge; dist; test_e2e ;;
  headed) setup; build; dist; from_store_zip; test_headed ;;
  pi) setup; build; build_bridge; dist; from_store_zip; test_pi ;;
  dsh) setup; build; build_bridge; dist; from_store_zip; test_dsh ;;
  bridge) build_bridge; exec target/debug/pcc bridge "$@" ;;
  demo) setup; build; node www-tests/demo.mjs "$@" ;;
  capture) setup; build; node www-tests/capture-fixtures.mjs "$@"; node www-tests/capture-rules.mjs ;;
  capture-rules) setup; build; node www-tests/capture-rules.mjs ;;
  bench) setup; build; build_bridge; bench_peers
    node bench/bench.mjs "$@"
    log "tool definitions (tools/list) per profile vs @playwright/mcp → bench/definitions.json"
    node bench/definitions.mjs
    log "scripted tasks over MCP: pcc mcp vs @playwright/mcp → bench/tasks.json"
    node bench/tasks.mjs
    log "AX repeat reads on every corpus page → bench/revisions.json"
    node bench/revisions.mjs
    log "the loop: AX read and snapshot after each of five scripted changes vs Playwright → bench/loop.json"
    node bench/loop.mjs
    log "the worker's cold start (module size, instantiate, first snapshot) → bench/coldstart.json"
    node bench/coldstart.mjs
    log "what pages no agent reads pay: load and main-thread time with and without the extension → bench/browsing.json"
    node bench/browsing.mjs ;;
  apps) setup; setup_for apps fossil adminer phpliteadmin php-cli php-sqlite3 sqlite3; build; build_bridge; bench_peers
    log "real applications over MCP: pcc mcp vs @playwright/mcp → bench/apps.json"
    node bench/apps.mjs "$@" ;;
  corpus) setup; build; node www-tests/corpus.mjs "$@" ;;
  reach) setup; build; node www-tests/reach.mjs "$@" ;;
  accname) setup; build; node www-tests/accname.mjs "$@" ;;
  conformance) setup; build; node www-tests/conformance.mjs "$@" ;;
  pw-pairs) setup; build; node www-tests/pw-pairs.mjs "$@" ;;
  extract-score) setup; build; node www-tests/extract-score.mjs "$@" ;;
  fuzz) PROPTEST_CASES=${1:-20000} cargo test --release --test fuzz --test fuzz_tools -- --nocapture ;;
  *) sed -n '2,24p' "$0"; exit 2 ;;
esac
