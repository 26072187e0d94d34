'use client';
/** Search by scheduler name; typing is debounced before it becomes a query. */
import { useEffect, useId, useState } from 'react';

const DEBOUNCE_MS = 250;

export function SearchBox({ value, onSearch }: { value: string; onSearch(search: string): void }) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  useEffect(() => {
    if (draft.trim() === value) return;
    const timer = setTimeout(() => onSearch(draft.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, value, onSearch]);
  return (
    <div className="search-box">
      <label htmlFor={id}>Search by name</label>
      <input
        id={id}
        type="search"
        value={draft}
        maxLength={100}
        autoComplete="off"
        spellCheck={false}
        placeholder="e.g. retention"
        onChange={(event) => setDraft(event.target.value)}
        data-testid="search-input"
      />
    </div>
  );
}
