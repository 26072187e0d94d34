import { describe, expect, it } from 'vitest';
import { defineJob, type ExternalTarget, externalStep, fencedStep, JobDefinitionError } from './job';

const read = async () => null;
const write = () => [];
const call = async () => ({ kind: 'accepted' as const });

describe('defining a job', () => {
  it('accepts a name, a cadence and fenced or external steps, and freezes them', () => {
    const job = defineJob({
      name: 'nightly-report',
      everyMs: 60_000,
      steps: [
        fencedStep({ name: 'collect', read, plan: () => 1, write }),
        externalStep({ name: 'send', target: { name: 'mail-archive', checksEpoch: true }, read, plan: () => 2, call }),
      ],
    });
    expect(job.steps.map((step) => [step.name, step.class])).toEqual([
      ['collect', 'fenced'],
      ['send', 'external'],
    ]);
    expect(Object.isFrozen(job)).toBe(true);
    expect(Object.isFrozen(job.steps)).toBe(true);
  });

  it('refuses an external target that does not check epochs — in the types, and at run time', () => {
    // @ts-expect-error — a target must declare checksEpoch: true; there is no other kind
    const unchecked: ExternalTarget = { name: 'smtp', checksEpoch: false };
    const step = externalStep({ name: 'send', target: unchecked, read, plan: () => 1, call });
    expect(() => defineJob({ name: 'mailer', everyMs: 60_000, steps: [step] })).toThrow(/refused — external target smtp must check epochs/);
  });

  it('a write step cannot reach a connection or send SQL text: the types allow only statements built by `w`', () => {
    const steps = [
      // @ts-expect-error — a write step gets no connection (its input has no `db`)
      fencedStep({ name: 'sneaky', read, plan: () => 1, write: (_w, _plan, input) => (void input.db.query('DELETE FROM plan_items'), []) }),
      // @ts-expect-error — a write step returns statements built by `w`, not SQL text
      fencedStep({ name: 'raw', read, plan: () => 1, write: () => ['INSERT INTO plan_items VALUES (1)'] }),
    ];
    expect(steps).toHaveLength(2); // (they still build; the type check above is the guard, and the database the backstop)
  });

  it('names what is wrong with a definition', () => {
    const step = fencedStep({ name: 'one', read, plan: () => 1, write });
    const cases: [Parameters<typeof defineJob>[0], RegExp][] = [
      [{ name: 'Bad Name', everyMs: 60_000, steps: [step] }, /name: use lowercase/],
      [{ name: 'job', everyMs: 999, steps: [step] }, /everyMs must be whole ms ≥ 1000/],
      [{ name: 'job', everyMs: 60_000, steps: [] }, /at least one step/],
      [{ name: 'job', everyMs: 60_000, steps: [step, step] }, /two steps named one/],
      [{ name: 'job', everyMs: 60_000, steps: [fencedStep({ name: 'Has Space', read, plan: () => 1, write })] }, /step name/],
    ];
    for (const [definition, message] of cases) {
      expect(() => defineJob(definition)).toThrow(JobDefinitionError);
      expect(() => defineJob(definition)).toThrow(message);
    }
  });
});
