'use client';
/**
 * The last hour in two synchronised charts that keep the axes apart:
 * Authority (peak renewal age per bucket against the TTL) and Progress
 * (cursor and advances). Epoch changes are vertical markers (solid, "failover",
 * where the failover generation changed); spans with no
 * leader are shaded on the authority chart; unknown spans are shaded and
 * labelled and their points are null — never interpolated.
 */
import { Bar, CartesianGrid, ComposedChart, Line, ReferenceArea, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { SchedulerHistoryResponse } from '@/lib/api/types';
import { timelineModel, type TimelineModel } from '@/lib/client/timeline';

const RIGHT_AXIS_WIDTH = 32;
const COLORS = {
  renewal: '#2f6fde',
  ttl: '#d12d2d',
  cursor: '#1f8f4e',
  advances: '#8a63d2',
  epoch: '#c77700',
  failover: '#8a3ffc',
  unknown: '#8c8c9c',
  noLeader: '#d12d2d',
};

function clock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 16)}Z`;
}

/** Axis ticks: minutes over a long view, seconds over a short one (no repeated labels). */
function tickClock(model: TimelineModel): (ms: number) => string {
  const withSeconds = model.to - model.viewFrom <= 30 * 60_000;
  return (ms) => `${new Date(ms).toISOString().slice(11, withSeconds ? 19 : 16)}Z`;
}

/** A shaded span of the x axis, labelled unless `label` is null. */
function shade(
  key: string,
  span: { from: number; to: number },
  fill: string,
  fillOpacity: number,
  label: string | null,
  position: 'insideTop' | 'insideBottom',
) {
  return (
    <ReferenceArea
      key={key}
      x1={span.from}
      x2={span.to}
      yAxisId="left"
      fill={fill}
      fillOpacity={fillOpacity}
      ifOverflow="hidden"
      label={label === null ? undefined : { value: label, position, className: 'chart-label' }}
    />
  );
}

function Markers({ model, authority }: { model: TimelineModel; authority: boolean }) {
  return (
    <>
      {authority
        ? model.noLeaderSpans.map((span) => shade(`n-${span.from}`, span, COLORS.noLeader, 0.12, span.labelled ? 'no leader' : null, 'insideTop'))
        : null}
      {model.unknownSpans
        .filter((span) => !authority || span.coversAuthority)
        .map((span) => shade(`u-${span.from}`, span, COLORS.unknown, 0.25, span.label, 'insideBottom'))}
      {model.epochMarks.map((mark) => (
        <ReferenceLine
          key={`e-${mark.epoch}`}
          x={mark.t}
          yAxisId="left"
          stroke={mark.failover ? COLORS.failover : COLORS.epoch}
          strokeDasharray={mark.failover ? undefined : '4 3'}
          label={
            mark.labelled
              ? { value: mark.failover ? `failover · epoch ${mark.label}` : `epoch ${mark.label}`, position: 'insideTopRight', className: 'chart-label' }
              : undefined
          }
        />
      ))}
    </>
  );
}

function xAxis(model: TimelineModel) {
  return (
    <XAxis dataKey="t" type="number" scale="time" domain={[model.viewFrom, model.to]} allowDataOverflow tickFormatter={tickClock(model)} minTickGap={48} />
  );
}

const tooltipTime = (value: unknown) => (typeof value === 'number' ? `${new Date(value).toISOString().slice(11, 19)}Z` : String(value));

export function TimelineChart({ history }: { history: SchedulerHistoryResponse }) {
  const model = timelineModel(history);
  const epochs = model.epochMarks.length;
  const unknowns = model.unknownSpans.length;
  const leaderless = model.noLeaderSpans.length;
  return (
    <figure className="timeline" data-testid="timeline">
      <figcaption className="small muted">
        Last hour, {clock(model.from)}–{clock(model.to)}
        {model.viewFrom > model.from ? ` (shown from ${clock(model.viewFrom)}: no lease activity before)` : ''}: {epochs} epoch change{epochs === 1 ? '' : 's'},{' '}
        {leaderless} span{leaderless === 1 ? '' : 's'} with no leader, {unknowns} unknown span
        {unknowns === 1 ? '' : 's'}, {model.advanceTotal} advance{model.advanceTotal === 1 ? '' : 's'}.
      </figcaption>
      <h3 className="chart-title">Authority: peak renewal age (s) against TTL</h3>
      <ComposedChart
        responsive
        style={{ width: '100%', height: 170 }}
        data={model.points}
        syncId="timeline"
        margin={{ top: 18, right: 12 + RIGHT_AXIS_WIDTH, bottom: 0, left: 0 }}
      >
        <CartesianGrid strokeDasharray="3 3" className="chart-grid" />
        {xAxis(model)}
        <YAxis yAxisId="left" width={44} domain={[0, model.renewalAxisMaxS]} allowDecimals={false} allowDataOverflow />
        <Tooltip labelFormatter={tooltipTime} />
        <Markers model={model} authority />
        {model.ttlS !== null ? (
          <ReferenceLine yAxisId="left" y={model.ttlS} stroke={COLORS.ttl} label={{ value: 'TTL', position: 'insideTopLeft', className: 'chart-label' }} />
        ) : null}
        <Line yAxisId="left" dataKey="renewalAgeS" name="renewal age (s)" stroke={COLORS.renewal} dot={false} connectNulls={false} isAnimationActive={false} />
      </ComposedChart>
      <h3 className="chart-title">Progress: cursor and advances</h3>
      <ComposedChart
        responsive
        style={{ width: '100%', height: 170 }}
        data={model.points}
        syncId="timeline"
        margin={{ top: 18, right: 12, bottom: 0, left: 0 }}
      >
        <CartesianGrid strokeDasharray="3 3" className="chart-grid" />
        {xAxis(model)}
        <YAxis yAxisId="left" width={44} />
        <YAxis yAxisId="right" orientation="right" width={RIGHT_AXIS_WIDTH} allowDecimals={false} />
        <Tooltip labelFormatter={tooltipTime} />
        <Markers model={model} authority={false} />
        <Bar yAxisId="right" dataKey="advances" name="advances" fill={COLORS.advances} isAnimationActive={false} />
        <Line yAxisId="left" dataKey="cursor" name="cursor" stroke={COLORS.cursor} dot={false} connectNulls={false} isAnimationActive={false} />
      </ComposedChart>
    </figure>
  );
}
