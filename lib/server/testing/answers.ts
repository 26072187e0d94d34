/**
 * Test-only: the status reads as the API answers them — raw strings in (a
 * name, ISO instants), HTTP results out (../http/answers.ts) — so tests
 * assert what a client would see, statuses included.
 */
import { alertsAnswer, detailAnswer, historyAnswer, stripsAnswer } from '../http/answers';
import type { StatusService } from '../service';

export function answersOf(service: StatusService) {
  return {
    detail: (name: string, at?: string | null) => detailAnswer(service, name, at),
    history: (name: string, from?: string | null, to?: string | null) => historyAnswer(service, name, from, to),
    alerts: (limit: number) => alertsAnswer(service, limit),
    strips: (query: string) => stripsAnswer(service, new URLSearchParams(query)),
  };
}
