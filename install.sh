#!/bin/sh
# agentmux installer — POSIX sh.
#   curl -fsSL https://github.com/agentmux/agentmux/releases/latest/download/install.sh | sh
#   sh install.sh --from DIR | --file PATH | --source [DIR]     (see --help)
set -eu

REPO="${AGENTMUX_REPO:-agentmux/agentmux}"
INSTALL_DIR="${AGENTMUX_INSTALL_DIR:-$HOME/.local/bin}"
WANT_VERSION="${AGENTMUX_VERSION:-latest}"
MODE=download
FROM_DIR=""
FROM_FILE=""
SOURCE_DIR=""
FORCE=0
SUPPORTED="linux-x64, linux-arm64, darwin-x64, darwin-arm64"

say() { printf 'agentmux-install: %s\n' "$*"; }
warn() { printf 'agentmux-install: warning: %s\n' "$*" >&2; }
die() {
  printf 'agentmux-install: error: %s\n' "$1" >&2
  [ $# -lt 2 ] || printf '  hint: %s\n' "$2" >&2
  exit 1
}

usage() {
  cat <<'EOF'
Install agentmux, a single executable, into ~/.local/bin (or $AGENTMUX_INSTALL_DIR).

Usage:
  curl -fsSL <release-url>/install.sh | sh            download the release for this machine
  curl -fsSL <release-url>/install.sh | sh -s -- [options]
  sh install.sh [options]

Options:
  --from DIR       offline: take agentmux-<os>-<arch> and SHA256SUMS from DIR
  --file PATH      offline: install this binary; verified against SHA256SUMS next to it
                   when that file lists it, otherwise installed unverified (with a warning)
  --source [DIR]   developers: build from a checkout (default: this script's folder, else
                   the current folder) with `npm install && npm run build`, install dist/agentmux
  --dir DIR        install folder (default: $AGENTMUX_INSTALL_DIR or ~/.local/bin)
  --version VER    release to download, e.g. 0.2.0 (default: latest)
  --force          reinstall even when the same version is already installed
  -h, --help       show this help

Environment:
  AGENTMUX_RELEASE_URL   base URL holding the release files (default:
                         https://github.com/$AGENTMUX_REPO/releases/latest/download, or
                         .../releases/download/v<VER> with --version)
  AGENTMUX_REPO          GitHub owner/name for the default URL (default: agentmux/agentmux)
  AGENTMUX_VERSION       same as --version
  AGENTMUX_INSTALL_DIR   same as --dir

What it does: detects the platform (supported: linux-x64, linux-arm64, darwin-x64,
darwin-arm64), fetches the binary and SHA256SUMS with curl or wget, verifies the SHA-256
(sha256sum or shasum -a 256; a mismatch installs nothing), installs atomically (temp file +
mv, mode 755), on macOS clears the quarantine attribute and re-signs ad hoc if the
signature is invalid, warns when tmux is missing or older than 3.2, says whether the
install folder is on PATH, and prints the installed version. Running it again with the
same version changes nothing; a different version replaces the installed one.
EOF
}

parse_args() {
  while [ $# -gt 0 ]; do
    case "$1" in
      --from) [ $# -ge 2 ] || die "--from needs a folder"; MODE=from; FROM_DIR=$2; shift 2 ;;
      --from=*) MODE=from; FROM_DIR=${1#--from=}; shift ;;
      --file) [ $# -ge 2 ] || die "--file needs a path"; MODE="file"; FROM_FILE=$2; shift 2 ;;
      --file=*) MODE="file"; FROM_FILE=${1#--file=}; shift ;;
      --source)
        MODE=source
        if [ $# -ge 2 ] && [ "${2#-}" = "$2" ]; then SOURCE_DIR=$2; shift; fi
        shift ;;
      --source=*) MODE=source; SOURCE_DIR=${1#--source=}; shift ;;
      --dir) [ $# -ge 2 ] || die "--dir needs a folder"; INSTALL_DIR=$2; shift 2 ;;
      --dir=*) INSTALL_DIR=${1#--dir=}; shift ;;
      --version) [ $# -ge 2 ] || die "--version needs a value"; WANT_VERSION=$2; shift 2 ;;
      --version=*) WANT_VERSION=${1#--version=}; shift ;;
      --force) FORCE=1; shift ;;
      -h|--help) usage; exit 0 ;;
      *) die "unknown option: $1" "run: sh install.sh --help" ;;
    esac
  done
}

