import { useState } from 'react';
import { Dialog } from '../../../components/Dialog';
import { Field } from '../../../components/Field';
import { useToast } from '../../../app/shell/notices';
import { errorMessage } from '../../../lib/apiError';
import { useShareListMutation, useUnshareListMutation, useUpdateListMutation } from '../api';
import type { WishList } from '../types';
import { ShareWithFamilies } from './ShareWithFamilies';

interface Props {
  list: WishList;
  onClose: () => void;
}

/** The share link as a full address, for copying into a message. */
export function absoluteUrl(url: string): string {
  return new URL(url, window.location.origin).toString();
}

/** Share link (make, copy, replace, turn off), the families it is shared with, and reveal date of one list. */
export function ListSettingsDialog({ list, onClose }: Props) {
  const toast = useToast();
  const [share, sharing] = useShareListMutation();
  const [unshare, unsharing] = useUnshareListMutation();
  const [update, updating] = useUpdateListMutation();
  const [reveal, setReveal] = useState(list.revealAt.slice(0, 10));
  const busy = sharing.isLoading || unsharing.isLoading || updating.isLoading;

  async function run(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      toast({ title: done });
    } catch (err) {
      toast({ title: 'Could not save', description: errorMessage(err), variant: 'destructive' });
    }
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Link copied' });
    } catch {
      toast({ title: 'Could not copy', description: 'Select the link and copy it by hand.', variant: 'destructive' });
    }
  }

  const url = list.share ? absoluteUrl(list.share.url) : null;
  return (
    <Dialog
      title={`${list.name}: sharing`}
      onClose={onClose}
      actions={
        <button type="button" className="button button--outline button--block" onClick={onClose}>
          Done
        </button>
      }
    >
      <h3 className="list-settings__heading">Share link</h3>
      {url ? (
        <>
          <Field label="Anyone with this link can see the list and claim gifts">
            {({ id }) => <input id={id} className="input" value={url} readOnly onFocus={(e) => e.target.select()} />}
          </Field>
          <div className="button-row">
            <button type="button" className="button button--primary button--small" onClick={() => copy(url)}>
              Copy link
            </button>
            <button
              type="button"
              className="button button--outline button--small"
              disabled={busy}
              onClick={() => run(() => share(list.id).unwrap(), 'New link made; the old one no longer works')}
            >
              New link
            </button>
            <button
              type="button"
              className="button button--danger-outline button--small"
              disabled={busy}
              onClick={() => run(() => unshare(list.id).unwrap(), 'Link turned off')}
            >
              Turn off link
            </button>
          </div>
        </>
      ) : (
        <button
          type="button"
          className="button button--primary button--small"
          disabled={busy}
          onClick={() => run(() => share(list.id).unwrap(), 'Share link made')}
        >
          Make a share link
        </button>
      )}
      <h3 className="list-settings__heading">Share with my families</h3>
      <ShareWithFamilies list={list} />
      <h3 className="list-settings__heading">Reveal date</h3>
      <form
        className="list-settings__reveal"
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => update({ id: list.id, revealAt: `${reveal}T00:00:00Z` }).unwrap(), 'Reveal date saved');
        }}
      >
        <Field label="From this day you see who gave what" hint="Until then, nothing tells you what was claimed.">
          {({ id, describedBy }) => (
            <input id={id} className="input" type="date" required value={reveal} aria-describedby={describedBy} onChange={(e) => setReveal(e.target.value)} />
          )}
        </Field>
        <button type="submit" className="button button--outline button--small" disabled={busy || !reveal}>
          Save date
        </button>
      </form>
    </Dialog>
  );
}
