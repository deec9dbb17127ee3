import Link from 'next/link';
import { DemoConnection } from '@/components/inspector/DemoConnection';

export default function HomePage() {
  return (
    <main className="mx-auto max-w-5xl space-y-8 px-6 py-10">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">
          Loupe <span className="align-middle text-xs font-normal text-muted">MCP 2026-07-28</span>
        </h1>
        <p className="max-w-2xl text-sm text-muted">
          An inspector and a scriptable mock server for Model Context Protocol servers and clients: every request,
          response, header and SSE frame on one timeline, with tasks, elicitation and app views beside it.
        </p>
        <nav className="flex gap-4 text-sm">
          <Link href="/scenarios/demo" className="text-accent hover:underline">
            Demo mock control room →
          </Link>
          <Link href="/scenarios" className="text-accent hover:underline">
            All mock scenarios
          </Link>
        </nav>
      </header>
      <DemoConnection endpoint="/mcp" />
    </main>
  );
}
