// Package chromium finds the Chromium binary the browser engine kit
// (package browser) and the browser tests (internal/browsertest) drive:
// $CHROMIUM when set, else the usual names on PATH.
package chromium
