import Link from 'next/link';

/** The 404 page, in Loupe's own colours (so it follows the theme the user chose, like every page). */
export default function NotFound() {
  return (
    <main className="mx-auto flex max-w-xl flex-col gap-3 p-8">
      <h1 className="text-lg font-semibold">Page not found</h1>
      <p className="text-sm text-muted">Loupe has no page at this address.</p>
      <Link href="/" className="text-sm text-accent hover:underline">
        Back to the inspector
      </Link>
    </main>
  );
}
