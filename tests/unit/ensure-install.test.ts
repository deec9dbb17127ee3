import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installEnv, installProblem } from '../../scripts/ensure-install.mjs';

/**
 * When `npm start` and `npm test` install the dependencies (scripts/ensure-install.mjs): when
 * node_modules is missing, or any package the lock file lists is absent or at another version.
 */

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function project(lock: Record<string, Record<string, unknown>>, installed: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-ensure-install-'));
  dirs.push(root);
  fs.writeFileSync(path.join(root, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { name: 'x' }, ...lock } }));
  for (const [where, version] of Object.entries(installed)) {
    fs.mkdirSync(path.join(root, where), { recursive: true });
    fs.writeFileSync(path.join(root, where, 'package.json'), JSON.stringify({ version }));
  }
  return root;
}

describe('installProblem', () => {
  const lock = {
    'node_modules/a': { version: '1.1.0' },
    'node_modules/a/node_modules/b': { version: '2.0.0', dev: true },
    'node_modules/@esbuild/darwin-arm64': { version: '0.28.2', optional: true },
  };

  it('finds nothing to do when every locked package is installed at its version', () => {
    expect(installProblem(project(lock, { 'node_modules/a': '1.1.0', 'node_modules/a/node_modules/b': '2.0.0' }))).toBeUndefined();
  });

  it('installs into a fresh clone', () => {
    const root = project(lock, {});
    fs.rmSync(path.join(root, 'node_modules'), { recursive: true, force: true });
    expect(installProblem(root)).toBe('node_modules is missing');
  });

  it('reinstalls when a package is missing or at another version than the lock file says', () => {
    expect(installProblem(project(lock, { 'node_modules/a': '1.1.0' }))).toBe('a/node_modules/b is not installed');
    expect(installProblem(project(lock, { 'node_modules/a': '1.0.0', 'node_modules/a/node_modules/b': '2.0.0' }))).toBe(
      'a is 1.0.0, package-lock.json wants 1.1.0',
    );
  });
});

describe('installEnv', () => {
  it("builds native modules against the system's Node headers only when they are this Node's major version", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-headers-'));
    dirs.push(root);
    const headers = path.join(root, 'include', 'node', 'node_version.h');
    fs.mkdirSync(path.dirname(headers), { recursive: true });
    const major = Number(process.versions.node.split('.')[0]);
    fs.writeFileSync(headers, `#define NODE_MAJOR_VERSION ${major}\n`);
    expect(installEnv({}, headers).npm_config_nodedir).toBe(root);
    expect(installEnv({ npm_config_nodedir: '/opt/node' }, headers).npm_config_nodedir).toBe('/opt/node');
    fs.writeFileSync(headers, `#define NODE_MAJOR_VERSION ${major + 1}\n`);
    expect(installEnv({}, headers).npm_config_nodedir).toBeUndefined();
    expect(installEnv({}, path.join(root, 'none.h')).npm_config_nodedir).toBeUndefined();
  });
});
