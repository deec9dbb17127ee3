import type { FetchTarget, RpcOptions } from '../helpers/rpc';

/** An rpc() target that sends over real HTTP to `url`. */
export function httpTarget(url: string): FetchTarget & { opts: (o?: RpcOptions) => RpcOptions } {
  return {
    fetch: (req: Request) => fetch(req),
    opts: (o: RpcOptions = {}) => ({ ...o, url, headers: { Host: new URL(url).host, ...(o.headers ?? {}) } }),
  };
}

/** Call the mock's control API. */
export async function controlApi(
  base: string,
  token: string,
  path: string,
  method = 'POST',
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(new URL(path, base), {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? (method === 'POST' ? '{}' : undefined) : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
