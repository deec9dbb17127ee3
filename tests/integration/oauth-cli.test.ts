import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizedFetch } from '../../lib/client/auth/authorized-fetch';
import type { Frame } from '../../lib/client/frames';
import { createHeadlessSession } from '../../lib/client/headless';
import { parseRecording } from '../../lib/recording/schema';
import { redactRecording } from '../../lib/recording/redact';
import { shareFragment, openShareFragment } from '../../lib/recording/share';
import { startOAuthGateway, type OAuthGateway } from '../helpers/oauth-gateway';
import { cliWithUser } from '../helpers/oauth';
import { startCliMock, type Started, runCli } from '../helpers/processes';

/**
 * The headless client's OAuth against a real authorization server (tests/helpers/oauth-gateway.ts)
 * in front of a real mock: without credentials the CLI says authorization is required; with
 * `--auth` it prints the authorize URL, the "user" opens it, the redirect lands on the CLI's
 * loopback listener, and the tools are listed. The session's recording, its default export,
 * its HAR and its share link hold none of the secrets that crossed the wire.
 */

const cli = (args: string[]) => runCli(args);

let mock: Started;
let gate: OAuthGateway;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-oauth-'));
  mock = await startCliMock(['demo', '--data-dir', path.join(dir, 'data')]);
  gate = await startOAuthGateway(mock.url);
}, 30_000);

afterAll(async () => {
  await gate?.close();
  await mock?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('headless OAuth (--auth) against a real authorization server', () => {
  it('without credentials says authorization is required instead of falling back to initialize', async () => {
    const r = await cli(['tools', '--url', gate.mcpUrl]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('authorization required');
    expect(r.stderr).toContain('--auth');
  });

  it('refuses contradictory credential flags as a usage mistake (exit 2)', async () => {
    for (const args of [
      ['--token', 'abc', '--auth'],
      ['--token', 'abc', '--header', 'Authorization: Bearer x'],
      ['--client-secret', 'only-a-secret'],
      ['--scope', 'mcp:read'],
    ]) {
      const r = await cli(['tools', '--url', gate.mcpUrl, ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
    }
  });

  it('authorizes through the loopback redirect, lists the tools, and no secret reaches a recording, export, HAR or share link', async () => {
    const file = path.join(dir, 'session.loupe.json');
    const r = await cliWithUser(['tools', '--url', gate.mcpUrl, '--auth', '--json', '--record', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.opened).toHaveLength(1);
    const authorize = new URL(r.opened[0] ?? '');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('resource')).toBe(gate.mcpUrl);
    // The challenge's scope, plus offline_access because the AS lists it.
    expect(authorize.searchParams.get('scope')).toBe('mcp:read offline_access');
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect((JSON.parse(r.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain('echo');
    expect(gate.tokenRequests).toContainEqual({ grant: 'authorization_code', resource: gate.mcpUrl });
    expect(gate.secrets.size).toBeGreaterThanOrEqual(6);

    // The recording shows every HTTP step on the auth lane.
    const text = fs.readFileSync(file, 'utf8');
    const opened = parseRecording(text);
    if (!opened.ok) throw new Error(opened.error);
    const steps = new Set(opened.recording.frames.filter((f) => f.lane === 'auth').map((f) => f.auth?.step));
    for (const s of ['challenge', 'resource-metadata', 'authorization-server-metadata', 'registration', 'authorization', 'callback', 'token'])
      expect(steps, s).toContain(s);

    const exported = path.join(dir, 'export.loupe.json');
    const har = path.join(dir, 'export.har');
    expect((await cli(['export', file, '--out', exported])).code).toBe(0);
    expect((await cli(['export', file, '--har', '--out', har])).code).toBe(0);
    const share = shareFragment(redactRecording(opened.recording).recording);
    if (!share.ok) throw new Error(share.message);
    const shared = openShareFragment(share.fragment);
    const sharedText = JSON.stringify(shared);
    for (const [name, content] of [
      ['recording', text],
      ['export', fs.readFileSync(exported, 'utf8')],
      ['har', fs.readFileSync(har, 'utf8')],
      ['share link', sharedText],
      ['stdout', r.stdout],
      // The printed authorize URL carries `state` (the person's browser shows it anyway); nothing else.
      ['stderr', r.stderr.replace(authorize.searchParams.get('state') ?? '', '')],
    ] as const)
      for (const secret of gate.secrets) expect(content.includes(secret), `${name} holds ${secret}`).toBe(false);
  });
});

describe('headless session with OAuth (automatic consent)', () => {
  it('refreshes an expired access token with its resource, without a new authorization, and reports each step on the auth lane', async () => {
    const frames: Frame[] = [];
    const auth = createAuthorizedFetch({ redirectUri: 'http://127.0.0.1:9/callback' });
    const session = createHeadlessSession({ url: gate.mcpUrl, era: 'auto', onFrame: (f) => frames.push(f), auth, timeoutMs: 20_000 });
    try {
      const before = gate.tokenRequests.length;
      expect((await session.listTools()).outcome.type).toBe('complete');
      gate.expireAccessTokens();
      expect((await session.listTools()).outcome.type).toBe('complete');
      expect(gate.tokenRequests.slice(before)).toEqual([
        { grant: 'authorization_code', resource: gate.mcpUrl },
        { grant: 'refresh_token', resource: gate.mcpUrl },
      ]);
      const steps = frames.filter((f) => f.lane === 'auth' && f.kind === 'http-response').map((f) => f.auth?.step);
      expect(steps.filter((s) => s === 'authorization')).toHaveLength(1);
      expect(steps).toContain('refresh');
      // Auth frames and MCP frames share one connection sequence.
      expect(new Set(frames.map((f) => f.connectionId)).size).toBe(1);
      expect(frames.map((f) => f.seq)).toEqual(frames.map((_, i) => i));
    } finally {
      session.close();
    }
  });
});
