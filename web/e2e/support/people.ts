import { expect } from '@playwright/test';
import { createEmulatorUser, stackAuth } from './emulator';
import { BASE_URL, uniqueEmail } from './env';

export const PASSWORD = 'family-secret-42';

export interface Person {
  email: string;
  name: string;
  password: string;
}

/** A new account in the Auth emulator with a name of its own. */
export async function newPerson(prefix: string, name: string): Promise<Person> {
  const person = { email: uniqueEmail(prefix), name: `${name} ${Math.random().toString(36).slice(2, 6)}`, password: PASSWORD };
  await createEmulatorUser(person.email, person.password, person.name);
  return person;
}

/** An ID token from the Auth emulator, for setting up data through the gateway's API. */
export async function idToken(person: Pick<Person, 'email' | 'password'>): Promise<string> {
  const { emulator } = await stackAuth();
  const res = await fetch(`${emulator}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=e2e`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: person.email, password: person.password, returnSecureToken: true }),
  });
  expect(res.ok).toBe(true);
  return ((await res.json()) as { idToken: string }).idToken;
}

export async function callApi<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(new URL(path, BASE_URL), {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}: ${res.status} ${res.status >= 300 ? await res.text() : ''}`).toBeLessThan(300);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** The caller's default list (the one /wishlist shows). */
export async function defaultList(token: string): Promise<{ id: string; name: string }> {
  const lists = await callApi<{ id: string; name: string; isDefault: boolean }[]>(token, 'GET', '/api/lists');
  return lists.find((l) => l.isDefault)!;
}
