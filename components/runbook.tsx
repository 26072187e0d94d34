/**
 * A runbook (docs/runbooks/*.md) rendered from markdown by react-markdown:
 * React elements, no raw HTML (it is ignored), no script — nothing the page's
 * CSP would have to allow. Server-rendered: no markdown code reaches the browser.
 */
import Markdown from 'react-markdown';

export function Runbook({ markdown }: { markdown: string }) {
  return (
    <article className="panel runbook" data-testid="runbook">
      <Markdown>{markdown}</Markdown>
    </article>
  );
}
