/** The JSON answers and capped body reads the server's web-fetch routes share. */

/** A JSON answer that no cache keeps. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } });
}

/** Read a request body as text, refusing (undefined) more than `max` bytes. */
export async function readText(req: Request, max: number): Promise<string | undefined> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) return undefined;
  const buffer = await req.arrayBuffer();
  return buffer.byteLength > max ? undefined : new TextDecoder().decode(buffer);
}
