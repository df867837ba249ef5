import { useListName } from '../../../lib/listName';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { Dialog } from '../../../components/Dialog';
import { Field } from '../../../components/Field';
import { useToast } from '../../../app/shell/notices';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { useFormat } from '../../../lib/format';
import { useShareListMutation, useUnshareListMutation, useUpdateListMutation } from '../api';
import { isKeptForOthers, type WishList } from '../types';
import { ShareWithFamilies } from './ShareWithFamilies';
import { HandOverPanel } from './HandOverPanel';
import { ManagersPanel } from './ManagersPanel';
import { RecipientLine } from './RecipientLine';
import { offerPush } from '../../../lib/push';

interface Props {
  list: WishList;
  onClose: () => void;
  /** The caller stopped keeping this list (they left its managers). */
  onLeft?: () => void;
}

/** The share link as a full address, for copying into a message. */
export function absoluteUrl(url: string): string {
  return new URL(url, window.location.origin).toString();
}

/**
 * The earliest reveal date the form offers: tomorrow in UTC. A date is saved as midnight UTC and
 * must lie in the future, so today (or, west of Greenwich in the evening, the local tomorrow) would
 * already be past.
 */
export function earliestRevealDate(now: Date = new Date()): string {
  return new Date(now.getTime() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/**
 * Share link (make, copy, replace, turn off), the families it is shared with, and reveal date of
 * one list; for a list kept for someone else also whom it is for, its managers and the hand-over.
 * A list made for the caller (role recipient) shows exactly what their own list shows.
 */
export function ListSettingsDialog({ list, onClose, onLeft }: Props) {
  const toast = useToast();
  const { t } = useTranslation('lists');
  const format = useFormat();
  const listName = useListName();
  const [share, sharing] = useShareListMutation();
  const [unshare, unsharing] = useUnshareListMutation();
  const [update, updating] = useUpdateListMutation();
  const [reveal, setReveal] = useState(list.revealAt.slice(0, 10));
  const [revealError, setRevealError] = useState<string>();
  const busy = sharing.isLoading || unsharing.isLoading || updating.isLoading;

  async function run(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      toast({ title: done });
    } catch (err) {
      toast({ title: t('settings.couldNotSave'), description: errorMessage(err), variant: 'destructive' });
    }
  }

  async function saveReveal() {
    setRevealError(undefined);
    try {
      await update({ id: list.id, revealAt: `${reveal}T00:00:00Z` }).unwrap();
      toast({ title: t('settings.dateSaved') });
    } catch (err) {
      // 422 "The reveal date must be in the future." belongs under the date, not in a toast.
      const onField = fieldErrors(err).revealAt;
      if (onField) setRevealError(onField);
      else toast({ title: t('settings.couldNotSave'), description: errorMessage(err), variant: 'destructive' });
    }
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: t('settings.copied') });
    } catch {
      toast({ title: t('settings.couldNotCopy'), description: t('link.copyByHand'), variant: 'destructive' });
    }
  }

  const url = list.share ? absoluteUrl(list.share.url) : null;
  const kept = isKeptForOthers(list);
  return (
    <Dialog
      title={t(kept ? 'settings.keptTitle' : 'settings.title', { name: listName(list.name) })}
      onClose={onClose}
      size="tall"
      actions={
        <button type="button" className="button button--outline button--block" onClick={onClose}>
          {t('settings.done')}
        </button>
      }
    >
      {kept && (
        <>
          <RecipientLine recipient={list.recipient} />
          <ManagersPanel
            list={list}
            onLeft={() => {
              onClose();
              onLeft?.();
            }}
          />
          <HandOverPanel list={list} />
        </>
      )}
      <h3 className="list-settings__heading">{t('settings.shareLink')}</h3>
      {url ? (
        <>
          <Field label={t('settings.anyone')}>
            {({ id }) => <input id={id} className="input" value={url} readOnly onFocus={(e) => e.target.select()} />}
          </Field>
          <div className="button-row">
            <button type="button" className="button button--primary button--small" onClick={() => copy(url)}>
              {t('settings.copy')}
            </button>
            <button
              type="button"
              className="button button--outline button--small"
              disabled={busy}
              onClick={() => run(() => share(list.id).unwrap(), t('settings.newLinkDone'))}
            >
              {t('settings.newLink')}
            </button>
            <button
              type="button"
              className="button button--danger-outline button--small"
              disabled={busy}
              onClick={() => run(() => unshare(list.id).unwrap(), t('settings.turnedOff'))}
            >
              {t('settings.turnOff')}
            </button>
          </div>
        </>
      ) : (
        <button
          type="button"
          className="button button--primary button--small"
          disabled={busy}
          onClick={() => run(() => share(list.id).unwrap().then(() => offerPush('shared')), t('settings.made'))}
        >
          {t('settings.make')}
        </button>
      )}
      <h3 className="list-settings__heading">{t('families.heading')}</h3>
      <ShareWithFamilies list={list} />
      <h3 className="list-settings__heading">{t('settings.reveal')}</h3>
      <p className="muted" data-testid="reveal-on">{t('settings.revealOn', { date: format.date(list.revealAt, { dateStyle: 'long' }) })}</p>
      <form
        className="list-settings__reveal"
        onSubmit={(e) => {
          e.preventDefault();
          void saveReveal();
        }}
      >
        <Field label={t('settings.revealLabel')} hint={t('settings.revealHint')} error={revealError}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="input"
              type="date"
              required
              min={earliestRevealDate()}
              value={reveal}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => {
                setReveal(e.target.value);
                setRevealError(undefined);
              }}
            />
          )}
        </Field>
        <button type="submit" className="button button--outline button--small" disabled={busy || !reveal}>
          {t('settings.saveDate')}
        </button>
      </form>
    </Dialog>
  );
}
