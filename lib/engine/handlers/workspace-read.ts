import { ERROR } from '../../protocol';
import { fail, type EngineCore, type Outcome } from '../context';
import type { Handler } from './index';
import { toolError, toolResult } from './result';

/**
 * `workspace_read`: scope travels in the `workspaceUri` argument (roots are deprecated). Three
 * layers: authorization (the URI must name a workspace this tool grants),
 * containment (the path is normalized, then compared by path components, never by string
 * prefix), and the mock's "sandbox" (files exist only in `state.workspaces`, a map of
 * workspace URI to { relative path: text }).
 *
 * A workspaceUri that is malformed, not `file:` or not granted is a malformed argument
 * (-32602). A path that tries to leave the workspace is a security refusal the model can read:
 * a tool result with `isError: true` and the reason.
 */

type Parsed = { ok: true; components: string[] } | { ok: false; reason: string };

const MAX_LENGTH = 4096;
// biome-ignore lint/suspicious/noControlCharactersInRegex: this pattern exists to reject control characters in a path
const CONTROL = /[\u0000-\u001f\u007f]/;
const ENCODED_SEPARATOR = /%(2f|5c|00)/i;
const STILL_ENCODED = /%[0-9a-f]{2}/i;

/** Normalize a `file:` workspace URI into path components (dot segments resolved, trailing slash dropped). */
export function parseWorkspaceUri(raw: string): Parsed {
  if (!raw || raw.length > MAX_LENGTH) return { ok: false, reason: 'must be a non-empty file: URI' };
  if (raw.includes('\\') || CONTROL.test(raw)) return { ok: false, reason: 'must not contain backslashes or control characters' };
  if (ENCODED_SEPARATOR.test(raw)) return { ok: false, reason: 'must not contain encoded separators (%2F, %5C) or NUL' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not a valid URI' };
  }
  if (url.protocol !== 'file:') return { ok: false, reason: `must be a file: URI, got ${url.protocol}` };
  if (url.host !== '' || url.username || url.password) return { ok: false, reason: 'must not name a host' };
  if (url.search || url.hash) return { ok: false, reason: 'must not have a query or fragment' };
  // The URL parser has already resolved "." and ".." (also percent-encoded ones) in the pathname.
  const components: string[] = [];
  for (const part of url.pathname.split('/')) {
    if (part === '') continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      return { ok: false, reason: 'has malformed percent-encoding' };
    }
    if (decoded === '.' || decoded === '..' || decoded.includes('/') || decoded.includes('\\') || CONTROL.test(decoded) || STILL_ENCODED.test(decoded)) {
      return { ok: false, reason: 'has an encoded dot segment or separator' };
    }
    components.push(decoded);
  }
  return { ok: true, components };
}

/** Check a workspace-relative path and split it into components; refusals name the reason. */
export function parsePath(raw: string): Parsed {
  if (raw.length > MAX_LENGTH) return { ok: false, reason: 'the path is too long' };
  if (CONTROL.test(raw)) return { ok: false, reason: 'the path contains NUL or control characters' };
  if (raw.includes('\\')) return { ok: false, reason: 'the path contains a backslash; use "/" between components' };
  if (ENCODED_SEPARATOR.test(raw)) return { ok: false, reason: 'the path contains an encoded separator (%2F or %5C) or NUL' };
  if (raw.split('/').includes('..')) return { ok: false, reason: 'the path contains a ".." segment' };
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return { ok: false, reason: 'the path has malformed percent-encoding' };
  }
  if (STILL_ENCODED.test(decoded)) return { ok: false, reason: 'the path is percent-encoded more than once' };
  if (CONTROL.test(decoded) || decoded.includes('\\')) return { ok: false, reason: 'the decoded path contains a backslash or control characters' };
  if (decoded.startsWith('/') || decoded.startsWith('~') || /^[a-z][a-z0-9+.-]*:/i.test(decoded)) {
    return { ok: false, reason: 'the path is absolute; give a path relative to the workspace' };
  }
  const segments = decoded.split('/');
  if (segments.includes('..')) return { ok: false, reason: 'the decoded path contains a ".." segment' };
  return { ok: true, components: segments.filter((s) => s !== '' && s !== '.') };
}

