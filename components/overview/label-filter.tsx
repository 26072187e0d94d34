'use client';
/**
 * The overview's label selector and grouping, as a form: applied on submit,
 * never while typing. A malformed selector or group key shows the parser's
 * own message (lib/limits/selector.ts, the API's words) and changes nothing —
 * the rows, the URL and the last good selector stay as they were.
 */
import { useId, useState, type FormEvent } from 'react';
import { groupProblem, selectorProblem } from '@/lib/client/list-params';
import { SELECTOR_MAX_LENGTH } from '@/lib/limits/selector';

/** Labels are identifiers: no autocompletion, no spelling marks. */
const PLAIN_TEXT = { type: 'text', autoComplete: 'off', spellCheck: false } as const;

export interface LabelFilterProps {
  selector: string;
  group: string;
  /** A link's selector or group that was not applied, and why (shown until the next apply). */
  rejected: { selector: string; group: string; message: string } | null;
  onApply(selector: string, group: string): void;
}

export function LabelFilter({ selector, group, rejected, onApply }: LabelFilterProps) {
  const id = useId();
  const [draft, setDraft] = useState(rejected?.selector ?? selector);
  const [groupDraft, setGroupDraft] = useState(rejected?.group ?? group);
  const [problem, setProblem] = useState<string | null>(rejected === null ? null : `Not applied: ${rejected.message}`);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    const key = groupDraft.trim();
    const message = selectorProblem(text) ?? groupProblem(key);
    setProblem(message);
    if (message === null) onApply(text, key);
  };
  return (
    <form className="label-filter" role="search" aria-label="Labels" onSubmit={onSubmit} data-testid="label-filter">
      <div className="search-box selector-box">
        <label htmlFor={`${id}-selector`}>Label selector</label>
        <input
          id={`${id}-selector`}
          value={draft}
          maxLength={SELECTOR_MAX_LENGTH}
          {...PLAIN_TEXT}
          placeholder="e.g. team=payments,env!=dev"
          aria-invalid={problem !== null}
          aria-describedby={problem === null ? undefined : `${id}-problem`}
          onChange={(event) => setDraft(event.target.value)}
          data-testid="selector-input"
        />
      </div>
      <div className="search-box group-box">
        <label htmlFor={`${id}-group`}>Group by label</label>
        <input
          id={`${id}-group`}
          value={groupDraft}
          {...PLAIN_TEXT}
          placeholder="e.g. service"
          onChange={(event) => setGroupDraft(event.target.value)}
          data-testid="group-input"
        />
      </div>
      <button type="submit" className="filter-button" data-testid="label-apply">
        Apply
      </button>
      {problem === null ? null : (
        <p id={`${id}-problem`} className="label-problem tone-bad" role="alert" data-testid="selector-error">
          {problem}
        </p>
      )}
    </form>
  );
}
