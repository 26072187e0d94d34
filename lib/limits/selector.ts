/**
 * Label selectors, Kubernetes' syntax (k8s.io/apimachinery/pkg/labels): the
 * one parser behind `?selector=` in the API and in the overview's URL.
 *
 *   team=payments      team==payments    the label is present with this value
 *   env!=dev                             absent, or another value
 *   env in (prod,staging)                present with one of these values
 *   env notin (dev,test)                 absent, or none of these values
 *   team                                 present (any value)
 *   !team                                absent
 *
 * Requirements joined by `,` must all hold (AND); commas inside `( )` separate
 * values. Keys and values follow ./labels.ts (a selector can only name what a
 * label can be); whitespace around tokens is ignored. An empty selector
 * selects everything.
 *
 * Guarantees: pure and total — `parseSelector` never throws; it answers a
 * selector or the first problem as a sentence quoting the requirement.
 * Bounded: at most SELECTOR_MAX_LENGTH characters and SELECTOR_MAX_REQUIREMENTS
 * requirements, so matching a list costs O(schedulers × a small constant).
 */
import { type Labels, labelKeyProblem, labelValueProblem } from './labels';

export const SELECTOR_MAX_LENGTH = 2_048;
export const SELECTOR_MAX_REQUIREMENTS = 32;
const SELECTOR_MAX_VALUES = 64;

type Requirement =
  | { key: string; op: 'eq' | 'neq'; value: string }
  | { key: string; op: 'in' | 'notin'; values: readonly string[] }
  | { key: string; op: 'exists' | 'notexists' };

export type Selector = readonly Requirement[];

export type SelectorParse = { ok: true; selector: Selector } | { ok: false; message: string };

const TOKEN = '[^\\s=!(),]+';
const EQUALITY = new RegExp(`^(${TOKEN})\\s*(==|=|!=)\\s*(${TOKEN})?$`);
const SET = new RegExp(`^(${TOKEN})\\s+(in|notin)\\s*\\((.*)\\)$`, 's');
const EXISTS = new RegExp(`^(${TOKEN})$`);
const NOT_EXISTS = new RegExp(`^!\\s*(${TOKEN})$`);
const SET_VALUE = new RegExp(`^(${TOKEN})?$`);

const quoted = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);

/** The requirements of a selector: split at commas outside parentheses. */
function splitRequirements(text: string): { ok: true; parts: string[] } | { ok: false; message: string } {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth += 1;
    else if (c === ')') depth -= 1;
    if (depth < 0 || depth > 1) return { ok: false, message: `selector: unbalanced parentheses near ${quoted(text.slice(start, i + 1))}` };
    if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) return { ok: false, message: `selector: unclosed "(" in ${quoted(text.slice(start))}` };
  parts.push(text.slice(start));
  return { ok: true, parts };
}

function requirementOf(raw: string): { ok: true; requirement: Requirement } | { ok: false; message: string } {
  const text = raw.trim();
  if (text === '') return { ok: false, message: 'selector: an empty requirement (two commas in a row, or one at an end)' };
  let m: RegExpExecArray | null;
  if ((m = NOT_EXISTS.exec(text))) {
    const problem = labelKeyProblem(m[1]!);
    return problem === null ? { ok: true, requirement: { key: m[1]!, op: 'notexists' } } : { ok: false, message: `selector: ${problem}` };
  }
  if ((m = EQUALITY.exec(text))) {
    const [, key, operator, value = ''] = m;
    const problem = labelKeyProblem(key!) ?? labelValueProblem(key!, value);
    if (problem !== null) return { ok: false, message: `selector: ${problem}` };
    return { ok: true, requirement: { key: key!, op: operator === '!=' ? 'neq' : 'eq', value } };
  }
  if ((m = SET.exec(text))) {
    const [, key, operator, list] = m;
    const keyProblem = labelKeyProblem(key!);
    if (keyProblem !== null) return { ok: false, message: `selector: ${keyProblem}` };
    const values = list!.split(',').map((v) => v.trim());
    if (values.length === 1 && values[0] === '') return { ok: false, message: `selector: ${quoted(text)}: "${operator}" needs at least one value` };
    if (values.length > SELECTOR_MAX_VALUES) return { ok: false, message: `selector: ${quoted(text)}: at most ${SELECTOR_MAX_VALUES} values` };
    for (const value of values) {
      if (!SET_VALUE.test(value)) return { ok: false, message: `selector: ${quoted(text)}: ${quoted(value)} is not a value` };
      const problem = labelValueProblem(key!, value);
      if (problem !== null) return { ok: false, message: `selector: ${problem}` };
    }
    return { ok: true, requirement: { key: key!, op: operator as 'in' | 'notin', values: [...new Set(values)] } };
  }
  if ((m = EXISTS.exec(text))) {
    const problem = labelKeyProblem(m[1]!);
    return problem === null ? { ok: true, requirement: { key: m[1]!, op: 'exists' } } : { ok: false, message: `selector: ${problem}` };
  }
  return {
    ok: false,
    message: `selector: ${quoted(text)} is not a requirement: expected k=v, k==v, k!=v, k in (a,b), k notin (a,b), k or !k`,
  };
}

/** Parses a selector (`team=payments,env!=dev`); empty or blank → the selector that selects everything. */
export function parseSelector(text: string): SelectorParse {
  if (text.length > SELECTOR_MAX_LENGTH) return { ok: false, message: `selector: at most ${SELECTOR_MAX_LENGTH} characters` };
  if (text.trim() === '') return { ok: true, selector: [] };
  const split = splitRequirements(text);
  if (!split.ok) return split;
  if (split.parts.length > SELECTOR_MAX_REQUIREMENTS) return { ok: false, message: `selector: at most ${SELECTOR_MAX_REQUIREMENTS} requirements` };
  const selector: Requirement[] = [];
  for (const part of split.parts) {
    const parsed = requirementOf(part);
    if (!parsed.ok) return parsed;
    selector.push(parsed.requirement);
  }
  return { ok: true, selector };
}

function holds(r: Requirement, labels: Labels): boolean {
  const present = Object.hasOwn(labels, r.key);
  switch (r.op) {
    case 'eq':
      return present && labels[r.key] === r.value;
    case 'neq':
      return !present || labels[r.key] !== r.value;
    case 'in':
      return present && r.values.includes(labels[r.key]!);
    case 'notin':
      return !present || !r.values.includes(labels[r.key]!);
    case 'exists':
      return present;
    case 'notexists':
      return !present;
    default: {
      const never: never = r;
      return never;
    }
  }
}

/** Whether `labels` satisfy every requirement of `selector`. */
export function matchesSelector(selector: Selector, labels: Labels): boolean {
  return selector.every((r) => holds(r, labels));
}

/** The canonical text of a selector (parses back to the same requirements). */
export function formatSelector(selector: Selector): string {
  return selector
    .map((r) => {
      switch (r.op) {
        case 'eq':
          return `${r.key}=${r.value}`;
        case 'neq':
          return `${r.key}!=${r.value}`;
        case 'in':
        case 'notin':
          return `${r.key} ${r.op} (${r.values.join(',')})`;
        case 'exists':
          return r.key;
        case 'notexists':
          return `!${r.key}`;
        default: {
          const never: never = r;
          return never;
        }
      }
    })
    .join(',');
}
