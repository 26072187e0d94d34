import { describe, expect, it } from 'vitest';
import { alertmanagerConfig } from './alertmanager-config';

type Route = { matchers: string[]; receiver: string };
type Config = { route: { routes: Route[] }; receivers: { name: string; webhook_configs: { url: string }[] }[] };

describe('routing by team', () => {
  it('one route per team on the alerts’ team label, each to a receiver of its own; other alerts to the default', () => {
    const config = alertmanagerConfig({ webhookUrl: 'https://hooks.example/leaseboard/', teams: ['payments', 'search', 'payments'] }) as unknown as Config;
    expect(config.route.routes.slice(1)).toEqual([
      { matchers: ['team="payments"'], receiver: 'team-payments' },
      { matchers: ['team="search"'], receiver: 'team-search' },
    ]);
    expect(config.receivers.map((r) => [r.name, r.webhook_configs[0]!.url])).toEqual([
      ['leaseboard-oncall', 'https://hooks.example/leaseboard/'],
      ['leaseboard-watchdog', 'https://hooks.example/leaseboard/'],
      ['team-payments', 'https://hooks.example/leaseboard/payments'],
      ['team-search', 'https://hooks.example/leaseboard/search'],
    ]);
  });

  it('a team that is not a label value is refused, naming it', () => {
    expect(() => alertmanagerConfig({ webhookUrl: 'https://hooks.example/', teams: ['pay"ments'] })).toThrow(/team "pay\\"ments"/);
  });
});
