import Link from 'next/link';

export default function NotFound() {
  return (
    <section className="panel" data-testid="not-found">
      <h1>Not found</h1>
      <p>No scheduler by that name has registered with this status service.</p>
      <Link href="/">All schedulers</Link>
    </section>
  );
}
