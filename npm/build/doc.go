// Command build writes toolsim's npm packages, as esbuild and biome ship
// their binaries: one package per platform (@toolsim/linux-x64,
// @toolsim/linux-arm64, @toolsim/darwin-x64, @toolsim/darwin-arm64,
// @toolsim/win32-x64), each holding the cross-compiled binary with os and
// cpu fields, and the main package toolsim (from npm/toolsim: the bin
// launcher, the vitest/jest helper, and the Node kit copied from
// examples/node), which lists them as optional dependencies so that npm
// installs only the one for its machine. `make npm` runs it from the
// repository root:
//
//	go run ./npm/build [-out DIR] [-platforms linux-x64,...] [-release]
//
// Every binary is built with -buildvcs=auto, as `make build` builds
// bin/toolsim, so `toolsim version` prints the same line; the npm version
// is the module version Go stamps without its leading v and without the
// +dirty of a modified tree (npm drops build metadata; -release refuses a
// modified tree instead). It runs `npm pack` for each package into DIR
// (default dist/npm), writes DIR/packages.json (the version, the dist-tag
// and the tarballs, platform packages first) and prints the commands that
// would publish them. Nothing is published. docs/npm.md has the details.
package main
