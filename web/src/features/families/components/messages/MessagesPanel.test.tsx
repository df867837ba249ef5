import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api } from '../../../../app/api';
import { inLanguage } from '../../../../test/i18n';
import { json } from '../../../../test/utils';
import { seenKey } from '../../unread';
import { family, message, renderSanta, routeSanta } from '../secretSantaFixtures';

const T0 = '2026-11-21T10:00:00.000Z';
const T1 = '2026-11-22T10:00:00.000Z';
const T2 = '2026-11-23T10:00:00.000Z';
const T3 = '2026-11-24T10:00:00.000Z';

const CONVERSATIONS = [
  message('m1', 'giftee', 'me', 'What would you like?', T0),
  message('m2', 'giftee', 'them', 'Warm socks, please', T1),
  message('m3', 'santa', 'them', 'Do you like books?', T0),
  message('m4', 'santa', 'me', 'I love them', T1),
  message('m5', 'santa', 'them', 'Any author?', T2),
  message('m6', 'santa', 'them', 'Or comics?', T3),
];

describe('Secret Santa messages', () => {
  it('names the giftee, but only ever calls the Santa "your Secret Santa"', async () => {
    // Ben is the caller's Secret Santa (the only one it can be); nothing in the panel may say so.
    routeSanta({ families: () => [family('member')], messages: () => json(CONVERSATIONS) });
    renderSanta();
    const panel = await screen.findByTestId('santa-messages');
    expect(await within(panel).findByTestId('conversation-giftee')).toHaveTextContent('CleoWarm socks, please');
    await userEvent.click(within(panel).getByRole('tab', { name: /My Secret Santa/ }));
    const santa = within(panel).getByTestId('conversation-santa');
    expect(santa).toHaveTextContent('Your Secret SantaDo you like books?');
    expect(santa).toHaveTextContent('YouI love them');
    expect(panel).toHaveTextContent('Message to your Secret Santa');
    expect(panel.textContent).not.toMatch(/Ben|Holly|u-ben/);
    for (const el of panel.querySelectorAll('*')) {
      for (const attr of el.getAttributeNames()) expect(el.getAttribute(attr) ?? '').not.toMatch(/Ben|u-ben/);
    }
  });

  it('counts the messages the Santa wrote since the caller last read them, and reading clears the count', async () => {
    localStorage.setItem(seenKey('fam-1'), JSON.stringify({ santa: T1 }));
    routeSanta({ messages: () => json(CONVERSATIONS) });
    renderSanta();
    const santaTab = await screen.findByRole('tab', { name: /My Secret Santa/ });
    // m5 and m6 are newer than what was seen; m3 (older) and m4 (the caller's own) do not count.
    await waitFor(() => expect(santaTab).toHaveAccessibleName('My Secret Santa 2 new messages'));
    expect(screen.getByTestId('unread-santa')).toHaveTextContent('2');
    // The open conversation (the giftee's) is read as it shows.
    expect(screen.queryByTestId('unread-giftee')).not.toBeInTheDocument();
    await waitFor(() => expect(JSON.parse(localStorage.getItem(seenKey('fam-1'))!)).toEqual({ santa: T1, giftee: T1 }));
    await userEvent.click(santaTab);
    await waitFor(() => expect(JSON.parse(localStorage.getItem(seenKey('fam-1'))!).santa).toBe(T3));
    expect(screen.queryByTestId('unread-santa')).not.toBeInTheDocument();
  });

  it('re-reads the conversations when the live stream invalidates them, and counts what arrived', async () => {
    let answer = CONVERSATIONS.slice(0, 2);
    routeSanta({ messages: () => json(answer) });
    const { store } = renderSanta();
    await screen.findByTestId('conversation-giftee');
    expect(screen.queryByTestId('unread-santa')).not.toBeInTheDocument();
    answer = CONVERSATIONS;
    store.dispatch(api.util.invalidateTags([{ type: 'SecretSantaMessages', id: 'fam-1' }]));
    expect(await screen.findByTestId('unread-santa')).toHaveTextContent('3');
  });

  it('sends to the Santa with an idempotency key, and shows the server\'s 422 message', async () => {
    const sent: string[] = [];
    let lost = 1;
    const calls = routeSanta({
      messages: (call) => {
        if (call.method !== 'POST') return json([]);
        const { text } = call.body as { text: string };
        if (text.includes('http')) {
          return json({ error: { code: 'validation_failed', message: 'No links, please.', fields: { text: 'No links, please.' } } }, 422);
        }
        if (lost-- > 0) return json({ error: { code: 'unavailable', message: 'Try again in a moment.' } }, 503);
        sent.push(text);
        return json(message('new', 'santa', 'me', text, T3), 201);
      },
    });
    renderSanta();
    await userEvent.click(await screen.findByRole('tab', { name: /My Secret Santa/ }));
    const box = screen.getByLabelText('Message to your Secret Santa');
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await userEvent.type(box, 'see http://x');
    await userEvent.click(send);
    expect(await screen.findByText('No links, please.')).toBeInTheDocument();
    expect(box).toHaveValue('see http://x');
    await userEvent.clear(box);
    await userEvent.type(box, 'Thank you!');
    await userEvent.click(send);
    expect(await screen.findByText('Try again in a moment.')).toBeInTheDocument();
    await userEvent.click(send);
    await waitFor(() => expect(sent).toEqual(['Thank you!']));
    await waitFor(() => expect(box).toHaveValue(''));
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.body)).toEqual([
      { to: 'santa', text: 'see http://x' },
      { to: 'santa', text: 'Thank you!' },
      { to: 'santa', text: 'Thank you!' },
    ]);
    expect(posts.every((c) => c.url === '/api/families/fam-1/secret-santa/messages')).toBe(true);
    // A retry of the same text keeps its key (one message); an edited text gets a new one.
    const keys = posts.map((c) => c.headers.get('Idempotency-Key'));
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe(keys[1]);
  });

  it('speaks Spanish', async () => {
    await inLanguage('es');
    routeSanta({ messages: () => json(CONVERSATIONS) });
    renderSanta();
    expect(await screen.findByRole('tab', { name: 'Mi persona: Cleo' })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Mi amigo invisible 3 mensajes nuevos' })).toBeInTheDocument();
  });
});
