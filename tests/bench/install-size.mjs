// What `npx mcp-loupe` costs a user before anything runs: the packed tarball (`npm pack`, which
// runs prepack), then plain `npm install <tarball>` into an empty folder (size of node_modules and
// wall time), beside `npm install` of the official MCP Inspector in another empty folder. The goal
// is at most half the Inspector's installed size.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MB = 1024 * 1024;
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';

/** Bytes of every file under `dir` (symlinks not followed): apparent size, and blocks on disk. */
function treeSize(dir) {
  let bytes = 0;
  let disk = 0;
  let files = 0;
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop();
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const p = path.join(current, entry.name);
      if (entry.isDirectory()) stack.push(p);
      else {
        const st = fs.lstatSync(p);
        bytes += st.size;
        disk += st.blocks * 512;
        files += 1;
      }
    }
  }
  return { mb: +(bytes / MB).toFixed(1), diskMb: +(disk / MB).toFixed(1), files };
}

/**
 * better-sqlite3 compiles from source when no prebuilt binary can be downloaded (offline). node-gyp
 * then needs Node's headers; when this machine has them for the running Node under /usr, point it
 * there instead of letting it try to download them.
 */
function npmEnv() {
  const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  const header = '/usr/include/node/node_version.h';
  if (!env.npm_config_nodedir && fs.existsSync(header)) {
    const text = fs.readFileSync(header, 'utf8');
    const v = ['MAJOR', 'MINOR', 'PATCH'].map((part) => new RegExp(`define NODE_${part}_VERSION (\\d+)`).exec(text)?.[1]).join('.');
    if (`v${v}` === process.version) env.npm_config_nodedir = '/usr';
  }
  return env;
}

function npm(args, cwd, extraEnv = {}) {
  const r = spawnSync('npm', args, { cwd, env: { ...npmEnv(), ...extraEnv }, encoding: 'utf8', maxBuffer: 64 * MB });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed (${r.status}):\n${r.stderr.slice(-2000)}`);
  return r.stdout;
}

/** `npm install <spec>` into a fresh empty folder: wall time, packages added, node_modules size. */
function installInto(spec, parent, name, flags = [], env = {}) {
  const dir = path.join(parent, name);
  fs.mkdirSync(dir);
  const t0 = performance.now();
  const out = npm(['install', ...flags, spec], dir, env);
  const seconds = +((performance.now() - t0) / 1000).toFixed(1);
  return { spec, seconds, packages: Number(/added (\d+) packages?/.exec(out)?.[1] ?? NaN), ...treeSize(path.join(dir, 'node_modules')) };
}

/**
 * better-sqlite3's install script first asks prebuild-install for a prebuilt binary, which a
 * connected machine downloads from GitHub; this one is offline, so it compiles. The repository's
 * own compiled binding, offered as a local prebuild (prebuild-install's
 * `npm_config_better_sqlite3_local_prebuilds`), stands in for that download: the folder, or
 * undefined when there is no binding to offer.
 */
function localPrebuild(root, temp) {
  const pkg = path.join(root, 'node_modules', 'better-sqlite3');
  const binding = path.join(pkg, 'build', 'Release', 'better_sqlite3.node');
  if (!fs.existsSync(binding) || (process.platform === 'linux' && !process.report.getReport().header.glibcVersionRuntime)) return undefined;
  const { version } = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8'));
  const stage = path.join(temp, 'prebuild-stage');
  fs.mkdirSync(path.join(stage, 'build', 'Release'), { recursive: true });
  fs.copyFileSync(binding, path.join(stage, 'build', 'Release', 'better_sqlite3.node'));
  const dir = path.join(temp, 'prebuilds');
  fs.mkdirSync(dir);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const tar = spawnSync('tar', ['czf', path.join(dir, name), '-C', stage, 'build']);
  return tar.status === 0 ? dir : undefined;
}

/**
 * Pack Loupe, install the tarball and the Inspector side by side, and compare. Both installs
 * use the same npm cache, so neither pays more for downloads than the other would.
 * `onInstalled(dir)` runs in the folder the tarball was installed into (plain npm install)
 * before it is removed; its result comes back as `installed`.
 */
export async function installSize({ root, inspector = INSPECTOR, onInstalled }) {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-install-size-'));
  try {
    // prepack (the builds) prints to the same stdout before npm's JSON.
    const packOut = npm(['pack', '--json', '--pack-destination', temp], root);
    const [packed] = JSON.parse(packOut.slice(packOut.search(/^\[/m)));
    const tarball = path.join(temp, packed.filename);
    const loupe = installInto(tarball, temp, 'loupe');
    // What pnpm 10 does by default: no build scripts, so better-sqlite3 stays uncompiled and Loupe
    // runs on node:sqlite or memory.
    const noScripts = installInto(tarball, temp, 'loupe-ignore-scripts', ['--ignore-scripts']);
    const prebuilds = localPrebuild(root, temp);
    const prebuilt = prebuilds ? installInto(tarball, temp, 'loupe-prebuilt', [], { npm_config_better_sqlite3_local_prebuilds: prebuilds }) : undefined;
    const official = installInto(inspector, temp, 'inspector');
    const installed = onInstalled ? await onInstalled(path.join(temp, 'loupe')) : undefined;
    return {
      installed,
      pack: { file: packed.filename, packedMb: +(packed.size / MB).toFixed(2), unpackedMb: +(packed.unpackedSize / MB).toFixed(2), files: packed.entryCount },
      loupe: { ...loupe, spec: `npm install ${packed.filename}` },
      loupeIgnoreScripts: { ...noScripts, spec: `npm install --ignore-scripts ${packed.filename}` },
      loupePrebuilt: prebuilt && { ...prebuilt, spec: `npm install ${packed.filename} (better-sqlite3 prebuilt)` },
      inspector: official,
      sizeRatio: +(loupe.mb / official.mb).toFixed(2),
      diskRatio: +(loupe.diskMb / official.diskMb).toFixed(2),
      timeRatio: +(loupe.seconds / official.seconds).toFixed(2),
      prebuiltSizeRatio: prebuilt && +(prebuilt.mb / official.mb).toFixed(2),
      prebuiltTimeRatio: prebuilt && +(prebuilt.seconds / official.seconds).toFixed(2),
    };
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/** Lines for the bench table. */
export function formatInstallSize(r) {
  const row = (label, x) =>
    `  ${label.padEnd(52)}${`${x.mb} MB`.padEnd(10)}(${x.diskMb} MB on disk, ${x.files} files, ${x.packages} packages) in ${x.seconds} s`;
  return [
    `npm pack: ${r.pack.packedMb} MB packed, ${r.pack.unpackedMb} MB unpacked, ${r.pack.files} files`,
    row('npm install mcp-loupe (tarball)', r.loupe),
    row('npm install --ignore-scripts mcp-loupe (tarball)', r.loupeIgnoreScripts),
    ...(r.loupePrebuilt ? [row('npm install mcp-loupe, better-sqlite3 prebuilt', r.loupePrebuilt)] : []),
    row(`npm install ${r.inspector.spec}`, r.inspector),
    `  ratio mcp-loupe / inspector: size ${r.sizeRatio} (${r.diskRatio} on disk)   (target <= 0.5), time ${r.timeRatio}` +
      (r.loupePrebuilt ? `; with better-sqlite3 prebuilt (a connected machine's download): size ${r.prebuiltSizeRatio}, time ${r.prebuiltTimeRatio}` : ''),
  ];
}
