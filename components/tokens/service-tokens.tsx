'use client';
/**
 * Service tokens, for an admin: every token with its scopes, what it may act
 * on, who made it and its last use; a new token (name, scopes, a label
 * selector or a list of schedulers, a reason) is shown once, here, and never
 * again — only a salted hash is kept; a token is revoked with a reason. Every
 * change is audited by the server. Anyone else reads why the page is empty.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { ServiceTokenCreated, ServiceTokenInfo } from '@/lib/api/types';
import { SERVICE_TOKEN_SCOPES, type ServiceTokenScope } from '@/lib/api/service-token-scopes';
import { createServiceToken, revokeServiceToken } from '@/lib/client/api';
import { queryKeys, serviceTokensQuery, sessionQuery } from '@/lib/client/queries';
import { Instant } from '../instant';
import { ReasonDialog } from '../reason-dialog';
import { ScrollTable } from '../scroll-table';

/** What the form's target field means: a label selector, or scheduler names separated by commas or spaces. */
type TargetKind = 'selector' | 'schedulers';

function targetOf(kind: TargetKind, text: string): { selector: string } | { schedulers: string[] } {
  return kind === 'selector' ? { selector: text.trim() } : { schedulers: text.split(/[\s,]+/).filter((name) => name !== '') };
}

function CreateTokenDialog({ onCreated }: { onCreated(token: ServiceTokenCreated): void }) {
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<readonly ServiceTokenScope[]>(['read']);
  const [kind, setKind] = useState<TargetKind>('selector');
  const [target, setTarget] = useState('');
  const [reason, setReason] = useState('');
  const mutation = useMutation({
    mutationFn: () => createServiceToken({ name: name.trim(), scopes: [...scopes], ...targetOf(kind, target), reason }),
    onSuccess: (created) => {
      onCreated(created);
      setName('');
      setTarget('');
      setReason('');
      dialog.current?.close();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.serviceTokens }),
  });
  const toggle = (scope: ServiceTokenScope) => setScopes((now) => (now.includes(scope) ? now.filter((s) => s !== scope) : [...now, scope]));
  return (
    <>
      <button type="button" onClick={() => (mutation.reset(), dialog.current?.showModal())} data-testid="token-create-open">
        New service token…
      </button>
      <ReasonDialog
        dialogRef={dialog}
        testIdPrefix="token-create"
        title="New service token"
        reason={reason}
        onReasonChange={setReason}
        pending={mutation.isPending}
        error={mutation.error}
        confirmLabel="Create the token"
        canConfirm={name.trim() !== '' && scopes.length > 0}
        onConfirm={() => mutation.mutate()}
      >
        <label>
          Name (what the audit records as who acted; no personal data)
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="deploy-bot"
            autoComplete="off"
            spellCheck={false}
            data-testid="token-name"
          />
        </label>
        <fieldset>
          <legend>Scopes</legend>
          {SERVICE_TOKEN_SCOPES.map((scope) => (
            <label key={scope} className="radio">
              <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} data-testid={`token-scope-${scope}`} /> {scope}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>It may act on</legend>
          <label className="radio">
            <input type="radio" name="token-target" checked={kind === 'selector'} onChange={() => setKind('selector')} /> the schedulers a label selector picks
            (empty: all)
          </label>
          <label className="radio">
            <input type="radio" name="token-target" checked={kind === 'schedulers'} onChange={() => setKind('schedulers')} data-testid="token-target-names" />{' '}
            these schedulers
          </label>
          <input
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            placeholder={kind === 'selector' ? 'team=payments' : 'nightly-vacuum, report-export'}
            aria-label={kind === 'selector' ? 'Label selector' : 'Scheduler names'}
            autoComplete="off"
            spellCheck={false}
            data-testid="token-target"
          />
        </fieldset>
      </ReasonDialog>
    </>
  );
}

function RevokeTokenButton({ token }: { token: ServiceTokenInfo }) {
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const mutation = useMutation({
    mutationFn: () => revokeServiceToken(token.id, reason),
    onSuccess: () => dialog.current?.close(),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.serviceTokens }),
  });
  return (
    <>
      <button type="button" className="link-button" onClick={() => (mutation.reset(), dialog.current?.showModal())} data-testid="token-revoke-open">
        Revoke
      </button>
      <ReasonDialog
        dialogRef={dialog}
        testIdPrefix="token-revoke"
        title={`Revoke ${token.name}?`}
        reason={reason}
        onReasonChange={setReason}
        pending={mutation.isPending}
        error={mutation.error}
        confirmLabel={`Revoke ${token.name}`}
        onConfirm={() => mutation.mutate()}
      >
        <p className="small">Every request with it is refused from now on. This cannot be undone: make a new token instead.</p>
      </ReasonDialog>
    </>
  );
}

