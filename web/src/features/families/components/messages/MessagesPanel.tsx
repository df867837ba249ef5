import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Tabs } from '../../../../components/Tabs';
import { errorMessage } from '../../../../lib/apiError';
import { useGetSecretSantaMessagesQuery } from '../../api';
import { useUnread } from '../../hooks/useUnread';
import type { Conversation } from '../../types';
import { ConversationView } from './ConversationView';
import { MessageComposer } from './MessageComposer';
import './messages.css';

interface Props {
  familyId: string;
  /** Whom the caller gives to: the one person of the two conversations who is ever named. */
  gifteeName: string;
}

/**
 * The caller's two Secret Santa conversations: with their giftee, by name, and with their own
 * Secret Santa, who is only ever "your Secret Santa" (the API never says who that is either).
 * Re-read when the live stream says a message arrived (features/live invalidates the tag).
 */
export function MessagesPanel({ familyId, gifteeName }: Props) {
  const { t } = useTranslation('families');
  const [open, setOpen] = useState<Conversation>('giftee');
  const messages = useGetSecretSantaMessagesQuery(familyId);
  const list = messages.data ?? [];
  const unread = useUnread(familyId, list, open);

  const label = (conversation: Conversation, text: string) => (
    <>
      {text}
      {unread[conversation] > 0 && ' '}
      {unread[conversation] > 0 && (
        <span className="santa-unread" data-testid={`unread-${conversation}`}>
          <span aria-hidden="true">{unread[conversation]}</span>
          <span className="visually-hidden">{t('messages.unread', { count: unread[conversation] })}</span>
        </span>
      )}
    </>
  );

  return (
    <section className="card santa-messages" aria-labelledby="santa-messages-title" data-testid="santa-messages">
      <h2 id="santa-messages-title" className="santa-draw__title">
        {t('messages.title')}
      </h2>
      <p className="muted">{t('messages.hint')}</p>
      <Tabs
        label={t('messages.title')}
        selected={open}
        onSelect={(id) => setOpen(id as Conversation)}
        tabs={[
          { id: 'giftee', label: label('giftee', t('messages.gifteeTab', { name: gifteeName })) },
          { id: 'santa', label: label('santa', t('messages.santaTab')) },
        ]}
      >
        {messages.error ? (
          <p className="notice notice--warning">{errorMessage(messages.error)}</p>
        ) : (
          <ConversationView
            conversation={open}
            messages={list}
            gifteeName={gifteeName}
            loading={messages.isLoading}
          />
        )}
        <MessageComposer key={open} familyId={familyId} to={open} gifteeName={gifteeName} />
      </Tabs>
    </section>
  );
}
