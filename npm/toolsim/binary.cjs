'use strict';
// Where the toolsim binary is, for the launcher (bin/toolsim.js) and the
// vitest/jest helper (vitest.mjs): $TOOLSIM_BINARY when set, else the
// binary of this platform's package, @toolsim/<platform>-<arch>, which
// npm installs as an optional dependency of toolsim (only the one whose
// os and cpu match). docs/npm.md describes the packages.
const fs = require('node:fs');
const path = require('node:path');
const pkg = require('./package.json');

/** This machine as the platform packages name it: linux-x64, win32-x64, … */
function platformKey(platform = process.platform, arch = process.arch) {
  return `${platform}-${arch}`;
}

/** The package that holds the binary for a platform key. */
function platformPackage(key) {
  return `@toolsim/${key}`;
}

/**
 * The path of the toolsim binary to run. Throws an Error whose message
 * names the platform, the package and what to do when there is none.
 */
function binaryPath(env = process.env) {
  const override = env.TOOLSIM_BINARY;
  if (override) {
    if (!fs.existsSync(override)) {
      throw new Error(`toolsim: TOOLSIM_BINARY=${override}: no such file`);
    }
    return override;
  }
  const key = platformKey();
  const name = platformPackage(key);
  const shipped = Object.keys(pkg.optionalDependencies ?? {});
  const fallback = 'set TOOLSIM_BINARY to a toolsim binary (go install github.com/toolsim/toolsim/cmd/toolsim@latest)';
  if (shipped.length === 0) {
    throw new Error(`toolsim: this toolsim package (${__dirname}) lists no platform packages: it is the source in the repository, not a packed one (make npm); ${fallback}`);
  }
  if (!shipped.includes(name)) {
    const keys = shipped.map((p) => p.replace('@toolsim/', '')).join(', ');
    throw new Error(`toolsim: no prebuilt binary for ${key} (toolsim ${pkg.version} ships ${keys}); ${fallback}`);
  }
  let manifest;
  try {
    manifest = require.resolve(`${name}/package.json`);
  } catch {
    throw new Error(`toolsim: the binary for ${key} is missing: ${name}@${pkg.version}, an optional dependency of toolsim, is not installed ` +
      `(an install with --omit=optional, an offline install without it in npm's cache, or node_modules copied from another platform?). ` +
      `Reinstall toolsim with its optional dependencies (npm install -D toolsim), or ${fallback}`);
  }
  const version = JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
  if (version !== pkg.version) {
    throw new Error(`toolsim: ${name} is version ${version}, toolsim is ${pkg.version} (${path.dirname(manifest)}): reinstall toolsim so that both match`);
  }
  return path.join(path.dirname(manifest), 'bin', process.platform === 'win32' ? 'toolsim.exe' : 'toolsim');
}

module.exports = { binaryPath, platformKey, platformPackage };