function TokenRow({ token }: { token: ServiceTokenInfo }) {
  return (
    <tr data-testid="token-row" data-id={token.id} data-name={token.name} data-revoked={token.revokedAt !== null}>
      <td>
        <strong>{token.name}</strong> <code className="muted small">{token.id}</code>
      </td>
      <td>{token.scopes.join(', ')}</td>
      <td>{token.schedulers !== null ? token.schedulers.join(', ') : token.selector === '' ? 'all schedulers' : <code>{token.selector}</code>}</td>
      <td>
        {token.createdBy}, <Instant iso={token.createdAt} seconds={false} />
      </td>
      <td data-testid="token-last-used">
        {token.lastUsedAt === null ? <span className="muted">never</span> : <Instant iso={token.lastUsedAt} seconds={false} />}
      </td>
      <td>
        {token.revokedAt === null ? (
          <RevokeTokenButton token={token} />
        ) : (
          <span className="muted">revoked {<Instant iso={token.revokedAt} seconds={false} />}</span>
        )}
      </td>
    </tr>
  );
}

export function ServiceTokens() {
  const session = useQuery(sessionQuery());
  const admin = session.data?.body.role === 'admin';
  const tokens = useQuery({ ...serviceTokensQuery(), enabled: admin });
  const [created, setCreated] = useState<ServiceTokenCreated | null>(null);
  if (!session.data) return <p className="muted">Reading who you are…</p>;
  if (!admin) {
    return (
      <p className="banner tone-muted" data-testid="tokens-admin-only">
        Only an admin manages service tokens. Ask one, or sign in with a role that maps to admin.
      </p>
    );
  }
  return (
    <>
      {created ? (
        <div className="banner tone-good" role="status" data-testid="token-created">
          <p>
            <strong>{created.name}</strong> was created. Copy it now: it is shown only once, and only a salted hash is kept.
          </p>
          <p>
            <code data-testid="token-secret">{created.token}</code>
          </p>
          <p className="small">
            Scripts send it as <code>Authorization: Bearer …</code>.
          </p>
        </div>
      ) : null}
      <CreateTokenDialog onCreated={setCreated} />
      {tokens.error ? (
        <p className="banner tone-unknown" role="alert" data-testid="tokens-error">
          The tokens could not be read ({tokens.error.message}).
        </p>
      ) : !tokens.data ? (
        <p className="muted">Reading the tokens…</p>
      ) : tokens.data.body.tokens.length === 0 ? (
        <p className="muted" data-testid="tokens-none">
          No service token yet.
        </p>
      ) : (
        <ScrollTable
          labelledBy="tokens-heading"
          testId="tokens-table"
          columns={[
            { label: 'Token' },
            { label: 'Scopes' },
            { label: 'May act on' },
            { label: 'Created' },
            { label: 'Last used' },
            { label: 'Revocation', hidden: true },
          ]}
        >
          {tokens.data.body.tokens.map((token) => (
            <TokenRow key={token.id} token={token} />
          ))}
        </ScrollTable>
      )}
    </>
  );
}
