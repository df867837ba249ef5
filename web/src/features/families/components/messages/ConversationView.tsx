import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../../lib/format';
import type { Conversation, SecretSantaMessage } from '../../types';

interface Props {
  conversation: Conversation;
  messages: readonly SecretSantaMessage[];
  gifteeName: string;
  loading?: boolean;
}

/** One conversation, oldest first (as the server orders them). The Santa side is never named. */
export function ConversationView({ conversation, messages, gifteeName, loading }: Props) {
  const { t } = useTranslation('families');
  const format = useFormat();
  const shown = messages.filter((m) => m.with === conversation);
  const them = conversation === 'giftee' ? gifteeName : t('messages.yourSanta');

  if (loading) return <p className="muted">{t('messages.loading')}</p>;
  if (shown.length === 0) {
    return (
      <p className="muted" data-testid="conversation-empty">
        {conversation === 'giftee' ? t('messages.emptyGiftee', { name: gifteeName }) : t('messages.emptySanta')}
      </p>
    );
  }
  return (
    // The log role sits on a wrapper: on the <ol> itself it would replace the list role, and
    // its items would no longer be in a list (axe: listitem).
    <div
      role="log"
      aria-live="polite"
      aria-label={conversation === 'giftee' ? t('messages.withGiftee', { name: gifteeName }) : t('messages.withSanta')}
      data-testid={`conversation-${conversation}`}
    >
      <ol className="santa-conversation">
        {shown.map((m) => (
          <li key={m.id} className={`santa-message santa-message--${m.from}`}>
            <span className="santa-message__who">{m.from === 'me' ? t('messages.you') : them}</span>
            <p className="santa-message__text">{m.text}</p>
            <time className="santa-message__at" dateTime={m.at}>
              {format.date(new Date(m.at), { dateStyle: 'medium', timeStyle: 'short' })}
            </time>
          </li>
        ))}
      </ol>
    </div>
  );
}
