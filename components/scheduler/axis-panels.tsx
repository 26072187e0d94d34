/**
 * The two axes side by side, never merged: Authority (who may run the work,
 * proven by renewals) and Progress (whether the work moves, proven by
 * advances), plus what is known about observation.
 */
import { formatCursor } from '@/lib/client/format';
import type { StatusView } from '@/lib/client/status-view';
import { formatDuration } from '@/lib/status';
import { AuthorityChip, WorkChip } from '../axis-chips';
import { GapBadge } from '../gap-badge';
import { AgeText, ExpiryText } from '../ticking-text';
import { RelativeTime } from '../timestamp';
import { Instant } from '@/components/instant';
import { Epoch } from '@/components/epoch';

function Item({ term, children, testId }: { term: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="dl-item">
      <dt>{term}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

const dash = '—';

export function AxisPanels({ view }: { view: StatusView }) {
  const { authority, work } = view.status;
  const stale = view.withdrawn === 'browser_stale';
  return (
    <div className="axes">
      <section className="panel" aria-labelledby="authority-heading" data-testid="authority-panel">
        <h2 id="authority-heading">Authority</h2>
        <dl>
          <Item term="Lease" testId="detail-authority-state">
            <AuthorityChip view={view} />
          </Item>
          <Item term="Leader" testId="detail-leader">
            <code>{authority.holder ?? dash}</code> {authority.label ? <span className="muted">({authority.label})</span> : null}
          </Item>
          <Item term="Epoch" testId="detail-epoch">
            <span className="num">
              <Epoch value={authority.epoch} fallback={dash} />
            </span>
          </Item>
          <Item term="Acquired">{authority.acquiredAt ? <Instant iso={authority.acquiredAt} /> : dash}</Item>
          <Item term="Renewed" testId="detail-renewal-age">
            {authority.renewedAt === null ? dash : <RelativeTime iso={authority.renewedAt} ageMs={authority.renewalAgeMs} />}
          </Item>
          <Item term="Expires" testId="detail-expires">
            {authority.expiresAt === null ? dash : <ExpiryText serverMs={authority.expiresInMs} />}
          </Item>
          <Item term="TTL">{authority.ttlMs === null ? dash : formatDuration(authority.ttlMs)}</Item>
        </dl>
      </section>
      <section className="panel" aria-labelledby="progress-heading" data-testid="progress-panel">
        <h2 id="progress-heading">Progress</h2>
        <dl>
          <Item term="Work" testId="detail-work-state">
            <WorkChip view={view} />
          </Item>
          <Item term="Occurrence">
            <span className="truncate">{work.occurrence ?? dash}</span>
          </Item>
          <Item term="Cursor">
            <span className="num">{formatCursor(work.cursor)}</span>
          </Item>
          <Item term="Last progress" testId="detail-last-progress">
            <RelativeTime iso={work.lastAdvanceAt} ageMs={work.lastAdvanceAgeMs} />
          </Item>
          <Item term="Last report">
            <AgeText serverMs={work.lastReportAt === null ? null : work.lastReportAgeMs} none="none" />
          </Item>
          <Item term="Observation" testId="detail-observation">
            <GapBadge gap={view.gap} stale={stale} testId="detail-gap" />
          </Item>
        </dl>
      </section>
    </div>
  );
}
