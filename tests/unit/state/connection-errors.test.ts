import { describe, expect, it } from 'vitest';
import { explainConnectFailure } from '../../../lib/state/connection-errors';

const page = 'http://127.0.0.1:4000';

describe('a failed connect explained', () => {
  it('direct to another origin: names CORS as a possible cause and the proxy as the fix, never a bare "Failed to fetch"', () => {
    const p = explainConnectFailure(
      { url: 'http://127.0.0.1:5000/mcp', mode: 'direct', pageOrigin: page },
      { type: 'failure', reason: 'network', message: 'Failed to reach http://127.0.0.1:5000/mcp: Failed to fetch' },
    );
    expect(p.cause).toMatch(/does not allow this page's origin \(CORS\)/);
    expect(p.fix).toMatch(/Auto.*Via Loupe proxy/);
  });

  it('through the proxy to nothing: says nothing answered and to start the server', () => {
    const p = explainConnectFailure(
      { url: 'http://127.0.0.1:5000/mcp', mode: 'auto', pageOrigin: page },
      {
        type: 'failure',
        reason: 'proxy',
        message: 'Proxy refused the request (unreachable): Failed to reach http://127.0.0.1:5000: connect ECONNREFUSED 127.0.0.1:5000',
      },
    );
    expect(p.cause).toBe('Nothing answered at http://127.0.0.1:5000/mcp: connect ECONNREFUSED 127.0.0.1:5000.');
    expect(p.fix).toMatch(/Start the server/);
  });

  it('a 404 points at the path, a 401 at the token', () => {
    expect(
      explainConnectFailure(
        { url: 'http://h/x', mode: 'proxy', pageOrigin: page },
        { type: 'invalid', reason: 'HTTP 404 without a JSON-RPC response', httpStatus: 404 },
      ).fix,
    ).toMatch(/\/mcp/);
    expect(
      explainConnectFailure({ url: 'http://h/mcp', mode: 'proxy', pageOrigin: page }, { type: 'failure', reason: 'auth', message: 'authorization required' })
        .fix,
    ).toMatch(/bearer token/);
  });
});
