import http from 'node:http';

/** The ceiling: a bare node:http server answering every POST with a fixed JSON-RPC result. */
const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  result: { resultType: 'complete', content: [{ type: 'text', text: 'This is a simple text response for testing.' }] },
});
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`READY http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`));