detect_platform() {
  kernel=$(uname -s 2>/dev/null || echo unknown)
  machine=$(uname -m 2>/dev/null || echo unknown)
  case "$kernel" in
    Linux) OS=linux ;;
    Darwin) OS=darwin ;;
    *) die "unsupported operating system: $kernel ($machine); supported platforms: $SUPPORTED" \
         "on other systems build from source: sh install.sh --source (needs node/npm)" ;;
  esac
  case "$machine" in
    x86_64|amd64) ARCH=x64 ;;
    aarch64|arm64) ARCH=arm64 ;;
    *) die "unsupported CPU architecture: $machine on $kernel; supported platforms: $SUPPORTED" \
         "on other systems build from source: sh install.sh --source (needs node/npm)" ;;
  esac
  # An x64 shell under Rosetta on Apple silicon: prefer the native binary.
  if [ "$OS" = darwin ] && [ "$ARCH" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
    ARCH=arm64
  fi
  ASSET="agentmux-$OS-$ARCH"
}

fetch() { # url dest
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1" || die "download failed: $1" "check the URL, your network, or set AGENTMUX_RELEASE_URL"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" || die "download failed: $1" "check the URL, your network, or set AGENTMUX_RELEASE_URL"
  else
    die "neither curl nor wget is installed" "install one of them, or download the files and use: sh install.sh --from DIR"
  fi
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | awk '{print $1}'
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | awk '{print $1}'
  else
    die "cannot verify the download: neither sha256sum nor shasum is installed" "install coreutils (sha256sum) or perl (shasum)"
  fi
}

# The expected hash for a file name in a SHA256SUMS file (accepts "hex  name" and "hex *name").
expected_sum() { # sums name
  awk -v n="$2" '{ f = $2; sub(/^\*/, "", f); if (f == n) { print $1; exit } }' "$1"
}

verify() { # file sums name
  have_sha_tool || die "cannot verify $3: neither sha256sum nor shasum is installed; nothing was installed" "install coreutils (sha256sum) or perl (shasum)"
  want=$(expected_sum "$2" "$3")
  [ -n "$want" ] || die "$3 is not listed in $2; refusing to install an unverified binary"
  got=$(sha256_of "$1")
  if [ "$got" != "$want" ]; then
    die "checksum mismatch for $3: expected $want, got $got; nothing was installed" \
        "the download is corrupt or was tampered with; try again, or check the release files"
  fi
  say "verified SHA-256 of $3"
}

version_of() { "$1" --version </dev/null 2>/dev/null | head -n 1 || true; }

have_sha_tool() { command -v sha256sum >/dev/null 2>&1 || command -v shasum >/dev/null 2>&1; }