const sameComponents = (a: string[], b: string[]) => a.length === b.length && a.every((c, i) => c === b[i]);

/** Whether `inner` lies strictly inside `outer`, compared component by component. */
export function isInside(outer: string[], inner: string[]): boolean {
  return inner.length > outer.length && outer.every((c, i) => inner[i] === c);
}

const toUri = (components: string[]) => `file:///${components.map(encodeURIComponent).join('/')}`;

interface Workspace {
  uri: string;
  components: string[];
  files: Map<string, string>;
}

/** Declared workspaces, normalized; those the tool does not grant are left out entirely. */
function grantedWorkspaces(core: EngineCore, allowed: unknown): Workspace[] {
  const raw = core.state.workspaces;
  if (!raw || typeof raw !== 'object') return [];
  const grants = Array.isArray(allowed) ? allowed.filter((a): a is string => typeof a === 'string').map(parseWorkspaceUri) : undefined;
  const out: Workspace[] = [];
  for (const [uri, files] of Object.entries(raw as Record<string, unknown>)) {
    const parsed = parseWorkspaceUri(uri);
    if (!parsed.ok || !files || typeof files !== 'object') continue;
    if (grants && !grants.some((g) => g.ok && sameComponents(g.components, parsed.components))) continue;
    const map = new Map<string, string>();
    for (const [path, text] of Object.entries(files as Record<string, unknown>)) {
      const p = parsePath(path);
      if (p.ok && typeof text === 'string') map.set(p.components.join('/'), text);
    }
    out.push({ uri: toUri(parsed.components), components: parsed.components, files: map });
  }
  return out;
}

/** `workspace_read` handler. Tool `options.allowedWorkspaces` lists the granted URIs (default: all declared). */
export const workspaceRead: Handler = async (core, _ctx, tool, args): Promise<Outcome> => {
  const { workspaceUri, path } = args;
  if (typeof workspaceUri !== 'string') return fail(ERROR.invalidParams, 'Invalid params for workspace_read: workspaceUri must be a string');
  if (typeof path !== 'string' || path === '') return fail(ERROR.invalidParams, 'Invalid params for workspace_read: path must be a non-empty relative path');
  const ws = parseWorkspaceUri(workspaceUri);
  if (!ws.ok) return fail(ERROR.invalidParams, `Invalid params for workspace_read: workspaceUri ${ws.reason}`);
  const workspaces = grantedWorkspaces(core, tool.options?.allowedWorkspaces);
  const workspace = workspaces.find((w) => sameComponents(w.components, ws.components));
  if (!workspace) {
    return fail(
      ERROR.invalidParams,
      `Invalid params for workspace_read: ${toUri(ws.components)} is not a declared workspace; use one of ${workspaces.map((w) => w.uri).join(', ') || '(none)'}`,
      {
        workspaces: workspaces.map((w) => w.uri),
      },
    );
  }
  const p = parsePath(path);
  if (!p.ok) return toolError(`Refused to read "${path}" in ${workspace.uri}: ${p.reason}.`, { refused: true, reason: p.reason });
  const resolved = [...workspace.components, ...p.components];
  if (!isInside(workspace.components, resolved)) {
    return toolError(`Refused to read "${path}" in ${workspace.uri}: it does not name a file inside the workspace.`, {
      refused: true,
      reason: 'outside the workspace',
    });
  }
  const relative = p.components.join('/');
  const text = workspace.files.get(relative);
  if (text === undefined) {
    const inDir = [...workspace.files.keys()].filter((k) => k.startsWith(`${relative}/`));
    if (inDir.length) return toolError(`"${relative}" is a directory in ${workspace.uri}; files in it: ${inDir.join(', ')}.`);
    return toolError(`No such file: "${relative}" in ${workspace.uri}.`);
  }
  return toolResult(text, { uri: toUri(resolved), workspaceUri: workspace.uri, path: relative, size: text.length });
};
