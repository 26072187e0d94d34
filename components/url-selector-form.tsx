'use client';
/**
 * A page's label selector kept in its URL (`?selector=…`, a link for a team's
 * view), as a form: applied on submit, never while typing. A malformed
 * selector shows the parser's own message (lib/limits/selector.ts, the API's
 * words) and changes nothing. Other query parameters stay as they are;
 * `children` adds controls of the page's own (a window) inside the form.
 */
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useId, useState, type ReactNode } from 'react';
import { selectorProblem } from '@/lib/client/list-params';
import { SELECTOR_MAX_LENGTH } from '@/lib/limits/selector';

/** The URL's selector ('' for none) and a way to change any of the page's query parameters. */
export function useUrlQuery(): { params: URLSearchParams; selector: string; replace(changes: Record<string, string>): void } {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const current = new URLSearchParams(params.toString());
  return {
    params: current,
    selector: current.get('selector') ?? '',
    replace: (changes) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value.trim() === '') next.delete(key);
        else next.set(key, value);
      }
      const query = next.toString();
      router.replace(query === '' ? pathname : `${pathname}?${query}`);
    },
  };
}

export function UrlSelectorForm({ testIdPrefix, children }: { testIdPrefix: string; children?: ReactNode }) {
  const id = useId();
  const { selector, replace } = useUrlQuery();
  const [draft, setDraft] = useState(selector);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      className="selector-form"
      role="search"
      aria-label="Labels"
      onSubmit={(event) => {
        event.preventDefault();
        const text = draft.trim();
        const message = selectorProblem(text);
        setProblem(message);
        if (message === null) replace({ selector: text });
      }}
    >
      {children}
      <label>
        Label selector{' '}
        <input
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={draft}
          maxLength={SELECTOR_MAX_LENGTH}
          placeholder="e.g. team=payments,env!=dev"
          aria-invalid={problem !== null}
          aria-describedby={problem === null ? undefined : `${id}-problem`}
          onChange={(event) => setDraft(event.target.value)}
          data-testid={`${testIdPrefix}-selector`}
        />
      </label>
      <button type="submit" data-testid={`${testIdPrefix}-apply`}>
        Apply
      </button>
      {problem !== null ? (
        <p id={`${id}-problem`} className="banner tone-bad small" role="alert" data-testid={`${testIdPrefix}-selector-problem`}>
          Not applied: {problem}
        </p>
      ) : null}
    </form>
  );
}
