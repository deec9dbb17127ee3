import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../lib/scenario/loader';

/** The `auth:` block as an author writes it in YAML: defaults, line-precise errors, and the step-up tool check. */

const YAML = `id: guarded
server: { name: guarded, version: "1" }
tools:
  - name: read
    result: { content: [] }
auth:
  resource:
    challengeScope: [notes:read]
    toolScopes:
      write: [notes:write]
  server:
    issInRedirect: wrong
`;

describe('the auth: block', () => {
  it('fills the defaults of a well-behaved server and warns about a step-up tool that does not exist', () => {
    const result = parseScenario(YAML, 'guarded.yaml');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.scenario.auth).toMatchObject({
      resource: { metadata: 'path', inChallenge: true, challengeScope: ['notes:read'], requiredScopes: [] },
      server: { metadata: 'oauth', issSupported: 'true', issInRedirect: 'wrong', dcr: true, cimd: false, consent: 'auto', codeChallengeMethods: ['S256'] },
      faults: { expiredTokens: false, refreshInvalidGrant: false, tokenDelayMs: 0 },
    });
    expect(result.warnings).toMatchObject([{ line: 10, path: 'auth.resource.toolScopes.write', message: 'No tool named "write" is declared in tools' }]);
  });

  it('points at the line of a misspelt knob', () => {
    const result = parseScenario(YAML.replace('issInRedirect: wrong', 'issInRedirect: sometimes'), 'guarded.yaml');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors).toMatchObject([{ line: 12, path: 'auth.server.issInRedirect' }]);
  });
});