# Everything runs from main, called on the last line: a truncated `curl | sh` download runs nothing.
main() {
  parse_args "$@"
  TMP=$(mktemp -d "${TMPDIR:-/tmp}/agentmux-install.XXXXXX") || die "cannot create a temporary folder"
  trap 'rm -rf "$TMP"' EXIT
  trap 'exit 130' INT TERM
  NEW="$TMP/agentmux"

  case "$MODE" in
    download)
      detect_platform
      if [ -n "${AGENTMUX_RELEASE_URL:-}" ]; then BASE=${AGENTMUX_RELEASE_URL%/}
      elif [ "$WANT_VERSION" = latest ]; then BASE="https://github.com/$REPO/releases/latest/download"
      else BASE="https://github.com/$REPO/releases/download/v${WANT_VERSION#v}"
      fi
      say "downloading $ASSET from $BASE"
      fetch "$BASE/SHA256SUMS" "$TMP/SHA256SUMS"
      fetch "$BASE/$ASSET" "$NEW"
      verify "$NEW" "$TMP/SHA256SUMS" "$ASSET"
      ;;
    from)
      detect_platform
      [ -d "$FROM_DIR" ] || die "--from: no such folder: $FROM_DIR"
      [ -f "$FROM_DIR/$ASSET" ] || die "--from: $FROM_DIR has no $ASSET (the binary for this machine)" "build it with: bun build.ts --release (writes dist/release)"
      [ -f "$FROM_DIR/SHA256SUMS" ] || die "--from: $FROM_DIR has no SHA256SUMS; refusing to install an unverified binary"
      cp "$FROM_DIR/$ASSET" "$NEW"
      verify "$NEW" "$FROM_DIR/SHA256SUMS" "$ASSET"
      ;;
    file)
      [ -f "$FROM_FILE" ] || die "--file: no such file: $FROM_FILE"
      cp "$FROM_FILE" "$NEW"
      sums="$(dirname "$FROM_FILE")/SHA256SUMS"
      name=$(basename "$FROM_FILE")
      if [ -f "$sums" ] && [ -n "$(expected_sum "$sums" "$name")" ]; then verify "$NEW" "$sums" "$name"
      else warn "no SHA256SUMS entry for $name next to it; installing without verification"
      fi
      ;;
    source)
      if [ -z "$SOURCE_DIR" ]; then
        here=$(dirname "$0")
        if [ -f "$here/package.json" ] && [ -f "$here/build.ts" ]; then SOURCE_DIR=$here; else SOURCE_DIR=.; fi
      fi
      [ -f "$SOURCE_DIR/package.json" ] || die "--source: $SOURCE_DIR is not an agentmux checkout (no package.json)"
      command -v npm >/dev/null 2>&1 || die "--source needs npm (node 18+)" "install node, or install a release binary instead"
      say "building from source in $SOURCE_DIR (npm install && npm run build)"
      (cd "$SOURCE_DIR" && npm install </dev/null && npm run build </dev/null) || die "the source build failed (see the output above)" "do not use --ignore-scripts: the bun dev dependency needs its postinstall"
      cp "$SOURCE_DIR/dist/agentmux" "$NEW"
      FORCE=1 # a fresh build of the same version must replace the old one
      ;;
  esac

  chmod 755 "$NEW"
  if [ "$(uname -s 2>/dev/null)" = Darwin ]; then
    if command -v xattr >/dev/null 2>&1; then xattr -d com.apple.quarantine "$NEW" 2>/dev/null || true; fi
    # Some bun versions emit signatures macOS rejects (SIGKILL, exit 137): re-sign ad hoc.
    if command -v codesign >/dev/null 2>&1 && ! codesign --verify --strict "$NEW" >/dev/null 2>&1; then
      codesign --remove-signature "$NEW" 2>/dev/null || true
      codesign --force --sign - "$NEW" >/dev/null 2>&1 || warn "could not re-sign the binary ad hoc; if macOS kills it, run: codesign --force --sign - <path>"
    fi
  fi

  NEW_VERSION=$(version_of "$NEW")
  case "$NEW_VERSION" in
    "agentmux "*) ;;
    *) die "the new binary does not run on this machine (agentmux --version printed: ${NEW_VERSION:-nothing}); nothing was installed" ;;
  esac

  TARGET="$INSTALL_DIR/agentmux"
  mkdir -p "$INSTALL_DIR" || die "cannot create the install folder $INSTALL_DIR" "choose another with --dir DIR or AGENTMUX_INSTALL_DIR"
  if [ -f "$TARGET" ]; then
    OLD_VERSION=$(version_of "$TARGET")
    if cmp -s "$NEW" "$TARGET"; then
      say "$NEW_VERSION is already installed at $TARGET (identical binary); nothing changed"
      CHANGED=0
    elif [ "$OLD_VERSION" = "$NEW_VERSION" ] && [ "$FORCE" = 0 ]; then
      say "$NEW_VERSION is already installed at $TARGET; nothing changed (--force reinstalls this build)"
      CHANGED=0
    else
      CHANGED=1
    fi
  else
    OLD_VERSION=""
    CHANGED=1
  fi

  if [ "$CHANGED" = 1 ]; then
    STAGED="$INSTALL_DIR/.agentmux.install.$$"
    cp "$NEW" "$STAGED" || die "cannot write to $INSTALL_DIR" "choose another folder with --dir DIR or AGENTMUX_INSTALL_DIR"
    chmod 755 "$STAGED"
    mv -f "$STAGED" "$TARGET" || { rm -f "$STAGED"; die "cannot replace $TARGET"; }
    if [ -n "$OLD_VERSION" ]; then say "replaced ${OLD_VERSION:-an unknown version} with $NEW_VERSION at $TARGET"
    else say "installed $NEW_VERSION to $TARGET"
    fi
  fi

  # tmux ≥ 3.2 is needed to run pipelines; warn, never fail.
  tmux_hint="install it with: apt install tmux | dnf install tmux | brew install tmux"
  if ! command -v tmux >/dev/null 2>&1; then
    warn "tmux is not installed; agentmux needs tmux 3.2 or newer to run pipelines ($tmux_hint)"
  else
    tv=$(tmux -V 2>/dev/null | sed -n 's/^tmux[^0-9]*\([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2/p')
    if [ -n "$tv" ]; then
      major=${tv% *}
      minor=${tv#* }
      if [ "$major" -lt 3 ] || { [ "$major" -eq 3 ] && [ "$minor" -lt 2 ]; }; then
        warn "$(tmux -V) is older than 3.2, which agentmux needs ($tmux_hint)"
      else
        say "found $(tmux -V)"
      fi
    fi
  fi

  case ":${PATH}:" in
    *":$INSTALL_DIR:"*) say "$INSTALL_DIR is on your PATH; run: agentmux --help" ;;
    *) warn "$INSTALL_DIR is not on your PATH; add this line to your shell profile:"
       # shellcheck disable=SC2016 # $PATH is meant literally: the user pastes this line
       printf '  export PATH="%s:$PATH"\n' "$INSTALL_DIR" >&2 ;;
  esac
  say "installed version: $(version_of "$TARGET")"
  say "shell completions: agentmux completions bash|zsh|fish (see agentmux completions --help)"
}

main "$@"
